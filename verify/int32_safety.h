// int32 safety: whether every index expression a kernel evaluates for a map fits in signed 32
// bits over the whole domain — each result expression, every subexpression of it (the
// intermediates C evaluates, variables included), and the linearized element offset into the
// tensor the map reads or writes. Proven by interval bounds (RangeEvaluator) where they
// suffice, else by isl's exact minimum and maximum; refuted with the extreme value and the
// point that reaches it, replayed by evaluating the expression there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

// One map a kernel evaluates: "result -> operand", the map, and the shape of the tensor its
// results index (for the linearized offset; empty: none).
struct KernelMap {
  std::string name;
  IndexingMap map;
  std::vector<int64_t> targetShape;
};

struct ExpressionSafety {
  std::string map;           // the KernelMap's name
  std::string expression;    // "d0 * 4 + s0", or "offset = ..." for the linearized offset
  int64_t min = 0, max = 0;  // its exact range when isl gave it (interval bounds otherwise)
  ProofResult verdict;       // proven ("interval", "isl"), refuted with the point, unknown
};

struct Int32Safety {
  ProofResult verdict;  // proven when every expression is; the first refuted one otherwise
  std::vector<ExpressionSafety> expressions;
};

inline constexpr int64_t kInt32Min = -(int64_t{1} << 31);
inline constexpr int64_t kInt32Max = (int64_t{1} << 31) - 1;

// The maps are simplified first: a kernel evaluates the simplified expressions.
Int32Safety proveInt32Safety(const std::vector<KernelMap>& maps);

}  // namespace idxmap
