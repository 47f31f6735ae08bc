#include "ops/gather_analysis/gather_maps.h"

#include "core/bridges/isl_bridge.h"
#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"
#include "ops/provenance/fold.h"
#include "simplifier/simplify.h"

namespace idxmap::mlir_gather_analysis {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_provenance::FoldedMap;
using index_provenance::IndexValues;
using mlir_ir::Operation;

OpMap plainMap(std::string from, std::string to, const IndexingMap& map) {
  IndexingMap simplified = simplify(map);
  return {std::move(from), std::move(to), simplified, printIsl(simplified), false};
}

OpMap foldedMap(std::string from, std::string to, const FoldedMap& folded) {
  return {std::move(from), std::move(to), folded.map, index_provenance::islText(folded.relation),
          folded.anyFolded()};
}

// The values of operand `index` of `op` (the indices), as far as provenance knows them.
IndexValues indicesValues(const std::vector<Operation>& scope, const Operation& op, size_t index) {
  mlir_ir::Type type = op.operandTypes.at(index);
  return index_provenance::indexValues(scope, op.operands.at(index), type);
}

std::string describe(const IndexValues& values, const FoldedMap& folded) {
  if (folded.anyFolded()) return values.provenance;
  if (values.anyKnown()) return values.provenance + " (not known at every point read)";
  return values.provenance;
}

// A valid op with a `?` dim has no map to print; that is not an error.
constexpr const char* kDynamic = "no maps: the op has dynamic shapes";

void analyzeGather(const std::vector<Operation>& scope, const Operation& op, const GatherOp& gather,
                   AnalyzedOp& out, bool clampIndices = true) {
  out.violations = gather_scatter::validateGather(gather);
  if (!out.violations.empty()) return;
  if (!gather_scatter::hasStaticShapes(gather)) {
    out.indices = kDynamic;
    return;
  }
  IndexValues values = indicesValues(scope, op, 1);
  FoldedMap folded = index_provenance::foldGatherIndices(gather, values, clampIndices);
  out.indices = describe(values, folded);
  out.maps.push_back(foldedMap("result", "operand", folded));
  out.maps.push_back(
      plainMap("result", "start_indices", gather_scatter::gatherOutputToStartIndicesMap(gather)));
}

void analyzeScatter(const std::vector<Operation>& scope, const Operation& op,
                    const ScatterOp& scatter, AnalyzedOp& out, size_t indicesOperand) {
  out.violations = gather_scatter::validateScatter(scatter);
  if (!out.violations.empty()) return;
  if (!gather_scatter::hasStaticShapes(scatter)) {
    out.indices = kDynamic;
    return;
  }
  IndexValues values = indicesValues(scope, op, indicesOperand);
  FoldedMap folded = index_provenance::foldScatterIndices(scatter, values);
  out.indices = describe(values, folded);
  out.maps.push_back(foldedMap("updates", "result", folded));
  out.maps.push_back(
      plainMap("updates", "scatter_indices", gather_scatter::scatterUpdateToIndicesMap(scatter)));
}

// tensor.gather / tensor.scatter (spec 001), tcp.gather / tcp.gather_nd (spec 003): their rules,
// then the maps of their StableHLO lowering, indices not clamped (out of bounds is undefined
// behavior there).
void analyzeOtherForm(const std::vector<Operation>& scope, const Operation& op, AnalyzedOp& out) {
  using namespace gather_scatter;
  if (op.name == "tensor.scatter") {
    TensorScatterOp scatter = importTensorScatter(op);
    out.violations = validateTensorScatter(scatter);
    if (!out.violations.empty()) return;
    if (!allStatic({&scatter.source, &scatter.dest, &scatter.indices})) {
      out.indices = kDynamic;
      return;
    }
    analyzeScatter(scope, op, lowerTensorScatter(scatter).op, out, 2);
    return;
  }
  std::optional<LoweredGather> lowered;
  if (op.name == "tensor.gather") {
    TensorGatherOp gather = importTensorGather(op);
    out.violations = validateTensorGather(gather);
    if (out.violations.empty() && allStatic({&gather.source, &gather.indices}))
      lowered = lowerTensorGather(gather);
  } else if (op.name == "tcp.gather") {
    TcpGatherOp gather = importTcpGather(op);
    out.violations = validateTcpGather(gather);
    if (out.violations.empty() && allStatic({&gather.input, &gather.indices}))
      lowered = lowerTcpGather(gather);
  } else {
    TcpGatherNdOp gather = importTcpGatherNd(op);
    out.violations = validateTcpGatherNd(gather);
    if (out.violations.empty() && allStatic({&gather.input, &gather.indices}))
      lowered = lowerTcpGatherNd(gather);
  }
  if (!out.violations.empty()) return;
  if (!lowered) {
    out.indices = kDynamic;
    return;
  }
  analyzeGather(scope, op, lowered->op, out, /*clampIndices=*/false);
}

AnalyzedOp analyzeOp(const std::vector<Operation>& scope, const Operation& op,
                     const std::string& function) {
  AnalyzedOp out{op.location, op.name, function, std::nullopt, {}, {}, ""};
  try {
    if (op.name == "stablehlo.gather") {
      analyzeGather(scope, op, stablehlo_import::importGather(op), out);
    } else if (op.name == "stablehlo.dynamic_gather") {
      gather_scatter::DynamicGatherOp dynamic =
          stablehlo_import::importDynamicGather(op, constantSliceSizes(scope, op));
      out.violations = gather_scatter::validateDynamicGather(dynamic);
      if (out.violations.empty() && dynamic.slice_sizes.empty())
        out.importError = op.name + ": the slice sizes are not a constant; no map";
      else if (out.violations.empty())
        analyzeGather(scope, op, gather_scatter::asGather(dynamic), out);
    } else if (op.name == "stablehlo.scatter") {
      ScatterOp scatter = stablehlo_import::importScatter(op);
      analyzeScatter(scope, op, scatter, out, scatter.inputs.size());
    } else {
      analyzeOtherForm(scope, op, out);
    }
  } catch (const stablehlo_import::ImportError& error) {
    out.location = error.location();
    out.importError = error.message();
  } catch (const ParseError& error) {  // the importers of the other forms
    out.location = error.location();
    out.importError = error.message();
  }
  return out;
}

}  // namespace

bool isGatherOrScatter(const std::string& name) {
  return name == "stablehlo.gather" || name == "stablehlo.dynamic_gather" ||
         name == "stablehlo.scatter" || name == "tensor.gather" || name == "tensor.scatter" ||
         name == "tcp.gather" || name == "tcp.gather_nd";
}

std::optional<std::vector<int64_t>> constantSliceSizes(const std::vector<Operation>& scope,
                                                       const Operation& op) {
  if (op.operands.size() < 3) return std::nullopt;
  const Operation* def = mlir_ir::definingOp(scope, op.operands[2]);
  if (!def || def->name != "stablehlo.constant") return std::nullopt;
  const mlir_ir::Attribute* value = def->attribute("value");
  if (!value || !value->dense || value->dense->type.rank() != 1) return std::nullopt;
  std::optional<int64_t> count = value->dense->type.elementCount();
  if (!count || *count > 1024) return std::nullopt;  // one size per operand dim
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < *count; ++i) sizes.push_back(value->dense->intAt(i));
  return sizes;
}

namespace {

// Calls visit(scope, op, functionName) for each gather / scatter, in text order.
template <typename Visit>
void forEachGatherOrScatter(const mlir_ir::Module& module, Visit&& visit) {
  for (const mlir_ir::Function& function : module.functions) {
    if (function.body.blocks.empty()) continue;
    const std::vector<Operation>& scope = function.body.blocks[0].operations;
    for (const Operation& op : scope)
      if (isGatherOrScatter(op.name)) visit(scope, op, function.name);
  }
  for (const Operation& op : module.operations)
    if (isGatherOrScatter(op.name)) visit(module.operations, op, std::string());
}

std::optional<DecomposedOp> decomposeOp(const Operation& op, const std::string& function,
                                        const std::string& newName) {
  DecomposedOp out{op.location, op.name, function, std::nullopt, {}, {}};
  try {
    if (op.name == "stablehlo.gather") {
      GatherOp gather = stablehlo_import::importGather(op);
      out.violations = gather_scatter::validateGather(gather);
      if (out.valid() && gather.dimension_numbers.operand_batching_dims.empty())
        return std::nullopt;
      if (out.valid())
        out.decomposition = mlir_batching_decomposition::decomposeGather(gather, newName);
    } else if (op.name == "stablehlo.scatter") {
      ScatterOp scatter = stablehlo_import::importScatter(op);
      out.violations = gather_scatter::validateScatter(scatter);
      if (out.valid() && scatter.dimension_numbers.input_batching_dims.empty()) return std::nullopt;
      if (out.valid())
        out.decomposition = mlir_batching_decomposition::decomposeScatter(scatter, newName);
    } else {
      return std::nullopt;  // dynamic_gather has no batching dims
    }
  } catch (const stablehlo_import::ImportError& error) {
    out.location = error.location();
    out.importError = error.message();
  }
  return out;
}

}  // namespace

std::vector<AnalyzedOp> analyzeGathers(const mlir_ir::Module& module) {
  std::vector<AnalyzedOp> analyzed;
  forEachGatherOrScatter(module, [&](const std::vector<Operation>& scope, const Operation& op,
                                     const std::string& function) {
    analyzed.push_back(analyzeOp(scope, op, function));
  });
  return analyzed;
}

std::vector<DecomposedOp> decomposeBatchingOps(const mlir_ir::Module& module) {
  std::vector<DecomposedOp> decomposed;
  size_t count = 0;
  forEachGatherOrScatter(
      module, [&](const std::vector<Operation>&, const Operation& op, const std::string& function) {
        std::string kind = op.name.substr(op.name.find('.') + 1);
        std::string newName = (function.empty() ? std::string("op") : function) + "_" + kind +
                              "_decomposed_" + std::to_string(count);
        if (std::optional<DecomposedOp> one = decomposeOp(op, function, newName)) {
          decomposed.push_back(std::move(*one));
          ++count;
        }
      });
  return decomposed;
}

}  // namespace idxmap::mlir_gather_analysis
