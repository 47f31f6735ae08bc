// The HLO reference evaluator's dot (hlo_reference.h), from XLA's operation semantics and its
// evaluator's HandleDot, with no indexing map: the result's dims are the batch dims (in
// lhs_batch_dims order), then lhs's other dims, then rhs's; each element is the sum, over the
// contracting dims in row-major order as lhs_contracting_dims lists them, of the products of the
// operands' elements converted to the result type. Floats accumulate in float (f16 and bf16
// too, rounded to their type once at the end) or double; integers wrap to the result's width.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/hlo/attributes.h"
#include "ops/hlo/module.h"
#include "tests/codegen/hlo/hlo_reference_elements.h"

namespace idxmap::codegen::testing {

inline gather_scatter::Tensor referenceDot(const hlo::Instruction& dot,
                                           const gather_scatter::Tensor& lhs,
                                           const gather_scatter::Tensor& rhs) {
  using gather_scatter::Tensor;
  const std::string type = tensorType(dot.shape.element_type);
  const std::vector<int64_t> lhsBatch = hlo::readIntListOr(dot, "lhs_batch_dims"),
                             rhsBatch = hlo::readIntListOr(dot, "rhs_batch_dims"),
                             lhsContracting = hlo::readIntListOr(dot, "lhs_contracting_dims"),
                             rhsContracting = hlo::readIntListOr(dot, "rhs_contracting_dims");
  auto freeDims = [](size_t rank, const std::vector<int64_t>& batch,
                     const std::vector<int64_t>& contracting) {
    std::vector<size_t> free;
    for (size_t d = 0; d < rank; ++d)
      if (!std::count(batch.begin(), batch.end(), static_cast<int64_t>(d)) &&
          !std::count(contracting.begin(), contracting.end(), static_cast<int64_t>(d)))
        free.push_back(d);
    return free;
  };
  const std::vector<size_t> lhsFree = freeDims(lhs.shape.size(), lhsBatch, lhsContracting),
                            rhsFree = freeDims(rhs.shape.size(), rhsBatch, rhsContracting);
  std::vector<int64_t> contractingSizes;
  for (int64_t d : lhsContracting) contractingSizes.push_back(lhs.shape[static_cast<size_t>(d)]);
  Tensor out = gather_scatter::zeros(type, dot.shape.shape);
  if (gather_scatter::isEmptyShape(dot.shape.shape)) return out;
  std::vector<int64_t> i(dot.shape.shape.size(), 0);
  do {
    std::vector<int64_t> l(lhs.shape.size()), r(rhs.shape.size());
    size_t at = 0;
    for (size_t k = 0; k < lhsBatch.size(); ++k, ++at) {
      l[static_cast<size_t>(lhsBatch[k])] = i[at];
      r[static_cast<size_t>(rhsBatch[k])] = i[at];
    }
    for (size_t d : lhsFree) l[d] = i[at++];
    for (size_t d : rhsFree) r[d] = i[at++];
    ProductSum sum(type);
    bool any = true;
    for (int64_t size : contractingSizes) any &= size > 0;
    std::vector<int64_t> c(contractingSizes.size(), 0);
    if (any) do {
        for (size_t k = 0; k < c.size(); ++k) {
          l[static_cast<size_t>(lhsContracting[k])] = c[k];
          r[static_cast<size_t>(rhsContracting[k])] = c[k];
        }
        sum.add(convertedElement(lhs, l, type), convertedElement(rhs, r, type));
      } while (nextIndex(contractingSizes, c));
    sum.store(out, linearPosition(dot.shape.shape, i));
  } while (nextIndex(dot.shape.shape, i));
  return out;
}

}  // namespace idxmap::codegen::testing
