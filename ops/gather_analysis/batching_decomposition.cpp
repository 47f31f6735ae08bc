#include "ops/gather_analysis/batching_decomposition.h"

#include <isl/map.h>

#include "core/bridges/isl_bridge.h"
#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "ops/provenance/fold.h"
#include "ops/stablehlo/decompose.h"

namespace idxmap::mlir_batching_decomposition {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using isl_bridge::checked;
using isl_bridge::own;

std::string typeText(const TensorType& type) {
  std::string text = "tensor<";
  for (int64_t size : type.shape) text += std::to_string(size) + "x";
  return text + type.element_type + ">";
}

std::string list(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// `name = [..]` for each non-empty list, then index_vector_dim: the fields StableHLO prints.
std::string structured(const std::string& name,
                       const std::vector<std::pair<std::string, std::vector<int64_t>>>& lists,
                       int64_t indexVectorDim) {
  std::string text = "#" + name + "<";
  for (const auto& [field, values] : lists)
    if (!values.empty()) text += field + " = " + list(values) + ", ";
  return text + "index_vector_dim = " + std::to_string(indexVectorDim) + ">";
}

std::string boolText(bool value) { return value ? "true" : "false"; }

// The iotas, the reshape of an implicit index vector and the concatenate: the lines that
// define %indices, the old form's index tensor, from %<originalName>.
std::string extendedIndices(const TensorType& original, const TensorType& grown,
                            int64_t indexVectorDim, const std::vector<int64_t>& batchingAxes,
                            const std::string& originalName) {
  std::string text;
  TensorType iotaType = grown;
  iotaType.shape[indexVectorDim] = 1;
  std::vector<std::string> parts, types;
  std::string source = "%" + originalName;
  TensorType sourceType = original;
  if (indexVectorDim == original.rank()) {  // implicit vector: give it its axis
    sourceType.shape.push_back(1);
    text += "  %vector = stablehlo.reshape " + source + " : (" + typeText(original) + ") -> " +
            typeText(sourceType) + "\n";
    source = "%vector";
  }
  parts.push_back(source);
  types.push_back(typeText(sourceType));
  for (size_t i = 0; i < batchingAxes.size(); ++i) {
    std::string name = "%iota" + std::to_string(i);
    text += "  " + name + " = stablehlo.iota dim = " + std::to_string(batchingAxes[i]) + " : " +
            typeText(iotaType) + "\n";
    parts.push_back(name);
    types.push_back(typeText(iotaType));
  }
  text += "  %indices = stablehlo.concatenate ";
  for (const std::string& part : parts) text += part + ", ";
  text += "dim = " + std::to_string(indexVectorDim) + " : (";
  for (size_t i = 0; i < types.size(); ++i) text += (i ? ", " : "") + types[i];
  return text + ") -> " + typeText(grown) + "\n";
}

std::string gatherText(const GatherOp& op, const GatherOp& old, const std::string& functionName) {
  const auto& dn = old.dimension_numbers;
  TensorType result =
      op.result ? *op.result
                : TensorType{gather_scatter::inferGatherResultShape(
                                 op.dimension_numbers, op.start_indices.shape, op.slice_sizes),
                             op.operand.element_type};
  std::string text = "func.func @" + functionName + "(%operand: " + typeText(op.operand) +
                     ", %start_indices: " + typeText(op.start_indices) + ") -> " +
                     typeText(result) + " {\n";
  text += extendedIndices(op.start_indices, old.start_indices, dn.index_vector_dim,
                          op.dimension_numbers.start_indices_batching_dims, "start_indices");
  std::string sizes = "array<i64";
  for (size_t i = 0; i < old.slice_sizes.size(); ++i)
    sizes += (i ? ", " : ": ") + std::to_string(old.slice_sizes[i]);
  text += "  %result = \"stablehlo.gather\"(%operand, %indices) {dimension_numbers = " +
          structured("stablehlo.gather",
                     {{"offset_dims", dn.offset_dims},
                      {"collapsed_slice_dims", dn.collapsed_slice_dims},
                      {"start_index_map", dn.start_index_map}},
                     dn.index_vector_dim) +
          ", indices_are_sorted = " + boolText(old.indices_are_sorted) +
          ", slice_sizes = " + sizes + ">} : (" + typeText(op.operand) + ", " +
          typeText(old.start_indices) + ") -> " + typeText(result) + "\n";
  return text + "  func.return %result : " + typeText(result) + "\n}\n";
}

std::optional<std::string> combinerName(gather_scatter::UpdateComputation computation) {
  using gather_scatter::UpdateComputation;
  switch (computation) {
    case UpdateComputation::kAdd:
      return "stablehlo.add";
    case UpdateComputation::kMul:
      return "stablehlo.multiply";
    case UpdateComputation::kMin:
      return "stablehlo.minimum";
    case UpdateComputation::kMax:
      return "stablehlo.maximum";
    case UpdateComputation::kReplace:
      return "";
    default:
      return std::nullopt;
  }
}

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text;
}

std::string scatterText(const ScatterOp& op, const ScatterOp& old, const std::string& combiner,
                        const std::string& functionName) {
  const auto& dn = old.dimension_numbers;
  const size_t n = op.inputs.size();
  std::vector<TensorType> results = op.results.empty() ? op.inputs : op.results;
  std::vector<std::string> arguments, operands, operandTypes, resultTypes, scalars;
  for (size_t i = 0; i < n; ++i) {
    arguments.push_back("%input" + std::to_string(i) + ": " + typeText(op.inputs[i]));
    operands.push_back("%input" + std::to_string(i));
    operandTypes.push_back(typeText(op.inputs[i]));
    resultTypes.push_back(typeText(results[i]));
    scalars.push_back("tensor<" + op.inputs[i].element_type + ">");
  }
  arguments.push_back("%scatter_indices: " + typeText(op.scatter_indices));
  operands.push_back("%indices");
  operandTypes.push_back(typeText(old.scatter_indices));
  for (size_t i = 0; i < n; ++i) {
    arguments.push_back("%update" + std::to_string(i) + ": " + typeText(op.updates[i]));
    operands.push_back("%update" + std::to_string(i));
    operandTypes.push_back(typeText(op.updates[i]));
  }
  std::string resultList = n == 1 ? resultTypes[0] : "(" + joined(resultTypes) + ")";
  std::string text =
      "func.func @" + functionName + "(" + joined(arguments) + ") -> " + resultList + " {\n";
  text += extendedIndices(op.scatter_indices, old.scatter_indices, dn.index_vector_dim,
                          op.dimension_numbers.scatter_indices_batching_dims, "scatter_indices");
  std::vector<std::string> blockArguments, returned;
  for (size_t i = 0; i < 2 * n; ++i)
    blockArguments.push_back((i < n ? "%lhs" : "%rhs") + std::to_string(i % n) + ": " +
                             scalars[i % n]);
  std::string body;
  for (size_t i = 0; i < n; ++i) {
    std::string lhs = "%lhs" + std::to_string(i), rhs = "%rhs" + std::to_string(i);
    if (combiner.empty()) {
      returned.push_back(rhs);
      continue;
    }
    body += "    %combined" + std::to_string(i) + " = " + combiner + " " + lhs + ", " + rhs +
            " : " + scalars[i] + "\n";
    returned.push_back("%combined" + std::to_string(i));
  }
  text += std::string("  %result") + (n == 1 ? "" : ":" + std::to_string(n)) +
          " = \"stablehlo.scatter\"(" + joined(operands) + ") ({\n  ^bb0(" +
          joined(blockArguments) + "):\n" + body + "    stablehlo.return " + joined(returned) +
          " : " + joined(scalars) +
          "\n  }) {indices_are_sorted = " + boolText(old.indices_are_sorted) +
          ", scatter_dimension_numbers = " +
          structured("stablehlo.scatter",
                     {{"update_window_dims", dn.update_window_dims},
                      {"inserted_window_dims", dn.inserted_window_dims},
                      {"scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims}},
                     dn.index_vector_dim) +
          ", unique_indices = " + boolText(old.unique_indices) + "} : (" + joined(operandTypes) +
          ") -> " + resultList + "\n";
  std::vector<std::string> results_;
  for (size_t i = 0; i < n; ++i)
    results_.push_back(n == 1 ? "%result" : "%result#" + std::to_string(i));
  return text + "  func.return " + joined(results_) + " : " + joined(resultTypes) + "\n}\n";
}

// The function's op named `name` in the text just printed, with its scope.
struct ReadBack {
  mlir_ir::Module module;
  const mlir_ir::Operation* op = nullptr;
  const std::vector<mlir_ir::Operation>* scope = nullptr;
};

std::optional<std::string> readBack(const std::string& text, const std::string& name,
                                    ReadBack& out) {
  out.module = mlir_ir::parseMlirModule(text, "<decomposition>");
  if (out.module.functions.size() != 1 || out.module.functions[0].body.blocks.empty())
    return "the printed function did not read back";
  out.scope = &out.module.functions[0].body.blocks[0].operations;
  for (const mlir_ir::Operation& op : *out.scope)
    if (op.name == name) out.op = &op;
  if (!out.op) return "the printed " + name + " did not read back";
  return std::nullopt;
}

// The folded old form against the batching form: the same relation, with the old form's
// remaining runtime variables (the original start indices, rt0...) lined up by name.
Decomposition compare(std::string text, const index_provenance::FoldedMap& folded,
                      size_t originalEntries, const IndexingMap& original) {
  Decomposition result{std::move(text), {}};
  // An op with no points (a zero-sized dim) reads no index: nothing to fold, both empty.
  bool empty = checked(isl_map_is_empty(folded.relation.get())) != 0;
  for (size_t k = 0; !empty && k < folded.folded.size(); ++k)
    if (folded.folded[k] != (k >= originalEntries)) {
      result.proof = ProofResult::unknown(
          "index provenance did not fold exactly the iota entries of the index vector (entry " +
          std::to_string(k) + ")");
      return result;
    }
  isl::map a = own(isl_map_reset_tuple_id(folded.relation.copy(), isl_dim_in));
  a = own(isl_map_reset_tuple_id(a.release(), isl_dim_out));
  isl::map b = own(isl_map_reset_tuple_id(toIslMap(original).release(), isl_dim_in));
  b = own(isl_map_reset_tuple_id(b.release(), isl_dim_out));
  result.proof = checked(isl_map_is_equal(a.get(), b.get()))
                     ? ProofResult::proven("isl")
                     : ProofResult::refuted("isl", "isl finds the two relations different");
  return result;
}

std::optional<std::string> unsupported(bool hasBatchingDims, bool isStatic,
                                       const std::vector<gather_scatter::Violation>& violations) {
  if (!violations.empty()) return "the op is invalid: " + violations[0].message;
  if (!hasBatchingDims) return "the op has no batching dims";
  if (!isStatic) return "the op has dynamic shapes";
  return std::nullopt;
}

}  // namespace

Decomposition decomposeGather(const GatherOp& op, const std::string& functionName) {
  bool isStatic =
      op.operand.isStatic() && op.start_indices.isStatic() && (!op.result || op.result->isStatic());
  if (auto reason = unsupported(!op.dimension_numbers.operand_batching_dims.empty(), isStatic,
                                gather_scatter::validateGather(op)))
    return {"", ProofResult::unknown(*reason)};
  GatherOp old = gather_scatter::decomposeBatchingDims(op);
  std::string text = gatherText(op, old, functionName);
  try {
    ReadBack back;
    if (auto reason = readBack(text, "stablehlo.gather", back))
      return {text, ProofResult::unknown(*reason)};
    GatherOp imported = stablehlo_import::importGather(*back.op);
    std::vector<gather_scatter::Violation> violations = gather_scatter::validateGather(imported);
    if (!violations.empty())
      return {text, ProofResult::unknown("the old form is invalid: " + violations[0].message)};
    index_provenance::IndexValues values =
        index_provenance::indexValues(*back.scope, back.op->operands[1], back.op->operandTypes[1]);
    return compare(text, index_provenance::foldGatherIndices(imported, values),
                   op.dimension_numbers.start_index_map.size(),
                   gather_scatter::gatherOutputToOperandMap(op));
  } catch (const Error& error) {
    return {text, ProofResult::unknown(error.what())};
  }
}

Decomposition decomposeScatter(const ScatterOp& op, const std::string& functionName) {
  bool isStatic = op.scatter_indices.isStatic();
  for (const TensorType& type : op.inputs) isStatic = isStatic && type.isStatic();
  for (const TensorType& type : op.updates) isStatic = isStatic && type.isStatic();
  if (auto reason = unsupported(!op.dimension_numbers.input_batching_dims.empty(), isStatic,
                                gather_scatter::validateScatter(op)))
    return {"", ProofResult::unknown(*reason)};
  std::optional<std::string> combiner = combinerName(op.update_computation);
  if (!combiner)
    return {"", ProofResult::unknown("the update computation is not one idxmap can write")};
  ScatterOp old = gather_scatter::decomposeBatchingDims(op);
  std::string text = scatterText(op, old, *combiner, functionName);
  try {
    ReadBack back;
    if (auto reason = readBack(text, "stablehlo.scatter", back))
      return {text, ProofResult::unknown(*reason)};
    ScatterOp imported = stablehlo_import::importScatter(*back.op);
    std::vector<gather_scatter::Violation> violations = gather_scatter::validateScatter(imported);
    if (!violations.empty())
      return {text, ProofResult::unknown("the old form is invalid: " + violations[0].message)};
    size_t n = imported.inputs.size();
    index_provenance::IndexValues values =
        index_provenance::indexValues(*back.scope, back.op->operands[n], back.op->operandTypes[n]);
    return compare(text, index_provenance::foldScatterIndices(imported, values),
                   op.dimension_numbers.scatter_dims_to_operand_dims.size(),
                   gather_scatter::scatterUpdateToResultMap(op));
  } catch (const Error& error) {
    return {text, ProofResult::unknown(error.what())};
  }
}

}  // namespace idxmap::mlir_batching_decomposition
