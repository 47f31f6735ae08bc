// bitcast-convert(x): x's bits read as another element type. Between types of one width it is
// elementwise. To a narrower type, each element becomes a new minor-most dimension of
// width-ratio elements (f32[4] -> u8[4, 4]); to a wider type, the operand's minor-most
// dimension (of that ratio) is folded into one element (u8[4, 4] -> f32[4]).
#include <algorithm>
#include <optional>

#include "ops/hlo/element_types.h"
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

// Bits per element, as XLA's BitWidth counts them (pred is 1 bit).
int64_t bitWidth(const Instruction& instruction, const std::string& type) {
  std::optional<hlo::ElementType> known = hlo::elementType(type);
  if (!known) hlo::failAtOpcode(instruction, "unknown element type " + type);
  return known->bits;
}

class BitcastConvertModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    const Shape& declared = instruction.shape;
    if (declared.isTuple) failAtInstruction(instruction, "result must be an array");
    if (hlo::isComplex(operand.element_type) != hlo::isComplex(declared.element_type))
      hlo::failAtOpcode(instruction, "cannot convert between complex and real types: " +
                                         operand.element_type + " to " + declared.element_type);
    int64_t from = bitWidth(instruction, operand.element_type);
    int64_t to = bitWidth(instruction, declared.element_type);
    if (std::max(from, to) % std::min(from, to) != 0)
      hlo::failAtOpcode(instruction, "the widths of " + operand.element_type + " (" +
                                         std::to_string(from) + " bits) and " +
                                         declared.element_type + " (" + std::to_string(to) +
                                         " bits) do not divide one another");
    Shape shape = operand;
    shape.layout.reset();
    shape.element_type = declared.element_type;
    if (from > to) {
      shape.appendDim(from / to, false);
    } else if (from < to) {
      if (operand.rank() == 0 || operand.extents().back() != to / from ||
          hlo::isDynamicDim(operand, operand.shape.size() - 1))
        hlo::failAtOpcode(instruction,
                          "operand " + operand.toString() + " needs a minor-most dimension of " +
                              std::to_string(to / from) + " to make " + declared.element_type);
      shape.shape.pop_back();
      if (!shape.bounds.empty()) shape.bounds.pop_back();
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    IndexingMap map = domainOf(instruction.shape);
    map.results = dimExprs(map);
    size_t operandRank = instruction.operands[0]->shape.shape.size();
    if (map.results.size() > operandRank) {
      map.results.pop_back();  // the new minor dim indexes bits within one operand element
    } else if (map.results.size() < operandRank) {
      int64_t ratio = instruction.operands[0]->shape.extents().back();
      map.results.push_back(addRangeVar(map, {0, ratio - 1}));
    }
    return {{map}};
  }
};

}  // namespace

const OpModel& bitcastConvertModel() {
  static const BitcastConvertModel model;
  return model;
}

}  // namespace idxmap::ops
