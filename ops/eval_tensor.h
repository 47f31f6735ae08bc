// Dense tensors for the gather/scatter evaluators: row-major values of a static shape, held as
// 64-bit integers or doubles by element type. Integer results wrap to the element type's
// width as StableHLO's integer arithmetic does; float results round to their element type
// (f16, bf16, f32: round to nearest even, overflow to infinity), as StableHLO rounds after
// every operation. Other narrow float types (f8*) are held unrounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/gather_scatter.h"

namespace idxmap::gather_scatter {

struct Tensor {
  std::string element_type;  // "i64", "ui8", "i1", "f32", ...
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;   // the values when the element type is boolean or integer
  std::vector<double> floats;  // the values when it is a float type

  bool isFloat() const;
  int64_t elementCount() const;
  TensorType type() const { return {shape, element_type}; }
  // The value at a row-major position, as a double (exact for integers up to 2^53).
  double valueAt(int64_t position) const;
  int64_t intAt(int64_t position) const { return ints.at(position); }
  bool operator==(const Tensor& o) const = default;
};

bool isFloatType(const std::string& elementType);
// `value` rounded to the nearest value of the float element type (f16, bf16, f32; others are
// returned as they are).
double roundToElementType(const std::string& elementType, double value);
// A tensor of zeros of the given type.
Tensor zeros(const std::string& elementType, const std::vector<int64_t>& shape);

// Row-major position of `index` in `shape`, and the reverse.
int64_t linearPosition(const std::vector<int64_t>& shape, const std::vector<int64_t>& index);
// Steps `index` to the next index of `shape` in row-major order; false after the last one.
bool nextIndex(const std::vector<int64_t>& shape, std::vector<int64_t>& index);
// Whether `shape` has no elements (then there is no first index).
bool isEmptyShape(const std::vector<int64_t>& shape);

// results[i][resultPosition] = computation(results[i][resultPosition], updates[i][updatePosition])
// for every i: one step of scatter's exec. Throws std::invalid_argument for kOther.
void applyUpdate(UpdateComputation computation, std::vector<Tensor>& results,
                 int64_t resultPosition, const std::vector<Tensor>& updates,
                 int64_t updatePosition);

}  // namespace idxmap::gather_scatter
