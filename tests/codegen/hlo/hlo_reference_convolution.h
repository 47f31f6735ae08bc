// The HLO reference evaluator's convolution (hlo_reference.h), from XLA's operation semantics
// and its evaluator's HandleConvolution, with no indexing map: each output element is the sum,
// over the window's positions in row-major order (spatial dims in dim_labels order) and, inside
// each, the input features of the output feature's group, of the input element at
// `output * stride - padding_low + position * window_dilation` (skipped in a base dilation hole
// or outside the input) times the kernel element at the position (reversed where the window
// says so), both converted to the result type first; floats accumulate in float (f16 and bf16
// rounded once at the end) or double, integers wrap. Batch groups are not modeled here.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/hlo/attributes.h"
#include "ops/hlo/module.h"
#include "tests/codegen/hlo/hlo_reference_elements.h"

namespace idxmap::codegen::testing {

inline gather_scatter::Tensor referenceConvolution(const hlo::Instruction& conv,
                                                   const gather_scatter::Tensor& input,
                                                   const gather_scatter::Tensor& kernel) {
  using gather_scatter::Tensor;
  const std::string type = tensorType(conv.shape.element_type);
  const hlo::ConvolutionDimensions l =
      hlo::readDimLabels(hlo::requireAttribute(conv, "dim_labels"), "dim_labels");
  const size_t spatial = l.inputSpatial.size();
  const std::vector<hlo::WindowDim> window = hlo::readWindowOr(conv, spatial);
  const int64_t groups = hlo::readIntOr(conv, "feature_group_count", 1);
  const std::vector<int64_t>& out = conv.shape.shape;
  const int64_t groupInputs = kernel.shape[static_cast<size_t>(l.kernelInputFeature)];
  const int64_t groupOutputs = out[static_cast<size_t>(l.outputFeature)] / groups;
  std::vector<int64_t> windowSizes;
  for (const hlo::WindowDim& w : window) windowSizes.push_back(w.size);
  Tensor result = gather_scatter::zeros(type, out);
  if (gather_scatter::isEmptyShape(out)) return result;
  std::vector<int64_t> o(out.size(), 0);
  do {
    const int64_t feature = o[static_cast<size_t>(l.outputFeature)];
    const int64_t group = feature / groupOutputs;
    ProductSum sum(type);
    std::vector<int64_t> k(spatial, 0);
    bool any = true;
    for (int64_t size : windowSizes) any &= size > 0;
    if (any) do {
        std::vector<int64_t> in(input.shape.size()), ker(kernel.shape.size());
        bool inside = true;
        for (size_t i = 0; i < spatial && inside; ++i) {
          const hlo::WindowDim& w = window[i];
          int64_t at =
              o[static_cast<size_t>(l.outputSpatial[i])] * w.stride - w.padLow + k[i] * w.rhsDilate;
          if (w.lhsDilate > 1) {
            if (at % w.lhsDilate != 0) inside = false;
            at /= w.lhsDilate;
          }
          inside = inside && at >= 0 && at < input.shape[static_cast<size_t>(l.inputSpatial[i])];
          in[static_cast<size_t>(l.inputSpatial[i])] = at;
          ker[static_cast<size_t>(l.kernelSpatial[i])] = w.reversal ? w.size - 1 - k[i] : k[i];
        }
        if (!inside) continue;
        in[static_cast<size_t>(l.inputBatch)] = o[static_cast<size_t>(l.outputBatch)];
        ker[static_cast<size_t>(l.kernelOutputFeature)] = feature;
        for (int64_t f = 0; f < groupInputs; ++f) {
          in[static_cast<size_t>(l.inputFeature)] = group * groupInputs + f;
          ker[static_cast<size_t>(l.kernelInputFeature)] = f;
          sum.add(convertedElement(input, in, type), convertedElement(kernel, ker, type));
        }
      } while (nextIndex(windowSizes, k));
    sum.store(result, linearPosition(out, o));
  } while (nextIndex(out, o));
  return result;
}

}  // namespace idxmap::codegen::testing
