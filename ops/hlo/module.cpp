#include "ops/hlo/module.h"

#include "core/checked.h"

namespace idxmap::hlo {

int64_t Shape::elementCount() const {
  if (isTuple) throw Error("a tuple shape " + toString() + " has no element count");
  // An unbounded dimension (`?`) has no upper bound to count with.
  std::optional<int64_t> count = maxElementCount();
  if (!count) throw Error("shape " + toString() + " has an unbounded dimension");
  return *count;
}

std::string Shape::toString() const {
  if (isTuple) {
    std::string text = "(";
    for (size_t i = 0; i < tupleElements.size(); ++i)
      text += (i ? ", " : "") + tupleElements[i].toString();
    return text + ")";
  }
  std::string text = element_type + "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ",";
    if (isDynamic(i) && extent(i) == kDynamic) {
      text += "?";
    } else {
      text += (isDynamic(i) ? "<=" : "") + std::to_string(extent(i));
    }
  }
  text += "]";
  if (layout) {
    text += "{";
    for (size_t i = 0; i < layout->size(); ++i)
      text += (i ? "," : "") + std::to_string((*layout)[i]);
    text += "}";
  }
  return text;
}

const Attribute* Instruction::attribute(std::string_view name) const {
  auto it = attributes.find(std::string(name));
  return it == attributes.end() ? nullptr : &it->second;
}

Instruction* Computation::find(std::string_view name) const {
  for (const auto& instruction : instructions)
    if (instruction->name == name) return instruction.get();
  return nullptr;
}

Instruction* Computation::parameter(int64_t number) const {
  for (const auto& instruction : instructions)
    if (instruction->opcode == "parameter" && instruction->parameterNumber == number)
      return instruction.get();
  return nullptr;
}

Computation* Module::find(std::string_view name) const {
  for (const auto& computation : computations)
    if (computation->name == name) return computation.get();
  return nullptr;
}

}  // namespace idxmap::hlo
