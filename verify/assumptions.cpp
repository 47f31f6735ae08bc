#include "verify/assumptions.h"

#include <isl/map.h>
#include <isl/set.h>

#include <cctype>
#include <charconv>

#include "core/bridges/isl_bridge.h"
#include "verify/index_points.h"

namespace idxmap {
namespace {

using index_points::flatProduct;
using index_points::flattened;
using index_points::identity;
using index_points::universe;
using isl_bridge::own;

constexpr const char* kSyntax =
    "expected `%value: fact[, fact]...` with facts unique, sorted, permutation, in [lo, hi]";

class FactReader {
 public:
  FactReader(const std::string& text, int argument) : text_(text), argument_(argument) {}

  Assumption read() {
    Assumption assumption;
    assumption.text = text_;
    skipSpaces();
    expect('%', kSyntax);
    size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) ||
                                  std::string_view("_$.-#").find(text_[at_]) != std::string::npos))
      ++at_;
    if (at_ == start) fail("expected a value name after `%`");
    assumption.value = text_.substr(start, at_ - start);
    skipSpaces();
    expect(':', "expected `:` after the value name");
    do {
      skipSpaces();
      assumption.facts.push_back(fact());
      skipSpaces();
    } while (consume(','));
    if (at_ < text_.size()) fail("expected `,` or the end of the assumption");
    return assumption;
  }

 private:
  IndexFact fact() {
    size_t start = at_;
    while (at_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[at_]))) ++at_;
    std::string word = text_.substr(start, at_ - start);
    IndexFact fact;
    if (word == "unique") {
      fact.kind = IndexFact::Kind::Unique;
    } else if (word == "sorted") {
      fact.kind = IndexFact::Kind::Sorted;
    } else if (word == "permutation") {
      fact.kind = IndexFact::Kind::Permutation;
    } else if (word == "in") {
      fact.kind = IndexFact::Kind::InRange;
      skipSpaces();
      expect('[', "expected `[lo, hi]` after `in`");
      fact.lo = integer();
      expect(',', "expected `,` between the bounds");
      skipSpaces();
      size_t hiColumn = at_;
      fact.hi = integer();
      expect(']', "expected `]` after the upper bound");
      if (fact.lo > fact.hi) {
        at_ = hiColumn;
        fail("empty range: the upper bound is below the lower bound");
      }
    } else {
      at_ = start;
      fail("unknown fact `" + word + "`: " + kSyntax);
    }
    fact.text = text_.substr(start, at_ - start);
    return fact;
  }

  int64_t integer() {
    skipSpaces();
    size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
    int64_t value = 0;
    auto [end, error] = std::from_chars(text_.data() + start, text_.data() + at_, value);
    if (error == std::errc::result_out_of_range) {
      at_ = start;
      fail("the bound does not fit in a signed 64-bit integer");
    }
    if (error != std::errc() || end != text_.data() + at_) {
      at_ = start;
      fail("expected an integer");
    }
    skipSpaces();
    return value;
  }

  void skipSpaces() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool consume(char c) {
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c, const std::string& message) {
    if (!consume(c)) fail(message);
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError({"--assume", argument_, static_cast<int>(at_) + 1}, message, text_);
  }

  const std::string& text_;
  int argument_;
  size_t at_ = 0;
};

std::string variables(char prefix, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += (i ? ", " : "") + (prefix + std::to_string(i));
  return out;
}

// { [p, x] : lo <= x_k <= hi for every k }.
isl::set entriesIn(size_t points, size_t entries, int64_t lo, int64_t hi) {
  std::string text = "{ [" + variables('p', points) + (points && entries ? ", " : "") +
                     variables('x', entries) + "]";
  for (size_t k = 0; k < entries; ++k)
    text += (k ? " and " : " : ") + std::to_string(lo) + " <= x" + std::to_string(k) +
            " <= " + std::to_string(hi);
  return own(isl_set_read_from_str(islContext().get(), (text + " }").c_str()));
}

// The pairs ([p, x], [q, y]) that `pairsBroken` does not hold.
isl::set allBut(const isl::map& pairsBroken, size_t width) {
  return flattened(own(isl_map_subtract(universe(width, width).release(), pairsBroken.copy())));
}

// { [x] -> [x[first], ..., x[first + count - 1]] } over vectors of `entries`.
isl::map blockOf(size_t entries, size_t first, size_t count) {
  std::string in, out;
  for (size_t k = 0; k < entries; ++k) in += (k ? ", x" : "x") + std::to_string(k);
  for (size_t k = first; k < first + count; ++k)
    out += (k > first ? ", x" : "x") + std::to_string(k);
  return own(
      isl_map_read_from_str(islContext().get(), ("{ [" + in + "] -> [" + out + "] }").c_str()));
}

}  // namespace

std::optional<std::pair<int64_t, int64_t>> integerTypeRange(const std::string& elementType) {
  bool isUnsigned = elementType.rfind("ui", 0) == 0;
  size_t digits = isUnsigned || elementType.rfind("si", 0) == 0 ? 2 : 1;
  if (elementType.size() <= digits || (digits == 1 && elementType[0] != 'i')) return std::nullopt;
  int bits = 0;
  for (char c : elementType.substr(digits)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || bits > 64) return std::nullopt;
    bits = bits * 10 + (c - '0');
  }
  if (bits < 1) return std::nullopt;
  if (bits >= 64) return std::pair(INT64_MIN, INT64_MAX);
  if (isUnsigned) return std::pair(int64_t{0}, (int64_t{1} << bits) - 1);
  return std::pair(-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1);
}

std::optional<std::pair<int64_t, int64_t>> entryRange(const std::vector<IndexFact>& facts,
                                                      std::optional<int64_t> points) {
  std::optional<std::pair<int64_t, int64_t>> range;
  for (const IndexFact& fact : facts) {
    std::pair<int64_t, int64_t> allowed;
    if (fact.kind == IndexFact::Kind::InRange)
      allowed = {fact.lo, fact.hi};
    else if (fact.kind == IndexFact::Kind::Permutation && points)
      allowed = {0, *points - 1};
    else
      continue;
    range = range ? std::pair(std::max(range->first, allowed.first),
                              std::min(range->second, allowed.second))
                  : allowed;
  }
  return range;
}

std::vector<Assumption> parseAssumptions(const std::vector<std::string>& arguments) {
  std::vector<Assumption> assumptions;
  for (size_t i = 0; i < arguments.size(); ++i)
    assumptions.push_back(FactReader(arguments[i], static_cast<int>(i) + 1).read());
  return assumptions;
}

isl::set factsSet(const std::vector<IndexFact>& facts, const std::vector<int64_t>& pointShape,
                  size_t entries, bool pairwise, size_t firstEntry,
                  std::optional<size_t> blockEntries) {
  size_t m = pointShape.size(), block = blockEntries.value_or(entries), width = m + block;
  int64_t points = 1;
  for (int64_t size : pointShape) points = checkedMul(points, size);
  isl::set single = own(isl_map_range(universe(0, width).release()));
  isl::set pairs = flattened(universe(width, width));
  for (const IndexFact& fact : facts) {
    using Kind = IndexFact::Kind;
    if (fact.kind == Kind::InRange || fact.kind == Kind::Permutation) {
      int64_t lo = fact.kind == Kind::InRange ? fact.lo : 0;
      int64_t hi = fact.kind == Kind::InRange ? fact.hi : points - 1;
      isl::set range = entriesIn(m, block, lo, hi);
      single = own(isl_set_intersect(single.release(), range.copy()));
      isl::set both = own(isl_set_flat_product(range.copy(), range.copy()));
      pairs = own(isl_set_intersect(pairs.release(), both.release()));
    }
    if (fact.kind == Kind::Unique || fact.kind == Kind::Permutation) {
      // Two different points with the same vector.
      isl::map differentPoints =
          own(isl_map_subtract(universe(m, m).release(), identity(m).release()));
      isl::set unique = allBut(flatProduct(differentPoints, identity(block)), width);
      pairs = own(isl_set_intersect(pairs.release(), unique.release()));
    }
    if (fact.kind == Kind::Sorted) {
      // An earlier point with a greater vector, or a later one with a smaller (the same fact
      // with the pair's roles swapped: a pair read in either order must be excluded).
      isl::space points = own(isl_space_set_alloc(islContext().get(), 0, static_cast<unsigned>(m)));
      isl::space vectors =
          own(isl_space_set_alloc(islContext().get(), 0, static_cast<unsigned>(block)));
      isl::map earlier = own(isl_map_lex_lt(points.copy()));
      isl::map later = own(isl_map_lex_gt(points.copy()));
      isl::map greater = own(isl_map_lex_gt(vectors.copy()));
      isl::map smaller = own(isl_map_lex_lt(vectors.copy()));
      pairs = own(isl_set_intersect(pairs.release(),
                                    allBut(flatProduct(earlier, greater), width).release()));
      pairs = own(
          isl_set_intersect(pairs.release(), allBut(flatProduct(later, smaller), width).release()));
    }
  }
  if (block == entries) return pairwise ? pairs : single;
  // Back to whole vectors: [p, x] -> [p, x[first, first + block)], the other entries free.
  isl::map keep = flatProduct(identity(m), blockOf(entries, firstEntry, block));
  isl::map lift = pairwise ? flatProduct(keep, keep) : keep;
  return own(isl_set_apply((pairwise ? pairs : single).release(), isl_map_reverse(lift.release())));
}

}  // namespace idxmap
