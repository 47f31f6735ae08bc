// Internal to the isl bridge (core/isl_*.cpp); not part of the library's API.
//
// The bridge calls isl's C API where the C++ bindings have no counterpart (constraints,
// local spaces, dimension types). A failed C call returns NULL or an error value and leaves
// the reason on the context; these helpers turn that into an IslError at once, so no code
// path ever continues with a half-built isl object.
#pragma once

#include <isl/cpp.h>

#include <optional>
#include <string>

#include "core/checked.h"
#include "core/indexing_map.h"

namespace idxmap::isl_internal {

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

// The relation of `map` (see core/isl_bridge.h) with runtime variables named as asked;
// positional names start at rt<runtimeVarOffset> (islCompose shifts the first map's).
isl::map buildIslMap(const IndexingMap& map, IslNames names, unsigned runtimeVarOffset = 0);

// isl's coalescing, kept only where isl proves the result equal to the input (isl 0.25
// coalesces some maps with integer divisions wrongly; see core/isl_coalesce.cpp).
isl::map coalesce(const isl::map& map);
isl::set coalesce(const isl::set& set);
isl::pw_aff coalesce(const isl::pw_aff& function);
isl::pw_multi_aff coalesce(const isl::pw_multi_aff& function);

// isl relation -> IndexingMap (see fromIslMap), without the budget reset.
IndexingMap importIslMap(const isl::map& map);
// The map when isl writes `map` as a single quasi-affine piece (or it is empty), else
// nullopt.
std::optional<IndexingMap> importSingleValued(const isl::map& map);

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

}  // namespace idxmap::isl_internal
