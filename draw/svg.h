// A Picture (draw/picture.h) as SVG. Each tensor is a grid of cells: its last two dims as rows
// and columns, higher-rank tensors as 2-D slices side by side labelled with their leading
// indices (`operand[1, :, :]`). A dim longer than 10 shows its first and last two indices and
// the ones the drawn points use, with an ellipsis for what is left out, so a picture stays a
// few thousand cells whatever the shapes. Point i and the elements it reaches share colour i;
// a region a point may reach (unknown runtime values) is shaded lighter, an element two points
// reach has a red border, and the legend says each pair in words (clamped, skipped).
#pragma once

#include <string>

#include "draw/picture.h"

namespace idxmap::draw {

std::string renderSvg(const Picture& picture);

}  // namespace idxmap::draw
