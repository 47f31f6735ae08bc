// Reads tensor.gather / tensor.scatter (spec 001) and tcp.gather / tcp.gather_nd (spec 003)
// from the MLIR reader's model into their structs. Reading is not validating: a struct that
// comes back may still break the op's rules (validateTensorGather, ...). What the structs
// cannot do without — the operand and result types, the dims attribute — throws ParseError
// located at the op (or at the attribute, when it is there but malformed).
//
// Spelling accepted for the dims: `gather_dims` / `scatter_dims` (MLIR), and spec 001's
// `gather_along_dimension(s)` and `coordinates`; a tensor.gather without any of them is spec
// 001's implicit form, which gathers along every source dim.
#pragma once

#include "ops/forms/tcp_gather.h"
#include "ops/forms/tensor_gather.h"
#include "ops/mlir/module.h"

namespace idxmap::gather_scatter {

TensorGatherOp importTensorGather(const mlir_ir::Operation& op);
TensorScatterOp importTensorScatter(const mlir_ir::Operation& op);
TcpGatherOp importTcpGather(const mlir_ir::Operation& op);
TcpGatherNdOp importTcpGatherNd(const mlir_ir::Operation& op);

}  // namespace idxmap::gather_scatter
