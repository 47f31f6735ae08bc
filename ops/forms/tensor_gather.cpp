// The rules are MLIR's (verifyGatherOrScatterDims, GatherOp::verify, ScatterOp::verify and the
// ops' ODS constraints), checked in the verifier's order; like the verifier, only the first
// broken gather_dims / scatter_dims rule is reported, and the type checks that depend on valid
// dims are skipped when one is broken.
#include "ops/forms/tensor_gather.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace idxmap::gather_scatter {
namespace {

using Index = std::vector<int64_t>;

bool isSignlessIntegerOrIndex(const std::string& type) {
  if (type == "index") return true;
  return type.size() > 1 && type[0] == 'i' &&
         std::all_of(type.begin() + 1, type.end(), [](char c) { return std::isdigit(c); });
}

bool sameType(const TensorType& a, const TensorType& b) {
  return a.shape == b.shape && a.element_type == b.element_type;
}

Index iota(int64_t from, int64_t to) {
  Index values(static_cast<size_t>(std::max<int64_t>(0, to - from)));
  std::iota(values.begin(), values.end(), from);
  return values;
}

// verifyGatherOrScatterDims: the first broken rule, as the verifier words it.
std::optional<Violation> dimsViolation(const std::string& opName, const Index& dims,
                                       const TensorType& indices, int64_t rank,
                                       const std::string& kind, const std::string& sourceOrDest) {
  const std::string attribute = kind + "_dims";
  auto broken = [&](const char* label, const std::string& rule) {
    return Violation{label, attribute, opName + ": " + attribute + rule};
  };
  if (dims.empty()) return broken("dims-non-empty", " must be non-empty");
  const auto count = static_cast<int64_t>(dims.size());
  if (count > rank) return broken("dims-overflow", " overflow " + sourceOrDest + " rank");
  if (indices.shape.empty() || indices.shape.back() != count)
    return broken("dims-length", " length must match the size of last dimension of indices");
  for (int64_t dim : dims) {
    if (dim < 0) return broken("dims-non-negative", " value must be non-negative");
    if (dim >= rank)
      return broken("dims-in-rank", " value must be smaller than " + sourceOrDest + " rank");
  }
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i - 1] >= dims[i])
      return broken("dims-increasing", " values must be strictly increasing");
  return std::nullopt;
}

std::optional<Violation> indicesTypeViolation(const std::string& opName, int operandNumber,
                                              const TensorType& indices) {
  if (isSignlessIntegerOrIndex(indices.element_type)) return std::nullopt;
  return Violation{"indices-type", "indices",
                   opName + ": operand #" + std::to_string(operandNumber) +
                       " must be ranked tensor of signless integer or index values, but got '" +
                       mlirTypeString(indices) + "'"};
}

// "expected T or its rank-reduced variant R (got: X)", the verifier's type-mismatch message.
std::string mismatch(const TensorType& expected, const TensorType& reduced, const TensorType& got) {
  return "expected " + mlirTypeString(expected) + " or its rank-reduced variant " +
         mlirTypeString(reduced) + " (got: " + mlirTypeString(got) + ")";
}

void requireStatic(const std::string& opName, const std::vector<TensorType>& types) {
  for (const TensorType& type : types)
    if (!type.isStatic())
      throw Error(opName + ": lowering needs static shapes, not " + mlirTypeString(type));
}

void requireValid(const std::string& opName, const std::vector<Violation>& violations) {
  if (!violations.empty())
    throw Error(opName + ": cannot lower an invalid op: " + violations[0].message);
}

// Slice size 1 along each indexed dim. An empty indexed dim has no in-bounds coordinate, and
// StableHLO's slice size could not be the unit dim of a rank-preserving result: refused.
Index sliceSizesFor(const std::string& opName, const TensorType& full, const Index& indexedDims) {
  Index sizes = full.shape;
  for (int64_t dim : indexedDims) {
    if (full.shape[dim] == 0)
      throw Error(opName + ": cannot lower a gather along the empty dim " + std::to_string(dim));
    sizes[dim] = 1;
  }
  return sizes;
}

Index boundsFor(const TensorType& full, const Index& indexedDims) {
  Index bounds;
  for (int64_t dim : indexedDims) bounds.push_back(full.shape[dim]);
  return bounds;
}

}  // namespace

std::string mlirTypeString(const TensorType& type) {
  std::string text = "tensor<";
  for (int64_t size : type.shape) text += (size < 0 ? "?" : std::to_string(size)) + "x";
  return text + type.element_type + ">";
}

TensorType inferTensorGatherResultType(const TensorType& source, const TensorType& indices,
                                       const Index& gatherDims, bool rankReduced) {
  TensorType result{indices.shape, source.element_type};
  if (!result.shape.empty()) result.shape.pop_back();
  for (int64_t dim = 0; dim < source.rank(); ++dim) {
    bool gathered = std::binary_search(gatherDims.begin(), gatherDims.end(), dim);
    if (!gathered)
      result.shape.push_back(source.shape[dim]);
    else if (!rankReduced)
      result.shape.push_back(1);
  }
  return result;
}

std::vector<Violation> validateTensorGather(const TensorGatherOp& op) {
  const std::string name = "tensor.gather";
  std::vector<Violation> violations;
  if (auto v = indicesTypeViolation(name, 1, op.indices)) violations.push_back(*v);
  if (auto v =
          dimsViolation(name, op.gather_dims, op.indices, op.source.rank(), "gather", "source")) {
    violations.push_back(*v);
    return violations;
  }
  if (op.result) {
    TensorType full = inferTensorGatherResultType(op.source, op.indices, op.gather_dims, false);
    TensorType reduced = inferTensorGatherResultType(op.source, op.indices, op.gather_dims, true);
    if (!sameType(*op.result, full) && !sameType(*op.result, reduced))
      violations.push_back(
          {"result-type", "result",
           name + ": result type mismatch: " + mismatch(full, reduced, *op.result)});
  }
  return violations;
}

std::vector<Violation> validateTensorScatter(const TensorScatterOp& op) {
  const std::string name = "tensor.scatter";
  std::vector<Violation> violations;
  if (auto v = indicesTypeViolation(name, 2, op.indices)) violations.push_back(*v);
  auto dims = dimsViolation(name, op.scatter_dims, op.indices, op.dest.rank(), "scatter", "dest");
  if (dims) violations.push_back(*dims);
  // Spec 001: repeated coordinates would need a combinator the op does not have.
  if (!op.unique)
    violations.push_back({"unique", "unique", name + ": requires 'unique' attribute to be set"});
  if (op.result && !sameType(*op.result, op.dest))
    violations.push_back({"dest-result-type", "result",
                          name + ": failed to verify that result type matches type of dest (" +
                              mlirTypeString(*op.result) + " vs " + mlirTypeString(op.dest) + ")"});
  if (dims) return violations;
  TensorType full = inferTensorGatherResultType(op.dest, op.indices, op.scatter_dims, false);
  TensorType reduced = inferTensorGatherResultType(op.dest, op.indices, op.scatter_dims, true);
  if (!sameType(op.source, full) && !sameType(op.source, reduced))
    violations.push_back({"source-type", "source",
                          name + ": source type mismatch: " + mismatch(full, reduced, op.source)});
  return violations;
}

bool isRankReduced(const TensorGatherOp& op) {
  if (!op.result) return false;
  return op.result->rank() ==
         op.indices.rank() - 1 + op.source.rank() - static_cast<int64_t>(op.gather_dims.size());
}

bool isRankReduced(const TensorScatterOp& op) {
  return op.source.rank() ==
         op.indices.rank() - 1 + op.dest.rank() - static_cast<int64_t>(op.scatter_dims.size());
}

LoweredGather lowerTensorGather(const TensorGatherOp& op) {
  const std::string name = "tensor.gather";
  requireValid(name, validateTensorGather(op));
  TensorType result =
      op.result ? *op.result
                : inferTensorGatherResultType(op.source, op.indices, op.gather_dims, false);
  requireStatic(name, {op.source, op.indices, result});
  const bool reduced = isRankReduced(op);
  const int64_t batchRank = op.indices.rank() - 1;
  LoweredGather lowered;
  lowered.op_name = name;
  GatherOp& g = lowered.op;
  g.operand = op.source;
  g.start_indices = op.indices;
  g.dimension_numbers.index_vector_dim = batchRank;
  g.dimension_numbers.start_index_map = op.gather_dims;
  if (reduced) g.dimension_numbers.collapsed_slice_dims = op.gather_dims;
  g.dimension_numbers.offset_dims = iota(batchRank, result.rank());
  g.slice_sizes = sliceSizesFor(name, op.source, op.gather_dims);
  g.result = result;
  lowered.index_bounds = boundsFor(op.source, op.gather_dims);
  lowered.require_unique_indices = op.unique;
  return lowered;
}

LoweredScatter lowerTensorScatter(const TensorScatterOp& op) {
  const std::string name = "tensor.scatter";
  requireValid(name, validateTensorScatter(op));
  requireStatic(name, {op.source, op.dest, op.indices});
  sliceSizesFor(name, op.dest, op.scatter_dims);  // the same refusal of empty indexed dims
  const int64_t batchRank = op.indices.rank() - 1;
  LoweredScatter lowered;
  lowered.op_name = name;
  ScatterOp& s = lowered.op;
  s.inputs = {op.dest};
  s.scatter_indices = op.indices;
  s.updates = {op.source};
  s.dimension_numbers.update_window_dims = iota(batchRank, op.source.rank());
  if (isRankReduced(op)) s.dimension_numbers.inserted_window_dims = op.scatter_dims;
  s.dimension_numbers.scatter_dims_to_operand_dims = op.scatter_dims;
  s.dimension_numbers.index_vector_dim = batchRank;
  s.unique_indices = true;
  s.update_computation = UpdateComputation::kReplace;
  s.results = {op.dest};
  lowered.index_bounds = boundsFor(op.dest, op.scatter_dims);
  lowered.require_unique_indices = true;
  return lowered;
}

}  // namespace idxmap::gather_scatter
