#include "ops/gather_analysis/modeled_op.h"

#include "core/checked.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"

namespace idxmap::mlir_gather_analysis {
namespace {

using namespace gather_scatter;

ModeledOp modeledGather(GatherOp gather, std::string indexSpace, std::string target,
                        std::string indices) {
  if (!hasStaticShapes(gather)) throw Error("the op has dynamic shapes");
  ModeledOp out;
  out.gather = std::move(gather);
  out.indicesOperand = 1;
  out.indexSpace = std::move(indexSpace);
  out.target = std::move(target);
  out.indices = std::move(indices);
  return out;
}

// A lowered form: indices must be in range; a prefix-reading lowering keeps the whole input.
ModeledOp modeledForm(const LoweredGather& lowered, const TensorType& input, std::string target) {
  ModeledOp out = modeledGather(lowered.op, "result", std::move(target), "indices");
  out.outOfRangeIsUndefined = true;
  if (!lowered.operand_prefix.empty()) out.wholeTarget = input.shape;
  return out;
}

}  // namespace

std::optional<ModeledOp> modelOp(const mlir_ir::Operation& op,
                                 const std::vector<mlir_ir::Operation>& block) {
  const std::string& name = op.name;
  if (name == "stablehlo.gather")
    return modeledGather(stablehlo_import::importGather(op), "result", "operand", "start_indices");
  if (name == "stablehlo.dynamic_gather") {
    DynamicGatherOp dynamic =
        stablehlo_import::importDynamicGather(op, constantSliceSizes(block, op));
    if (dynamic.slice_sizes.empty()) throw Error("the slice sizes are not a constant");
    return modeledGather(asGather(dynamic), "result", "operand", "start_indices");
  }
  if (name == "stablehlo.scatter" || name == "tensor.scatter") {
    ModeledOp out;
    if (name == "stablehlo.scatter") {
      out.scatter = stablehlo_import::importScatter(op);
      out.indicesOperand = out.scatter->inputs.size();
      out.indexSpace = "updates", out.target = "result", out.indices = "scatter_indices";
    } else {
      out.scatter = lowerTensorScatter(importTensorScatter(op)).op;
      out.indicesOperand = 2;
      out.indexSpace = "source", out.target = "result", out.indices = "indices";
      out.outOfRangeIsUndefined = true;
    }
    if (!hasStaticShapes(*out.scatter)) throw Error("the op has dynamic shapes");
    return out;
  }
  if (name == "tensor.gather") {
    TensorGatherOp form = importTensorGather(op);
    return modeledForm(lowerTensorGather(form), form.source, "source");
  }
  if (name == "tcp.gather") {
    TcpGatherOp form = importTcpGather(op);
    return modeledForm(lowerTcpGather(form), form.input, "input");
  }
  if (name == "tcp.gather_nd") {
    TcpGatherNdOp form = importTcpGatherNd(op);
    return modeledForm(lowerTcpGatherNd(form), form.input, "input");
  }
  return std::nullopt;
}

}  // namespace idxmap::mlir_gather_analysis
