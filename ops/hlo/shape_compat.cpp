#include "ops/hlo/shape_compat.h"

#include <algorithm>

namespace idxmap::hlo {
namespace {

enum class DimKind { Static, Bounded, Unbounded };

DimKind kindOf(const Shape& shape, size_t dim) {
  if (!isDynamicDim(shape, dim)) return DimKind::Static;
  return shape.dims[dim] < 0 ? DimKind::Unbounded : DimKind::Bounded;
}

std::string describeDim(const Shape& shape, size_t dim) {
  switch (kindOf(shape, dim)) {
    case DimKind::Static:
      return std::to_string(shape.dims[dim]);
    case DimKind::Bounded:
      return "<=" + std::to_string(shape.dims[dim]);
    case DimKind::Unbounded:
      return "?";
  }
  return "";
}

bool dimsCompatible(const Shape& a, size_t i, const Shape& b) {
  DimKind ka = kindOf(a, i), kb = kindOf(b, i);
  if (ka == DimKind::Unbounded || kb == DimKind::Unbounded) return true;
  if (ka == DimKind::Static && kb == DimKind::Static) return a.dims[i] == b.dims[i];
  // A bounded dim can be any size up to its bound; two bounded dims can both be 0.
  if (ka == DimKind::Bounded && kb == DimKind::Bounded) return true;
  int64_t size = ka == DimKind::Static ? a.dims[i] : b.dims[i];
  int64_t bound = ka == DimKind::Static ? b.dims[i] : a.dims[i];
  return size <= bound;
}

}  // namespace

bool isDynamicDim(const Shape& shape, size_t dim) {
  return dim < shape.dynamic.size() && shape.dynamic[dim];
}

bool isUnboundedDim(const Shape& shape, size_t dim) {
  return isDynamicDim(shape, dim) && shape.dims[dim] < 0;
}

bool hasDynamicDims(const Shape& shape) {
  return std::find(shape.dynamic.begin(), shape.dynamic.end(), true) != shape.dynamic.end();
}

bool compatible(const Shape& a, const Shape& b) { return !incompatibility(a, b); }

std::optional<std::string> incompatibility(const Shape& declared, const Shape& inferred) {
  if (declared.isTuple != inferred.isTuple)
    return declared.isTuple ? "is a tuple, expected an array" : "is an array, expected a tuple";
  if (declared.isTuple) {
    if (declared.tupleElements.size() != inferred.tupleElements.size())
      return "has " + std::to_string(declared.tupleElements.size()) + " tuple elements, expected " +
             std::to_string(inferred.tupleElements.size());
    for (size_t i = 0; i < declared.tupleElements.size(); ++i)
      if (auto why = incompatibility(declared.tupleElements[i], inferred.tupleElements[i]))
        return "tuple element " + std::to_string(i) + " " + *why;
    return std::nullopt;
  }
  if (declared.elementType != inferred.elementType)
    return "has element type " + declared.elementType + ", expected " + inferred.elementType;
  if (declared.rank() != inferred.rank())
    return "has rank " + std::to_string(declared.rank()) + ", expected " +
           std::to_string(inferred.rank());
  for (size_t i = 0; i < declared.dims.size(); ++i)
    if (!dimsCompatible(declared, i, inferred))
      return "dimension " + std::to_string(i) + " is " + describeDim(declared, i) + ", expected " +
             describeDim(inferred, i);
  return std::nullopt;
}

Shape refine(const Shape& a, const Shape& b) {
  Shape out = a;
  out.layout.reset();
  out.dynamic.assign(a.dims.size(), false);
  for (size_t i = 0; i < a.dims.size() && i < b.dims.size(); ++i) {
    DimKind ka = kindOf(a, i), kb = kindOf(b, i);
    if (ka == DimKind::Static || kb == DimKind::Static) {
      out.dims[i] = ka == DimKind::Static ? a.dims[i] : b.dims[i];
    } else if (ka == DimKind::Unbounded || kb == DimKind::Unbounded) {
      out.dims[i] = ka == DimKind::Unbounded ? b.dims[i] : a.dims[i];
      out.dynamic[i] = true;
    } else {
      out.dims[i] = std::min(a.dims[i], b.dims[i]);
      out.dynamic[i] = true;
    }
  }
  return out;
}

}  // namespace idxmap::hlo
