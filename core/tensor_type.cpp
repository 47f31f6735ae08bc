#include "core/tensor_type.h"

#include "core/checked.h"

namespace idxmap {

bool TensorType::isStatic() const {
  for (int64_t size : shape)
    if (size == kDynamic) return false;
  return true;
}

int64_t TensorType::extent(size_t dim) const {
  if (!isDynamic(dim)) return shape[dim];
  return dim < bounds.size() ? bounds[dim] : kDynamic;
}

std::vector<int64_t> TensorType::extents() const {
  std::vector<int64_t> result;
  for (size_t d = 0; d < shape.size(); ++d) result.push_back(extent(d));
  return result;
}

void TensorType::appendDim(int64_t extent, bool dynamic) {
  shape.push_back(kDynamic);
  if (!bounds.empty()) bounds.push_back(kDynamic);
  setDim(shape.size() - 1, extent, dynamic);
}

void TensorType::setDim(size_t dim, int64_t extent, bool dynamic) {
  int64_t bound = dynamic ? extent : kDynamic;
  if (bound != kDynamic && bounds.empty()) bounds.assign(shape.size(), kDynamic);
  shape.at(dim) = dynamic ? kDynamic : extent;
  if (!bounds.empty()) bounds[dim] = bound;
}

std::optional<int64_t> TensorType::maxElementCount() const {
  int64_t count = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t size = extent(d);
    if (size == kDynamic) return std::nullopt;
    count = checkedMul(count, size);
  }
  return count;
}

TensorType::SizeRange TensorType::sizeRange(size_t dim) const {
  int64_t size = shape.at(dim);
  if (size != kDynamic) return {size, size};
  if (bounds.size() == shape.size() && bounds[dim] >= 0) return {0, bounds[dim]};
  return {0, std::nullopt};
}

namespace {

bool meet(const TensorType::SizeRange& a, const TensorType::SizeRange& b) {
  return (!a.hi || b.lo <= *a.hi) && (!b.hi || a.lo <= *b.hi);
}

}  // namespace

bool compatibleDims(const TensorType& x, size_t a, const TensorType& y, size_t b) {
  return meet(x.sizeRange(a), y.sizeRange(b));
}

bool admitsSize(const TensorType& type, size_t dim, int64_t size) {
  return meet(type.sizeRange(dim), {size, size});
}

bool allStatic(std::initializer_list<const TensorType*> types) {
  for (const TensorType* type : types)
    if (!type->isStatic()) return false;
  return true;
}

int64_t linearPosition(const std::vector<int64_t>& shape, const std::vector<int64_t>& index) {
  int64_t position = 0;
  for (size_t axis = 0; axis < shape.size(); ++axis)
    position = position * shape[axis] + index[axis];
  return position;
}

bool nextIndex(const std::vector<int64_t>& shape, std::vector<int64_t>& index) {
  for (size_t axis = shape.size(); axis-- > 0;) {
    if (++index[axis] < shape[axis]) return true;
    index[axis] = 0;
  }
  return false;
}

}  // namespace idxmap
