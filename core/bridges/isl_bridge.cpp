// The isl bridge's public face: conversions and the exact questions, each under a fresh
// operation budget (core/bridges/isl_context.cpp).
#include "core/bridges/isl_bridge.h"

#include <cctype>

#include <isl/map.h>
#include <isl/obj.h>
#include <isl/set.h>
#include <isl/stream.h>

#include <memory>

#include "core/bridges/isl_internal.h"

namespace idxmap {

using isl_bridge::IslError;
using isl_bridge::IslNames;
using isl_bridge::own;

isl::map toIslMap(const IndexingMap& map) {
  return isl_bridge::withIslBudget([&] { return isl_bridge::buildIslMap(map, IslNames::Printed); });
}

std::string printIsl(const IndexingMap& map) {
  isl::map relation = toIslMap(map);
  try {
    relation = isl_bridge::withIslBudget([&] { return isl_bridge::coalesce(relation); });
  } catch (const IslError&) {
    // Too costly to tidy up; the uncoalesced relation means the same.
  }
  char* text = isl_map_to_str(relation.get());
  if (!text) isl_bridge::throwLastIslError();
  std::string out = text;
  free(text);
  return out;
}

namespace {

// Whether the first `{` opens with `key:` or a quoted string: isl then reads a schedule (YAML),
// and isl 0.25's schedule reader crashes on malformed ones (`{domain:1] -> ...`). No map
// starts that way: after `{` come a tuple (`[`, `A[`), `:` or `}`.
bool opensWithKey(std::string_view text) {
  size_t at = text.find('{');
  if (at == std::string_view::npos) return false;
  auto skipSpace = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  ++at;
  skipSpace();
  if (at < text.size() && text[at] == '"') return true;
  size_t word = at;
  while (at < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_'))
    ++at;
  if (at == word) return false;
  skipSpace();
  return at < text.size() && text[at] == ':';
}

// Whether `text` has `//` (isl's integer division) followed by a literal zero (`0`, `00`): isl
// folds `72 // 0` with GMP, which raises SIGFPE instead of reporting an error. (A zero divisor
// that is not a literal, `floor(x / 0)` or `x // n`, isl rejects itself.)
bool dividesByZeroLiteral(std::string_view text) {
  for (size_t at = text.find("//"); at != std::string_view::npos; at = text.find("//", at + 2)) {
    size_t digit = at + 2;
    while (digit < text.size() &&
           (text[digit] == ' ' || text[digit] == '\t' || text[digit] == '\n'))
      ++digit;
    size_t end = digit;
    while (end < text.size() && text[end] == '0') ++end;
    bool nonZeroFollows = end < text.size() && text[end] >= '1' && text[end] <= '9';
    if (end > digit && !nonZeroFollows) return true;
  }
  return false;
}

// The object isl reads from `text`, as a map: a set or several spaces are errors; a
// parameter-only set is the map with neither dimensions nor results.
isl::map readIslObject(std::string_view text) {
  // isl reads `a^b` as a power and computes it with GMP, which aborts the process when the
  // result cannot be allocated (`2^99999999999`). Indexing maps never need powers.
  if (text.find('^') != std::string_view::npos)
    throw Error("invalid isl map: powers (`^`) are not supported");
  if (dividesByZeroLiteral(text)) throw Error("invalid isl map: integer division (`//`) by zero");
  if (opensWithKey(text))
    throw Error("invalid isl map: expected a relation `{ [...] -> [...] : ... }`");
  isl_ctx* ctx = islContext().get();
  std::string source(text);
  // isl 0.25's isl_stream_free frees only the first token a failed parse pushed back:
  // flush them all first, or malformed input leaks inside isl.
  auto freeStream = [](isl_stream* s) {
    isl_stream_flush_tokens(s);
    isl_stream_free(s);
  };
  std::unique_ptr<isl_stream, decltype(freeStream)> stream(isl_stream_new_str(ctx, source.c_str()),
                                                           freeStream);
  if (!stream) isl_bridge::throwLastIslError();
  isl_obj obj = isl_stream_read_obj(stream.get());
  if (!obj.v) isl_bridge::throwLastIslError();
  auto release = [&] { obj.type->free(obj.v); };
  if (!isl_stream_is_empty(stream.get())) {
    release();
    throw Error("invalid isl map: unexpected text after the map");
  }
  if (obj.type == isl_obj_map) return isl::manage(static_cast<isl_map*>(obj.v));
  if (obj.type == isl_obj_union_map) {
    isl_union_map* maps = static_cast<isl_union_map*>(obj.v);
    if (isl_union_map_n_map(maps) != 1) {
      isl_union_map_free(maps);
      throw Error("invalid isl map: expected one map, got a union of several spaces");
    }
    return own(isl_map_from_union_map(maps));
  }
  if (obj.type == isl_obj_set) {
    isl_set* set = static_cast<isl_set*>(obj.v);
    if (isl_set_is_params(set) == isl_bool_true)
      return own(isl_map_from_domain(isl_set_from_params(set)));
    isl_set_free(set);
    throw Error("invalid isl map: expected a relation `{ [...] -> [...] : ... }`, got a set");
  }
  release();
  throw Error("invalid isl map: expected a relation `{ [...] -> [...] : ... }`");
}

}  // namespace

IndexingMap parseIsl(std::string_view text) {
  try {
    return isl_bridge::withIslBudget([&] { return isl_bridge::importIslMap(readIslObject(text)); });
  } catch (const IslError& e) {
    std::string message = e.what();
    if (message.rfind("isl: ", 0) == 0) message.erase(0, 5);
    if (e.budgetExceeded()) throw Error("isl gave up reading the map: " + message);
    throw Error("invalid isl map: " + message);
  } catch (const Error& e) {
    std::string message = e.what();
    if (message.rfind("invalid isl map: ", 0) == 0) throw;
    throw Error("invalid isl map: " + message);
  }
}

namespace {

bool sameArity(const IndexingMap& a, const IndexingMap& b) {
  return a.dims.size() == b.dims.size() && a.runtimeVars.size() == b.runtimeVars.size() &&
         a.results.size() == b.results.size();
}

// Runs an isl yes/no question: proven or refuted by isl, unknown when isl gives up (budget
// or failure).
template <class F>
ProofResult ask(F&& question, const char* whenNot) {
  try {
    if (isl_bridge::withIslBudget(question)) return ProofResult::proven("isl");
    return ProofResult::refuted("isl", whenNot);
  } catch (const IslError& e) {
    return ProofResult::unknown(e.what());
  }
}

}  // namespace

ProofResult islEqual(const IndexingMap& a, const IndexingMap& b) {
  if (!sameArity(a, b))
    return ProofResult::refuted("shape", "the relations have different signatures");
  return ask(
      [&] {
        isl::map first = isl_bridge::buildIslMap(a, IslNames::Positional);
        isl::map second = isl_bridge::buildIslMap(b, IslNames::Positional);
        return isl_bridge::checked(isl_map_is_equal(first.get(), second.get())) != 0;
      },
      "isl finds the relations different");
}

ProofResult islIsEmpty(const IndexingMap& map) {
  return ask(
      [&] {
        isl::map relation = isl_bridge::buildIslMap(map, IslNames::Positional);
        return isl_bridge::checked(isl_map_is_empty(relation.get())) != 0;
      },
      "isl finds a point in the relation");
}

isl::map islCompose(const IndexingMap& first, const IndexingMap& second) {
  if (first.results.size() != second.dims.size())
    throw Error("cannot compose: the first map has " + std::to_string(first.results.size()) +
                " results but the second has " + std::to_string(second.dims.size()) +
                " dimensions");
  // idxmap::compose orders runtime variables {second's, first's}; so do the names.
  return isl_bridge::withIslBudget([&] {
    isl::map inner =
        isl_bridge::buildIslMap(first, IslNames::Positional, second.runtimeVars.size());
    isl::map outer = isl_bridge::buildIslMap(second, IslNames::Positional);
    return own(isl_map_apply_range(inner.release(), outer.release()));
  });
}

std::optional<IndexingMap> simplifyWithIsl(const IndexingMap& map) {
  try {
    return isl_bridge::withIslBudget([&]() -> std::optional<IndexingMap> {
      isl::map relation = isl_bridge::buildIslMap(map, IslNames::Printed);
      relation = isl_bridge::coalesce(relation);
      std::optional<IndexingMap> simplified = isl_bridge::importSingleValued(relation);
      if (!simplified) return std::nullopt;
      // isl spells names its own way; give back the input's.
      for (unsigned i = 0; i < map.dims.size(); ++i) simplified->dims[i].name = map.dims[i].name;
      for (unsigned i = 0; i < map.runtimeVars.size(); ++i)
        simplified->runtimeVars[i].name = map.runtimeVars[i].name;
      return simplified;
    });
  } catch (const Error&) {
    return std::nullopt;  // isl gave up, or the result has no finite box
  }
}

}  // namespace idxmap
