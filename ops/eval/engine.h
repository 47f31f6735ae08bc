// How gather, dynamic_gather and scatter are evaluated. Two independent engines compute every
// result, so that a disagreement points at a bug in one of them:
//   kReference: the spec's formulas, element by element (ops/eval/reference_evaluator.h);
//   kMaps: a walk of the ops' indexing maps (ops/eval/map_evaluator.h).
#pragma once

namespace idxmap::gather_scatter {

enum class Engine { kReference, kMaps };

}  // namespace idxmap::gather_scatter
