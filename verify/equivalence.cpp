// Equivalence: isl decides it exactly when it can; Z3 takes over when isl gives up.
// A refutation always carries an input point that evaluation confirms.
#include "verify/equivalence.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>

#include "core/bridges/isl_bridge.h"
#include "verify/equivalence_z3.h"
#include "verify/point_difference.h"

namespace idxmap {
namespace {

std::string shape(const IndexingMap& m) {
  return std::to_string(m.dims.size()) + " dims, " + std::to_string(m.runtimeVars.size()) +
         " runtime variables and " + std::to_string(m.results.size()) + " results";
}

// isl's answer; nullopt when isl gives up.
std::optional<ProofResult> checkWithIsl(const IndexingMap& a, const IndexingMap& b) {
  using namespace isl_bridge;
  std::optional<Counterexample> witness;
  try {
    bool equal = withIslBudget([&] {
      isl::map first = buildIslMap(a, IslNames::Positional);
      isl::map second = buildIslMap(b, IslNames::Positional);
      if (checked(isl_map_is_equal(first.get(), second.get()))) return true;
      // A point of the symmetric difference: (runtime vars; dims, results).
      isl::map difference = own(isl_map_union(isl_map_subtract(first.copy(), second.copy()),
                                              isl_map_subtract(second.copy(), first.copy())));
      isl::point point = own(isl_set_sample_point(isl_map_wrap(difference.release())));
      Counterexample c;
      for (size_t i = 0; i < a.runtimeVars.size(); ++i)
        c.runtimeVars.push_back(
            toInt64(own(isl_point_get_coordinate_val(point.get(), isl_dim_param, i))));
      for (size_t i = 0; i < a.dims.size(); ++i)
        c.dims.push_back(toInt64(own(isl_point_get_coordinate_val(point.get(), isl_dim_set, i))));
      witness = std::move(c);
      return false;
    });
    if (equal) return ProofResult::proven("isl");
  } catch (const IslError&) {
    return std::nullopt;
  } catch (const OverflowError&) {  // a point beyond int64: Z3 may find a smaller one
    return std::nullopt;
  }
  ProofResult atPoint = comparePoint(a, b, witness->dims, witness->runtimeVars);
  if (atPoint.isRefuted()) return ProofResult::refuted("isl", std::move(*atPoint.counterexample));
  return ProofResult::unknown(
      atPoint.isProven() ? "isl found a difference that evaluation does not confirm (a bug)"
                         : atPoint.reason);
}

}  // namespace

ProofResult proveEquivalent(const IndexingMap& a, const IndexingMap& b,
                            const EquivalenceOptions& options) {
  if (a.dims.size() != b.dims.size() || a.runtimeVars.size() != b.runtimeVars.size() ||
      a.results.size() != b.results.size())
    return ProofResult::refuted("shape",
                                Counterexample{{},
                                               {},
                                               "the maps have different shapes: the "
                                               "first has " +
                                                   shape(a) + ", the second has " + shape(b)});
  if (std::optional<ProofResult> answer = checkWithIsl(a, b)) return *answer;
  ProofResult z3Answer = proveEquivalentWithZ3(a, b, options);
  if (z3Answer.verdict == Verdict::Unknown) z3Answer.reason = "isl gave up; " + z3Answer.reason;
  return z3Answer;
}

}  // namespace idxmap
