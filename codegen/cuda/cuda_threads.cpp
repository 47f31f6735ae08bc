#include "codegen/cuda/cuda_threads.h"

#include <algorithm>

#include "codegen/cpp/kernel_text.h"

namespace idxmap::codegen {
namespace {

// A thread's point number stays int32_t below this many points: with at most 2^24 threads
// (cuda_file.cpp's idxmap_blocks), point + stride never passes 2^31.
constexpr int64_t kInt32Points = int64_t{1} << 30;

}  // namespace

namespace {

// The box of `map`'s dims, d0 counted in tiles of `rows`, the last dim in groups of `lanes`.
IndexingMap threadBox(const IndexingMap& map, int64_t rows, int64_t lanes) {
  IndexingMap box;
  box.dims = map.dims;
  box.knownEmpty = map.knownEmpty;
  auto group = [](Interval& range, int64_t size) {
    if (size > 1 && !range.isEmpty()) range = {0, (range.hi - range.lo) / size};
  };
  if (!box.dims.empty()) {
    group(box.dims.front().range, rows);
    group(box.dims.back().range, lanes);
  }
  return box;
}

CExpr plus(CExpr e, int64_t c) {
  if (c > 0) return binary(COp::kAdd, std::move(e), literal(c));
  if (c < 0) return binary(COp::kSub, std::move(e), literal(-c));
  return e;
}

}  // namespace

ThreadPoints::ThreadPoints(const IndexingMap& map, CWidth width, int64_t rows, int64_t lanes)
    : width_(width), rows_(rows), lanes_(lanes) {
  for (const Variable& v : map.dims) dims_.push_back(v.range);
  if ((rows_ > 1 || lanes_ > 1) && (map.dims.empty() || (rows_ > 1 && lanes_ > 1)))
    throw Error("internal: a thread takes a tile or lanes, of a map with dims");
  if (lanes_ > 1 && !dims_.back().isEmpty() &&
      (dims_.back().hi - dims_.back().lo + 1) % lanes_ != 0)
    throw Error("internal: lanes must divide the last dim's extent");
  const IndexingMap box = threadBox(map, rows_, lanes_);
  for (const Variable& v : box.dims) ranges_.push_back(v.range);
  points_ = box.knownEmpty ? 0 : boxPoints(box);
  number_ = points_ <= kInt32Points ? CWidth::k32 : CWidth::k64;
}

std::vector<CExpr> ThreadPoints::decoded(const std::string& number) const {
  const CExpr p = variable(number, number_);
  std::vector<CExpr> point;
  int64_t stride = points_;
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const Interval range = ranges_[i];
    const int64_t extent = range.hi - range.lo + 1;
    stride /= extent;
    CExpr digit = p;
    if (extent == 1) {
      digit = literal(range.lo);
    } else {
      if (stride > 1) digit = binary(COp::kDiv, digit, literal(stride));
      if (i > 0) digit = binary(COp::kRem, digit, literal(extent));
      digit = plus(digit, range.lo);
    }
    if (number_ != width_ && digit->op != COp::kLiteral) digit = cast(width_, digit);
    // A tile's first row, a lane group's first lane: the dim's low bound plus the digit times
    // the group's size.
    const int64_t group = i == 0 && rows_ > 1 ? rows_ : i + 1 == ranges_.size() ? lanes_ : 1;
    if (group > 1) {
      if (extent > 1) digit = binary(COp::kMul, digit, literal(group));
      digit = digit->op == COp::kLiteral ? literal(dims_[i].lo) : plus(digit, dims_[i].lo);
    }
    point.push_back(digit);
  }
  return point;
}

std::vector<ir::Node> ThreadPoints::declaredDims(const std::string& number) const {
  std::vector<ir::Node> out;
  std::vector<CExpr> point = decoded(number);
  for (size_t i = 0; i < point.size(); ++i)
    out.push_back(ir::let(typeName(width_), "d" + std::to_string(i), ir::indexValue(point[i])));
  return out;
}

ir::Node ThreadPoints::gridLoop(std::vector<ir::Node> body) const {
  std::vector<ir::Node> nodes = declaredDims("idxmap_point");
  for (ir::Node& node : body) nodes.push_back(std::move(node));
  return ir::gridLoop(number_, "idxmap_point", points_, std::move(nodes));
}

}  // namespace idxmap::codegen
