// Dense tensors for the gather/scatter evaluators: row-major values of a static shape, held as
// 64-bit integers or doubles by element type. Integer results wrap to the element type's
// width as StableHLO's integer arithmetic does; float results round to their element type
// (f16, bf16, f32: round to nearest even, overflow to infinity), as StableHLO rounds after
// every operation. Other narrow float types (f8*) are held unrounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor_type.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter {

struct Tensor {
  std::string element_type;  // "i64", "ui8", "i1", "f32", ...
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;       // the values when the element type is boolean or integer
  std::vector<double> floats;      // the values when it is a float type; a complex one's real parts
  std::vector<double> imags = {};  // a complex type's imaginary parts (complex<f32>, complex<f64>)

  bool isFloat() const;
  bool isComplex() const;
  int64_t elementCount() const;
  TensorType type() const { return {shape, element_type}; }
  // The value at a row-major position, as a double (exact for integers up to 2^53).
  double valueAt(int64_t position) const;
  int64_t intAt(int64_t position) const { return ints.at(position); }
  bool operator==(const Tensor& o) const = default;
};

bool isFloatType(const std::string& elementType);
// complex<f32> and complex<f64>: values in floats (real parts) and imags; not a float type.
bool isComplexType(const std::string& elementType);
// `value` rounded to the nearest value of the float element type (f16, bf16, f32; others are
// returned as they are).
double roundToElementType(const std::string& elementType, double value);
// IEEE-754 minimum / maximum, as StableHLO specifies them for floats: a NaN operand gives NaN,
// and -0 is below +0 (std::min and std::max do neither).
double ieeeMinimum(double a, double b);
double ieeeMaximum(double a, double b);
// into[to] = from[position]; both tensors hold the same kind of values (ints or floats).
// Checked: a position past either tensor's values throws std::out_of_range.
void copyElement(const Tensor& from, int64_t position, Tensor& into, int64_t to);
// The 0-d tensor holding element `position` of `tensor`.
Tensor scalarAt(const Tensor& tensor, int64_t position);
// A tensor of zeros of the given type.
Tensor zeros(const std::string& elementType, const std::vector<int64_t>& shape);

// Row-major positions and the walk over a shape's indices (core/tensor_type.h).
using idxmap::linearPosition;
using idxmap::nextIndex;
// Whether `shape` has no elements (then there is no first index).
bool isEmptyShape(const std::vector<int64_t>& shape);

// One update computation on one element type, with the type's name parsed once: a loop over
// many elements then compares no strings per element. applyUpdate is built on it, so every
// evaluator shares one definition of the element arithmetic.
class ElementCombiner {
 public:
  ElementCombiner(UpdateComputation computation, const std::string& elementType);
  // computation(current, update) as the element type computes it (integer or boolean types
  // take the int64 overload, float types the double one). Throws std::invalid_argument for
  // kOther: only here, so an op whose updates are all skipped does not throw.
  int64_t combine(int64_t current, int64_t update) const;
  double combine(double current, double update) const;
  // current[t * stride] = combine(current[t * stride], updates[t]) for t in [0, count), in
  // order: one call per run of elements, whose loop the compiler specializes.
  void combineRun(int64_t* current, int64_t stride, const int64_t* updates, int64_t count) const;
  void combineRun(double* current, int64_t stride, const double* updates, int64_t count) const;

 private:
  enum class Rounding : uint8_t { kNone, kF32, kF16, kBF16 };
  UpdateComputation computation_;
  bool boolean_;   // i1: add and mul are or and and
  bool unsigned_;  // ui*: min and max compare unsigned
  int width_;      // integer bits; results wrap to it
  Rounding rounding_;
};

// results[i][resultPosition] = computation(results[i][resultPosition], updates[i][updatePosition])
// for every i: one step of scatter's exec. Throws std::invalid_argument for kOther.
void applyUpdate(UpdateComputation computation, std::vector<Tensor>& results,
                 int64_t resultPosition, const std::vector<Tensor>& updates,
                 int64_t updatePosition);

}  // namespace idxmap::gather_scatter
