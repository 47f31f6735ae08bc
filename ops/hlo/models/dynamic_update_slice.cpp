// dynamic-update-slice(x, u, i0, i1, ...): the result is x with the window
// [rt, rt + u.dims) replaced by u, where rt_k is start index k clamped into
// [0, x.dim_k - u.dim_k].
//
// Result index d reads u at d - rt inside the window, and x outside it. XLA maps every d to x
// (an over-approximation); here the window is excluded exactly. "Outside the window" is a
// disjunction over dimensions, which one convex map cannot hold, so x gets one map per
// disjoint piece: for dimension k, the indices inside the window along dims 0..k-1 and below
// (or above) it along dim k. The 2 * rank pieces are disjoint and their union is exactly the
// complement of the window; KNOWN EMPTY pieces (a window that spans a whole dimension) are
// dropped. All maps share the runtime variables rt_0.., one per start index.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class DynamicUpdateSliceModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCountAtLeast(instruction, 2);
    const Shape& operand = arrayOperand(instruction, 0);
    const Shape& update = arrayOperand(instruction, 1);
    expectOperandCount(instruction, 2 + operand.shape.size());
    expectStartIndices(instruction, 2);
    expectBoundedOperands(instruction, "updating");
    if (update.rank() != operand.rank() || update.element_type != operand.element_type)
      hlo::failAtOpcode(instruction, "update " + update.toString() + " does not match operand " +
                                         operand.toString() + " in rank or element type");
    for (size_t k = 0; k < operand.shape.size(); ++k)
      if (update.extent(k) > operand.extent(k))
        hlo::failAtOpcode(instruction, "update " + update.toString() + " is larger than operand " +
                                           operand.toString() + " in dimension " +
                                           std::to_string(k));
    Shape shape = operand;
    shape.layout.reset();
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "updating");
    const Shape& operand = instruction.operands[0]->shape;
    const Shape& update = instruction.operands[1]->shape;
    size_t rank = operand.shape.size();
    IndexingMap domain = domainOf(instruction.shape);
    for (size_t k = 0; k < rank; ++k)
      addRuntimeVar(domain, {0, operand.extent(k) - update.extent(k)});
    // d_k - rt_k: the index relative to the window's start.
    auto relative = [](size_t k) {
      return Expr::dim(static_cast<unsigned>(k)) - Expr::runtimeVar(static_cast<unsigned>(k));
    };
    auto inside = [&](IndexingMap& map, size_t k) {
      addConstraint(map, relative(k), {0, update.extent(k) - 1});
    };

    IndexingMap updateMap = domain;
    for (size_t k = 0; k < rank; ++k) {
      inside(updateMap, k);
      updateMap.results.push_back(relative(k));
    }

    std::vector<IndexingMap> outsidePieces;
    for (size_t k = 0; k < rank; ++k) {
      for (bool below : {true, false}) {
        IndexingMap piece = withResults(domain, dimExprs(domain));
        for (size_t j = 0; j < k; ++j) inside(piece, j);
        if (below)
          addConstraint(piece, relative(k), {-operand.extent(k), -1});
        else
          addConstraint(piece, relative(k), {update.extent(k), operand.extent(k)});
        outsidePieces.push_back(piece);
      }
    }
    if (outsidePieces.empty()) {  // rank 0: the update replaces the only element
      IndexingMap none = domain;
      none.markKnownEmpty();
      outsidePieces.push_back(none);
    }
    MapSets sets{outsidePieces, {updateMap}};
    for (size_t i = 2; i < instruction.operands.size(); ++i)
      sets.push_back({toScalar(instruction.shape)});
    return sets;
  }
};

}  // namespace

const OpModel& dynamicUpdateSliceModel() {
  static const DynamicUpdateSliceModel model;
  return model;
}

}  // namespace idxmap::ops
