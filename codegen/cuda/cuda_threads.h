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

}  // namespace idxmap::codegen
