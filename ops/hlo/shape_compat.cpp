#include "ops/hlo/shape_compat.h"

#include <algorithm>

namespace idxmap::hlo {
namespace {

enum class DimKind { Static, Bounded, Unbounded };

DimKind kindOf(const Shape& shape, size_t dim) {
  if (!isDynamicDim(shape, dim)) return DimKind::Static;
  return shape.extent(dim) == kDynamic ? DimKind::Unbounded : DimKind::Bounded;
}

std::string describeDim(const Shape& shape, size_t dim) {
  switch (kindOf(shape, dim)) {
    case DimKind::Static:
      return std::to_string(shape.extent(dim));
    case DimKind::Bounded:
      return "<=" + std::to_string(shape.extent(dim));
    case DimKind::Unbounded:
      return "?";
  }
  return "";
}

}  // namespace

bool isDynamicDim(const Shape& shape, size_t dim) {
  return dim < shape.shape.size() && shape.isDynamic(dim);
}

bool isUnboundedDim(const Shape& shape, size_t dim) {
  return isDynamicDim(shape, dim) && shape.extent(dim) == kDynamic;
}

bool hasDynamicDims(const Shape& shape) { return !shape.isStatic(); }

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
  if (declared.element_type != inferred.element_type)
    return "has element type " + declared.element_type + ", expected " + inferred.element_type;
  if (declared.rank() != inferred.rank())
    return "has rank " + std::to_string(declared.rank()) + ", expected " +
           std::to_string(inferred.rank());
  for (size_t i = 0; i < declared.shape.size(); ++i)
    if (!compatibleDims(declared, i, inferred, i))
      return "dimension " + std::to_string(i) + " is " + describeDim(declared, i) + ", expected " +
             describeDim(inferred, i);
  return std::nullopt;
}

Shape refine(const Shape& a, const Shape& b) {
  Shape out = a;
  out.layout.reset();
  out.shape.clear();
  out.bounds.clear();
  for (size_t i = 0; i < a.shape.size(); ++i) {
    if (i >= b.shape.size()) {
      out.appendDim(a.extent(i), false);
      continue;
    }
    DimKind ka = kindOf(a, i), kb = kindOf(b, i);
    if (ka == DimKind::Static || kb == DimKind::Static) {
      out.appendDim(ka == DimKind::Static ? a.extent(i) : b.extent(i), false);
    } else if (ka == DimKind::Unbounded || kb == DimKind::Unbounded) {
      out.appendDim(ka == DimKind::Unbounded ? b.extent(i) : a.extent(i), true);
    } else {
      out.appendDim(std::min(a.extent(i), b.extent(i)), true);
    }
  }
  return out;
}

}  // namespace idxmap::hlo
