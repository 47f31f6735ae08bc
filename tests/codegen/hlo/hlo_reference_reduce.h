// The HLO reference evaluator's variadic reduce and reduce-window (hlo_reference.h), from XLA's
// operation semantics with no indexing map: at each result index, N accumulators start at the
// inits and become the reducer of (accumulators..., the N inputs' elements...) at every position
// read, in row-major order (a window's positions in padding or a base dilation hole skipped, as
// XLA's evaluator skips them).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ops/eval/tensor.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/module.h"
#include "tests/codegen/hlo/hlo_reference_elements.h"

namespace idxmap::codegen::testing {

// `reducer`: the reducer computation evaluated as written on 2N scalars, giving N.
inline std::vector<gather_scatter::Tensor> referenceVariadicReduce(
    const hlo::Instruction& ins, const std::vector<gather_scatter::Tensor>& in,
    const std::function<
        std::vector<gather_scatter::Tensor>(const std::vector<gather_scatter::Tensor>&)>& reducer) {
  using gather_scatter::Tensor;
  const size_t n = in.size() / 2;
  const bool windowed = ins.opcode == "reduce-window";
  std::vector<int64_t> dims;
  std::vector<hlo::WindowDim> window;
  std::vector<int64_t> positions;  // the reduced dims' sizes, or the window's
  if (windowed) {
    window = hlo::readWindow(hlo::requireAttribute(ins, "window"), "window");
    for (const hlo::WindowDim& w : window) positions.push_back(w.size);
  } else {
    dims = hlo::readIntList(hlo::requireAttribute(ins, "dimensions"), "dimensions");
    for (size_t k = 0; k < in[0].shape.size(); ++k)
      if (std::count(dims.begin(), dims.end(), static_cast<int64_t>(k)))
        positions.push_back(in[0].shape[k]);
  }
  // The input index read at result index i and position r; nullopt where a window's position
  // falls outside the input.
  auto read = [&](const std::vector<int64_t>& i,
                  const std::vector<int64_t>& r) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> j(in[0].shape.size());
    size_t a = 0, b = 0;
    for (size_t k = 0; k < j.size(); ++k) {
      if (!windowed) {
        j[k] = std::count(dims.begin(), dims.end(), static_cast<int64_t>(k)) ? r[b++] : i[a++];
        continue;
      }
      int64_t base = i[k] * window[k].stride + r[k] * window[k].rhsDilate - window[k].padLow;
      if (base % window[k].lhsDilate != 0) return std::nullopt;
      base /= window[k].lhsDilate;
      if (base < 0 || base >= in[0].shape[k]) return std::nullopt;
      j[k] = base;
    }
    return j;
  };
  // Calls fn(index) for every index of `shape`, row-major.
  auto forEach = [](const std::vector<int64_t>& shape, const auto& fn) {
    if (std::count(shape.begin(), shape.end(), 0)) return;
    std::vector<int64_t> index(shape.size(), 0);
    do fn(index);
    while (nextIndex(shape, index));
  };
  const std::vector<int64_t>& shape = ins.shape.tupleElements.at(0).shape;
  std::vector<Tensor> out;
  for (size_t k = 0; k < n; ++k)
    out.push_back(
        gather_scatter::zeros(tensorType(ins.shape.tupleElements.at(k).element_type), shape));
  forEach(shape, [&](const std::vector<int64_t>& i) {
    std::vector<Tensor> acc;
    for (size_t k = 0; k < n; ++k) acc.push_back(gather_scatter::scalarAt(in[n + k], 0));
    forEach(positions, [&](const std::vector<int64_t>& r) {
      std::optional<std::vector<int64_t>> j = read(i, r);
      if (!j) return;
      std::vector<Tensor> arguments = acc;
      for (size_t k = 0; k < n; ++k)
        arguments.push_back(gather_scatter::scalarAt(in[k], linearPosition(in[k].shape, *j)));
      acc = reducer(arguments);
    });
    for (size_t k = 0; k < n; ++k)
      gather_scatter::copyElement(acc.at(k), 0, out[k], linearPosition(shape, i));
  });
  return out;
}

}  // namespace idxmap::codegen::testing
