// Calls between functions of the module: `func.call @f(...)` and the bare `call @f(...)` that
// StableHLO's printer writes. Terminators (`func.return`, `stablehlo.return`, `return`) end a
// block in Interpreter::runBlock and have no row here.
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

std::vector<Tensor> call(const OpContext& ctx) {
  const mlir_ir::Attribute* callee = findAttribute(ctx, {"callee"});
  if (!callee || callee->kind != mlir_ir::Attribute::Kind::SymbolRef)
    fail(ctx, "needs a callee `@name`");
  const mlir_ir::Function* function = ctx.interpreter.module().function(callee->text);
  if (!function) fail(ctx, "no function @" + callee->text + " in the module");
  if (function->arguments.size() != ctx.operands.size())
    fail(ctx, "@" + callee->text + " takes " + std::to_string(function->arguments.size()) +
                  " argument(s), given " + std::to_string(ctx.operands.size()));
  return ctx.interpreter.call(*function, ctx.operands);
}

}  // namespace

const std::vector<OpRule>& controlRules() {
  static const std::vector<OpRule> rules = {
      {"func.call", call},
      {"call", call},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
