// The op in isl's terms, from its dimension numbers as spec 000 writes them: the target element
// an index point reaches is full_start_index + full_batching_index + the window's (gather: the
// offset's) coordinates; sizes are numbers or the parameters of `?` dims.
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>
#include <regex>

#include "core/bridges/isl_bridge.h"
#include "verify/sized_op_internal.h"

namespace idxmap::symbolic_sizes {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using isl_bridge::checked;
using isl_bridge::own;

std::string variable(const char* prefix, size_t k) { return prefix + std::to_string(k); }

std::string tuple(const char* prefix, size_t rank, const char* secondPrefix, size_t secondRank) {
  std::string out;
  for (size_t k = 0; k < rank; ++k) out += (k ? ", " : "") + variable(prefix, k);
  for (size_t k = 0; k < secondRank; ++k) out += (rank + k ? ", " : "") + variable(secondPrefix, k);
  return "[" + out + "]";
}

std::string joined(const std::vector<std::string>& constraints) {
  std::string out;
  for (const std::string& constraint : constraints)
    out += (out.empty() ? "" : " and ") + constraint;
  return out.empty() ? "true" : out;
}

std::string Sizes::shared(const std::vector<const TensorType*>& types, size_t dim,
                          const std::string& tensor) {
  for (const TensorType* type : types)
    if (!type->isDynamic(dim)) return std::to_string(type->shape[dim]);
  std::string name = variable("n", legend_.size());
  legend_.push_back({name, "dim " + std::to_string(dim) + " of " + tensor});
  constraints_.push_back(name + " >= 0");
  constraints_.push_back(name + " <= " + std::to_string(INT64_MAX));  // as sizes are int64
  for (const TensorType* type : types)
    if (!type->bounds.empty() && type->bounds[dim] != kDynamic)
      constraints_.push_back(name + " <= " + std::to_string(type->bounds[dim]));
  return name;
}

void Sizes::adopt(const std::string& name, const std::string& what) {
  legend_.push_back({name, what});
  constraints_.push_back(name + " >= 0");
}

void Sizes::requireAtMost(const std::string& small, const std::string& large) {
  if (isParameter(small) || isParameter(large)) constraints_.push_back(small + " <= " + large);
}

void Sizes::requireEqual(const std::string& size, const std::string& other) {
  if (isParameter(size) || isParameter(other)) constraints_.push_back(size + " = " + other);
}

std::string Sizes::params() const {
  std::string out;
  for (const auto& [name, what] : legend_) out += (out.empty() ? "" : ", ") + name;
  return "[" + out + "] -> ";
}

std::string Sizes::describe(const std::map<std::string, int64_t>& at) const {
  std::string out;
  for (const auto& [name, what] : legend_)
    out +=
        (out.empty() ? "" : ", ") + name + " = " + std::to_string(at.at(name)) + " (" + what + ")";
  return "sizes " + out;
}

std::string Sizes::words(const isl::set& condition) const {
  char* printed = isl_set_to_str(condition.get());
  std::string text = printed ? printed : "";
  free(printed);
  size_t colon = text.find(':'), close = text.rfind('}');
  std::string body =
      colon == std::string::npos ? "true" : text.substr(colon + 1, close - colon - 1);
  body = std::regex_replace(body, std::regex("^ +| +$"), "");
  return body + legend(body);
}

std::string Sizes::legend(const std::string& text) const {
  std::string where;
  // isl glues a coefficient to the name ("2n1"), so the name starts after anything but a letter
  // or underscore; it ends where a word does ("n1" is not in "n10").
  for (const auto& [name, what] : legend_)
    if (std::regex_search(text, std::regex("(^|[^A-Za-z_])" + name + "\\b")))
      where += (where.empty() ? ", where " : " and ") + name + " is " + what;
  return where;
}

SizedRelations sizedRelations(const SizedOp& p, const isl::set& withVectors) {
  size_t rank = p.spaceSizes.size(), entries = p.entries, targets = p.targetSizes.size();
  std::string from = tuple("i", rank, "x", entries);
  std::vector<std::string> termConstraints;
  for (size_t d = 0; d < targets; ++d)
    termConstraints.push_back(variable("t", d) + " = " + p.targetTerms[d]);
  isl::map targetOf = p.sizes
                          .read<isl::map>("{ " + from + " -> " + tuple("t", targets) + " : " +
                                          joined(termConstraints) + " }")
                          .intersect_domain(withVectors);
  isl::map kept = targetOf;
  if (p.keptInTarget) {
    std::vector<std::string> inside;
    for (size_t d = 0; d < targets; ++d)
      inside.push_back("0 <= " + variable("t", d) + " < " + p.targetSizes[d]);
    kept = kept.intersect_range(
        p.sizes.read<isl::set>("{ " + tuple("t", targets) + " : " + joined(inside) + " }"));
  } else {
    kept = kept.intersect_domain(
        p.sizes.read<isl::set>("{ " + from + " : " + joined(p.keptEntries) + " }"));
  }
  isl::map startOf = p.sizes
                         .read<isl::map>("{ " + from + " -> " + tuple("f", targets) + " : " +
                                         joined(p.fullStart) + " }")
                         .intersect_domain(withVectors);
  return {withVectors.subtract(kept.domain()), kept, startOf};
}

namespace {

void addTargets(SizedOp& p, const std::vector<int64_t>& startAxes,
                const std::vector<std::pair<int64_t, std::string>>& batching,
                const std::vector<int64_t>& windowInputAxes,
                const std::vector<int64_t>& windowSpaceAxes) {
  for (size_t d = 0; d < p.targetSizes.size(); ++d) {
    std::string term = "0", start = "0";
    for (size_t k = 0; k < startAxes.size(); ++k)
      if (startAxes[k] == static_cast<int64_t>(d)) term = start = variable("x", k);
    for (const auto& [axis, index] : batching)
      if (axis == static_cast<int64_t>(d)) term += " + " + index;
    for (size_t m = 0; m < windowInputAxes.size(); ++m)
      if (windowInputAxes[m] == static_cast<int64_t>(d))
        term += " + " + variable("i", static_cast<size_t>(windowSpaceAxes[m]));
    p.targetTerms.push_back(term);
    p.fullStart.push_back(variable("f", d) + " = " + start);
  }
}

// The target axes a window covers: those not in `skipped`, ascending.
std::vector<int64_t> windowAxes(size_t rank, const std::vector<int64_t>& skipped,
                                const std::vector<int64_t>& alsoSkipped) {
  std::vector<int64_t> axes;
  for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d)
    if (std::count(skipped.begin(), skipped.end(), d) +
            std::count(alsoSkipped.begin(), alsoSkipped.end(), d) ==
        0)
      axes.push_back(d);
  return axes;
}

// The index point's coordinate that batching dim `indexAxis` of the index tensor is.
std::string batchingIndex(int64_t indexAxis, int64_t indexVectorDim,
                          const std::vector<int64_t>& pointAxes) {
  int64_t position = indexAxis - (indexAxis < indexVectorDim ? 0 : 1);
  return variable("i", static_cast<size_t>(pointAxes.at(static_cast<size_t>(position))));
}

// Each batching dim: the target axis and the index point's coordinate it takes, the target's
// size tied to the index tensor's (gather's C17, scatter's C18).
std::vector<std::pair<int64_t, std::string>> batchingAxes(SizedOp& p,
                                                          const std::vector<int64_t>& targetAxes,
                                                          const std::vector<int64_t>& indexAxes,
                                                          int64_t indexVectorDim) {
  std::vector<std::pair<int64_t, std::string>> batching;
  for (size_t j = 0; j < targetAxes.size(); ++j) {
    size_t axis = static_cast<size_t>(targetAxes[j]), indexAxis = static_cast<size_t>(indexAxes[j]);
    batching.emplace_back(targetAxes[j], batchingIndex(indexAxes[j], indexVectorDim, p.pointAxes));
    p.sizes.requireEqual(p.targetSizes[axis], p.indexSizes.at(indexAxis));
  }
  return batching;
}

// Dim d of the tensor `name` has size sizes[d].
void recordDims(SizedOp& p, const std::string& name, const std::vector<std::string>& sizes) {
  for (size_t d = 0; d < sizes.size(); ++d) p.dimSizes.emplace(std::pair(name, d), sizes[d]);
}

// The index tensor's sizes, numbers or parameters; and its axes but the vector dim, in order.
void addIndexSizes(SizedOp& p, const TensorType& indices, int64_t indexVectorDim) {
  for (size_t d = 0; d < indices.shape.size(); ++d) {
    p.indexSizes.push_back(p.sizes.shared({&indices}, d, p.names.indices));
    if (static_cast<int64_t>(d) != indexVectorDim) p.indexPointAxes.push_back(d);
  }
}

}  // namespace

SizedOp sizedOp(const GatherOp& op, const IndexOpForm& form) {
  const gather_scatter::GatherDimensionNumbers& dn = op.dimension_numbers;
  SizedOp p;
  p.names = form.names.value_or(IndexOpForm::Names{"result", "operand", "start_indices"});
  for (size_t d = 0; d < op.operand.shape.size(); ++d) {
    p.targetSizes.push_back(p.sizes.shared({&op.operand}, d, p.names.target));
    p.sizes.requireAtMost(std::to_string(op.slice_sizes[d]), p.targetSizes.back());  // C21
  }
  addIndexSizes(p, op.start_indices, dn.index_vector_dim);
  if (form.tensors) {
    for (const std::string& target : form.tensors->targets) recordDims(p, target, p.targetSizes);
    recordDims(p, form.tensors->indices, p.indexSizes);
  }
  std::vector<int64_t> result =
      gather_scatter::inferGatherResultShape(dn, op.start_indices.shape, op.slice_sizes);
  p.pointAxes = gather_scatter::gatherBatchDims(dn, static_cast<int64_t>(result.size()));
  for (size_t a = 0; a < result.size(); ++a) {  // a batch dim has its index tensor dim's size
    auto batch = std::find(p.pointAxes.begin(), p.pointAxes.end(), static_cast<int64_t>(a));
    p.spaceSizes.push_back(
        batch == p.pointAxes.end()
            ? std::to_string(result[a])
            : p.indexSizes[p.indexPointAxes[static_cast<size_t>(batch - p.pointAxes.begin())]]);
  }
  p.entries = dn.start_index_map.size();
  auto batching = batchingAxes(p, dn.operand_batching_dims, dn.start_indices_batching_dims,
                               dn.index_vector_dim);
  addTargets(p, dn.start_index_map, batching,
             windowAxes(op.operand.shape.size(), dn.collapsed_slice_dims, dn.operand_batching_dims),
             dn.offset_dims);
  for (size_t k = 0; k < p.entries; ++k) {
    size_t d = static_cast<size_t>(dn.start_index_map[k]);
    std::string x = variable("x", k), f = variable("f", d);
    std::string top = "(" + p.targetSizes[d] + " - " + std::to_string(op.slice_sizes[d]) + ")";
    p.keptEntries.push_back("0 <= " + x + " <= " + top);
    if (!form.outOfRangeIsUndefined)  // the spec's clamp
      p.fullStart[d] = "((" + x + " < 0 and " + f + " = 0) or (0 <= " + x + " <= " + top + " and " +
                       f + " = " + x + ") or (" + x + " > " + top + " and " + f + " = " + top +
                       "))";
  }
  p.uniqueAsked = form.uniqueAsked;
  return p;
}

SizedOp sizedOp(const ScatterOp& op, const IndexOpForm& form) {
  const gather_scatter::ScatterDimensionNumbers& dn = op.dimension_numbers;
  SizedOp p;
  p.names = form.names.value_or(IndexOpForm::Names{"updates", "result", "scatter_indices"});
  std::vector<const TensorType*> inputs, updates;
  for (const TensorType& input : op.inputs) inputs.push_back(&input);
  for (const TensorType& update : op.updates) updates.push_back(&update);
  for (size_t d = 0; d < op.inputs.at(0).shape.size(); ++d)
    p.targetSizes.push_back(p.sizes.shared(inputs, d, p.names.target));
  size_t rank = op.updates.at(0).shape.size();
  p.pointAxes = gather_scatter::scatterUpdateScatterDims(dn, static_cast<int64_t>(rank));
  std::vector<int64_t> windowInputAxes =
      windowAxes(op.inputs.at(0).shape.size(), dn.inserted_window_dims, dn.input_batching_dims);
  addIndexSizes(p, op.scatter_indices, dn.index_vector_dim);
  for (size_t a = 0; a < rank; ++a) {
    auto scatterAxis = std::find(p.pointAxes.begin(), p.pointAxes.end(), a);
    if (scatterAxis != p.pointAxes.end()) {  // C4: the index tensor's size, the updates' too
      const std::string& size =
          p.indexSizes[p.indexPointAxes[static_cast<size_t>(scatterAxis - p.pointAxes.begin())]];
      for (const TensorType* update : updates)
        if (!update->isDynamic(a)) p.sizes.requireEqual(size, std::to_string(update->shape[a]));
      p.spaceSizes.push_back(size);
      continue;
    }
    p.spaceSizes.push_back(p.sizes.shared(updates, a, p.names.indexSpace));
    size_t m = static_cast<size_t>(
        std::find(dn.update_window_dims.begin(), dn.update_window_dims.end(), a) -
        dn.update_window_dims.begin());
    p.sizes.requireAtMost(p.spaceSizes.back(), p.targetSizes[windowInputAxes.at(m)]);  // C4
  }
  p.entries = dn.scatter_dims_to_operand_dims.size();
  auto batching = batchingAxes(p, dn.input_batching_dims, dn.scatter_indices_batching_dims,
                               dn.index_vector_dim);
  addTargets(p, dn.scatter_dims_to_operand_dims, batching, windowInputAxes, dn.update_window_dims);
  if (form.tensors) {
    for (const std::string& target : form.tensors->targets) recordDims(p, target, p.targetSizes);
    recordDims(p, form.tensors->indices, p.indexSizes);
    for (const std::string& update : form.tensors->updates) recordDims(p, update, p.spaceSizes);
  }
  p.keptInTarget = true;
  p.uniqueAsked = true;
  return p;
}

// The size each of the value analysis's sizes z<i> is in the op's terms: the op's own size of a
// dim of its class (a number, or a parameter n<j>), else a parameter of its own, z<i> (adopted
// with what it is).
std::vector<std::string> tiedSizes(SizedOp& problem, const index_provenance::IndexValues& values) {
  std::vector<std::string> tied;
  for (size_t i = 0; i < values.sizes.size(); ++i) {
    std::string size;
    for (const std::pair<std::string, size_t>& dim : values.sizes[i])
      if (auto it = problem.dimSizes.find(dim); it != problem.dimSizes.end() && size.empty())
        size = it->second;
    if (size.empty()) {
      size = index_provenance::sizeParameter(i);
      const auto& [tensor, dim] = values.sizes[i].front();
      problem.sizes.adopt(size, "dim " + std::to_string(dim) + " of " + tensor);
    }
    tied.push_back(size);
  }
  // What the program's shapes say of the sizes, in the op's terms.
  static const std::regex kSize("z([0-9]+)");
  for (const std::string& fact : values.sizeFacts) {
    std::string text;
    auto last = fact.cbegin();
    for (std::sregex_iterator it(fact.begin(), fact.end(), kSize), end; it != end; ++it) {
      text.append(last, (*it)[0].first);
      text += "(" + tied.at(std::stoul((*it)[1])) + ")";
      last = (*it)[0].second;
    }
    text.append(last, fact.cend());
    problem.sizes.require(text);
  }
  return tied;
}

// The relation with each z<i> it reads replaced by its tied size.
isl::map withTiedSizes(isl::map map, const std::vector<std::string>& tied) {
  std::vector<std::string> names;
  for (int k = 0; k < checked(isl_map_dim(map.get(), isl_dim_param)); ++k)
    names.emplace_back(isl_map_get_dim_name(map.get(), isl_dim_param, k));
  for (const std::string& name : names) {
    if (!index_provenance::isSizeParameter(name)) continue;
    const std::string& size = tied.at(std::stoul(name.substr(1)));
    if (size == name) continue;
    const std::string params = Sizes::isParameter(size) ? name + ", " + size : name;
    map = map.intersect_params(
        isl::set(islContext(), "[" + params + "] -> { : " + name + " = " + size + " }"));
    const int position = isl_map_find_dim_by_name(map.get(), isl_dim_param, name.c_str());
    map =
        own(isl_map_project_out(map.release(), isl_dim_param, static_cast<unsigned>(position), 1));
  }
  return map;
}

}  // namespace idxmap::symbolic_sizes
