// Oracles for index provenance, independent of isl's reasoning:
//   - evaluateIndices: the index tensor computed op by op from the MLIR (constants, iota,
//     concatenate, broadcast_in_dim, reshape, transpose, clamp, add, subtract, multiply,
//     convert), element by element;
//   - foldedGatherMatchesReference / foldedScatterMatchesReference: the folded relation,
//     evaluated on every result (update) point, against the reference evaluator run on the
//     real index values.
#pragma once

#include <gtest/gtest.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/eval/tensor.h"
#include "ops/mlir/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::provenance_testing {

using gather_scatter::Tensor;

inline std::vector<int64_t> intsOf(const mlir_ir::Attribute* a) {
  return a ? a->asInts().value_or(std::vector<int64_t>{}) : std::vector<int64_t>{};
}

inline int64_t intOf(const mlir_ir::Operation& op, const char* generic, const char* pretty) {
  const mlir_ir::Attribute* a = op.attribute(generic);
  if (!a) a = op.attribute(pretty);
  return a->asInt().value();
}

// The values of `value` in `scope`, computed by the ops' definitions one element at a time.
inline Tensor evaluateIndices(const std::vector<mlir_ir::Operation>& scope,
                              const mlir_ir::Value& value) {
  using gather_scatter::linearPosition;
  using gather_scatter::nextIndex;
  const mlir_ir::Operation& op = *mlir_ir::definingOp(scope, value);
  Tensor out = gather_scatter::zeros("i64", op.resultTypes.at(0).shape);
  auto arg = [&](size_t i) { return evaluateIndices(scope, op.operands.at(i)); };
  auto at = [](const Tensor& t, const std::vector<int64_t>& index) {
    return t.shape.empty() ? t.ints.at(0) : t.ints.at(linearPosition(t.shape, index));
  };
  if (gather_scatter::isEmptyShape(out.shape)) return out;
  std::vector<Tensor> args;
  if (op.name != "stablehlo.constant" && op.name != "stablehlo.iota")
    for (size_t i = 0; i < op.operands.size(); ++i) args.push_back(arg(i));
  std::vector<int64_t> index(out.shape.size(), 0);
  int64_t position = 0;
  do {
    int64_t& v = out.ints[position++];
    if (op.name == "stablehlo.constant") {
      v = op.attribute("value")->dense->intAt(position - 1);
    } else if (op.name == "stablehlo.iota") {
      v = index.at(intOf(op, "iota_dimension", "dim"));
    } else if (op.name == "stablehlo.concatenate") {
      int64_t axis = intOf(op, "dimension", "dim");
      std::vector<int64_t> local = index;
      for (const Tensor& part : args) {
        if (local[axis] < part.shape[axis]) {
          v = at(part, local);
          break;
        }
        local[axis] -= part.shape[axis];
      }
    } else if (op.name == "stablehlo.broadcast_in_dim") {
      const mlir_ir::Attribute* a = op.attribute("broadcast_dimensions");
      std::vector<int64_t> dims = intsOf(a ? a : op.attribute("dims"));
      std::vector<int64_t> source;
      for (size_t k = 0; k < dims.size(); ++k)
        source.push_back(args[0].shape[k] == 1 ? 0 : index[dims[k]]);
      v = at(args[0], source);
    } else if (op.name == "stablehlo.reshape" || op.name == "stablehlo.convert") {
      v = args[0].ints.at(position - 1);  // row-major order is kept
    } else if (op.name == "stablehlo.transpose") {
      const mlir_ir::Attribute* a = op.attribute("permutation");
      std::vector<int64_t> perm = intsOf(a ? a : op.attribute("dims"));
      std::vector<int64_t> source(index.size());
      for (size_t k = 0; k < perm.size(); ++k) source[perm[k]] = index[k];
      v = at(args[0], source);
    } else if (op.name == "stablehlo.clamp") {
      v = std::min(std::max(at(args[1], index), at(args[0], index)), at(args[2], index));
    } else if (op.name == "stablehlo.add") {
      v = at(args[0], index) + at(args[1], index);
    } else if (op.name == "stablehlo.subtract") {
      v = at(args[0], index) - at(args[1], index);
    } else if (op.name == "stablehlo.multiply") {
      v = at(args[0], index) * at(args[1], index);
    } else {
      ADD_FAILURE() << "no oracle for " << op.name;
    }
  } while (nextIndex(out.shape, index));
  return out;
}

// The points `point` maps to under a relation without parameters.
inline std::vector<std::vector<int64_t>> imageOf(const isl::map& relation,
                                                 const std::vector<int64_t>& point) {
  std::string text = "{ [";
  for (size_t i = 0; i < point.size(); ++i) text += (i ? ", " : "") + std::to_string(point[i]);
  isl_set* domain = isl_set_read_from_str(islContext().get(), (text + "] }").c_str());
  isl_set* image = isl_set_apply(domain, relation.copy());
  std::vector<std::vector<int64_t>> points;
  isl_set_foreach_point(
      image,
      [](isl_point* p, void* user) {
        auto* out = static_cast<std::vector<std::vector<int64_t>>*>(user);
        std::vector<int64_t> coordinates;
        isl_space* space = isl_point_get_space(p);
        int n = isl_space_dim(space, isl_dim_set);
        isl_space_free(space);
        for (int i = 0; i < n; ++i) {
          isl_val* v = isl_point_get_coordinate_val(p, isl_dim_set, i);
          coordinates.push_back(isl_val_get_num_si(v));
          isl_val_free(v);
        }
        out->push_back(coordinates);
        isl_point_free(p);
        return isl_stat_ok;
      },
      &points);
  isl_set_free(image);
  return points;
}

// result[d] = operand[o] for the one o the relation gives d, with operand values that name
// their position.
inline ::testing::AssertionResult foldedGatherMatchesReference(gather_scatter::GatherOp op,
                                                               const isl::map& relation,
                                                               const Tensor& indices) {
  op.operand.element_type = "i64";
  if (op.result) op.result->element_type = "i64";
  Tensor operand = gather_scatter::zeros("i64", op.operand.shape);
  for (size_t i = 0; i < operand.ints.size(); ++i) operand.ints[i] = static_cast<int64_t>(i);
  Tensor result = gather_scatter::referenceGather(op, operand, indices);
  if (gather_scatter::isEmptyShape(result.shape)) return ::testing::AssertionSuccess();
  std::vector<int64_t> d(result.shape.size(), 0);
  do {
    std::vector<std::vector<int64_t>> image = imageOf(relation, d);
    int64_t expected = result.ints[gather_scatter::linearPosition(result.shape, d)];
    if (image.size() != 1 || gather_scatter::linearPosition(operand.shape, image[0]) != expected)
      return ::testing::AssertionFailure() << "result point " << ::testing::PrintToString(d)
                                           << ": relation gives " << ::testing::PrintToString(image)
                                           << ", the reference reads operand position " << expected;
  } while (gather_scatter::nextIndex(result.shape, d));
  return ::testing::AssertionSuccess();
}

// Each update point alone (a one-hot update added to zeros) lands where the relation says,
// or nowhere when the relation gives it no image.
inline ::testing::AssertionResult foldedScatterMatchesReference(gather_scatter::ScatterOp op,
                                                                const isl::map& relation,
                                                                const Tensor& indices) {
  const std::vector<int64_t> inputShape = op.inputs[0].shape, updateShape = op.updates[0].shape;
  op.inputs = {{inputShape, "i64"}};
  op.updates = {{updateShape, "i64"}};
  op.results.clear();
  op.computation_argument_types.clear();
  op.computation_result_types.clear();
  op.update_computation = gather_scatter::UpdateComputation::kAdd;
  if (gather_scatter::isEmptyShape(updateShape)) return ::testing::AssertionSuccess();
  std::vector<int64_t> u(updateShape.size(), 0);
  do {
    Tensor updates = gather_scatter::zeros("i64", updateShape);
    updates.ints[gather_scatter::linearPosition(updateShape, u)] = 1;
    Tensor result = gather_scatter::referenceScatter(op, {gather_scatter::zeros("i64", inputShape)},
                                                     indices, {updates})[0];
    std::vector<std::vector<int64_t>> targets;
    std::vector<int64_t> r(inputShape.size(), 0);
    if (!gather_scatter::isEmptyShape(inputShape)) do {
        if (result.ints[gather_scatter::linearPosition(inputShape, r)] != 0) targets.push_back(r);
      } while (gather_scatter::nextIndex(inputShape, r));
    std::vector<std::vector<int64_t>> image = imageOf(relation, u);
    if (image != targets)
      return ::testing::AssertionFailure()
             << "update point " << ::testing::PrintToString(u) << ": relation gives "
             << ::testing::PrintToString(image) << ", the reference writes "
             << ::testing::PrintToString(targets);
  } while (gather_scatter::nextIndex(updateShape, u));
  return ::testing::AssertionSuccess();
}

}  // namespace idxmap::provenance_testing
