// An HLO stage's statement as kernel IR (codegen/hlo/hlo_stage_internal.h): its locals, the
// index expressions and conditions it computes (each checked later against the op models' maps,
// PendingCheck), its loads, and the runtime variables it declares from loaded index values.
#include "codegen/cpp/ir_printer.h"
#include "codegen/hlo/hlo_stage_internal.h"

namespace idxmap::codegen::hlo_stage {

std::string StageEmitter::local(const std::string& type, const std::string& value) {
  std::string name = fresh("v");
  emit(ir::let(type, name, ir::elementValue(value)));
  return name;
}

CExpr StageEmitter::indexExpr(const std::string& role, Expr meaning,
                              std::optional<int64_t> elements) {
  CExpr lowered = lowering_.lower(meaning);
  checks_.push_back({PendingCheck::Kind::kExpression,
                     role,
                     printCExpr(lowered),
                     meaning,
                     elements,
                     {},
                     {},
                     context_,
                     0,
                     ""});
  return lowered;
}

CExpr StageEmitter::conditionExpr(const std::string& role,
                                  const std::vector<Constraint>& condition) {
  CExpr test;
  for (const Constraint& c : condition) {
    CExpr e = lowering_.lower(c.expr);
    for (CExpr bound : {binary(COp::kGreaterEqual, e, literal(c.range.lo)),
                        binary(COp::kLessEqual, e, literal(c.range.hi))})
      test = test ? binary(COp::kAnd, test, bound) : bound;
  }
  if (!test) test = binary(COp::kLessEqual, literal(0), literal(0));  // always: it reads back
  checks_.push_back({PendingCheck::Kind::kCondition,
                     role,
                     printCExpr(test),
                     {},
                     {},
                     condition,
                     {},
                     context_,
                     0,
                     ""});
  return test;
}

std::string StageEmitter::load(const ValueBuffer& buffer, const std::vector<Expr>& index) {
  IndexingMap at = contextMap();
  at.results = index;
  Expr offset = bufferOffset(at, buffer);
  int64_t elements = 1;
  for (int64_t size : buffer.shape) elements *= size;
  reads_.push_back({buffer.name, index});
  const ir::Value element =
      ir::loadValue(buffer.name, indexExpr("load from " + buffer.name, offset, elements));
  const std::string name = fresh("v");
  emit(ir::let(
      buffer.type.compute, name,
      buffer.holdsComputeType
          ? element
          : ir::elementValue(loadElement(buffer.type, ir::printValue(element)), {element})));
  return name;
}

Expr StageEmitter::declareRuntime(const std::string& raw, const ElementCode& type, Interval range) {
  if (range.lo < 0) throw Error("a runtime variable's range starts below 0");
  // Clamped in the index's own type where it is unsigned 64-bit (a value past 2^63 is
  // large, not negative), else in int64_t.
  const bool unsigned64 = type.bits == 64 && !type.isSigned;
  const std::string lo = printCExpr(literal(range.lo)), hi = printCExpr(literal(range.hi));
  const ir::Value clamped =
      unsigned64
          ? ir::castValue("int64_t",
                          ir::callValue("idxmap_clamp<uint64_t>",
                                        {ir::elementValue(raw),
                                         ir::literalValue(std::to_string(range.lo) + "ULL"),
                                         ir::literalValue(std::to_string(range.hi) + "ULL")}))
          : ir::callValue("idxmap_clamp<int64_t>", {ir::castValue("int64_t", ir::elementValue(raw)),
                                                    ir::literalValue(lo), ir::literalValue(hi)});
  const size_t k = map_.runtimeVars.size();
  std::string name = "rt" + std::to_string(k);
  // In range, so it fits the index width (int32_t only when every buffer has < 2^31 elements).
  const ir::Value value = ir::castValue(typeName(width_), clamped);
  const std::string text = ir::printValue(value);
  emit(ir::let(typeName(width_), name, value));
  // The signed clamp is validated as printed; an unsigned 64-bit one has no model in the
  // validator's integers (and no certificate).
  if (!unsigned64)
    checks_.push_back(
        {PendingCheck::Kind::kRuntimeValue, name, text, {}, {}, {}, {}, context_, k, raw});
  map_.runtimeVars.push_back({range, ""});
  return Expr::runtimeVar(static_cast<unsigned>(map_.runtimeVars.size() - 1));
}

}  // namespace idxmap::codegen::hlo_stage
