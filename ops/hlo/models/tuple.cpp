// tuple(x0, x1, ...) and get-tuple-element(t), index=k. Result k of a tuple is operand k,
// element for element; the other operands are not read for it (KNOWN EMPTY maps). A
// get-tuple-element's map leads into element `index` of its tuple operand.
#include "ops/hlo/models/common.h"

namespace idxmap::ops {
namespace {

class TupleModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    Shape shape;
    shape.isTuple = true;
    for (const hlo::Instruction* operand : instruction.operands)
      shape.tupleElements.push_back(operand->shape);
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    const Shape& result = resultShape(instruction, outputId);
    MapSets sets;
    for (size_t i = 0; i < instruction.operands.size(); ++i)
      sets.push_back({static_cast<int>(i) == outputId
                          ? identityOver(result)
                          : readsNothing(result, instruction.operands[i]->shape.shape.size())});
    return sets;
  }
  MapSets mapsToResults(const Instruction& instruction, int inputId) const override {
    const Shape& operand = instruction.operands[inputId]->shape;
    MapSets sets;
    for (size_t i = 0; i < instruction.operands.size(); ++i)
      sets.push_back({static_cast<int>(i) == inputId
                          ? identityOver(operand)
                          : readsNothing(operand, instruction.operands[i]->shape.shape.size())});
    return sets;
  }
};

class GetTupleElementModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& tuple = instruction.operands[0]->shape;
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "index");
    int64_t index = hlo::readInt(attribute, "index");
    if (!tuple.isTuple)
      hlo::failAtOpcode(instruction, "operand " + tuple.toString() + " is not a tuple");
    if (index < 0 || index >= static_cast<int64_t>(tuple.tupleElements.size()))
      hlo::failInAttribute(attribute, "index", 0,
                           "is out of range for a tuple of " +
                               std::to_string(tuple.tupleElements.size()) + " elements");
    return tuple.tupleElements[index];
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    return {{identityOver(instruction.shape)}};
  }
  MapSets mapsToResults(const Instruction& instruction, int) const override {
    return {{identityOver(instruction.shape)}};
  }
};

}  // namespace

const OpModel& tupleModel() {
  static const TupleModel model;
  return model;
}

const OpModel& getTupleElementModel() {
  static const GetTupleElementModel model;
  return model;
}

}  // namespace idxmap::ops
