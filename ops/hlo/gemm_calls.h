// XLA's GPU compiler hands a dot to cuBLAS as a custom call (custom_call_target="__cublas$gemm"
// or "__cublas$lt$matmul"), its dimension numbers and scaling in the JSON of backend_config.
#pragma once

#include "ops/hlo/module.h"

namespace idxmap::hlo {

// Reads such a call as the dot it computes, when it computes exactly one: two operands, an array
// result, alpha 1 with no imaginary part, beta 0, no epilogue (or DEFAULT). It becomes a `dot`
// with lhs/rhs_contracting_dims and lhs/rhs_batch_dims from the config (located at
// backend_config), and `custom_call_target` stays among its attributes to say where it came
// from. Whether it did; any other custom call is left as it is (no model: no kernel, and the
// reason says so).
bool readGemmCall(Instruction& instruction);

}  // namespace idxmap::hlo
