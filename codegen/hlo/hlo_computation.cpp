#include "codegen/hlo/hlo_computation_internal.h"

#include <algorithm>

#include "ops/hlo/attributes.h"
#include "ops/hlo/models/model.h"

namespace idxmap::codegen::hlo_kernel_parts {

using hlo::Instruction;
using hlo_stage::unsupported;
using hlo_stage::ValueBuffer;

int64_t elementsOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t size : shape) n *= size;
  return n;
}

KernelComputation computationOf(const Instruction& instruction) {
  if (instruction.opcode == "fusion") {
    if (instruction.calledComputations.size() != 1)
      throw unsupported(instruction, "a fusion calls one computation");
    const hlo::Computation* fused = instruction.calledComputations[0];
    // Each parameter is read through the buffer of the operand it stands for.
    for (const auto& parameter : fused->instructions) {
      if (parameter->opcode != "parameter") continue;
      size_t number = static_cast<size_t>(parameter->parameterNumber);
      if (number >= instruction.operands.size() ||
          parameter->shape.shape != instruction.operands[number]->shape.shape ||
          parameter->shape.element_type != instruction.operands[number]->shape.element_type ||
          parameter->shape.isTuple != instruction.operands[number]->shape.isTuple)
        throw UnsupportedHlo(parameter->location,
                             "parameter " + parameter->name + " " + parameter->shape.toString() +
                                 " does not match the fusion's operand " + std::to_string(number));
    }
    return {fused, nullptr};
  }
  auto owned = std::make_unique<hlo::Computation>();
  owned->name = instruction.name;
  auto copy = std::make_unique<Instruction>(instruction);
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    auto parameter = std::make_unique<Instruction>();
    parameter->name = instruction.operands[i]->name;
    parameter->shape = instruction.operands[i]->shape;
    parameter->opcode = "parameter";
    parameter->parameterNumber = static_cast<int64_t>(i);
    parameter->location = parameter->opcodeLocation = instruction.operands[i]->location;
    copy->operands[i] = parameter.get();
    owned->instructions.push_back(std::move(parameter));
  }
  copy->isRoot = true;
  owned->root = copy.get();
  owned->instructions.push_back(std::move(copy));
  const hlo::Computation* computation = owned.get();
  return {computation, std::move(owned)};
}

// Every instruction the root reaches, reducers' included, checked by its op model (a
// ParseError names the attribute), with a static shape and an element type kernels compute.
void checkInstructions(const hlo::Computation& computation, std::set<const Instruction*>& seen) {
  std::vector<const Instruction*> work{computation.root};
  while (!work.empty()) {
    const Instruction* instruction = work.back();
    work.pop_back();
    if (!seen.insert(instruction).second) continue;
    for (const Instruction* operand : instruction->operands) work.push_back(operand);
    if (instruction->opcode == "parameter") continue;
    if (instruction->opcode == "tuple") {
      if (instruction != computation.root)
        throw unsupported(*instruction, "a tuple is computed only as a fusion's root");
      continue;
    }
    const OpModel* model = findOpModel(instruction->opcode);
    if (!model) throw unsupported(*instruction, "no op model, so no kernel");
    model->validate(*instruction);
    if (!instruction->shape.isStatic())
      throw unsupported(*instruction,
                        "kernels need static shapes, not " + instruction->shape.toString());
    // Tuple results: only a variadic reduction's, each an array of a type kernels compute.
    const bool reduction =
        instruction->opcode == "reduce" || instruction->opcode == "reduce-window";
    if (instruction->shape.isTuple && !reduction)
      throw unsupported(*instruction, "results of tuple shape " + instruction->shape.toString() +
                                          " (variadic ops) are not computed");
    const std::vector<hlo::Shape> results = instruction->shape.isTuple
                                                ? instruction->shape.tupleElements
                                                : std::vector<hlo::Shape>{instruction->shape};
    for (const hlo::Shape& result : results)
      if (result.isTuple || !elementCode(result.element_type))
        throw unsupported(*instruction,
                          "element type " + result.toString() + " has no kernel arithmetic");
    if (instruction->opcode == "reduce" || instruction->opcode == "reduce-window")
      for (const hlo::Computation* reducer : instruction->calledComputations)
        checkInstructions(*reducer, seen);
  }
}

// A buffer's layout as XLA writes it (minor-to-major), empty when it is row-major (the
// default, or a shape of at most one dim or no elements); a layout that is not a permutation
// of the dims is refused where it is written.
std::vector<int64_t> layoutOf(const Instruction& instruction, const hlo::Shape& shape) {
  if (!shape.layout) return {};
  const std::vector<int64_t>& layout = *shape.layout;
  std::vector<int64_t> sorted = layout;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted.size() != shape.shape.size() || sorted[i] != static_cast<int64_t>(i))
      throw unsupported(instruction, "layout of " + shape.toString() + " is not a permutation");
  bool rowMajor = true;
  for (size_t i = 0; i < layout.size(); ++i)
    rowMajor &= layout[i] == static_cast<int64_t>(layout.size() - 1 - i);
  return rowMajor ? std::vector<int64_t>{} : layout;
}

std::string identifier(size_t index, const std::string& prefix) {
  return prefix + std::to_string(index);
}

// An array constant as a static array of computed values.
ValueBuffer constantArray(const Instruction& constant, size_t number,
                          std::vector<ir::Node>& definitions) {
  ElementCode type = *elementCode(constant.shape.element_type);
  std::vector<ir::Value> values;
  for (std::string_view token : hlo::literalElements(constant.literal)) {
    std::optional<std::string> value = literalElement(type, token);
    if (!value)
      throw unsupported(constant, "cannot read `" + std::string(token) + "` as " + type.hloType);
    values.push_back(ir::elementValue(*value));
  }
  if (static_cast<int64_t>(values.size()) != elementsOf(constant.shape.shape))
    throw unsupported(constant, "its literal has " + std::to_string(values.size()) +
                                    " values for " + constant.shape.toString());
  std::string name = identifier(number, "c");
  definitions.push_back(ir::constants(type.compute, name, std::move(values)));
  return {name, type, constant.shape.shape, true};
}

}  // namespace idxmap::codegen::hlo_kernel_parts
