// Loop nests (isl's, codegen/kernel/loop_nest.h) as IR, and how their iterations are spread over
// threads and SIMD lanes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/loop_nest.h"

namespace idxmap::codegen::ir {

// The nest's loops and guards as IR, each statement of it `statement(point)`.
std::vector<Node> fromLoopNest(const LoopNest& nest,
                               const std::function<Node(const std::vector<CExpr>&)>& statement);

// A nest of loops (kFor), guards (kIf), blocks and statements (scoped kBlocks) read back from
// the IR as the LoopNest validation proves (KernelValidator::checkLoopNest) over `map`'s dims,
// iterators in `width`: what the IR runs, whatever built it. A statement's point is the dims'
// iterators, or the index values its kLets give d<i>. nullopt, with `why`, for another node.
std::optional<LoopNest> readLoopNest(const std::vector<Node>& nodes, const IndexingMap& map,
                                     CWidth width, std::string& why);
// The same over the nest's top nodes, gathering into `parts` each statement read and each node
// inside a loop or guard that `isAside` keeps out of the nest (a prefetch, which runs no point).
struct NestParts {
  std::vector<const Node*> statements, aside;
};
std::optional<LoopNest> readLoopNest(const std::vector<const Node*>& nodes, const IndexingMap& map,
                                     CWidth width, std::string& why, NestParts* parts = nullptr,
                                     const std::function<bool(const Node&)>& isAside = {});

// Where a nest's points are independent: threads share its first loop and the perfectly
// nested, constant-bounded loops below it, collapsed only as far as it takes to have 64 chunks
// (collapsing costs a division per point), with SIMD lanes when that reaches the innermost
// loop; every other innermost loop gets SIMD lanes. No SIMD when `vectorize` is false. Each
// loop over `bodyStartIterator` that no collapse joins to the loops inside it starts with
// `bodyStart` (a prefetch of a later iteration's data).
void mapIndependentLoops(std::vector<Node>& nest, bool vectorize,
                         const std::string& bodyStartIterator = {},
                         const std::vector<Node>& bodyStart = {});

}  // namespace idxmap::codegen::ir
