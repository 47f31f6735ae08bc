// What the codegen tests share. How they compile kernels: in the user's cache (so the sanitizer
// build and later runs reuse what the first run compiled), at -O1 (the tests check results, not
// speed), with every kernel's threads switched on whatever its size (the parallel code paths run on
// small ops too), and with an unused parameter or variable an error: emitted code names what it
// uses and marks what it may not (a buffer no statement touches is unnamed, an unread let is
// [[maybe_unused]]), so a user's -Wall -Wextra -Werror build takes it.
#pragma once

#include <cstring>

#include "codegen/run/jit.h"
#include "codegen/run/tensor_buffers.h"

namespace idxmap::codegen::testing {

inline JitOptions testJitOptions() {
  JitOptions options;
  options.flags = {"-std=c++20",
                   "-O1",
                   "-fopenmp",
                   "-fPIC",
                   "-shared",
                   "-DIDXMAP_PARALLEL_GRAIN=1",
                   "-Werror=unused-parameter",
                   "-Werror=unused-variable"};
  return options;
}

// Bit-for-bit equality of two tensors in their element type's storage (-0 and NaN payloads
// included), the comparison kernel tests make against the reference.
inline bool sameBits(const gather_scatter::Tensor& a, const gather_scatter::Tensor& b) {
  if (a.shape != b.shape || a.element_type != b.element_type) return false;
  Buffer x = toBuffer(a), y = toBuffer(b);
  // An empty buffer may have no storage: memcmp must not see its null pointer.
  return x.size() == y.size() && (x.size() == 0 || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

}  // namespace idxmap::codegen::testing
