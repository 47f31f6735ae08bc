// What gather's and scatter's index properties (verify/index_properties.h) need of index
// values known only at run time, computed exactly with isl: the set of index vectors that
// break a property, as a Presburger formula over the index tensor's points and values.
//
// A property holds for given index values if and only if no index tensor point (in bounds),
// or no ordered pair of points (unique, sorted; the same point twice included), with the
// vectors read there, lies in the violation set. When the set is empty the property holds
// whatever the values are (two window positions of one update never collide, a batching dim
// keeps batches apart): proven by structure. User-asserted facts about the values (--assume)
// are sets of the same kind; a property holds under them when the violation set does not meet
// them.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap {

// How an op treats a start index outside its range, and what its tensors are called: the
// StableHLO ops by default; the forms lowered to them (ops/forms/lowering.h) name their own.
struct IndexOpForm {
  struct Names {
    std::string indexSpace;  // "result", "updates", "source" (tensor.scatter)
    std::string target;      // "operand", "result", "source"
    std::string indices;     // "start_indices", "scatter_indices", "indices"
  };
  std::optional<Names> names;
  // True when an out-of-range index is undefined behavior (tensor.gather / tensor.scatter,
  // tcp): a gather's starts are then not clamped, and in bounds means "every coordinate is in
  // range" (StableHLO's gather clamps, its scatter skips the update).
  bool outOfRangeIsUndefined = false;
  // Gather only: whether to decide unique (tensor.gather's `unique`): no two result points
  // read the same element.
  bool uniqueAsked = false;
  // The op's tensors as its program names them (`%x`), where it comes from one: the provers
  // with `?` dims then tie their sizes to the value analysis's sizes of the same dims
  // (IndexValues::sizes), so a get_dimension_size or a reverse in the program is the op's own.
  struct TensorNames {
    std::vector<std::string> targets;  // gather: the operand; scatter: the inputs
    std::string indices;
    std::vector<std::string> updates;  // scatter only
  };
  std::optional<TensorNames> tensors;
};

// The violation set of one property. Points of `violations`, in order:
//   pairwise: [p, x, q, y] — index tensor points p and q (the index vector dim left out) and
//             the index vectors x, y read there;
//   single:   [p, x].
// A clamping gather's sorted is about the clamped vectors: entry k of x and y is then clamped
// to [0, clampTop[k]] before the set is asked. Written over the raw values, the set would have
// a piece per combination of clamp cases (3^rank), over the clamped ones it has a few.
struct IndexCondition {
  bool pairwise = false;
  std::vector<int64_t> pointShape;  // the index tensor's shape without the index vector dim
  size_t entries = 0;               // the index vector's length
  isl::set violations;
  std::vector<std::optional<int64_t>> clampTop;  // empty, or one per entry

  bool alwaysHolds() const;
  // Whether the property holds for the index vectors `vectorAt(p)` at every point p.
  bool holdsFor(
      const std::function<std::vector<int64_t>(std::span<const int64_t>)>& vectorAt) const;
  // "no two points p, q of scatter_indices, with index vectors x at p and y at q, satisfy
  // { [p0, x0, q0, y0] : ... }".
  std::string text(const std::string& indicesName) const;
  // The violation set simplified where `facts` hold (isl's gist), and met with them. `facts`
  // are about the vectors the set is asked with (clamped ones, when clampTop is set).
  IndexCondition given(const isl::set& facts) const;
  IndexCondition restrictedTo(const isl::set& facts) const;
  bool clamped() const;  // some entry is clamped
};

struct IndexConditions {
  std::optional<IndexCondition> unique;  // scatter; gather when uniqueAsked
  IndexCondition sorted;
  IndexCondition inBounds;
};

// Static, valid ops. Throws Error when isl gives up.
IndexConditions gatherIndexConditions(const gather_scatter::GatherOp& op,
                                      const IndexOpForm& form = {});
IndexConditions scatterIndexConditions(const gather_scatter::ScatterOp& op,
                                       const IndexOpForm& form = {});

}  // namespace idxmap
