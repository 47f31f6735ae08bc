#include "ops/hlo/models/window_map.h"

#include <algorithm>

#include "core/checked.h"

namespace idxmap::ops {

int64_t paddedSize(int64_t size, const hlo::PadDim& pad) {
  int64_t interior = size > 0 ? checkedMul(size - 1, pad.interior) : 0;
  return checkedAdd(checkedAdd(checkedAdd(pad.low, pad.high), size), interior);
}

int64_t windowOutputSize(int64_t size, const hlo::WindowDim& window) {
  int64_t padded = paddedSize(size, {window.padLow, window.padHigh, window.lhsDilate - 1});
  int64_t dilatedWindow = checkedAdd(checkedMul(window.size - 1, window.rhsDilate), 1);
  if (padded < dilatedWindow) return 0;
  return (padded - dilatedWindow) / window.stride + 1;
}

IndexingMap paddedToOperand(const std::vector<int64_t>& operandDims,
                            const std::vector<hlo::PadDim>& pads) {
  IndexingMap map;
  for (size_t i = 0; i < operandDims.size(); ++i) {
    const hlo::PadDim& pad = pads[i];
    int64_t step = pad.interior + 1;
    int64_t padded = paddedSize(operandDims[i], pad);
    // The padded indices that hold operand elements, cropped to the padded shape.
    int64_t first = std::max<int64_t>(pad.low, 0);
    int64_t last = std::min(padded - 1, checkedAdd(pad.low, checkedMul(operandDims[i] - 1, step)));
    if (operandDims[i] == 0) last = first - 1;
    map.dims.push_back({{first, last}, ""});
    Expr offset = Expr::dim(static_cast<unsigned>(i)) - pad.low;
    map.results.push_back(offset.floorDiv(step));
    if (step > 1) map.constraints.push_back({offset.mod(step), {0, 0}});
  }
  return map;
}

IndexingMap windowToOperand(const std::vector<int64_t>& operandDims,
                            const std::vector<hlo::WindowDim>& window) {
  IndexingMap positions;
  std::vector<hlo::PadDim> pads;
  for (size_t i = 0; i < window.size(); ++i) {
    const hlo::WindowDim& w = window[i];
    positions.dims.push_back({{0, windowOutputSize(operandDims[i], w) - 1}, ""});
    positions.rangeVars.push_back({{0, w.size - 1}, ""});
    positions.results.push_back(Expr::dim(static_cast<unsigned>(i)) * w.stride +
                                Expr::rangeVar(static_cast<unsigned>(i)) * w.rhsDilate);
    pads.push_back({w.padLow, w.padHigh, w.lhsDilate - 1});
  }
  IndexingMap padded = paddedToOperand(operandDims, pads);
  // compose keeps `positions`' results inside `padded`'s dims: the operand elements only.
  return compose(positions, padded);
}

}  // namespace idxmap::ops
