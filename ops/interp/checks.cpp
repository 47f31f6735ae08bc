// The `check` dialect ops of StableHLO's interpreter tests, and the `stablehlo.custom_call
// @check.*` form JAX-generated tests use: each records an outcome (ops/interp/check_comparisons.h
// says the tolerances) instead of stopping the run. Operands whose types differ from each other are
// a malformed program, not a failed check.
#include "ops/interp/check_comparisons.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

void expectComparable(const OpContext& ctx, const Tensor& actual, const Tensor& expected) {
  if (actual.element_type != expected.element_type || actual.shape != expected.shape)
    fail(ctx, "compares " + describeType(actual) + " with " + describeType(expected) +
                  ": the types must be the same");
}

std::vector<Tensor> record(const OpContext& ctx, const std::string& name,
                           std::optional<std::string> failure) {
  ctx.interpreter.recordCheck({ctx.op.location, name, std::move(failure)});
  return {};
}

Tensor constantOperand(const OpContext& ctx) {
  const mlir_ir::Attribute* value = findAttribute(ctx, {"value"});
  if (!value || value->kind != mlir_ir::Attribute::Kind::Dense || !value->dense)
    fail(ctx, "needs a `dense<...>` expected value");
  return tensorFromDense(ctx, *value->dense);
}

double tolerance(const OpContext& ctx) {
  const mlir_ir::Attribute* written = findAttribute(ctx, {"tolerance"});
  if (!written) return kDefaultAlmostEqTolerance;
  if (written->kind == mlir_ir::Attribute::Kind::Float) return written->floatValue;
  if (std::optional<int64_t> value = written->asInt()) return static_cast<double>(*value);
  throw InterpretError(written->location, ctx.op.name + ": `tolerance` must be a number");
}

uint64_t ulpLimit(const OpContext& ctx, std::string_view name, uint64_t fallback) {
  const mlir_ir::Attribute* written = ctx.op.attribute(name);
  if (!written) return fallback;
  std::optional<int64_t> value = written->asInt();
  if (!value || *value < 0)
    throw InterpretError(written->location,
                         ctx.op.name + ": `" + std::string(name) + "` must be a count of ULPs");
  return static_cast<uint64_t>(*value);
}

// The check a custom_call or a check op performs, by its name.
std::vector<Tensor> runCheck(const OpContext& ctx, const std::string& name) {
  bool againstConstant = name.size() > 6 && name.substr(name.size() - 6) == "_const";
  expectOperandCount(ctx, againstConstant ? 1 : 2);
  const Tensor& actual = ctx.operands[0];
  Tensor expected = againstConstant ? constantOperand(ctx) : ctx.operands[1];
  expectComparable(ctx, actual, expected);
  if (name == "check.expect_eq" || name == "check.expect_eq_const")
    return record(ctx, name, expectEqual(actual, expected));
  if (name == "check.expect_almost_eq" || name == "check.expect_almost_eq_const")
    return record(ctx, name, expectAlmostEqual(actual, expected, tolerance(ctx)));
  return record(
      ctx, name,
      expectClose(actual, expected, ulpLimit(ctx, "max_ulp_difference", kDefaultMaxUlpDifference),
                  ulpLimit(ctx, "min_ulp_difference", kDefaultMinUlpDifference)));
}

std::vector<Tensor> checkOp(const OpContext& ctx) { return runCheck(ctx, ctx.op.name); }

// `stablehlo.custom_call @check.expect_close(%a, %b)` or the generic `call_target_name`.
std::vector<Tensor> customCall(const OpContext& ctx) {
  const mlir_ir::Attribute* target = findAttribute(ctx, {"callee", "call_target_name"});
  std::string name = target ? target->text : "";
  static const char* const kChecks[] = {"check.expect_eq", "check.expect_almost_eq",
                                        "check.expect_close"};
  for (const char* check : kChecks)
    if (name == check) {
      if (!ctx.op.results.empty()) fail(ctx, "@" + name + " gives no results");
      return runCheck(ctx, name);
    }
  fail(ctx, "unsupported custom_call target '" + name + "' (only the check.* targets run)");
}

}  // namespace

const std::vector<OpRule>& checkRules() {
  static const std::vector<OpRule> rules = {
      {"check.expect_eq_const", checkOp}, {"check.expect_almost_eq_const", checkOp},
      {"check.expect_eq", checkOp},       {"check.expect_almost_eq", checkOp},
      {"check.expect_close", checkOp},    {"stablehlo.custom_call", customCall},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
