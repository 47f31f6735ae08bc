// copy(x): the identity on logical indices (a layout change does not move logical indices).
#include "ops/hlo/models/common.h"

namespace idxmap::ops {
namespace {

class CopyModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    Shape shape = instruction.operands[0]->shape;
    shape.layout.reset();
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    IndexingMap map = domainOf(resultShape(instruction, outputId));
    return {{withResults(map, dimExprs(map))}};
  }
  MapSets mapsToResults(const Instruction& instruction, int) const override {
    return mapsToOperands(instruction, 0);
  }
};

}  // namespace

const OpModel& copyModel() {
  static const CopyModel model;
  return model;
}

}  // namespace idxmap::ops
