// reverse(x), dimensions={...}: index i of a reversed dimension of size n reads n - 1 - i.
// The map is its own inverse.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ReverseModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    reversedDims(instruction);
    Shape shape = operand;
    shape.layout.reset();
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    return {{reversal(instruction, instruction.shape)}};
  }
  MapSets mapsToResults(const Instruction& instruction, int) const override {
    return {{reversal(instruction, instruction.operands[0]->shape)}};
  }

 private:
  static std::vector<int64_t> reversedDims(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    expectDistinctDims(attribute, "dimensions", dims, instruction.operands[0]->shape.rank());
    return dims;
  }

  // The size of `dim` in domainOf(shape): a constant, or its runtime variable when dynamic
  // (a dynamic dimension reverses within its run-time size).
  static Expr sizeOf(const Shape& shape, int64_t dim) {
    if (!hlo::isDynamicDim(shape, dim)) return Expr::constant(shape.extent(dim));
    unsigned runtimeVar = 0;
    for (int64_t i = 0; i < dim; ++i) runtimeVar += hlo::isDynamicDim(shape, i) ? 1 : 0;
    return Expr::runtimeVar(runtimeVar);
  }

  static IndexingMap reversal(const Instruction& instruction, const Shape& shape) {
    IndexingMap map = domainOf(shape);
    map.results = dimExprs(map);
    for (int64_t dim : reversedDims(instruction)) {
      map.results[dim] = sizeOf(shape, dim) - 1 - map.results[dim];
    }
    return map;
  }
};

}  // namespace

const OpModel& reverseModel() {
  static const ReverseModel model;
  return model;
}

}  // namespace idxmap::ops
