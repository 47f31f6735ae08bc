// reshape(x): the element at a result index is the operand element with the same row-major
// linear index (ops/hlo/models/shared_maps.h). A dynamic dimension moves elements at run time, so
// its indexing is unknown.
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/shared_maps.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ReshapeModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    const Shape& declared = instruction.shape;
    if (declared.isTuple) failAtInstruction(instruction, "result must be an array");
    bool dynamic = hlo::hasDynamicDims(operand) || hlo::hasDynamicDims(declared);
    if (!dynamic && operand.elementCount() != declared.elementCount())
      failAtInstruction(instruction, "result " + declared.toString() + " has " +
                                         std::to_string(declared.elementCount()) +
                                         " elements, operand " + operand.toString() + " has " +
                                         std::to_string(operand.elementCount()));
    Shape shape = declared;  // only the element count follows from the operand
    shape.element_type = operand.element_type;
    shape.layout.reset();
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    const Shape& operand = instruction.operands[0]->shape;
    requireStatic(instruction);
    return {{reshapeMap(instruction.shape.extents(), operand.extents())}};
  }
  MapSets mapsToResults(const Instruction& instruction, int) const override {
    const Shape& operand = instruction.operands[0]->shape;
    requireStatic(instruction);
    return {{reshapeMap(operand.extents(), instruction.shape.extents())}};
  }

 private:
  static void requireStatic(const Instruction& instruction) {
    if (hlo::hasDynamicDims(instruction.shape) ||
        hlo::hasDynamicDims(instruction.operands[0]->shape))
      throw Inexpressible("reshape of a dynamic shape");
  }
};

}  // namespace

const OpModel& reshapeModel() {
  static const ReshapeModel model;
  return model;
}

}  // namespace idxmap::ops
