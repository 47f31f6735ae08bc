#include "ops/hlo/models/reshape_map.h"

#include <algorithm>

#include "core/checked.h"

namespace idxmap::ops {
namespace {

struct Group {
  size_t fromBegin, fromEnd, toBegin, toEnd;
};

// The smallest groups of consecutive dims with equal products. A zero-size dim makes every
// product 0, so such shapes are one group (their map is empty anyway).
std::vector<Group> groups(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  bool empty = std::count(from.begin(), from.end(), 0) + std::count(to.begin(), to.end(), 0) > 0;
  if (empty) return {{0, from.size(), 0, to.size()}};
  std::vector<Group> out;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    Group g{i, i, j, j};
    int64_t fromProduct = 1, toProduct = 1;
    do {
      if ((fromProduct <= toProduct && i < from.size()) || j == to.size())
        fromProduct = checkedMul(fromProduct, from[i++]);
      else
        toProduct = checkedMul(toProduct, to[j++]);
    } while (fromProduct != toProduct && (i < from.size() || j < to.size()));
    g.fromEnd = i;
    g.toEnd = j;
    out.push_back(g);
  }
  return out;
}

}  // namespace

IndexingMap reshapeMap(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  IndexingMap map = IndexingMap::identity(from);
  map.results.clear();
  for (const Group& g : groups(from, to)) {
    Expr linear = Expr::constant(0);
    int64_t stride = 1;
    for (size_t k = g.fromEnd; k-- > g.fromBegin;) {
      linear = linear + Expr::dim(static_cast<unsigned>(k)) * stride;
      stride = checkedMul(stride, from[k]);
    }
    std::vector<Expr> results;
    stride = 1;
    for (size_t k = g.toEnd; k-- > g.toBegin;) {
      Expr index = linear.floorDiv(std::max<int64_t>(stride, 1));
      // The outermost dim of a group needs no mod: the linear index is below the product.
      if (k != g.toBegin) index = index.mod(std::max<int64_t>(to[k], 1));
      results.push_back(index);
      stride = checkedMul(stride, to[k]);
    }
    map.results.insert(map.results.end(), results.rbegin(), results.rend());
  }
  return map;
}

}  // namespace idxmap::ops
