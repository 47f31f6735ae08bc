// TensorType: the one tensor type of idxmap, used by the HLO reader (as the array part of an
// HLO shape), the MLIR reader (as the tensor part of an MLIR type) and every op model. An
// element type and a shape whose dims are (spec 002):
//   static            `5`                   shape[d] = 5
//   bounded dynamic   `<=5` (HLO), `?` with bound 5 (MLIR)
//                                           shape[d] = kDynamic, bounds[d] = 5
//   unbounded dynamic `?`                   shape[d] = kDynamic, bounds[d] = kDynamic or none
// A dynamic dim is kDynamic in `shape` whatever its bound, so code that reads `shape` alone
// can never take a bound for a size. Field names follow the StableHLO spec's shape() and
// element_type().
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace idxmap {

// A size or bound written `?`.
inline constexpr int64_t kDynamic = -1;

struct TensorType {
  std::vector<int64_t> shape;  // the static size of each dim, or kDynamic
  // As the source spells it: "f32", "i64" (MLIR) or "s64" (HLO), "i1" or "pred", "bf16", or
  // the text of a type no model enumerates ("!quant.uniform<...>").
  std::string element_type;
  std::vector<int64_t> bounds = {};  // empty, or one per dim: a dynamic dim's bound or kDynamic

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  bool isStatic() const;
  bool isDynamic(size_t dim) const { return shape.at(dim) == kDynamic; }
  // The largest size dim can have at run time: its static size, or a dynamic dim's bound;
  // kDynamic when it has none.
  int64_t extent(size_t dim) const;
  std::vector<int64_t> extents() const;
  // Appends a dim: `extent` as its static size, or, when `dynamic`, as its bound (kDynamic:
  // unbounded). Bounds are recorded only once some dim has one.
  void appendDim(int64_t extent, bool dynamic);
  // Makes dim `extent` as appendDim would.
  void setDim(size_t dim, int64_t extent, bool dynamic);
  // The product of the extents: the element count of a static shape, the most elements a
  // bounded one can hold. Throws OverflowError past int64; nullopt when a dim is unbounded.
  std::optional<int64_t> maxElementCount() const;

  // The sizes dim can have at run time (spec 002): [size, size] when static, [0, bound]
  // when bounded, [0, none) when unbounded. A malformed bound (negative, or a bounds list of
  // the wrong length) counts as absent.
  struct SizeRange {
    int64_t lo = 0;
    std::optional<int64_t> hi;  // none: unbounded
  };
  SizeRange sizeRange(size_t dim) const;

  // Exact: `bounds` written as all-kDynamic differs from no bounds, as MLIR's encodings do.
  bool operator==(const TensorType& o) const = default;
};

// Spec 002's compatibility, the one definition HLO's and StableHLO's checks use: dim `a` of
// `x` and dim `b` of `y` are compatible when some run time can give them the same size
// (`<=3` is compatible with `2` and with `<=4`, not with `7`; `?` with anything).
bool compatibleDims(const TensorType& x, size_t a, const TensorType& y, size_t b);
// Whether dim `dim` of `type` can have size `size` at run time.
bool admitsSize(const TensorType& type, size_t dim, int64_t size);

// Whether every one of `types` has a static shape.
bool allStatic(std::initializer_list<const TensorType*> types);

// Row-major position of `index` in `shape`.
int64_t linearPosition(const std::vector<int64_t>& shape, const std::vector<int64_t>& index);
// Steps `index` to the next index of `shape` in row-major order; false after the last one.
bool nextIndex(const std::vector<int64_t>& shape, std::vector<int64_t>& index);

}  // namespace idxmap
