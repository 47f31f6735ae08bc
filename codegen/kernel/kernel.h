// A kernel as ops describe it to the emitter: not code, but an op's simplified map, where its
// runtime variables are loaded from, which elements move where, and the proven facts that
// decide the code. cpp_kernel.h prints it; every op family contributes only this.
//
// Semantics of one kernel, for every point p of `map`'s dims (row-major order when the
// strategy is ordered):
//   rt_k = value of loads[k].buffer at loads[k].offset(p)   (plus wrapNegative[k] when that
//          is set and the value is negative; then clamped into rt_k's range when `clamp`;
//          otherwise, when `guard` or `check`, p is skipped unless the values are in range and
//          the map's constraints hold, and under `check` the entry then returns 2)
//   for each transfer: target[to.offset(p, rt)] = combine(target[...], source[from.offset(p, rt)])
//          (a copy when `combine` is empty); when `coupled`, each combine takes every transfer's
//          target value, then every source value (in transfer order), all read before any store
// after each `initialCopies` pair (into, from) copied whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap::codegen {

struct KernelBuffer {
  std::string name;  // a C identifier: "operand", "start_indices", "result0"
  std::string elementType;
  std::vector<int64_t> shape;
  bool written = false;
  // Minor-to-major order of the elements in memory (XLA's layout); empty: row-major.
  std::vector<int64_t> layout = {};
  // Sub-byte elements packed 8 / packedBits to a byte (XLA's E(n) layouts; the first of each
  // byte's elements in its high bits), in the layout's order; 0: one element to its storage.
  int packedBits = 0;
  int64_t elements() const;
};

// An element access: buffer `buffer` at a row-major offset given by an Expr over the map's
// dims and runtime variables.
struct Access {
  size_t buffer = 0;
  Expr offset;
};

struct Transfer {
  Access to, from;
  std::string combine;  // a prelude function (scatter's update computation); empty: copy
};

// A proof the code relies on, as the header states it.
struct ReliedFact {
  std::string statement;  // "start indices never clamped -> no clamp emitted"
  ProofResult proof;      // proven, with its certificate and assumptions
};

enum class Strategy : uint8_t {
  kIndependent,  // no two points write one element: the loop nest runs in parallel
  kOrdered,      // writes may collide: row-major order, parallel across disjoint targets
  // Writes collide only between points of one run of equal index vectors along d0 (the
  // indices are sorted, and each target coordinate that depends on them is one of them):
  // threads split d0 at run boundaries, each walks its range in row-major order.
  kSegmented,
};

struct Kernel {
  std::string symbol;                                     // the extern "C" entry point
  std::string op;                                         // "stablehlo.gather"
  std::string location;                                   // "file.mlir:17:11"
  std::vector<std::pair<std::string, IndexingMap>> maps;  // as the header prints them
  IndexingMap map;  // the loop domain (dims), runtime variables and their constraints
  std::vector<KernelBuffer> buffers;  // parameters, in order
  std::vector<Access> loads;          // one per runtime variable of `map`
  bool clamp = false;                 // gather: clamp loaded values into their ranges
  bool guard = false;                 // scatter: skip points outside the map's domain
  // Forms where an index value out of range is an error (torch, TF, ONNX): such a point is
  // skipped and the entry returns 2 once every other point is done.
  bool check = false;
  std::vector<int64_t> wrapNegative;  // per load, 0: none (ONNX's negative indices)
  std::vector<std::pair<size_t, size_t>> initialCopies;  // (into, from) buffers
  std::vector<Transfer> transfers;
  // An update computation whose new values read every input (HLO's argmax scatter): see above.
  // Its combines are the caller's functions, not the prelude's, and have no atomic form.
  bool coupled = false;
  Strategy strategy = Strategy::kOrdered;
  // kOrdered: what threads split. A dim or runtime variable that one coordinate of every target
  // is (a runtime variable plus a constant), so points that differ in it never write one
  // element: each thread takes a share of its range and walks its points in row-major order.
  // Otherwise each thread owns a range of the target's elements (and walks every point).
  enum class SplitBy : uint8_t { kTargetElements, kDim, kRuntimeVar };
  SplitBy splitBy = SplitBy::kTargetElements;
  unsigned splitIndex = 0;        // the dim or runtime variable
  bool int32 = false;             // index arithmetic in int32_t
  std::vector<ReliedFact> facts;  // what the choices above rest on
  // kIndependent where a target reads index values: the entry of `facts` proving that no two
  // points write one element (a target of dims alone is proven distinct by validation itself).
  std::optional<size_t> distinctTargets;
  std::vector<std::string> notes;  // choices made without a proof ("clamps kept: ...")
};

// A map on one line, for header comments.
std::string oneLine(const IndexingMap& map);

}  // namespace idxmap::codegen
