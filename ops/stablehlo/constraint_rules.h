// Building blocks of the gather/scatter constraint tables: a check is a label, the attribute
// it concerns and a predicate that returns the message when the constraint is broken. The
// list helpers answer the spec's recurring predicates (is_unique, is_sorted, 0 <= x < n) with
// the offending element, so messages can name it.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

template <class Op>
struct ConstraintRule {
  const char* label;
  const char* attribute;
  std::function<std::optional<std::string>(const Op&)> broken;  // the message, when broken
};

template <class Op>
std::vector<Violation> runRules(const std::string& opName,
                                const std::vector<ConstraintRule<Op>>& table, const Op& op) {
  std::vector<Violation> violations;
  for (const ConstraintRule<Op>& check : table)
    if (std::optional<std::string> message = check.broken(op))
      violations.push_back(
          {check.label, check.attribute, opName + " (" + check.label + "): " + *message});
  return violations;
}

inline std::string listText(const std::vector<int64_t>& list) {
  std::string text = "[";
  for (size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + std::to_string(list[i]);
  return text + "]";
}

inline bool listContains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

inline std::vector<int64_t> concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> joined = a;
  joined.insert(joined.end(), b.begin(), b.end());
  return joined;
}

// The first value that occurs twice.
inline std::optional<int64_t> firstDuplicate(const std::vector<int64_t>& list) {
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (list[i] == list[j]) return list[i];
  return std::nullopt;
}

// Where two lists meant to be disjoint (and each unique) are not: "dimension 1 is in both a
// and b" or "dimension 1 appears twice in a".
inline std::optional<std::string> uniquenessMessage(const std::vector<int64_t>& a,
                                                    const char* aName,
                                                    const std::vector<int64_t>& b,
                                                    const char* bName) {
  for (int64_t value : a)
    if (listContains(b, value))
      return "dimension " + std::to_string(value) + " is in both " + aName + " and " + bName;
  if (std::optional<int64_t> twice = firstDuplicate(a))
    return "dimension " + std::to_string(*twice) + " appears twice in " + aName;
  if (std::optional<int64_t> twice = firstDuplicate(b))
    return "dimension " + std::to_string(*twice) + " appears twice in " + bName;
  return std::nullopt;
}

inline bool isSorted(const std::vector<int64_t>& list) {
  return std::is_sorted(list.begin(), list.end());
}

inline std::optional<std::string> sortedMessage(const std::vector<int64_t>& list,
                                                const char* name) {
  if (isSorted(list)) return std::nullopt;
  return std::string(name) + " " + listText(list) + " are not sorted";
}

inline bool allInRange(const std::vector<int64_t>& list, int64_t size) {
  return std::all_of(list.begin(), list.end(), [&](int64_t v) { return v >= 0 && v < size; });
}

// 0 <= list < size, naming the first element outside and what bounds it.
inline std::optional<std::string> rangeMessage(const std::vector<int64_t>& list, const char* name,
                                               int64_t size, const char* sizeName) {
  for (int64_t value : list)
    if (value < 0 || value >= size)
      return std::string(name) + " has " + std::to_string(value) + ", outside [0, " +
             std::to_string(size) + ") where " + std::to_string(size) + " is " + sizeName;
  return std::nullopt;
}

// slice_sizes[dims...] <= 1, for dims that index slice_sizes (others are another check's).
inline std::optional<std::string> collapsedSizeMessage(const std::vector<int64_t>& sliceSizes,
                                                       const std::vector<int64_t>& dims,
                                                       const char* dimsName) {
  for (int64_t dim : dims)
    if (dim >= 0 && dim < static_cast<int64_t>(sliceSizes.size()) && sliceSizes[dim] > 1)
      return "slice_sizes[" + std::to_string(dim) + "] = " + std::to_string(sliceSizes[dim]) +
             " but dimension " + std::to_string(dim) + " is in " + dimsName +
             ", so its slice size must be <= 1";
  return std::nullopt;
}

// Sizes are compared as spec 002 compares them (core/tensor_type.h: compatibleDims,
// admitsSize): only sizes no run time could give break a constraint that says "=" or "<=".

// The largest size dim `axis` can have: its static size or its bound; none when unbounded.
inline std::optional<int64_t> dimUpperBound(const TensorType& type, int64_t axis) {
  return type.sizeRange(axis).hi;
}

// `[2, ?, 8]`: a shape with its dynamic dims written as MLIR writes them.
inline std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + (shape[i] == kDynamic ? std::string("?") : std::to_string(shape[i]));
  return text + "]";
}

// `5`, `?` or `? (bound 8)`: dim `axis` of `type` for a message.
inline std::string dimText(const TensorType& type, int64_t axis) {
  if (type.shape[axis] != kDynamic) return std::to_string(type.shape[axis]);
  std::optional<int64_t> bound = dimUpperBound(type, axis);
  return bound ? "? (bound " + std::to_string(*bound) + ")" : "?";
}

// Same rank and every dim compatible (spec 002's compatible shapes); the message names the
// first difference.
inline std::optional<std::string> shapeIncompatibility(const TensorType& a, const TensorType& b) {
  if (a.rank() != b.rank())
    return "rank " + std::to_string(a.rank()) + " differs from rank " + std::to_string(b.rank());
  for (int64_t axis = 0; axis < a.rank(); ++axis)
    if (!compatibleDims(a, axis, b, axis))
      return "dim " + std::to_string(axis) + " is " + dimText(a, axis) + " here and " +
             dimText(b, axis) + " there";
  return std::nullopt;
}

// The number of start indices per index vector (C3 / C19's right-hand side), as a dim that
// may be dynamic: the index vector dim itself, or a size-1 dim when it is rank(indices).
// Requires 0 <= indexVectorDim <= rank.
inline TensorType indexVectorDimType(const TensorType& indices, int64_t indexVectorDim) {
  if (indexVectorDim == indices.rank()) return TensorType{{1}, indices.element_type};
  TensorType dim{{indices.shape[indexVectorDim]}, indices.element_type};
  if (indices.bounds.size() == indices.shape.size()) dim.bounds = {indices.bounds[indexVectorDim]};
  return dim;
}

inline bool isIntegerType(const std::string& type) {
  // i1 is StableHLO's boolean, not an integer type.
  if (type == "i1") return false;
  return type.size() > 1 &&
         (type[0] == 'i' || type.rfind("ui", 0) == 0 || type.rfind("si", 0) == 0);
}

// A quantized element type `!quant.uniform<storage[<min:max>]:expressed[:axis], scale...>`,
// split into what the spec's is_promotable and the per-tensor rule (I1) look at.
struct QuantizedType {
  std::string storage;    // "i8"
  std::string expressed;  // "f32"
  bool perAxis = false;   // `:axis, {scales}`: one scale per slice of a dimension
};

inline std::optional<QuantizedType> quantizedType(const std::string& type) {
  const std::string prefix = "!quant.uniform<";
  if (type.rfind(prefix, 0) != 0) return std::nullopt;
  size_t at = prefix.size();
  size_t storageEnd = type.find_first_of(":<", at);
  if (storageEnd == std::string::npos) return std::nullopt;
  QuantizedType quantized;
  quantized.storage = type.substr(at, storageEnd - at);
  if (type[storageEnd] == '<') storageEnd = type.find('>', storageEnd);  // `i8<-127:127>`
  if (storageEnd == std::string::npos || storageEnd + 1 >= type.size()) return std::nullopt;
  size_t expressedAt = type[storageEnd] == ':' ? storageEnd + 1 : storageEnd + 2;
  size_t expressedEnd = type.find_first_of(":,>", expressedAt);
  if (expressedEnd == std::string::npos) return std::nullopt;
  quantized.expressed = type.substr(expressedAt, expressedEnd - expressedAt);
  quantized.perAxis = type[expressedEnd] == ':';
  return quantized;
}

// I1 of gather, dynamic_gather and scatter: a tensor or a PER-TENSOR quantized tensor.
inline std::optional<std::string> perTensorMessage(const TensorType& type,
                                                   const std::string& name) {
  std::optional<QuantizedType> quantized = quantizedType(type.element_type);
  if (!quantized || !quantized->perAxis) return std::nullopt;
  return name + " has the per-axis quantized element type " + type.element_type +
         "; only per-tensor quantization is allowed";
}

}  // namespace idxmap::gather_scatter
