// gather(operand, indices) and scatter(inputs..., indices, updates...) as XLA prints them,
// validated by the StableHLO rules (each diagnostic names the spec's label and sits at the
// attribute it concerns) and indexed by the StableHLO maps: gather's result reads the operand
// at start indices that are runtime variables (clamped, as XLA clamps), and the indices with a
// range variable walking the index vector. A scatter's result depends on which updates land
// where, which only the index values say: its indexing is unknown, as in XLA's analysis.
#include "ops/hlo/models/gather_scatter.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

#include "ops/hlo/models/common.h"

namespace idxmap::ops {
namespace {

// An optional `name=true|false` (absent: false).
bool readBool(const Instruction& instruction, std::string_view name) {
  const hlo::Attribute* attribute = instruction.attribute(name);
  if (!attribute) return false;
  if (attribute->value == "true") return true;
  if (attribute->value == "false") return false;
  hlo::failInAttribute(*attribute, name, 0, "expected true or false");
}

TensorType typeOf(const Instruction& instruction, size_t operand) {
  TensorType type = arrayOperand(instruction, operand);
  type.element_type = stablehloElementType(type.element_type);
  return type;
}

// Which update computation `to_apply` is. Its parameters are the N current values, then the N
// updates; its root (a tuple of N for N > 1) is each input's new value. Each new value the
// update (parameter N + i) is replace; each one add, multiply, minimum or maximum (one of them
// for all) of its current value and its update (either order), with no other instructions, is
// that; anything else is kOther.
gather_scatter::UpdateComputation updateComputationOf(const Instruction& scatter, size_t inputs) {
  using gather_scatter::UpdateComputation;
  if (inputs == 0 || scatter.calledComputations.size() != 1) return UpdateComputation::kOther;
  const hlo::Computation& computation = *scatter.calledComputations[0];
  const Instruction* root = computation.root;
  std::vector<const Instruction*> values{root};
  if (inputs > 1) {
    if (root->opcode != "tuple" || root->operands.size() != inputs)
      return UpdateComputation::kOther;
    values.assign(root->operands.begin(), root->operands.end());
  }
  auto parameter = [](const Instruction* i, size_t number) {
    return i->opcode == "parameter" && i->parameterNumber == static_cast<int64_t>(number);
  };
  bool replaces = true;
  for (size_t i = 0; i < inputs; ++i) replaces = replaces && parameter(values[i], inputs + i);
  if (replaces) return UpdateComputation::kReplace;
  static const std::map<std::string, UpdateComputation, std::less<>> binary = {
      {"add", UpdateComputation::kAdd},
      {"multiply", UpdateComputation::kMul},
      {"minimum", UpdateComputation::kMin},
      {"maximum", UpdateComputation::kMax},
  };
  // The parameters, one operation an input and the tuple: nothing else.
  if (computation.instructions.size() != 3 * inputs + (inputs > 1 ? 1 : 0))
    return UpdateComputation::kOther;
  std::optional<UpdateComputation> common;
  for (size_t i = 0; i < inputs; ++i) {
    auto found = binary.find(values[i]->opcode);
    if (found == binary.end() || values[i]->operands.size() != 2 ||
        (common && *common != found->second))
      return UpdateComputation::kOther;
    common = found->second;
    const Instruction *a = values[i]->operands[0], *b = values[i]->operands[1];
    if (!(parameter(a, i) && parameter(b, inputs + i)) &&
        !(parameter(a, inputs + i) && parameter(b, i)))
      return UpdateComputation::kOther;
  }
  return *common;
}

// The first violation, at the attribute it concerns (the opcode for an operand), in HLO's
// words.
void reportFirst(const Instruction& instruction,
                 const std::vector<gather_scatter::Violation>& violations) {
  if (violations.empty()) return;
  const gather_scatter::Violation& violation = violations.front();
  std::string message = violation.message;
  const std::string prefix = "stablehlo." + instruction.opcode;
  if (message.rfind(prefix, 0) == 0) message = instruction.opcode + message.substr(prefix.size());
  // The message names the op and the label already ("gather (C6): ..."), as MLIR's do.
  const hlo::Attribute* attribute = instruction.attribute(violation.attribute);
  throw ParseError(attribute ? attribute->location : instruction.opcodeLocation, message, "");
}

class GatherModel : public OpModelBase {
 public:
  void validate(const Instruction& instruction) const override {
    reportFirst(instruction, gather_scatter::validateGather(hloGatherOp(instruction)));
    OpModelBase::validate(instruction);
  }

  Shape inferShape(const Instruction& instruction) const override {
    gather_scatter::GatherOp op = hloGatherOp(instruction);
    return arrayShape(arrayOperand(instruction, 0).element_type,
                      gather_scatter::inferGatherResultShape(
                          op.dimension_numbers, op.start_indices.shape, op.slice_sizes));
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    gather_scatter::GatherOp op = hloGatherOp(instruction);
    if (!op.operand.isStatic() || !op.start_indices.isStatic())
      throw Inexpressible("a gather over dynamic shapes");
    return {{gather_scatter::gatherOutputToOperandMap(op)},
            {gather_scatter::gatherOutputToStartIndicesMap(op)}};
  }
};

class ScatterModel : public OpModelBase {
 public:
  void validate(const Instruction& instruction) const override {
    reportFirst(instruction, gather_scatter::validateScatter(hloScatterOp(instruction)));
    OpModelBase::validate(instruction);
  }

  Shape inferShape(const Instruction& instruction) const override {
    gather_scatter::ScatterOp op = hloScatterOp(instruction);
    const size_t n = op.inputs.size();
    expectReducer(instruction, elementTypes(instruction, 0, n),
                  elementTypes(instruction, n + 1, 2 * n + 1));
    std::vector<Shape> results;
    for (size_t i = 0; i < n; ++i) results.push_back(arrayOperand(instruction, i));
    return variadicResult(std::move(results));
  }

 protected:
  MapSets mapsToOperands(const Instruction&, int) const override {
    throw Inexpressible("which updates a scatter's result holds depends on the index values");
  }
  MapSets mapsToResults(const Instruction&, int) const override {
    throw Inexpressible("which updates a scatter's result holds depends on the index values");
  }
};

}  // namespace

std::string stablehloElementType(const std::string& hlo) {
  if (hlo == "pred") return "i1";
  if (hlo.size() > 1 && hlo[0] == 's' && std::isdigit(static_cast<unsigned char>(hlo[1])))
    return "i" + hlo.substr(1);
  if (hlo.size() > 1 && hlo[0] == 'u' && std::isdigit(static_cast<unsigned char>(hlo[1])))
    return "ui" + hlo.substr(1);
  return hlo;
}

gather_scatter::GatherOp hloGatherOp(const Instruction& instruction) {
  expectOperandCount(instruction, 2);
  gather_scatter::GatherOp op;
  op.operand = typeOf(instruction, 0);
  op.start_indices = typeOf(instruction, 1);
  gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  dn.offset_dims = hlo::readIntListOr(instruction, "offset_dims");
  dn.collapsed_slice_dims = hlo::readIntListOr(instruction, "collapsed_slice_dims");
  dn.operand_batching_dims = hlo::readIntListOr(instruction, "operand_batching_dims");
  dn.start_indices_batching_dims = hlo::readIntListOr(instruction, "start_indices_batching_dims");
  dn.start_index_map = hlo::readIntListOr(instruction, "start_index_map");
  dn.index_vector_dim =
      hlo::readInt(hlo::requireAttribute(instruction, "index_vector_dim"), "index_vector_dim");
  op.slice_sizes =
      hlo::readIntList(hlo::requireAttribute(instruction, "slice_sizes"), "slice_sizes");
  op.indices_are_sorted = readBool(instruction, "indices_are_sorted");
  if (!instruction.shape.isTuple) {
    op.result = TensorType(instruction.shape);
    op.result->element_type = stablehloElementType(op.result->element_type);
  }
  return op;
}

gather_scatter::ScatterOp hloScatterOp(const Instruction& instruction) {
  size_t operands = instruction.operands.size();
  if (operands < 3 || operands % 2 == 0)
    hlo::failAtOpcode(instruction,
                      "scatter takes N inputs, the indices and N updates (2N + 1 "
                      "operands), not " +
                          std::to_string(operands));
  size_t n = (operands - 1) / 2;
  gather_scatter::ScatterOp op;
  for (size_t i = 0; i < n; ++i) op.inputs.push_back(typeOf(instruction, i));
  op.scatter_indices = typeOf(instruction, n);
  for (size_t i = 0; i < n; ++i) op.updates.push_back(typeOf(instruction, n + 1 + i));
  gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  dn.update_window_dims = hlo::readIntListOr(instruction, "update_window_dims");
  dn.inserted_window_dims = hlo::readIntListOr(instruction, "inserted_window_dims");
  dn.input_batching_dims = hlo::readIntListOr(instruction, "input_batching_dims");
  dn.scatter_indices_batching_dims =
      hlo::readIntListOr(instruction, "scatter_indices_batching_dims");
  dn.scatter_dims_to_operand_dims = hlo::readIntListOr(instruction, "scatter_dims_to_operand_dims");
  dn.index_vector_dim =
      hlo::readInt(hlo::requireAttribute(instruction, "index_vector_dim"), "index_vector_dim");
  op.indices_are_sorted = readBool(instruction, "indices_are_sorted");
  op.unique_indices = readBool(instruction, "unique_indices");
  op.update_computation = updateComputationOf(instruction, n);
  if (instruction.shape.isTuple) {
    for (const Shape& element : instruction.shape.tupleElements) op.results.push_back(element);
  } else {
    op.results.push_back(instruction.shape);
  }
  for (TensorType& result : op.results)
    result.element_type = stablehloElementType(result.element_type);
  return op;
}

const OpModel& gatherModel() {
  static const GatherModel model;
  return model;
}

const OpModel& scatterModel() {
  static const ScatterModel model;
  return model;
}

}  // namespace idxmap::ops
