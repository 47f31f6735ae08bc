// TCP's tcp.gather and tcp.gather_nd (spec 003) as plain data: validation and the lowering to
// a StableHLO gather (ops/forms/lowering.h).
//
//   tcp.gather:    out[i][j][k] = input[i][index[i][j][k]][k]  (dim = 1; likewise for any dim),
//                  indices of the input's rank, out shaped like the indices.
//   tcp.gather_nd: a, b = indices[i]; out[i][j] = input[a][b][j]: the indices' last dim holds
//                  coordinates into the input's leading dims.
// Spec 003 defines no result for an out-of-bounds index; the evaluators report one.
#pragma once

#include <optional>
#include <vector>

#include "ops/forms/lowering.h"

namespace idxmap::gather_scatter {

struct TcpGatherOp {
  TensorType input;    // sizes may be kDynamic for validation
  TensorType indices;  // int64
  int64_t dim = 0;
  std::optional<TensorType> result;
};

struct TcpGatherNdOp {
  TensorType input;
  TensorType indices;  // int64, rank >= 1; the last dim holds the coordinates
  std::optional<TensorType> result;
};

// Labels name the rule ("same-rank", "indices-shape", "result-shape", ...); messages quote
// TCP's verifier where it has the rule, spec 003's Inputs/Output lines where it does not.
std::vector<Violation> validateTcpGather(const TcpGatherOp& op);
std::vector<Violation> validateTcpGatherNd(const TcpGatherNdOp& op);

// Spec 003's output shape: the indices' shape (gather); indices[:-1] + input[m:] (gather_nd).
TensorType inferTcpGatherResultType(const TcpGatherOp& op);
TensorType inferTcpGatherNdResultType(const TcpGatherNdOp& op);

// Lowerings of valid ops with static shapes (idxmap::Error otherwise): tcp.gather is
// an elements gather along `dim`, every other dim a batching dim; tcp.gather_nd an nd gather
// without batching dims.
LoweredGather lowerTcpGather(const TcpGatherOp& op);
LoweredGather lowerTcpGatherNd(const TcpGatherNdOp& op);

}  // namespace idxmap::gather_scatter
