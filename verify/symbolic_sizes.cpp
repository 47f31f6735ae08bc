// Each property as an isl set of the points (or pairs of points) of the sized op
// (verify/sized_op_internal.h) that break it: its parameters are the sizes (and leaves) for
// which some point does.
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "core/bridges/isl_bridge.h"
#include "verify/index_points.h"
#include "verify/runtime_properties_internal.h"
#include "verify/sized_conditions_internal.h"
#include "verify/sized_op_internal.h"
#include "verify/symbolic_sizes_internal.h"

namespace idxmap::symbolic_sizes {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_provenance::IndexValues;
using index_provenance::VectorValues;
using isl_bridge::checked;
using isl_bridge::own;

// The sizes (and leaves) of `broken`, a set of parameters: the lexicographically smallest.
std::map<std::string, int64_t> smallest(const isl::set& broken) {
  isl_size count = isl_set_dim(broken.get(), isl_dim_param);
  std::map<std::string, int64_t> at;
  isl::set points = own(isl_set_lexmin(
      isl_set_move_dims(broken.copy(), isl_dim_set, 0, isl_dim_param, 0, checked(count))));
  std::vector<int64_t> values =
      index_points::coordinates(own(isl_set_sample_point(points.release())));
  for (isl_size k = 0; k < count; ++k)
    at[isl_set_get_dim_name(broken.get(), isl_dim_param, static_cast<unsigned>(k))] =
        values.at(static_cast<size_t>(k));
  return at;
}

enum class Property { Unique, Sorted, InBounds };

ProofResult picked(const IndexProperties& properties, Property property) {
  switch (property) {
    case Property::Unique:
      return properties.unique.value_or(ProofResult::unknown("the static provers did not ask"));
    case Property::Sorted:
      return properties.sorted;
    case Property::InBounds:
      return properties.inBounds;
  }
  return properties.inBounds;
}

class Decider {
 public:
  Decider(const SizedOp& problem, const VectorValues& vectors,
          const std::vector<Assumption>& assumptions)
      : p_(problem) {
    // The facts whose ranges bound the leaves (every verdict here uses them).
    for (const Assumption& assumption : assumptions)
      for (const index_provenance::Leaf& leaf : vectors.leaves)
        if (leaf.why == "assumed" && leaf.tensor == "%" + assumption.value &&
            std::find(used_.begin(), used_.end(), assumption.text) == used_.end())
          used_.push_back(assumption.text);
    // Each leaf in its range, read at the first point of a pair (l<k>) and at the second (m<k>).
    std::vector<std::string> leafRanges;
    for (size_t k = 0; k < vectors.leaves.size(); ++k)
      for (const char* name : {"l", "m"})
        leafRanges.push_back(std::to_string(vectors.leaves[k].range.first) +
                             " <= " + variable(name, k) +
                             " <= " + std::to_string(vectors.leaves[k].range.second));
    leaves_ = vectors.leaves.size();
    context_ = p_.sizes.context();
    if (leaves_ > 0)
      context_ = context_.intersect_params(
          isl::set(islContext(),
                   tuple("l", leaves_, "m", leaves_) + " -> { : " + joined(leafRanges) + " }"));
    size_t rank = p_.spaceSizes.size();
    std::vector<std::string> inSpace;
    for (size_t a = 0; a < rank; ++a)
      inSpace.push_back("0 <= " + variable("i", a) + " < " + p_.spaceSizes[a]);
    space_ = p_.sizes.read<isl::set>("{ " + tuple("i", rank) + " : " + joined(inSpace) + " }")
                 .intersect_params(context_);
    std::string toPoint;
    for (size_t j = 0; j < p_.pointAxes.size(); ++j)
      toPoint += (j ? ", " : "") + variable("i", static_cast<size_t>(p_.pointAxes[j]));
    isl::map reads = isl::map(islContext(), "{ " + tuple("i", rank) + " -> [" + toPoint + "] }")
                         .apply_range(vectors.relation)
                         .intersect_domain(space_);
    withVectors_ = index_points::flattened(reads);  // [i, x]
  }

  IndexProperties decide() const {
    const SizedRelations relations = sizedRelations(p_, withVectors_);
    isl::set outside = relations.outside;
    isl::map keptFromPoint = withoutVectors(relations.kept);
    isl::map startOf = withoutVectors(relations.startOf);
    const size_t targets = p_.targetSizes.size();
    isl::map earlier = own(isl_map_lex_lt(own(isl_set_get_space(space_.get())).release()))
                           .intersect_domain(space_)
                           .intersect_range(space_);
    IndexProperties out;
    out.inBounds = verdict(outside.params(), Property::InBounds);
    isl::map outOfOrder = earlier.intersect(startOf.apply_range(index_points::lexGreater(targets))
                                                .apply_range(atSecondPoint(startOf.reverse())));
    out.sorted = verdict(outOfOrder.wrap().params(), Property::Sorted);
    if (p_.uniqueAsked)
      out.unique = verdict(
          earlier.intersect(keptFromPoint.apply_range(atSecondPoint(keptFromPoint.reverse())))
              .wrap()
              .params(),
          Property::Unique);
    return out;
  }

 private:
  // A leaf parameter stands for the element read at one point: at the second point of a pair
  // it is another one (m<k> for l<k>), whatever its value. That the two points may read one
  // element, which then has one value, is left out: the pairs found are a superset, so none
  // is a proof, and some are answered "unknown" with what the static provers say.
  // The map's own m<k> (from the context's ranges, free of its points) goes first: renaming
  // l<k> onto a name the space has would give it two parameters of one name, which isl then
  // aligns as one (the second point's value silently the first's).
  isl::map atSecondPoint(isl::map map) const {
    for (size_t k = 0; k < leaves_; ++k) {
      int second = isl_map_find_dim_by_name(map.get(), isl_dim_param, variable("m", k).c_str());
      if (second >= 0)
        map = own(
            isl_map_project_out(map.release(), isl_dim_param, static_cast<unsigned>(second), 1));
      int position = isl_map_find_dim_by_name(map.get(), isl_dim_param, variable("l", k).c_str());
      if (position >= 0)
        map = own(isl_map_set_dim_name(map.release(), isl_dim_param,
                                       static_cast<unsigned>(position), variable("m", k).c_str()));
    }
    return map;
  }

  // { [i, x] -> [y] } as { [i] -> [y] }.
  isl::map withoutVectors(const isl::map& map) const {
    return own(isl_map_project_out(map.copy(), isl_dim_in,
                                   static_cast<unsigned>(p_.spaceSizes.size()),
                                   static_cast<unsigned>(p_.entries)));
  }

  ProofResult verdict(const isl::set& brokenAt, Property property) const {
    ProofResult result = decided(brokenAt, property);
    for (const std::string& text : used_)
      if (std::find(result.assumptions.begin(), result.assumptions.end(), text) ==
          result.assumptions.end())
        result.assumptions.push_back(text);
    return result;
  }

  ProofResult decided(const isl::set& brokenAt, Property property) const {
    return index_points::guarded([&] {
      isl::set broken = brokenAt.intersect(context_);
      if (broken.is_empty()) return ProofResult::proven("isl");
      std::map<std::string, int64_t> at = smallest(broken);
      std::string sizes = p_.sizes.describe(at);
      // Run-time values (leaves) that do not matter: at each size they all break it or none
      // does. The condition is then on the sizes alone, as without them, and the breaking
      // sizes are replayed with the values fixed (any of them breaks it there).
      const isl::set sizesContext = withoutLeaves(context_);
      const isl::set brokenSizes = withoutLeaves(broken);
      // The sizes where every value breaks it (all of brokenSizes without leaves).
      const isl::set allValues =
          leaves_ > 0 ? sizesContext.subtract(withoutLeaves(context_.subtract(broken)))
                      : brokenSizes;
      const bool valuesMatter = !brokenSizes.is_equal(allValues);
      const bool fixLeaves = leaves_ > 0 && !valuesMatter;
      ProofResult there = picked(p_.atSizes(at, fixLeaves), property);
      const bool confirmed = there.isRefuted() && there.counterexample;
      if (confirmed && fixLeaves) sizes += ", whatever the run-time values";
      if (valuesMatter)
        if (std::optional<ProofResult> both = separated(broken, property, sizesContext, allValues))
          return *both;
      if (valuesMatter || (leaves_ > 0 && !confirmed)) {
        std::string what =
            there.condition.empty() ? there.reason : "it holds iff " + there.condition;
        std::string reason = "the sizes and the run-time index values decide it; at " + sizes +
                             ", " + (there.isProven() ? std::string("it holds") : what);
        if (valuesMatter) return onVectors(property, std::move(reason));
        return ProofResult::unknown(std::move(reason));
      }
      if (!confirmed)
        return ProofResult::unknown(
            "isl found " + sizes +
            " to break it, which the static provers do not confirm (a bug; they say " +
            (there.isProven() ? std::string("it holds") : there.reason) + ")");
      there.counterexample->explanation = "at " + sizes + ": " + there.counterexample->explanation;
      isl::set holds = sizesContext.subtract(brokenSizes);
      if (holds.intersect(withoutLeaves(space_.params())).is_empty()) return there;
      ProofResult conditional =
          ProofResult::conditional("it fails " + there.counterexample->explanation,
                                   p_.sizes.words(holds.gist(sizesContext)));
      conditional.conditionOn = "sizes";
      return conditional;
    });
  }

  // Where sizes and run-time values break it apart: at the sizes A (allValues) every value
  // does, at the other sizes (with an index point) exactly the values B do, whatever the size.
  // The property then holds iff the sizes are not in A and the values not in B: the sizes'
  // condition (A's smallest sizes replayed by the static provers) and the static provers'
  // condition on the function's arguments at a size outside A, which does not depend on the
  // size. nullopt otherwise (or when that condition is not on the arguments: one on index
  // vectors names clamp bounds of one size).
  std::optional<ProofResult> separated(const isl::set& broken, Property property,
                                       const isl::set& sizesContext,
                                       const isl::set& allValues) const {
    // Pairs (unique, sorted): which pairs of elements matter depends on the sizes, so the
    // values' condition at one size is not the condition at another.
    if (property != Property::InBounds) return std::nullopt;
    const isl::set otherSizes = withoutLeaves(space_.params()).subtract(allValues);
    const isl::set rest = broken.subtract(allValues);
    if (otherSizes.is_empty() || rest.is_empty()) return std::nullopt;
    const isl::set values = onlyLeaves(rest);
    if (!rest.is_equal(otherSizes.intersect(values).intersect(context_))) return std::nullopt;
    std::map<std::string, int64_t> at = smallest(otherSizes);
    ProofResult onValues = picked(p_.atSizes(at, false), property);
    if (!onValues.isUnknown() || onValues.conditionOn != "arguments") return std::nullopt;
    std::string sizes, reason = "the run-time index values decide it, at every size alike";
    if (!allValues.intersect(withoutLeaves(space_.params())).is_empty()) {
      std::map<std::string, int64_t> breaking = smallest(allValues.intersect(space_.params()));
      ProofResult there = picked(p_.atSizes(breaking, true), property);
      if (!there.isRefuted() || !there.counterexample) return std::nullopt;
      sizes = p_.sizes.words(sizesContext.subtract(allValues).gist(sizesContext));
      reason = "the sizes and the run-time index values decide it apart: at " +
               p_.sizes.describe(breaking) + " it fails whatever the values (with " +
               there.counterexample->explanation + ")";
    }
    ProofResult both = ProofResult::conditional(
        std::move(reason),
        sizes.empty() ? onValues.condition : sizes + "; and " + onValues.condition);
    both.conditionOn = sizes.empty() ? "arguments" : "sizes and arguments";
    both.assumptions = onValues.assumptions;
    return both;
  }

  // Where the sizes and the values decide it together: the condition on the index vectors,
  // the sizes its parameters (sized_conditions_internal.h), exact for every size.
  ProofResult onVectors(Property property, std::string reason) const {
    if (!vectorView_)  // the first property that needs it; the others reuse it
      vectorView_ = vectorView(p_, withoutLeaves(space_), withoutLeaves(withVectors_));
    const IndexCondition condition = property == Property::InBounds
                                         ? sizedInBounds(p_, *vectorView_)
                                     : property == Property::Sorted ? sizedSorted(p_, *vectorView_)
                                                                    : sizedUnique(p_, *vectorView_);
    ProofResult stated = ProofResult::conditional(std::move(reason), sizedText(p_, condition));
    stated.conditionOn = "sizes and index vectors";
    return stated;
  }

  // The set with its size parameters projected out: the leaves alone.
  isl::set onlyLeaves(isl::set set) const {
    for (int k = checked(isl_set_dim(set.get(), isl_dim_param)); k-- > 0;) {
      const std::string name = isl_set_get_dim_name(set.get(), isl_dim_param, k);
      if (name.front() != 'l' && name.front() != 'm')
        set = own(isl_set_project_out(set.release(), isl_dim_param, static_cast<unsigned>(k), 1));
    }
    return set;
  }

  // The set with its leaf parameters (l<k>, m<k>) projected out: the sizes alone.
  isl::set withoutLeaves(isl::set set) const {
    for (size_t k = 0; k < leaves_; ++k)
      for (const char* name : {"l", "m"}) {
        int position =
            isl_set_find_dim_by_name(set.get(), isl_dim_param, variable(name, k).c_str());
        if (position >= 0)
          set = own(isl_set_project_out(set.release(), isl_dim_param,
                                        static_cast<unsigned>(position), 1));
      }
    return set;
  }

  const SizedOp& p_;
  std::vector<std::string> used_;  // the user's facts relied on, as written
  size_t leaves_ = 0;
  isl::set context_;
  isl::set space_;
  isl::set withVectors_;
  mutable std::optional<VectorView> vectorView_;  // the leaves projected out (onVectors)
};

IndexProperties proveAll(const IndexValues& values, int64_t indexVectorDim, const SizedOp& problem,
                         const std::vector<Assumption>& assumptions,
                         const std::vector<std::string>& tied) {
  auto allUnknown = [&](const std::string& reason) {
    ProofResult unknown = ProofResult::unknown(reason);
    return IndexProperties{problem.uniqueAsked ? std::optional(unknown) : std::nullopt, unknown,
                           unknown};
  };
  try {
    return isl_bridge::withIslBudget([&] {
      // Values known at every point need no parameters: they are their own relation.
      IndexValues relation = values;
      if (!relation.represented() && relation.allKnown()) relation.symbolic = relation.known;
      std::optional<VectorValues> vectors =
          index_provenance::indexVectors(relation, indexVectorDim);
      if (!vectors) return allUnknown(values.provenance);
      vectors->relation = withTiedSizes(vectors->relation, tied);
      return Decider(problem, *vectors, assumptions).decide();
    });
  } catch (const Error& error) {
    return allUnknown(error.what());
  }
}

// The index tensor at the sizes `at` (its type made static there), and its values there (the
// value analysis's sizes too).
IndexValues atIndexSizes(const SizedOp& problem, const std::map<std::string, int64_t>& at,
                         TensorType& indices, const IndexValues& values, bool fixLeaves,
                         const std::vector<std::string>& tied) {
  for (size_t d = 0; d < indices.shape.size(); ++d)
    indices.shape[d] = problem.sizes.valueOf(problem.indexSizes[d], at);
  indices.bounds.clear();
  IndexValues there =
      values.shape == indices.shape ? values : index_provenance::atShape(values, indices.shape);
  std::map<size_t, int64_t> sizes;
  for (size_t i = 0; i < tied.size(); ++i) sizes[i] = problem.sizes.valueOf(tied[i], at);
  there = index_provenance::withSizesAt(std::move(there), sizes);
  return fixLeaves ? index_provenance::withLeavesFixed(std::move(there)) : there;
}

}  // namespace

bool hasDynamicDims(const GatherOp& op) {
  return !op.operand.isStatic() || !op.start_indices.isStatic();
}

bool hasDynamicDims(const ScatterOp& op) {
  auto dynamic = [](const TensorType& type) { return !type.isStatic(); };
  return std::any_of(op.inputs.begin(), op.inputs.end(), dynamic) || dynamic(op.scatter_indices) ||
         std::any_of(op.updates.begin(), op.updates.end(), dynamic);
}

IndexProperties proveForAllSizes(const GatherOp& op, const IndexValues& startIndices,
                                 const IndexOpForm& form,
                                 const std::vector<Assumption>& assumptions,
                                 const std::vector<VectorBlock>& blocks) {
  SizedOp problem = sizedOp(op, form);
  const std::vector<std::string> tied = tiedSizes(problem, startIndices);
  problem.atSizes = [&](const std::map<std::string, int64_t>& at, bool fixLeaves) {
    GatherOp fixed = op;
    for (size_t d = 0; d < fixed.operand.shape.size(); ++d)
      fixed.operand.shape[d] = problem.sizes.valueOf(problem.targetSizes[d], at);
    fixed.operand.bounds.clear();
    const IndexValues values =
        atIndexSizes(problem, at, fixed.start_indices, startIndices, fixLeaves, tied);
    fixed.result.reset();
    return proveGatherIndexProperties(fixed, values, form, assumptions, blocks);
  };
  return proveAll(startIndices, op.dimension_numbers.index_vector_dim, problem, assumptions, tied);
}

IndexProperties proveForAllSizes(const ScatterOp& op, const IndexValues& scatterIndices,
                                 const IndexOpForm& form,
                                 const std::vector<Assumption>& assumptions,
                                 const std::vector<VectorBlock>& blocks) {
  SizedOp problem = sizedOp(op, form);
  const std::vector<std::string> tied = tiedSizes(problem, scatterIndices);
  problem.atSizes = [&](const std::map<std::string, int64_t>& at, bool fixLeaves) {
    ScatterOp fixed = op;
    for (TensorType& input : fixed.inputs) {
      for (size_t d = 0; d < input.shape.size(); ++d)
        input.shape[d] = problem.sizes.valueOf(problem.targetSizes[d], at);
      input.bounds.clear();
    }
    for (TensorType& update : fixed.updates) {
      for (size_t a = 0; a < update.shape.size(); ++a)
        update.shape[a] = problem.sizes.valueOf(problem.spaceSizes[a], at);
      update.bounds.clear();
    }
    const IndexValues values =
        atIndexSizes(problem, at, fixed.scatter_indices, scatterIndices, fixLeaves, tied);
    fixed.results.clear();
    return proveScatterIndexProperties(fixed, values, form, assumptions, blocks);
  };
  return proveAll(scatterIndices, op.dimension_numbers.index_vector_dim, problem, assumptions,
                  tied);
}

}  // namespace idxmap::symbolic_sizes
