// Gather and scatter in every form (stablehlo.gather / dynamic_gather / scatter, tensor.gather /
// scatter, tcp.gather / gather_nd) as terms, through the StableHLO op that models each form
// (ops/gather_analysis/modeled_op.h) and that op's indexing maps: the map from a result (update)
// index to the index vector's position in the indices, and the map to the operand (result)
// index with the start indices as runtime variables. Gather clamps each start index into its
// runtime variable's range; scatter applies the updates whose target lies in the result, in
// row-major order of the updates, through the update computation run on terms. The forms that
// define no result for an out-of-range index (or, tensor.scatter, a repeated one) require it.
#include <algorithm>
#include "core/bridges/z3_bridge.h"

#include "ops/gather_analysis/modeled_op.h"
#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

using Index = std::vector<z3::expr>;
using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;

mlir_gather_analysis::ModeledOp modeled(const TermContext& ctx) {
  try {
    std::optional<mlir_gather_analysis::ModeledOp> model =
        mlir_gather_analysis::modelOp(ctx.op, ctx.block);
    if (!model) unsupported(ctx.op, "not a gather or scatter form");
    return *model;
  } catch (const UnsupportedProgram&) {
    throw;
  } catch (const Error& error) {
    unsupported(ctx.op, error.what());
  }
}

// The index vector's entries (before any clamp) that `toIndices` reads at `dims`: one per
// value of s0, or the single element when the map has no s0.
std::vector<z3::expr> startIndices(TermBuilder& builder, const IndexingMap& toIndices,
                                   const TensorRef& indices, const Index& dims, size_t count) {
  std::vector<z3::expr> starts;
  for (size_t k = 0; k < count; ++k) {
    Z3Variables vars{dims, {}, {}};
    if (!toIndices.rangeVars.empty())
      vars.rangeVars.push_back(builder.integer(static_cast<int64_t>(k)));
    Index position;
    for (const Expr& result : toIndices.results)
      position.push_back(toZ3(result, vars, builder.ctx()).simplify());
    starts.push_back(builder.value(indices, position));
  }
  return starts;
}

// Whether a shape has at least one and at most kMaxUnrolled elements.
bool isSmall(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size <= 0 || size > TermBuilder::kMaxUnrolled) return false;
    count *= size;
    if (count > TermBuilder::kMaxUnrolled) return false;
  }
  return true;
}

std::string where(const TermContext& ctx) {
  return ctx.op.name + " at " + ctx.op.location.toString();
}

std::vector<TensorRef> gather(const TermContext& ctx) {
  mlir_gather_analysis::ModeledOp model = modeled(ctx);
  if (!model.gather) unsupported(ctx.op, "not a gather");
  const GatherOp op = *model.gather;
  if (ctx.operands.size() <= model.indicesOperand) unsupported(ctx.op, "missing operands");
  TensorRef operand = ctx.operands[0], indices = ctx.operands[model.indicesOperand];
  const IndexingMap toOperand = gather_scatter::gatherOutputToOperandMap(op);
  const IndexingMap toIndices = gather_scatter::gatherOutputToStartIndicesMap(op);
  if (!toOperand.rangeVars.empty() || !toOperand.constraints.empty())
    unsupported(ctx.op, "its operand map has range variables or constraints");
  const bool undefinedOutside = model.outOfRangeIsUndefined;
  const std::string assumption = where(ctx) + ": every index in range";
  TermBuilder* builder = &ctx.builder;
  const std::vector<int64_t> shape = declaredShape(ctx.op);
  TensorRef result = builder->make(
      shape, operand->element,
      [=](const Index& index) {
        z3::context& z = builder->ctx();
        std::vector<z3::expr> raw =
            startIndices(*builder, toIndices, indices, index, toOperand.runtimeVars.size());
        Z3Variables vars{index, {}, {}};
        for (size_t k = 0; k < raw.size(); ++k) {
          const Interval& range = toOperand.runtimeVars[k].range;
          z3::expr lo = z.int_val(range.lo), hi = z.int_val(range.hi);
          if (undefinedOutside) builder->require(raw[k] >= lo && raw[k] <= hi, assumption);
          vars.runtimeVars.push_back(z3::ite(raw[k] < lo, lo, z3::ite(raw[k] > hi, hi, raw[k])));
        }
        Index source;
        for (const Expr& expr : toOperand.results) source.push_back(toZ3(expr, vars, z).simplify());
        return builder->at(operand, source);
      },
      operand->wraps);
  // A small index space is required in range at every position, so that any counterexample
  // can be completed into index tensors the op accepts.
  if (undefinedOutside && isSmall(shape)) {
    std::vector<int64_t> position(shape.size(), 0);
    do {
      builder->at(result, numerals(builder->ctx(), position));
    } while (nextIndex(shape, position));
  }
  return {result};
}

// Everything about one scatter that does not depend on the result element: per update index
// (row-major), its update elements, whether its target lies in the result, and the target.
struct ScatterCases {
  std::vector<Index> updateIndices;
  std::vector<z3::expr> inResult;
  std::vector<Index> targets;
};

ScatterCases scatterCases(TermBuilder& builder, const ScatterOp& op, const TensorRef& indices,
                          const TermContext& ctx) {
  const IndexingMap toResult = gather_scatter::scatterUpdateToResultMap(op);
  const IndexingMap toIndices = gather_scatter::scatterUpdateToIndicesMap(op);
  if (!toResult.rangeVars.empty()) unsupported(ctx.op, "its result map has range variables");
  const std::vector<int64_t>& shape = op.updates.at(0).shape;
  ScatterCases cases;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return cases;
  if (!isSmall(shape))
    unsupported(ctx.op, "more than " + std::to_string(TermBuilder::kMaxUnrolled) +
                            " updates to apply one by one");
  std::vector<int64_t> position(shape.size(), 0);
  do {
    Index dims = numerals(builder.ctx(), position);
    std::vector<z3::expr> raw =
        startIndices(builder, toIndices, indices, dims, toResult.runtimeVars.size());
    Z3Variables vars{dims, {}, raw};
    cases.updateIndices.push_back(dims);
    cases.inResult.push_back(domainToZ3(toResult, vars, builder.ctx()).simplify());
    Index target;
    for (const Expr& expr : toResult.results)
      target.push_back(toZ3(expr, vars, builder.ctx()).simplify());
    cases.targets.push_back(target);
  } while (nextIndex(shape, position));
  return cases;
}

// tensor.scatter: every update inside the result, and no two updates at one element.
void requireScatterDefined(TermBuilder& builder, const ScatterCases& cases,
                           const std::string& where) {
  for (const z3::expr& inside : cases.inResult)
    builder.requireAlways(inside, where + ": every index in range");
  // Pairs grow quadratically: past kMaxPairs updates the query keeps the spec's row-major
  // order (the last update wins), which `unique` makes the only order there is.
  constexpr size_t kMaxPairs = 512;
  if (cases.targets.size() > kMaxPairs) return;
  for (size_t u = 0; u < cases.targets.size(); ++u)
    for (size_t v = u + 1; v < cases.targets.size(); ++v) {
      z3::expr same = builder.ctx().bool_val(true);
      for (size_t d = 0; d < cases.targets[u].size(); ++d)
        same = same && cases.targets[u][d] == cases.targets[v][d];
      builder.requireAlways(!same, where + ": no two updates at one element (`unique`)");
    }
}

std::vector<TensorRef> scatter(const TermContext& ctx) {
  mlir_gather_analysis::ModeledOp model = modeled(ctx);
  if (!model.scatter) unsupported(ctx.op, "not a scatter");
  const ScatterOp op = *model.scatter;
  const size_t n = op.inputs.size();
  std::vector<TensorRef> inputs, updates;
  if (ctx.op.name == "tensor.scatter") {  // (source, dest, indices)
    expectOperands(ctx, 3);
    inputs = {ctx.operands[1]};
    updates = {ctx.operands[0]};
  } else {  // (inputs..., indices, updates...)
    expectOperands(ctx, 2 * n + 1);
    inputs.assign(ctx.operands.begin(), ctx.operands.begin() + n);
    updates.assign(ctx.operands.begin() + n + 1, ctx.operands.end());
  }
  TermBuilder* builder = &ctx.builder;
  auto cases = std::make_shared<const ScatterCases>(
      scatterCases(*builder, op, ctx.operands[model.indicesOperand], ctx));
  if (model.outOfRangeIsUndefined) requireScatterDefined(*builder, *cases, where(ctx));
  const mlir_ir::Block* region = nullptr;
  if (!ctx.op.regions.empty() && !ctx.op.regions[0].blocks.empty())
    region = &ctx.op.regions[0].blocks[0];
  else if (ctx.op.name != "tensor.scatter")
    unsupported(ctx.op, "needs its update computation");
  // The region's element values as rank-0 tensors. Integer accumulations pass on unwrapped
  // (TermTensor::wraps): the region wraps what it observes, and so do the result's readers.
  auto scalar = [builder](const z3::expr& value, const mlir_ir::ElementType& element) {
    return builder->make(
        {}, element, [value](const Index&) { return value; }, !element.isFloat());
  };
  std::vector<TensorRef> results;
  for (size_t r = 0; r < n; ++r) {
    results.push_back(builder->make(
        inputs[r]->shape, inputs[r]->element,
        [=](const Index& index) {
          std::vector<z3::expr> current;
          for (const TensorRef& input : inputs) current.push_back(builder->at(input, index));
          for (size_t u = 0; u < cases->targets.size(); ++u) {
            z3::expr hit = cases->inResult[u];
            for (size_t d = 0; d < index.size(); ++d) hit = hit && cases->targets[u][d] == index[d];
            hit = hit.simplify();
            if (hit.is_false()) continue;
            std::vector<z3::expr> combined;
            if (!region) {
              combined = {builder->at(updates[0], cases->updateIndices[u])};
            } else {
              std::vector<TensorRef> args;
              for (size_t i = 0; i < n; ++i) args.push_back(scalar(current[i], inputs[i]->element));
              for (size_t i = 0; i < n; ++i)
                args.push_back(
                    scalar(builder->at(updates[i], cases->updateIndices[u]), inputs[i]->element));
              for (const TensorRef& value : builder->runBlock(*region, args))
                combined.push_back(builder->at(value, {}));
              if (combined.size() != n)
                unsupported(ctx.op, "the update computation returns " +
                                        std::to_string(combined.size()) + " values");
            }
            for (size_t i = 0; i < n; ++i) current[i] = z3::ite(hit, combined[i], current[i]);
          }
          return current[r];
        },
        !inputs[r]->element.isFloat()));
  }
  return results;
}

}  // namespace

const std::vector<TermRules::Row>& gatherTermRules() {
  static const std::vector<TermRules::Row> rules = {
      {"stablehlo.gather", gather}, {"stablehlo.dynamic_gather", gather},
      {"tensor.gather", gather},    {"tcp.gather", gather},
      {"tcp.gather_nd", gather},    {"stablehlo.scatter", scatter},
      {"tensor.scatter", scatter},
  };
  return rules;
}

}  // namespace idxmap::program_terms
