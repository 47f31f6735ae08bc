#include "verify/index_points.h"

#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "core/bridges/isl_bridge.h"

namespace idxmap::index_points {
namespace {

using isl_bridge::checked;
using isl_bridge::own;

std::string tuple(size_t rank, const char* prefix) {
  std::string out = "[";
  for (size_t i = 0; i < rank; ++i)
    out += (i ? ", " : "") + std::string(prefix) + std::to_string(i);
  return out + "]";
}

}  // namespace

isl::set indexSpace(const std::vector<int64_t>& shape) {
  std::string text = "{ " + tuple(shape.size(), "i");
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? " and " : " : ") + std::string("0 <= i") + std::to_string(i) + " < " +
            std::to_string(shape[i]);
  return isl_bridge::parsedSet(text + " }");
}

isl::map earlierToLater(const std::vector<int64_t>& shape) {
  isl::set space = indexSpace(shape);
  isl::map order = own(isl_map_lex_lt(own(isl_set_get_space(space.get())).release()));
  order = own(isl_map_intersect_domain(order.release(), space.copy()));
  return own(isl_map_intersect_range(order.release(), space.release()));
}

isl::map lexGreater(size_t rank) {
  return own(
      isl_map_lex_gt(isl_space_set_alloc(islContext().get(), 0, static_cast<unsigned>(rank))));
}

namespace {
isl::space setSpace(size_t rank) {
  return own(isl_space_set_alloc(islContext().get(), 0, static_cast<unsigned>(rank)));
}
}  // namespace

isl::map identity(size_t rank) {
  return own(isl_map_identity(isl_space_map_from_set(setSpace(rank).release())));
}

isl::map universe(size_t fromRank, size_t toRank) {
  return own(isl_map_universe(isl_space_map_from_domain_and_range(setSpace(fromRank).release(),
                                                                  setSpace(toRank).release())));
}

isl::map flatProduct(const isl::map& first, const isl::map& second) {
  return own(isl_map_flat_product(first.copy(), second.copy()));
}

isl::set flattened(const isl::map& pairs) {
  return own(isl_set_flatten(isl_map_wrap(pairs.copy())));
}

std::vector<int64_t> coordinates(const isl::point& point) {
  isl::space space = own(isl_point_get_space(point.get()));
  int rank = checked(isl_space_dim(space.get(), isl_dim_set));
  std::vector<int64_t> values;
  for (int i = 0; i < rank; ++i)
    values.push_back(
        isl_bridge::toInt64(own(isl_point_get_coordinate_val(point.get(), isl_dim_set, i))));
  return values;
}

std::string text(std::span<const int64_t> values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string element(const std::string& tensor, std::span<const int64_t> index) {
  return tensor + text(index);
}

StartIndexReader::StartIndexReader(IndexingMap indicesMap, size_t entries,
                                   const index_provenance::IndexValues& values)
    : indicesMap_(std::move(indicesMap)), entries_(entries), values_(values) {}

std::vector<int64_t> StartIndexReader::at(std::span<const int64_t> point) const {
  std::vector<int64_t> vector;
  const bool walksVector = !indicesMap_.rangeVars.empty();
  for (size_t k = 0; k < entries_; ++k) {
    std::vector<int64_t> rangeVars;
    if (walksVector) rangeVars.push_back(static_cast<int64_t>(k));
    std::vector<int64_t> tensorPoint;
    for (Expr result : indicesMap_.results)
      tensorPoint.push_back(result.evaluate(point, rangeVars, {}));
    vector.push_back(valueAt(tensorPoint));
  }
  return vector;
}

int64_t StartIndexReader::valueAt(const std::vector<int64_t>& tensorPoint) const {
  return isl_bridge::withIslBudget([&] {
    std::string text = "{ [";
    for (size_t i = 0; i < tensorPoint.size(); ++i)
      text += (i ? ", " : "") + std::to_string(tensorPoint[i]);
    isl::set at = own(isl_set_read_from_str(islContext().get(), (text + "] }").c_str()));
    isl::set value = own(
        isl_map_range(own(isl_map_intersect_domain(values_.known.copy(), at.release())).release()));
    if (checked(isl_set_is_empty(value.get())) || !checked(isl_set_is_singleton(value.get())))
      throw Error("no single known index value at " + index_points::text(tensorPoint));
    return isl_bridge::toInt64(own(isl_set_dim_min_val(value.release(), 0)));
  });
}

}  // namespace idxmap::index_points
