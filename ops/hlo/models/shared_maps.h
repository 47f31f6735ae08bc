// Index maps that several models build: the row-major reshape (reshape, bitcast) and
// padding and sliding windows (pad, reduce-window, convolution).
#pragma once

#include <vector>

#include "core/indexing_map.h"
#include "ops/hlo/attributes.h"

namespace idxmap::ops {

// The map from an index of shape `from` to the index of shape `to` holding the same element in
// row-major order (equal element counts). Like XLA, the dims are cut into the smallest groups
// whose element counts agree (a collapse, an expansion, or a generic group), and each group
// goes through its own linear index, so that the maps stay as simple as the reshape. Not
// simplified.
IndexingMap reshapeMap(const std::vector<int64_t>& from, const std::vector<int64_t>& to);

// Size of a padded dimension: low + high + size + (size - 1) * interior (size 0: low + high).
int64_t paddedSize(int64_t size, const hlo::PadDim& pad);
// Number of window positions over a dimension of `size` (XLA's window shape inference).
int64_t windowOutputSize(int64_t size, const hlo::WindowDim& window);

// From the padded shape to the operand: padded index d reads operand (d - low) / (interior + 1)
// where (d - low) mod (interior + 1) == 0 and the quotient is an operand index; other indices
// hold the padding value and are outside the domain. Negative padding crops. Not simplified.
IndexingMap paddedToOperand(const std::vector<int64_t>& operandDims,
                            const std::vector<hlo::PadDim>& pads);

// From window positions to the operand of a windowed op: position d and window offset s_i
// (one range variable per dimension, in order, s_i in [0, size_i - 1]) read the padded,
// base-dilated operand at d * stride + s * rhs_dilate. Composed with paddedToOperand, so
// padding and holes from lhs_dilate are outside the domain. Not simplified, so that range
// variable i is still window dimension i.
IndexingMap windowToOperand(const std::vector<int64_t>& operandDims,
                            const std::vector<hlo::WindowDim>& window);

}  // namespace idxmap::ops
