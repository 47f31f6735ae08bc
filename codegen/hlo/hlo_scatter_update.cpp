#include "codegen/hlo/hlo_scatter_update.h"

#include <map>
#include <set>

#include "codegen/hlo/hlo_computation_internal.h"
#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/prelude/element_code.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

using hlo_stage::unsupported;

ElementCode codeOf(const hlo::Instruction& instruction) {
  std::optional<ElementCode> code =
      instruction.shape.isTuple ? std::nullopt : elementCode(instruction.shape.element_type);
  if (!code || instruction.shape.rank() != 0)
    throw unsupported(instruction,
                      "a scatter's update computation computes scalars of kernel "
                      "types, not " +
                          instruction.shape.toString());
  return *code;
}

// One function's body: each instruction the result reaches, once, as a local of its compute
// type, in the order the result needs them.
class UpdateBody {
 public:
  explicit UpdateBody(size_t inputs) : inputs_(inputs) {}

  std::string value(const hlo::Instruction& instruction) {
    if (const auto* local = locals_.find(&instruction)) return local->first;
    const ElementCode type = codeOf(instruction);
    const std::string& op = instruction.opcode;
    std::string expression;
    if (op == "parameter") {
      expression = loadElement(
          type, updateParameter(static_cast<size_t>(instruction.parameterNumber), inputs_));
    } else if (op == "constant") {
      std::optional<std::string> literal = literalElement(type, instruction.literal);
      if (!literal)
        throw unsupported(instruction, "cannot read the literal `" + instruction.literal + "` as " +
                                           type.hloType);
      expression = *literal;
    } else {
      std::vector<std::string> operands;
      std::vector<ElementCode> types;
      for (const hlo::Instruction* operand : instruction.operands) {
        operands.push_back(value(*operand));
        types.push_back(codeOf(*operand));
      }
      std::string direction;
      if (const hlo::Attribute* d = instruction.attribute("direction")) direction = d->value;
      if (const hlo::Attribute* t = instruction.attribute("type"); t && t->value == "TOTALORDER")
        throw unsupported(instruction, "type=TOTALORDER comparisons are not computed");
      std::optional<std::string> result = elementwiseValue(op, direction, types, type, operands);
      if (!result)
        throw unsupported(instruction,
                          "kernels do not compute `" + op + "` in a scatter's update computation");
      expression = *result;
    }
    return locals_.define(&instruction, type, expression).first;
  }

  const std::string& text() const { return locals_.text(); }

 private:
  size_t inputs_;
  UpdateLocals<const hlo::Instruction*> locals_;
};

}  // namespace

UpdateFunctions scatterUpdateFunctions(const hlo::Instruction& scatter, const std::string& symbol,
                                       bool cuda) {
  const hlo::Computation& computation = *scatter.calledComputations.at(0);
  const size_t n = (scatter.operands.size() - 1) / 2;
  // Each instruction valid as its op model says (a compare's type matching its operands', ...),
  // as a fusion's are.
  std::set<const hlo::Instruction*> seen;
  hlo_kernel_parts::checkInstructions(computation, seen);
  std::vector<const hlo::Instruction*> results{computation.root};
  if (n > 1) {
    if (computation.root->opcode != "tuple" || computation.root->operands.size() != n)
      throw unsupported(*computation.root, "the update computation of a scatter of " +
                                               std::to_string(n) + " inputs returns a tuple of " +
                                               std::to_string(n));
    results.assign(computation.root->operands.begin(), computation.root->operands.end());
  }
  // The parameters' storage types, in order (each declared, used or not).
  std::vector<std::string> storage(2 * n);
  for (const auto& instruction : computation.instructions)
    if (instruction->opcode == "parameter" && instruction->parameterNumber >= 0 &&
        static_cast<size_t>(instruction->parameterNumber) < 2 * n)
      storage[static_cast<size_t>(instruction->parameterNumber)] = codeOf(*instruction).storage;
  UpdateFunctions out;
  for (size_t k = 0; k < 2 * n; ++k)
    if (storage[k].empty())
      throw unsupported(scatter, "its update computation has no parameter " + std::to_string(k));
  for (size_t i = 0; i < n; ++i) {
    UpdateBody body(n);
    const ElementCode type = codeOf(*results[i]);
    const std::string result = storeElement(type, body.value(*results[i]));
    out.names.push_back(symbol + "_update" + std::to_string(i));
    out.text += updateFunction(out.names.back(), storage, body.text(), type.storage, result);
  }
  out.text = "// " + scatter.name + "'s update computation, " + computation.name +
             ": each input's new value from every input's current value and update\n" + out.text;
  if (cuda) out.text = deviceAnnotated(out.text);
  return out;
}

}  // namespace idxmap::codegen
