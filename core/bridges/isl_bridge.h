// The isl bridge: IndexingMap <-> isl::map, and the exact questions isl answers.
//
// A map becomes the relation [rt0, ...] -> { [d0, ...] -> [r0, ...] : exists s : domain }
// with runtime variables as isl parameters, floordiv/ceildiv/mod written with isl's
// floor()/ceil()/mod, min/max as isl piecewise expressions. isl is exact; it is also slow,
// so every question here runs under IslLimits: a yes/no question answers with a ProofResult
// (unknown when isl gives up), a function returns nullopt or throws Error.
#pragma once

#include <isl/cpp.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/checked.h"
#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

// The calling thread's isl context (created on first use; freed when the thread ends).
isl::ctx islContext();

// What one isl question may cost on the calling thread before it gives up. isl counts
// simplex pivots as operations and checks both limits at every pivot; 0 operations means
// no operation limit. Work on isl objects outside these functions is not limited.
struct IslLimits {
  unsigned long maxOperations = 5'000'000;
  std::chrono::milliseconds timeLimit{5000};
};
void setIslLimits(const IslLimits& limits);
IslLimits islLimits();

// Parameters and input dimensions carry the variables' printed names, made valid and
// distinct isl identifiers ("x.y" -> "x_y", "mod" -> "mod_"). isl aligns parameters by
// name, so combine two maps' relations yourself only when their names agree; the questions
// below line runtime variables up by position.
isl::map toIslMap(const IndexingMap& map);
// isl's text for the (coalesced) relation, e.g.
// "[rt0] -> { [d0] -> [rt0 + d0] : 0 <= rt0 <= 5 and 0 <= d0 <= 9 }".
std::string printIsl(const IndexingMap& map);
// Back to an IndexingMap, exactly. A function isl writes as one quasi-affine piece becomes
// results; otherwise each output that is a function of the inputs (one piece, or the min or
// max of its pieces) becomes a result and every other output a range variable tied down by
// constraints. Variable ranges are the bounding box isl proves; what the box does not imply
// becomes constraints (`x - 3 * floor(x / 3)` reads back as `x mod 3`); a union of convex
// pieces gets one 0/1 range variable per piece. Names other than the default ones are kept.
// The empty relation becomes KNOWN EMPTY. Throws Error when a variable is unbounded or a
// value does not fit in int64.
IndexingMap fromIslMap(const isl::map& map);
// isl text -> IndexingMap: a map, or a parameter-only set `[n] -> { : ... }` (no dims, no
// results). Throws Error "invalid isl map: ..." on malformed text, a set, or a union of
// several spaces.
IndexingMap parseIsl(std::string_view text);

// Exact relation equality / emptiness: proven or refuted by isl (without a counterexample),
// unknown when isl gave up. Maps with different numbers of dims, runtime variables or results
// are never equal.
ProofResult islEqual(const IndexingMap& a, const IndexingMap& b);
ProofResult islIsEmpty(const IndexingMap& map);
// second ∘ first as an isl relation (same meaning as idxmap::compose), with parameters
// rt0, rt1, ... in compose's order: second's runtime variables, then first's.
isl::map islCompose(const IndexingMap& first, const IndexingMap& second);

// isl's own simplification path, the benchmark's anchor: convert, coalesce,
// isl_pw_multi_aff_from_map, convert back (KNOWN EMPTY when empty), with the input's names.
// nullopt when the result is not a single piece or isl gave up.
std::optional<IndexingMap> simplifyWithIsl(const IndexingMap& map);

// --- Working with isl objects directly ------------------------------------------------------
//
// For code that computes with isl relations itself (the provers, index provenance). isl's C
// API is needed where the C++ bindings have no counterpart (constraints, local spaces,
// dimension types); a failed C call returns NULL or an error value and leaves the reason on
// the context. These helpers turn that into an IslError at once, so no code path ever
// continues with a half-built isl object, and run such work under the IslLimits budget.
namespace isl_bridge {

// An isl call failed: a malformed input, an unsupported operation, or the operation
// budget ran out (budgetExceeded()).
class IslError : public Error {
 public:
  IslError(const std::string& message, bool budgetExceeded)
      : Error(message), budgetExceeded_(budgetExceeded) {}
  bool budgetExceeded() const { return budgetExceeded_; }

 private:
  bool budgetExceeded_;
};

// Throws IslError for the calling thread's context's last error and clears it.
[[noreturn]] void throwLastIslError();

// Takes ownership of a C result as the matching isl:: object; throws on NULL.
template <class T>
auto own(T* raw) {
  if (!raw) throwLastIslError();
  return isl::manage(raw);
}
// Checks an isl_size / isl_bool / isl_stat result (negative means failure).
inline int checked(int result) {
  if (result < 0) throwLastIslError();
  return result;
}

// How the relation's parameters and input dimensions are named.
enum class IslNames {
  Printed,     // the variables' printed names, made valid and unique isl identifiers
  Positional,  // rt0, rt1, ... by position: two maps' runtime variables line up by index
};

// The relation of `map` (as toIslMap builds it) with runtime variables named as asked;
// positional names start at rt<runtimeVarOffset> (islCompose shifts the first map's).
isl::map buildIslMap(const IndexingMap& map, IslNames names, unsigned runtimeVarOffset = 0);

// The relation with the runtime variables as input dims after the dims, no parameters:
// { [d0, ..., rt0, ...] -> [r0, ...] }, for questions that range over runtime values as they
// range over dims (every value a kernel may load, not one value per question).
isl::map buildIslMapOverRuntimeVars(const IndexingMap& map);

// isl's coalescing, kept only where isl proves the result equal to the input (isl 0.25
// coalesces some maps with integer divisions wrongly; see core/bridges/isl_coalesce.cpp).
isl::map coalesce(const isl::map& map);
isl::set coalesce(const isl::set& set);
isl::pw_aff coalesce(const isl::pw_aff& function);
isl::pw_multi_aff coalesce(const isl::pw_multi_aff& function);

// The points of `map` (input coordinates then output coordinates, one row each) when every
// piece is plainly one point — only equalities, one per dimension, no parameters or
// divisions: a table of values as index provenance builds it. Read without isl's point
// enumeration, which costs a sampling per piece. nullopt when some piece is not so plain.
std::optional<std::vector<std::vector<int64_t>>> plainPoints(const isl::map& map);

// isl's text of a relation or a set, parsed once per thread (kept while the texts are few: they
// repeat in analyses that build many small relations). Throws IslError for text isl does not
// read.
isl::map parsedMap(const std::string& text);
isl::set parsedSet(const std::string& text);

// Converts an isl integer value; throws OverflowError when it does not fit in int64.
int64_t toInt64(const isl::val& value);
isl::val toIslVal(int64_t value);

// While alive, isl questions on this thread run under islLimits(): the outermost scope
// resets the operation count and arms a deadline that aborts isl's computation.
class IslQuestionScope {
 public:
  IslQuestionScope();
  ~IslQuestionScope();
  IslQuestionScope(const IslQuestionScope&) = delete;
  IslQuestionScope& operator=(const IslQuestionScope&) = delete;

 private:
  bool outermost_;
  uint64_t deadline_ = 0;  // the watchdog's ticket
};

// Runs `body` as one isl question, turning isl::exception into IslError.
template <class F>
auto withIslBudget(F&& body) -> decltype(body()) {
  IslQuestionScope scope;
  try {
    return body();
  } catch (const isl::exception_quota& e) {
    throw IslError(std::string("isl: ") + e.what(), true);
  } catch (const isl::exception_abort& e) {
    throw IslError("isl: time limit exceeded", true);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl: ") + e.what(), false);
  }
}

}  // namespace isl_bridge

}  // namespace idxmap
