// Control flow: calls between functions of the module (`func.call @f(...)` and the bare
// `call @f(...)` that StableHLO's printer writes; a composite calls its decomposition),
// stablehlo.while, stablehlo.if and
// stablehlo.case. Terminators (`func.return`, `stablehlo.return`, `return`) end a block in
// Interpreter::runBlock and have no row here.
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

// Calls the function a symbol attribute (`callee`, a composite's `decomposition`) names.
std::vector<Tensor> callSymbol(const OpContext& ctx, std::string_view attribute) {
  const mlir_ir::Attribute* callee = findAttribute(ctx, {attribute});
  if (!callee || callee->kind != mlir_ir::Attribute::Kind::SymbolRef)
    fail(ctx, "needs " + std::string(attribute) + " `@name`");
  const mlir_ir::Function* function = ctx.interpreter.module().function(callee->text);
  if (!function) fail(ctx, "no function @" + callee->text + " in the module");
  if (function->arguments.size() != ctx.operands.size())
    fail(ctx, "@" + callee->text + " takes " + std::to_string(function->arguments.size()) +
                  " argument(s), given " + std::to_string(ctx.operands.size()));
  return ctx.interpreter.call(*function, ctx.operands);
}

std::vector<Tensor> call(const OpContext& ctx) { return callSymbol(ctx, "callee"); }

// A composite means what its decomposition computes.
std::vector<Tensor> composite(const OpContext& ctx) { return callSymbol(ctx, "decomposition"); }

std::vector<Tensor> whileLoop(const OpContext& ctx) {
  const mlir_ir::Block& cond = regionBlock(ctx, 0, "a condition");
  const mlir_ir::Block& body = regionBlock(ctx, 1, "a body");
  std::vector<Tensor> values = ctx.operands;
  for (int64_t iteration = 0;; ++iteration) {
    std::vector<Tensor> answer = ctx.interpreter.runBlock(cond, values);
    if (answer.size() != 1) fail(ctx, "the condition must return one tensor<i1>");
    if (!predicateValue(ctx, answer[0], "the condition's result")) return values;
    if (iteration == ctx.interpreter.maxWhileIterations())
      fail(ctx, "stopped after " + std::to_string(iteration) +
                    " iterations (the interpreter's limit, --max-iterations; does the loop end?)");
    std::vector<Tensor> next = ctx.interpreter.runBlock(body, values);
    if (next.size() != values.size())
      fail(ctx, "the body returns " + std::to_string(next.size()) + " value(s) for " +
                    std::to_string(values.size()) + " loop-carried value(s)");
    for (size_t i = 0; i < next.size(); ++i)
      if (next[i].element_type != values[i].element_type || next[i].shape != values[i].shape)
        fail(ctx, "the body returns " + describeType(next[i]) + " for loop-carried value " +
                      std::to_string(i) + " of type " + describeType(values[i]));
    values = std::move(next);
  }
}

std::vector<Tensor> ifOp(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  bool taken = predicateValue(ctx, ctx.operands[0], "the predicate");
  return ctx.interpreter.runBlock(
      regionBlock(ctx, taken ? 0 : 1, taken ? "a true branch" : "a false branch"), {});
}

// An index outside [0, branches) runs the last branch, as the spec says.
std::vector<Tensor> caseOp(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  const Tensor& index = ctx.operands[0];
  if (index.element_type != "i32" || !index.shape.empty())
    fail(ctx, "the index must be tensor<i32>, found " + describeType(index));
  int64_t branches = static_cast<int64_t>(ctx.op.regions.size());
  if (branches == 0) fail(ctx, "needs at least one branch");
  int64_t branch = index.ints[0] < 0 || index.ints[0] >= branches ? branches - 1 : index.ints[0];
  return ctx.interpreter.runBlock(
      regionBlock(ctx, static_cast<size_t>(branch), "branch " + std::to_string(branch)), {});
}

}  // namespace

const std::vector<OpRule>& controlRules() {
  static const std::vector<OpRule> rules = {
      {"func.call", call},
      {"call", call},
      {"stablehlo.while", whileLoop},
      {"stablehlo.if", ifOp},
      {"stablehlo.case", caseOp},
      {"stablehlo.composite", composite},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
