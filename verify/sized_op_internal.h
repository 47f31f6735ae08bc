// A gather or scatter in isl's terms with its sizes as parameters (verify/symbolic_sizes): an
// index space (the gather's result, the scatter's updates) whose points i read index vectors x
// from the index tensor and reach target elements t (the operand read, the result written),
// each written as isl text over the variables i<a>, x<k>, t<d> and f<d> (the full start index),
// and the parameters n<j> of the `?` dims. Private to verify/.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "verify/index_properties.h"

namespace idxmap::symbolic_sizes {

// "x3"
std::string variable(const char* prefix, size_t k);
// "[i0, i1, x0]": `rank` variables named `prefix`, then `secondRank` named `secondPrefix`.
std::string tuple(const char* prefix, size_t rank, const char* secondPrefix = "",
                  size_t secondRank = 0);
// The constraints joined by "and" ("true" when there is none).
std::string joined(const std::vector<std::string>& constraints);

// The sizes of the op's dims as isl writes them (a number, or a parameter for a `?`) and what
// the op's constraints say of the parameters.
class Sizes {
 public:
  // The size of dim `dim` of `types`, which the op gives one shape (C1, C3): the first static
  // one, else a parameter for the dim of `tensor`, within every bound the types give.
  std::string shared(const std::vector<const TensorType*>& types, size_t dim,
                     const std::string& tensor);
  // `small` <= `large` / `size` = `other`, where either is a parameter.
  void requireAtMost(const std::string& small, const std::string& large);
  void requireEqual(const std::string& size, const std::string& other);
  // A size of the program's that the op's dims do not name (the value analysis's z<i>): a
  // parameter of its own, described as `what` ("dim 0 of %x").
  void adopt(const std::string& name, const std::string& what);
  // A constraint the program puts on the parameters ("n1 = 2 + z0").
  void require(const std::string& constraint) { constraints_.push_back(constraint); }
  static bool isParameter(const std::string& size) {
    return size.front() == 'n' || size.front() == 'z';
  }

  // The parameters' ranges and the op's constraints on them.
  isl::set context() const { return read<isl::set>("{ : " + joined(constraints_) + " }"); }
  // `body` ("{ [i0] : 0 <= i0 < n0 }") with the parameters declared.
  template <class T>
  T read(const std::string& body) const {
    return T(islContext(), params() + body);
  }
  int64_t valueOf(const std::string& size, const std::map<std::string, int64_t>& at) const {
    return isParameter(size) ? at.at(size) : std::stoll(size);
  }
  // "sizes n0 = 1 (dim 0 of result), n1 = 2 (dim 0 of updates)"
  std::string describe(const std::map<std::string, int64_t>& at) const;
  // "n1 <= n0, where n0 is dim 0 of result and n1 is dim 0 of updates"
  std::string words(const isl::set& condition) const;
  // ", where n0 is dim 0 of result": the parameters `text` names, or "" when it names none.
  std::string legend(const std::string& text) const;

 private:
  std::string params() const;  // "[n0, n1] -> "

  std::vector<std::pair<std::string, std::string>> legend_;  // parameter, the dim it is
  std::vector<std::string> constraints_;
};

struct SizedOp {
  Sizes sizes;
  IndexOpForm::Names names;
  std::vector<std::string> spaceSizes;
  std::vector<int64_t> pointAxes;       // index space axes -> the index tensor's point
  std::vector<std::string> indexSizes;  // the index tensor's dims
  std::vector<size_t> indexPointAxes;   // its axes but the vector dim: the point's axes
  size_t entries = 0;
  std::vector<std::string> targetSizes;
  std::vector<std::string> targetTerms;  // t<d> in i and x
  std::vector<std::string> keptEntries;  // gather: the reads in range, on x
  bool keptInTarget = false;             // scatter: the writes inside the target
  std::vector<std::string> fullStart;    // f<d> in x (clamped as the op clamps)
  bool uniqueAsked = false;
  // Each dim of the op's tensors named in IndexOpForm::tensors, as (value, dim): its size.
  std::map<std::pair<std::string, size_t>, std::string> dimSizes;
  // The static provers at the given sizes (set by the caller); `fixLeaves`: with every run-time
  // value (leaf) fixed to one value of its range, for sizes where every value breaks it.
  std::function<IndexProperties(const std::map<std::string, int64_t>&, bool fixLeaves)> atSizes;
};

// The op over its index points i and the vectors x read there (`withVectors`, [i, x], the
// sizes its parameters): where each point reaches and what it starts at.
struct SizedRelations {
  isl::set outside;  // [i, x]: the read or write falls outside (clamped, skipped)
  isl::map kept;     // { [i, x] -> [t] }: the target element reached, where it is kept
  isl::map startOf;  // { [i, x] -> [f] }: the full start index (clamped as the op clamps)
};
SizedRelations sizedRelations(const SizedOp& p, const isl::set& withVectors);

SizedOp sizedOp(const gather_scatter::GatherOp& op, const IndexOpForm& form);
SizedOp sizedOp(const gather_scatter::ScatterOp& op, const IndexOpForm& form);

// The size each of the value analysis's sizes z<i> (IndexValues::sizes) is in the op's terms:
// the op's own size of a dim of its class (IndexOpForm::tensors), else a parameter of its own,
// z<i>, adopted with what it is; what the program's shapes say of them (sizeFacts) becomes the
// op's constraints.
std::vector<std::string> tiedSizes(SizedOp& problem, const index_provenance::IndexValues& values);
// The relation with each z<i> it reads replaced by its tied size.
isl::map withTiedSizes(isl::map map, const std::vector<std::string>& tied);

}  // namespace idxmap::symbolic_sizes
