// How points reach CUDA threads, shared by the CUDA printers of gather/scatter kernels
// (cuda_kernel.cpp) and of HLO stages (codegen/hlo/hlo_kernel.cpp). A launch has a
// thread per point of a box, 256 a block, grid-stride past the block limit (cuda_file.cpp's
// idxmap_blocks); a thread decodes its point from its number. The loop and the decoding are
// kernel IR, read back and proven as a loop nest (thread_check.h: each point of the box once).
#pragma once

#include <string>
#include <vector>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/c_expr.h"
#include "codegen/kernel/loop_nest.h"
#include "core/indexing_map.h"

namespace idxmap::codegen {

class ThreadPoints {
 public:
  // The points of `map`'s dims (a box: the caller refuses dim constraints), each dim declared
  // in `width`. A thread may take several points, one or the other:
  //   rows > 1: a tile of `rows` consecutive values of d0 (the last tile may be shorter) at one
  //     value of the other dims; the thread's d0 is the tile's first;
  //   lanes > 1: `lanes` consecutive values of the last dim, whose extent they divide; the
  //     thread's last dim is the first of them.
  ThreadPoints(const IndexingMap& map, CWidth width, int64_t rows = 1, int64_t lanes = 1);

  // How many threads: the box's points, tiles or lane groups.
  int64_t points() const { return points_; }
  int64_t rows() const { return rows_; }
  CWidth numberWidth() const { return number_; }
  // The grid-stride loop over the threads' numbers (idxmap_point, kGrid), its body the point's
  // dims declared (`const W d<i> = <digit>;`, the tile's or lane group's first) then `body`.
  // checkGridPoints (thread_check.h) proves it from the IR.
  ir::Node gridLoop(std::vector<ir::Node> body) const;
  // The dims of the point numbered `number` (a name of numberWidth()), declared as kLets.
  std::vector<ir::Node> declaredDims(const std::string& number) const;

 private:
  // Mixed-radix digits of `number` over the extents (d0's counting tiles), d0 most
  // significant: consecutive threads take consecutive points of the last dim.
  std::vector<CExpr> decoded(const std::string& number) const;

  std::vector<Interval> ranges_;  // the dims', counting tiles of d0 or lane groups from 0
  std::vector<Interval> dims_;    // the dims'
  CWidth width_;
  int64_t rows_, lanes_;
  int64_t points_;
  CWidth number_;
};

// A buffer parameter of a __global__ function: "const float" and "in0" print
// `const float* __restrict__ in0`.
struct CudaBuffer {
  std::string type, name;
};
// `static __global__ void __launch_bounds__(256) NAME(<buffers><extraParameters>) {` then
// `body`. Every buffer is a parameter, in order (a launch passes them all); one that `body`
// does not index is left unnamed.
std::string cudaKernelFunction(const std::string& name, const std::vector<CudaBuffer>& buffers,
                               const std::string& extraParameters, const std::string& body);
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
