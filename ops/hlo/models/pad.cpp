// pad(x, v), padding=low_high_interior x ...: result index d reads x at (d - low) / (interior +
// 1) when that lands on an element (spec 004: the inverse of a strided slice); negative low or
// high crops. The padding value v is read, as XLA models it, for every result index.
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/shared_maps.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class PadModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 2);
    const Shape& operand = arrayOperand(instruction, 0);
    expectScalarOperand(instruction, 1);
    if (instruction.operands[1]->shape.element_type != operand.element_type)
      hlo::failAtOpcode(instruction, "padding value has element type " +
                                         instruction.operands[1]->shape.element_type +
                                         ", expected " + operand.element_type);
    expectBoundedOperands(instruction, "padding");
    std::vector<hlo::PadDim> pads = padding(instruction);
    const hlo::Attribute& attribute = *instruction.attribute("padding");
    Shape shape = arrayShape(operand.element_type, {});
    for (size_t i = 0; i < pads.size(); ++i) {
      int64_t size = paddedSize(operand.extent(i), pads[i]);
      if (size < 0)
        hlo::failInAttribute(
            attribute, "padding", 0,
            "dimension " + std::to_string(i) + " would have negative size " + std::to_string(size));
      shape.appendDim(size, hlo::isDynamicDim(operand, i));  // a bounded dim stays dynamic (XLA)
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "padding");
    IndexingMap toOperand =
        paddedToOperand(instruction.operands[0]->shape.extents(), padding(instruction));
    return {{toOperand}, {toScalar(instruction.shape)}};
  }

 private:
  static std::vector<hlo::PadDim> padding(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "padding");
    std::vector<hlo::PadDim> pads = hlo::readPadding(attribute, "padding");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (static_cast<int64_t>(pads.size()) != rank)
      hlo::failInAttribute(attribute, "padding", 0,
                           "has " + std::to_string(pads.size()) + " dimensions, operand has " +
                               std::to_string(rank));
    return pads;
  }
};

}  // namespace

const OpModel& padModel() {
  static const PadModel model;
  return model;
}

}  // namespace idxmap::ops
