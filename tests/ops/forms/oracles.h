// Oracles for the non-StableHLO gather forms, each written from its own spec's formula and
// nothing else (no StableHLO, no maps): spec 001 for tensor.gather / tensor.scatter, spec 003
// for tcp.gather / tcp.gather_nd, the torch / TF / ONNX operator docs for the rest. The tests
// compare them with the StableHLO lowerings run through both StableHLO evaluators. They take
// in-bounds indices (ONNX: in [-s, s)); they do not check.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "ops/eval/tensor.h"

namespace idxmap::gather_scatter::testing {

using Index = std::vector<int64_t>;

inline int64_t intAt(const Tensor& t, const Index& index) {
  return t.intAt(linearPosition(t.shape, index));
}

inline void copyAt(const Tensor& from, const Index& fromIndex, Tensor& to, const Index& toIndex) {
  int64_t f = linearPosition(from.shape, fromIndex), t = linearPosition(to.shape, toIndex);
  if (to.isFloat())
    to.floats[t] = from.floats.at(f);
  else
    to.ints[t] = from.ints.at(f);
}

// Calls visit(index) for every index of `shape` in row-major order.
template <typename Visit>
void forEachIndex(const Index& shape, Visit visit) {
  if (isEmptyShape(shape)) return;
  Index index(shape.size(), 0);
  do visit(index);
  while (nextIndex(shape, index));
}

// ONNX: "negative value means counting dimensions from the back".
inline int64_t onnxIndex(int64_t value, int64_t size) { return value < 0 ? value + size : value; }

// Spec 001: for each coordinate tuple in the indices' last dim, the slice of `source` with the
// gathered dims fixed at the coordinates and the other dims whole, placed after the indices'
// leading dims; a gathered dim stays as a unit dim unless the result is rank-reduced.
inline Tensor tensorGatherOracle(const Tensor& source, const Tensor& indices,
                                 const Index& gatherDims, bool rankReduced) {
  const size_t batchRank = indices.shape.size() - 1;
  Index shape(indices.shape.begin(), indices.shape.end() - 1);
  for (size_t d = 0; d < source.shape.size(); ++d) {
    bool gathered = std::count(gatherDims.begin(), gatherDims.end(), int64_t(d)) > 0;
    if (!gathered) shape.push_back(source.shape[d]);
    if (gathered && !rankReduced) shape.push_back(1);
  }
  Tensor result = zeros(source.element_type, shape);
  forEachIndex(shape, [&](const Index& out) {
    Index coordinatesAt(out.begin(), out.begin() + batchRank);
    coordinatesAt.push_back(0);
    Index from;
    size_t next = batchRank, k = 0;
    for (size_t d = 0; d < source.shape.size(); ++d) {
      if (k < gatherDims.size() && gatherDims[k] == int64_t(d)) {
        coordinatesAt.back() = int64_t(k++);
        from.push_back(intAt(indices, coordinatesAt));
        if (!rankReduced) ++next;  // the unit dim
      } else {
        from.push_back(out[next++]);
      }
    }
    copyAt(source, from, result, out);
  });
  return result;
}

// Spec 001's scatter: dest with each source slice written at its coordinates.
inline Tensor tensorScatterOracle(const Tensor& source, const Tensor& dest, const Tensor& indices,
                                  const Index& scatterDims, bool rankReduced) {
  const size_t batchRank = indices.shape.size() - 1;
  Tensor result = dest;
  forEachIndex(source.shape, [&](const Index& in) {
    Index coordinatesAt(in.begin(), in.begin() + batchRank);
    coordinatesAt.push_back(0);
    Index to;
    size_t next = batchRank, k = 0;
    for (size_t d = 0; d < dest.shape.size(); ++d) {
      if (k < scatterDims.size() && scatterDims[k] == int64_t(d)) {
        coordinatesAt.back() = int64_t(k++);
        to.push_back(intAt(indices, coordinatesAt));
        if (!rankReduced) ++next;
      } else {
        to.push_back(in[next++]);
      }
    }
    copyAt(source, in, result, to);
  });
  return result;
}

// torch.gather / tcp.gather / onnx.GatherElements: out[i][j][k] = input[index[i][j][k]][j][k]
// for dim = 0, and likewise for the other dims. `wrap` applies ONNX's negative indices.
inline Tensor elementsGatherOracle(const Tensor& input, int64_t dim, const Tensor& index,
                                   bool wrap = false) {
  Tensor out = zeros(input.element_type, index.shape);
  forEachIndex(index.shape, [&](const Index& i) {
    Index from = i;
    int64_t value = intAt(index, i);
    from[dim] = wrap ? onnxIndex(value, input.shape[dim]) : value;
    copyAt(input, from, out, i);
  });
  return out;
}

// tf.gather (torch.index_select and onnx.Gather with batchDims = 0): the output is
// params[:axis] + indices[batch_dims:] + params[axis + 1:] and
//   out[p_0.., p_axis-1, i_b.., t..] = params[p_0.., p_axis-1, indices[p_0..p_b-1, i_b..], t..].
inline Tensor axisGatherOracle(const Tensor& params, const Tensor& indices, int64_t axis,
                               int64_t batchDims, bool wrap = false) {
  const auto q = static_cast<int64_t>(indices.shape.size());
  Index shape(params.shape.begin(), params.shape.begin() + axis);
  shape.insert(shape.end(), indices.shape.begin() + batchDims, indices.shape.end());
  shape.insert(shape.end(), params.shape.begin() + axis + 1, params.shape.end());
  Tensor out = zeros(params.element_type, shape);
  forEachIndex(shape, [&](const Index& o) {
    Index at(o.begin(), o.begin() + batchDims);
    at.insert(at.end(), o.begin() + axis, o.begin() + (axis + q - batchDims));
    int64_t value = intAt(indices, at);
    Index from(o.begin(), o.begin() + axis);
    from.push_back(wrap ? onnxIndex(value, params.shape[axis]) : value);
    from.insert(from.end(), o.begin() + (axis + q - batchDims), o.end());
    copyAt(params, from, out, o);
  });
  return out;
}

// onnx.GatherND / tcp.gather_nd: out[b.., i.., t..] = data[b.., indices[b.., i.., :], t..], the
// output shaped indices[:-1] + data[batch_dims + m:].
inline Tensor ndGatherOracle(const Tensor& data, const Tensor& indices, int64_t batchDims,
                             bool wrap = false) {
  const auto q = static_cast<int64_t>(indices.shape.size());
  const int64_t m = indices.shape.back();
  Index shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.insert(shape.end(), data.shape.begin() + batchDims + m, data.shape.end());
  Tensor out = zeros(data.element_type, shape);
  forEachIndex(shape, [&](const Index& o) {
    Index from(o.begin(), o.begin() + batchDims);
    Index at(o.begin(), o.begin() + (q - 1));
    at.push_back(0);
    for (int64_t k = 0; k < m; ++k) {
      at.back() = k;
      int64_t value = intAt(indices, at);
      from.push_back(wrap ? onnxIndex(value, data.shape[batchDims + k]) : value);
    }
    from.insert(from.end(), o.begin() + (q - 1), o.end());
    copyAt(data, from, out, o);
  });
  return out;
}

inline int64_t uniformIn(std::mt19937& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

inline Index randomShape(std::mt19937& rng, int64_t rank, int64_t lo, int64_t hi) {
  Index shape;
  for (int64_t d = 0; d < rank; ++d) shape.push_back(uniformIn(rng, lo, hi));
  return shape;
}

// Values 100, 101, ...: reading the wrong element shows.
inline Tensor numbered(const std::string& type, const Index& shape) {
  Tensor tensor = zeros(type, shape);
  for (size_t i = 0; i < tensor.ints.size(); ++i) tensor.ints[i] = 100 + int64_t(i);
  for (size_t i = 0; i < tensor.floats.size(); ++i) tensor.floats[i] = 0.5 * double(i) - 7;
  return tensor;
}

}  // namespace idxmap::gather_scatter::testing
