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

// `IDXMAP_LAUNCH(kernel, idxmap_blocks(points), 256, stream, arguments);`, 2 spaces deep.
std::string cudaLaunch(const std::string& kernel, int64_t points, const std::string& arguments);

// `extern "C" int SYMBOL_launch(<device buffers and counts>, cudaStream_t stream)` (no body).
std::string cudaLaunchSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry);
// `SYMBOL_launch_in(device buffers..., void* idxmap_workspace, cudaStream_t stream)`: the launch
// in a caller's workspace (no allocation, no synchronization: a CUDA graph can capture it).
std::string cudaLaunchInSignature(const std::string& symbol, const std::vector<EntryBuffer>& entry);
// SYMBOL_launch's definition: SYMBOL_workspace_bytes() of device memory allocated and freed in
// stream order around SYMBOL_launch_in; `checked`: then waits for the stream and returns 2
// when the workspace's first int (the bad-index flag) is set.
std::string cudaWorkspaceLaunch(const std::string& symbol, const std::vector<EntryBuffer>& entry,
                                bool checked);
// SYMBOL (host buffers: copied to the device, SYMBOL_launch, copied back) and SYMBOL_packed.
std::string cudaHostEntries(const std::string& symbol, const std::vector<EntryBuffer>& entry);

}  // namespace idxmap::codegen
