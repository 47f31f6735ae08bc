// Ops without operands (constant, iota, parameter): there is nothing to index; validation
// checks what their attributes say about the result.
#include "ops/hlo/models/common.h"

namespace idxmap::ops {
namespace {

class NoOperandModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 0);
    if (instruction.opcode == "iota") {
      const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "iota_dimension");
      int64_t dim = hlo::readInt(attribute, "iota_dimension");
      if (instruction.shape.isTuple || dim < 0 || dim >= instruction.shape.rank())
        hlo::failInAttribute(attribute, "iota_dimension", 0,
                             "is not a dimension of " + instruction.shape.toString());
    }
    return instruction.shape;  // the declaration is the only source of the shape
  }

 protected:
  MapSets mapsToOperands(const Instruction&, int) const override { return {}; }
};

}  // namespace

const OpModel& constantModel() {
  static const NoOperandModel model;
  return model;
}

}  // namespace idxmap::ops
