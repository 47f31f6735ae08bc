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

#include "ops/gather_scatter.h"

namespace idxmap::gather_scatter {

template <class Op>
struct ConstraintCheck {
  const char* label;
  const char* attribute;
  std::function<std::optional<std::string>(const Op&)> broken;  // the message, when broken
};

template <class Op>
std::vector<Violation> runChecks(const std::string& opName,
                                 const std::vector<ConstraintCheck<Op>>& table, const Op& op) {
  std::vector<Violation> violations;
  for (const ConstraintCheck<Op>& check : table)
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

// The number of start indices per index vector (C3 / C19's right-hand side); requires
// 0 <= indexVectorDim <= rank.
inline int64_t indexVectorSize(const TensorType& indices, int64_t indexVectorDim) {
  return indexVectorDim < indices.rank() ? indices.shape[indexVectorDim] : 1;
}

inline bool isIntegerType(const std::string& type) {
  // i1 is StableHLO's boolean, not an integer type.
  if (type == "i1") return false;
  return type.size() > 1 &&
         (type[0] == 'i' || type.rfind("ui", 0) == 0 || type.rfind("si", 0) == 0);
}

}  // namespace idxmap::gather_scatter
