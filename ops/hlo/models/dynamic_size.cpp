// Bounded dynamism (spec 002, P3). get-dimension-size(x), dimensions={k} returns x's run-time
// size along k: it reads no element of x (a KNOWN EMPTY map). set-dimension-size(x, n),
// dimensions={k} gives x's dimension k the run-time size n, bounded by its static size (or
// bound): the result is `<=N` along k, so its index space carries a runtime variable below
// which the index lies, and each element it has is x's element at the same index.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

int64_t sizedDim(const Instruction& instruction) {
  const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
  std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
  if (dims.size() != 1)
    hlo::failInAttribute(attribute, "dimensions", 0, "must name exactly one dimension");
  expectDistinctDims(attribute, "dimensions", dims, instruction.operands[0]->shape.rank());
  return dims[0];
}

class GetDimensionSizeModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    arrayOperand(instruction, 0);
    sizedDim(instruction);
    return arrayShape("s32", {});
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    return {{readsNothing(instruction.shape, instruction.operands[0]->shape.shape.size())}};
  }
};

class SetDimensionSizeModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 2);
    const Shape& operand = arrayOperand(instruction, 0);
    expectScalarOperand(instruction, 1);
    if (instruction.operands[1]->shape.element_type != "s32")
      hlo::failAtOpcode(instruction, "the size operand is " +
                                         instruction.operands[1]->shape.element_type +
                                         "[], expected s32[] (XLA's sizes are s32)");
    int64_t dim = sizedDim(instruction);
    if (hlo::isUnboundedDim(operand, dim))
      hlo::failAtOpcode(instruction, "dimension " + std::to_string(dim) + " of " +
                                         operand.toString() + " has no bound");
    Shape shape = operand;
    shape.layout.reset();
    shape.setDim(dim, operand.extent(dim), true);
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    IndexingMap map = domainOf(instruction.shape);
    return {{withResults(map, dimExprs(map))}, {toScalar(instruction.shape)}};
  }
};

}  // namespace

const OpModel& getDimensionSizeModel() {
  static const GetDimensionSizeModel model;
  return model;
}

const OpModel& setDimensionSizeModel() {
  static const SetDimensionSizeModel model;
  return model;
}

}  // namespace idxmap::ops
