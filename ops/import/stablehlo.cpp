#include "ops/import/stablehlo.h"

#include <map>

namespace idxmap::stablehlo_import {
namespace {

using gather_scatter::GatherDimensionNumbers;
using gather_scatter::ScatterDimensionNumbers;
using gather_scatter::UpdateComputation;
using mlir_ir::Attribute;
using mlir_ir::Operation;

std::string operandName(const Operation& op, size_t index) {
  return "operand " + std::to_string(index) + " of " + op.name;
}

void expectOperandCount(const Operation& op, size_t count) {
  if (op.operands.size() != count)
    throw ImportError(op.location, op.name + " takes " + std::to_string(count) +
                                       " operands, found " + std::to_string(op.operands.size()));
}

std::vector<TensorType> operandTypes(const Operation& op) {
  if (op.operandTypes.size() != op.operands.size())
    throw ImportError(op.location, op.name + ": the operand types are not written (expected `: (" +
                                       std::to_string(op.operands.size()) +
                                       " operand types) -> result type`)");
  std::vector<TensorType> types;
  for (size_t i = 0; i < op.operandTypes.size(); ++i)
    types.push_back(importTensorType(op.operandTypes[i], op.location, operandName(op, i)));
  return types;
}

std::vector<TensorType> resultTypes(const Operation& op, size_t count) {
  if (op.resultTypes.size() != count)
    throw ImportError(op.location, op.name + " has " + std::to_string(count) +
                                       " result(s), found " +
                                       std::to_string(op.resultTypes.size()) + " result types");
  std::vector<TensorType> types;
  for (size_t i = 0; i < count; ++i)
    types.push_back(importTensorType(op.resultTypes[i], op.location,
                                     "result " + std::to_string(i) + " of " + op.name));
  return types;
}

// The `#stablehlo.gather<...>` / `#stablehlo.scatter<...>` attribute under `name`. Absent
// fields keep their defaults (empty lists, index_vector_dim 0), as StableHLO parses them.
const Attribute& dimensionNumbers(const Operation& op, const std::string& name,
                                  const std::string& structuredName) {
  const Attribute* attribute = op.attribute(name);
  if (!attribute) throw ImportError(op.location, op.name + ": missing attribute `" + name + "`");
  if (attribute->kind != Attribute::Kind::Structured || attribute->text != structuredName)
    throw ImportError(attribute->location,
                      op.name + ": `" + name + "` must be a #" + structuredName + "<...>");
  return *attribute;
}

std::vector<int64_t> intsField(const Attribute& structured, const std::string& field) {
  const Attribute* value = structured.field(field);
  return value ? value->asInts().value_or(std::vector<int64_t>{}) : std::vector<int64_t>{};
}

int64_t intField(const Attribute& structured, const std::string& field) {
  const Attribute* value = structured.field(field);
  return value ? value->asInt().value_or(0) : 0;
}

bool flag(const Operation& op, const std::string& name) {
  const Attribute* attribute = op.attribute(name);
  if (!attribute) return false;
  std::optional<int64_t> value = attribute->asInt();
  if (attribute->kind != Attribute::Kind::Bool || !value)
    throw ImportError(attribute->location, op.name + ": `" + name + "` must be true or false");
  return *value != 0;
}

// `array<i64: 1, 2>`, `[1, 2]` or `dense<[1, 2]> : tensor<2xi64>`.
std::vector<int64_t> intList(const Operation& op, const std::string& name) {
  const Attribute* attribute = op.attribute(name);
  if (!attribute) throw ImportError(op.location, op.name + ": missing attribute `" + name + "`");
  if (std::optional<std::vector<int64_t>> ints = attribute->asInts()) return *ints;
  if (attribute->kind == Attribute::Kind::Dense && attribute->dense &&
      attribute->dense->type.rank() == 1 && attribute->dense->floats.empty()) {
    std::optional<int64_t> count = attribute->dense->type.elementCount();
    if (count) {
      std::vector<int64_t> values;
      for (int64_t i = 0; i < *count; ++i) values.push_back(attribute->dense->intAt(i));
      return values;
    }
  }
  throw ImportError(attribute->location, op.name + ": `" + name + "` must be a list of integers");
}

GatherDimensionNumbers gatherDimensionNumbers(const Operation& op) {
  const Attribute& dims = dimensionNumbers(op, "dimension_numbers", "stablehlo.gather");
  GatherDimensionNumbers numbers;
  numbers.offset_dims = intsField(dims, "offset_dims");
  numbers.collapsed_slice_dims = intsField(dims, "collapsed_slice_dims");
  numbers.operand_batching_dims = intsField(dims, "operand_batching_dims");
  numbers.start_indices_batching_dims = intsField(dims, "start_indices_batching_dims");
  numbers.start_index_map = intsField(dims, "start_index_map");
  numbers.index_vector_dim = intField(dims, "index_vector_dim");
  return numbers;
}

ScatterDimensionNumbers scatterDimensionNumbers(const Operation& op) {
  const Attribute& dims = dimensionNumbers(op, "scatter_dimension_numbers", "stablehlo.scatter");
  ScatterDimensionNumbers numbers;
  numbers.update_window_dims = intsField(dims, "update_window_dims");
  numbers.inserted_window_dims = intsField(dims, "inserted_window_dims");
  numbers.input_batching_dims = intsField(dims, "input_batching_dims");
  numbers.scatter_indices_batching_dims = intsField(dims, "scatter_indices_batching_dims");
  numbers.scatter_dims_to_operand_dims = intsField(dims, "scatter_dims_to_operand_dims");
  numbers.index_vector_dim = intField(dims, "index_vector_dim");
  return numbers;
}

// `tensor<E>` as its element type E; any other type (a scalar `f32`, a `tuple<...>`, a ranked
// tensor) kept whole, so that C23 rejects it.
gather_scatter::ComputationType computationType(const mlir_ir::Type& type) {
  if (type.isTensor && !type.isOpaque() && type.rank() == 0)
    return gather_scatter::ComputationType(type.elementType().toString());
  return gather_scatter::ComputationType::notScalarTensor(type.toString());
}

// The binary ops an update computation may consist of, by the model's name for them.
const std::map<std::string, UpdateComputation, std::less<>>& binaryComputations() {
  static const std::map<std::string, UpdateComputation, std::less<>> table = {
      {"stablehlo.add", UpdateComputation::kAdd},
      {"stablehlo.multiply", UpdateComputation::kMul},
      {"stablehlo.minimum", UpdateComputation::kMin},
      {"stablehlo.maximum", UpdateComputation::kMax},
  };
  return table;
}

bool isReturn(const Operation& op) {
  return op.name == "stablehlo.return" || op.name == "func.return" || op.name == "return";
}

// Which computation the block is: result i must be `f(current_i, update_i)` for one binary
// f (operands in either order), or update_i itself for every i (replace).
UpdateComputation recognizeComputation(const mlir_ir::Block& block, size_t inputCount) {
  if (block.arguments.size() != 2 * inputCount || block.operations.empty())
    return UpdateComputation::kOther;
  const Operation& terminator = block.operations.back();
  if (!isReturn(terminator) || terminator.operands.size() != inputCount)
    return UpdateComputation::kOther;
  auto argument = [&](size_t i) { return block.arguments[i].value; };

  bool replaces = block.operations.size() == 1;
  for (size_t i = 0; replaces && i < inputCount; ++i)
    replaces = terminator.operands[i] == argument(inputCount + i);
  if (replaces) return UpdateComputation::kReplace;

  if (block.operations.size() != inputCount + 1) return UpdateComputation::kOther;
  std::optional<UpdateComputation> common;
  for (size_t i = 0; i < inputCount; ++i) {
    const Operation* definition = nullptr;
    for (size_t k = 0; k + 1 < block.operations.size(); ++k)
      for (const mlir_ir::Value& result : block.operations[k].results)
        if (result == terminator.operands[i]) definition = &block.operations[k];
    if (!definition || definition->operands.size() != 2) return UpdateComputation::kOther;
    auto found = binaryComputations().find(definition->name);
    if (found == binaryComputations().end()) return UpdateComputation::kOther;
    if (common && *common != found->second) return UpdateComputation::kOther;
    common = found->second;
    const mlir_ir::Value &lhs = definition->operands[0], &rhs = definition->operands[1];
    bool inOrder = lhs == argument(i) && rhs == argument(inputCount + i);
    bool swapped = rhs == argument(i) && lhs == argument(inputCount + i);
    if (!inOrder && !swapped) return UpdateComputation::kOther;
  }
  return common.value_or(UpdateComputation::kOther);
}

// The type of `value` inside `block`: a block argument's, or the result type of the op
// defining it; nullptr when the text does not say.
const mlir_ir::Type* typeInBlock(const mlir_ir::Block& block, const mlir_ir::Value& value) {
  for (const mlir_ir::BlockArgument& argument : block.arguments)
    if (argument.value == value) return &argument.type;
  for (const Operation& op : block.operations)
    for (size_t i = 0; i < op.results.size(); ++i)
      if (op.results[i] == value && i < op.resultTypes.size()) return &op.resultTypes[i];
  return nullptr;
}

void importUpdateComputation(const Operation& op, gather_scatter::ScatterOp& scatter) {
  if (op.regions.size() != 1 || op.regions[0].blocks.size() != 1)
    throw ImportError(op.location, op.name + ": expected one update_computation region");
  const mlir_ir::Block& block = op.regions[0].blocks[0];
  scatter.update_computation = recognizeComputation(block, scatter.inputs.size());
  for (const mlir_ir::BlockArgument& argument : block.arguments)
    scatter.computation_argument_types.push_back(computationType(argument.type));
  if (block.operations.empty() || !isReturn(block.operations.back())) return;
  const Operation& terminator = block.operations.back();
  for (size_t i = 0; i < terminator.operands.size(); ++i) {
    const mlir_ir::Type* type = i < terminator.operandTypes.size()
                                    ? &terminator.operandTypes[i]
                                    : typeInBlock(block, terminator.operands[i]);
    if (!type) {  // not written anywhere: C23 cannot be checked
      scatter.computation_argument_types.clear();
      scatter.computation_result_types.clear();
      return;
    }
    scatter.computation_result_types.push_back(computationType(*type));
  }
  // A region that returns nothing is recorded as zero results, which C23 rejects.
}

}  // namespace

TensorType importTensorType(const mlir_ir::Type& type, const SourceLocation& location,
                            const std::string& what) {
  if (!type.isTensor || type.isOpaque())
    throw ImportError(location, what + " must be a ranked tensor, found " + type.toString());
  return type;
}

gather_scatter::GatherOp importGather(const Operation& op) {
  expectOperandCount(op, 2);
  std::vector<TensorType> operands = operandTypes(op);
  gather_scatter::GatherOp gather;
  gather.operand = operands[0];
  gather.start_indices = operands[1];
  gather.dimension_numbers = gatherDimensionNumbers(op);
  gather.slice_sizes = intList(op, "slice_sizes");
  gather.indices_are_sorted = flag(op, "indices_are_sorted");
  gather.result = resultTypes(op, 1)[0];
  return gather;
}

gather_scatter::DynamicGatherOp importDynamicGather(
    const Operation& op, const std::optional<std::vector<int64_t>>& sliceSizes) {
  expectOperandCount(op, 3);
  std::vector<TensorType> operands = operandTypes(op);
  gather_scatter::DynamicGatherOp gather;
  gather.operand = operands[0];
  gather.start_indices = operands[1];
  gather.slice_sizes_type = operands[2];
  gather.dimension_numbers = gatherDimensionNumbers(op);
  gather.slice_sizes = sliceSizes.value_or(std::vector<int64_t>{});
  gather.slice_sizes_known = sliceSizes.has_value();
  gather.indices_are_sorted = flag(op, "indices_are_sorted");
  gather.result = resultTypes(op, 1)[0];
  return gather;
}

gather_scatter::ScatterOp importScatter(const Operation& op) {
  if (op.operands.size() < 3 || op.operands.size() % 2 == 0)
    throw ImportError(op.location, op.name +
                                       " takes N inputs, the scatter indices and N updates "
                                       "(an odd number of operands, at least 3), found " +
                                       std::to_string(op.operands.size()));
  size_t inputCount = (op.operands.size() - 1) / 2;
  std::vector<TensorType> operands = operandTypes(op);
  gather_scatter::ScatterOp scatter;
  scatter.inputs.assign(operands.begin(), operands.begin() + inputCount);
  scatter.scatter_indices = operands[inputCount];
  scatter.updates.assign(operands.begin() + inputCount + 1, operands.end());
  scatter.dimension_numbers = scatterDimensionNumbers(op);
  scatter.indices_are_sorted = flag(op, "indices_are_sorted");
  scatter.unique_indices = flag(op, "unique_indices");
  importUpdateComputation(op, scatter);
  scatter.results = resultTypes(op, inputCount);
  return scatter;
}

}  // namespace idxmap::stablehlo_import
