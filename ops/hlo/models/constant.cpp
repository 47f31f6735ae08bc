// Ops without operands (constant, iota, parameter): there is nothing to index; validation
// checks what their attributes say about the result.
#include <optional>

#include "ops/hlo/models/common.h"

namespace idxmap::ops {
namespace {

class NoOperandModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 0);
    if (instruction.opcode == "constant") checkLiteral(instruction);
    if (instruction.opcode == "iota") {
      const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "iota_dimension");
      int64_t dim = hlo::readInt(attribute, "iota_dimension");
      if (instruction.shape.isTuple || dim < 0 || dim >= instruction.shape.rank())
        hlo::failInAttribute(attribute, "iota_dimension", 0,
                             "is not a dimension of " + instruction.shape.toString());
      const std::string& type = instruction.shape.element_type;
      if (type == "pred")
        hlo::failAtOpcode(instruction,
                          "an iota counts in an integral, floating or complex "
                          "type, not pred");
    }
    return instruction.shape;  // the declaration is the only source of the shape
  }

 protected:
  MapSets mapsToOperands(const Instruction&, int) const override { return {}; }

 private:
  // A literal has one element per element of its shape. Not counted: a literal XLA printed
  // elided (`{...}`), complex elements (`(re, im)`), tuples and dynamic shapes.
  static void checkLiteral(const Instruction& instruction) {
    const Shape& shape = instruction.shape;
    const std::string& literal = instruction.literal;
    if (shape.isTuple || !shape.isStatic() || literal.empty() ||
        literal.find("...") != std::string::npos || literal.find('(') != std::string::npos)
      return;
    std::optional<int64_t> count = shape.maxElementCount();
    const size_t written = hlo::literalElements(literal).size();
    if (count && static_cast<int64_t>(written) != *count)
      failAtInstruction(instruction, "the literal has " + std::to_string(written) + " elements, " +
                                         shape.toString() + " has " + std::to_string(*count));
  }
};

}  // namespace

const OpModel& constantModel() {
  static const NoOperandModel model;
  return model;
}

}  // namespace idxmap::ops
