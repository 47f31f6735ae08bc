// How a CUDA kernel's threads reach its points, read back from the kernel IR alone and proven
// as a loop nest (KernelValidator::checkLoopNest, isl): whatever built the IR, the threads'
// points must be the map's domain, each once. What is read: a grid-stride loop (kFor mapped
// kGrid) over numbers [0, count) whose body opens with a kLet per dim, each an index
// expression of the number alone.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "codegen/ir/kernel_ir.h"
#include "codegen/validate/validation.h"
#include "core/indexing_map.h"

namespace idxmap::codegen {

// Several points a thread: a tile of `rows` consecutive values of d0 from the declared d0 while
// d0 stays in its range, or `lanes` consecutive values of the last dim from the declared one.
// At most one of them is above 1.
struct ThreadGroup {
  int64_t rows = 1, lanes = 1;
};

// `loop`'s threads enumerate `map`'s domain: each point once (with `group`, each tile or lane
// group's members). Unknown, with the reason, for IR of another shape; refuted when the decoded
// points miss or repeat one. A 32-bit number needs count <= 2^30 (the grid-stride step then
// never overflows: launches have at most 2^24 threads, cuda_file.cpp's idxmap_blocks).
ProofResult checkGridPoints(KernelValidator& validator, const ir::Node& loop,
                            const IndexingMap& map, ThreadGroup group = {});

// The dims `nodes` declare first (kLets d<i> of `number`, a name of `width`), as numbers
// [0, count) decode them: each point of `map`'s domain once. Deterministic mode's apply kernel
// decodes the point numbers the sort permuted.
ProofResult checkDecodedPoints(KernelValidator& validator, std::span<const ir::Node> nodes,
                               const std::string& number, CWidth width, int64_t count,
                               const IndexingMap& map);

}  // namespace idxmap::codegen
