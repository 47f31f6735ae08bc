#include "ops/hlo/models/shared_maps.h"

#include <algorithm>

#include "core/checked.h"

namespace idxmap::ops {

// --- Reshape ---------------------------------------------------------------------------------

namespace {

struct Group {
  size_t fromBegin, fromEnd, toBegin, toEnd;
};

// The smallest groups of consecutive dims with equal products. A zero-size dim makes every
// product 0, so such shapes are one group (their map is empty anyway).
std::vector<Group> groups(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  bool empty = std::count(from.begin(), from.end(), 0) + std::count(to.begin(), to.end(), 0) > 0;
  if (empty) return {{0, from.size(), 0, to.size()}};
  std::vector<Group> out;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    Group g{i, i, j, j};
    int64_t fromProduct = 1, toProduct = 1;
    do {
      if ((fromProduct <= toProduct && i < from.size()) || j == to.size())
        fromProduct = checkedMul(fromProduct, from[i++]);
      else
        toProduct = checkedMul(toProduct, to[j++]);
    } while (fromProduct != toProduct && (i < from.size() || j < to.size()));
    g.fromEnd = i;
    g.toEnd = j;
    out.push_back(g);
  }
  return out;
}

}  // namespace

IndexingMap reshapeMap(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  IndexingMap map = IndexingMap::identity(from);
  map.results.clear();
  for (const Group& g : groups(from, to)) {
    Expr linear = Expr::constant(0);
    int64_t stride = 1;
    for (size_t k = g.fromEnd; k-- > g.fromBegin;) {
      linear = linear + Expr::dim(static_cast<unsigned>(k)) * stride;
      stride = checkedMul(stride, from[k]);
    }
    std::vector<Expr> results;
    stride = 1;
    for (size_t k = g.toEnd; k-- > g.toBegin;) {
      Expr index = linear.floorDiv(std::max<int64_t>(stride, 1));
      // The outermost dim of a group needs no mod: the linear index is below the product.
      if (k != g.toBegin) index = index.mod(std::max<int64_t>(to[k], 1));
      results.push_back(index);
      stride = checkedMul(stride, to[k]);
    }
    map.results.insert(map.results.end(), results.rbegin(), results.rend());
  }
  return map;
}

// --- Padding and windows ---------------------------------------------------------------------

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
