// How the codegen tests compile kernels: in the user's cache (so the sanitizer build and later
// runs reuse what the first run compiled), at -O1 (the tests check results, not speed), with
// every kernel's threads switched on whatever its size (the parallel code paths run on
// small ops too).
#pragma once

#include "codegen/run/jit.h"

namespace idxmap::codegen::testing {

inline JitOptions testJitOptions() {
  JitOptions options;
  options.flags = {"-std=c++20", "-O1",     "-fopenmp",
                   "-fPIC",      "-shared", "-DIDXMAP_PARALLEL_GRAIN=1"};
  return options;
}

}  // namespace idxmap::codegen::testing
