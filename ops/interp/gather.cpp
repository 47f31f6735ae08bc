// gather, dynamic_gather and scatter: the ops whose evaluation the engine chooses. The op is
// imported into its model (ops/import/stablehlo.h), its types replaced by those of the values
// (a `?` dimension has a size at run time), validated against every constraint of the spec,
// and only then evaluated — the evaluators assume a valid op.
#include "ops/eval/map_evaluator.h"
#include "ops/eval/reference_evaluator.h"
#include "ops/eval/scatter_with_region.h"
#include "ops/import/stablehlo.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

// The importer's located errors, as the interpreter's.
template <typename Import>
auto imported(Import&& import) {
  try {
    return import();
  } catch (const stablehlo_import::ImportError& error) {
    throw InterpretError(error.location(), error.message());
  }
}

// The evaluators allocate the whole result: refuse one past the interpreter's limit first.
void expectResultWithinLimit(const OpContext& ctx, const gather_scatter::GatherOp& op,
                             const Tensor& indices) {
  checkedElementCount(ctx, op.result ? op.result->shape
                                     : gather_scatter::inferGatherResultShape(
                                           op.dimension_numbers, indices.shape, op.slice_sizes));
}

void expectIntegerIndices(const OpContext& ctx, const Tensor& indices) {
  if (indices.isFloat() || isBooleanType(indices.element_type))
    fail(ctx, "indices must be integers, found " + describeType(indices));
}

std::vector<Tensor> gather(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  gather_scatter::GatherOp op = imported([&] { return stablehlo_import::importGather(ctx.op); });
  const Tensor &operand = ctx.operands[0], &indices = ctx.operands[1];
  expectIntegerIndices(ctx, indices);
  op.operand = typeOf(operand);
  op.start_indices = typeOf(indices);
  op.result = staticOrNone(op.result);
  expectValid(ctx, gather_scatter::validateGather(op));
  expectResultWithinLimit(ctx, op, indices);
  if (ctx.interpreter.external())
    return {ctx.interpreter.external()->gather(ctx.op, op, operand, indices)};
  if (ctx.interpreter.engine() == Engine::kMaps)
    return {gather_scatter::mapGather(op, operand, indices)};
  return {gather_scatter::referenceGather(op, operand, indices)};
}

std::vector<Tensor> dynamicGather(const OpContext& ctx) {
  expectOperandCount(ctx, 3);
  const Tensor &operand = ctx.operands[0], &indices = ctx.operands[1];
  expectIntegerIndices(ctx, indices);
  std::vector<int64_t> sliceSizes =
      indexVector(ctx, ctx.operands[2], static_cast<int64_t>(operand.shape.size()), "slice_sizes");
  gather_scatter::DynamicGatherOp op =
      imported([&] { return stablehlo_import::importDynamicGather(ctx.op, sliceSizes); });
  op.operand = typeOf(operand);
  op.start_indices = typeOf(indices);
  op.slice_sizes_type = typeOf(ctx.operands[2]);
  op.result = staticOrNone(op.result);
  expectValid(ctx, gather_scatter::validateDynamicGather(op));
  expectResultWithinLimit(ctx, gather_scatter::asGather(op), indices);
  if (ctx.interpreter.external())
    return {
        ctx.interpreter.external()->gather(ctx.op, gather_scatter::asGather(op), operand, indices)};
  if (ctx.interpreter.engine() == Engine::kMaps)
    return {gather_scatter::mapGather(gather_scatter::asGather(op), operand, indices)};
  return {gather_scatter::referenceDynamicGather(op, operand, indices)};
}

std::vector<Tensor> scatter(const OpContext& ctx) {
  gather_scatter::ScatterOp op = imported([&] { return stablehlo_import::importScatter(ctx.op); });
  const size_t count = op.inputs.size();
  std::vector<Tensor> inputs(ctx.operands.begin(), ctx.operands.begin() + count);
  const Tensor& indices = ctx.operands[count];
  std::vector<Tensor> updates(ctx.operands.begin() + count + 1, ctx.operands.end());
  expectIntegerIndices(ctx, indices);
  for (size_t i = 0; i < count; ++i) {
    op.inputs[i] = typeOf(inputs[i]);
    op.updates[i] = typeOf(updates[i]);
    if (i < op.results.size() && !op.results[i].isStatic()) op.results[i] = op.inputs[i];
  }
  op.scatter_indices = typeOf(indices);
  expectValid(ctx, gather_scatter::validateScatter(op));
  if (ctx.interpreter.external())
    return ctx.interpreter.external()->scatter(ctx.op, op, inputs, indices, updates);
  bool maps = ctx.interpreter.engine() == Engine::kMaps;
  if (op.update_computation != gather_scatter::UpdateComputation::kOther)
    return maps ? gather_scatter::mapScatter(op, inputs, indices, updates)
                : gather_scatter::referenceScatter(op, inputs, indices, updates);
  // Any other region: the interpreter evaluates it per update, in both engines.
  const mlir_ir::Block& block = ctx.op.regions.at(0).blocks.at(0);
  gather_scatter::RegionCombine combine = [&](const std::vector<Tensor>& currents,
                                              const std::vector<Tensor>& values) {
    std::vector<Tensor> arguments = currents;
    arguments.insert(arguments.end(), values.begin(), values.end());
    std::vector<Tensor> combined = ctx.interpreter.runBlock(block, arguments);
    if (combined.size() != currents.size())
      fail(ctx, "the update computation returns " + std::to_string(combined.size()) +
                    " value(s) for " + std::to_string(currents.size()) + " input(s)");
    for (size_t i = 0; i < combined.size(); ++i)
      if (combined[i].element_type != currents[i].element_type || !combined[i].shape.empty())
        fail(ctx, "the update computation returns " + describeType(combined[i]) +
                      " where the input's element needs tensor<" + currents[i].element_type + ">");
    return combined;
  };
  return maps ? gather_scatter::mapScatterWithRegion(op, inputs, indices, updates, combine)
              : gather_scatter::referenceScatterWithRegion(op, inputs, indices, updates, combine);
}

}  // namespace

const std::vector<OpRule>& gatherRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.gather", gather},
      {"stablehlo.dynamic_gather", dynamicGather},
      {"stablehlo.scatter", scatter},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
