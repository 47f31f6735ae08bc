// CUDA functions printed from kernel IR (codegen/ir/): a kernel's __global__ functions, and the
// host functions around them (launch, workspace, host entries), shared by the gather/scatter
// printer (cuda_kernel.cpp) and HLO stages (codegen/hlo/hlo_kernel.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/cpp/ir_printer.h"
#include "codegen/ir/kernel_ir.h"

namespace idxmap::codegen {

// `function` as CUDA, its statements printed in `style`.
std::string printGlobalFunction(const ir::GlobalFunction& function,
                                const ir::StatementStyle& style);

// `function` and the entries around it (ir::LaunchFunction): SYMBOL_workspace_bytes,
// SYMBOL_launch_in (allocates nothing and waits for nothing, so a CUDA graph can capture it),
// its _packed form, SYMBOL_launch (the workspace allocated and freed in stream order around
// launch_in) and the host entries SYMBOL and SYMBOL_packed (host buffers copied to the device,
// SYMBOL_launch, copied back).
std::string printLaunchFunction(const ir::LaunchFunction& function);

}  // namespace idxmap::codegen
