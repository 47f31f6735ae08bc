// An HLO stage's statement as kernel IR (codegen/hlo/hlo_stage_internal.h): its locals, the
// index expressions and conditions it computes (each checked later against the op models' maps,
// PendingCheck), its loads, and the runtime variables it declares from loaded index values.
#include "codegen/cpp/ir_printer.h"
#include "codegen/hlo/hlo_stage_internal.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

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
                     "",
                     lowered});
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
                     "",
                     test});
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
  emit(ir::let(buffer.type.compute, name,
               buffer.holdsComputeType
                   ? element
                   : ir::elementValue(loadElement(buffer.type, "$0"), {element})));
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
  runtimeValues_.push_back(value);
  // The signed clamp is validated as printed; an unsigned 64-bit one has no model in the
  // validator's integers (and no certificate).
  if (!unsigned64)
    checks_.push_back({PendingCheck::Kind::kRuntimeValue,
                       name,
                       text,
                       {},
                       {},
                       {},
                       {},
                       context_,
                       k,
                       raw,
                       nullptr,
                       value});
  map_.runtimeVars.push_back({range, ""});
  return Expr::runtimeVar(static_cast<unsigned>(map_.runtimeVars.size() - 1));
}

std::vector<PendingCheck> StageEmitter::storesRead(const std::vector<const ir::Node*>& statements,
                                                   std::string& why) const {
  std::vector<PendingCheck> out;
  auto isOutput = [&](const ir::Node& node) {
    return node.kind == ir::Node::Kind::kStore &&
           std::any_of(writes_.begin(), writes_.end(),
                       [&](const Write& w) { return w.buffer == node.name; });
  };
  std::function<size_t(const std::vector<ir::Node>&)> storesInside =
      [&](const std::vector<ir::Node>& nodes) {
        size_t count = 0;
        for (const ir::Node& node : nodes)
          count += isOutput(node) + storesInside(node.body) + storesInside(node.orElse);
        return count;
      };
  for (const ir::Node* statement : statements) {
    const std::vector<ir::Node>& nodes = statement->body;
    std::vector<const ir::Node*> stores;
    for (const ir::Node& node : nodes)
      if (isOutput(node)) stores.push_back(&node);
    if (!(statement->kind == ir::Node::Kind::kBlock && statement->scoped) ||
        stores.size() != writes_.size() || storesInside(nodes) != stores.size()) {
      why = "a statement does not store each output once, at its top level";
      return {};
    }
    for (size_t k = 0; k < writes_.size(); ++k) {
      const Write& write = writes_[k];
      if (stores[k]->name != write.buffer || !stores[k]->atomic.empty()) {
        why = "the statement's store into " + write.buffer;
        return {};
      }
      out.push_back({PendingCheck::Kind::kExpression,
                     "store to " + write.buffer,
                     printCExpr(stores[k]->offset),
                     write.offset,
                     write.elements,
                     {},
                     {},
                     {},
                     0,
                     ""});
    }
  }
  return out;
}

namespace {

// k for a name d<k>, else none (any other name, whatever the IR holds).
std::optional<size_t> dimNumber(const std::string& name) {
  if (name.size() < 2 || name.size() > 8 || name[0] != 'd' ||
      name.find_first_not_of("0123456789", 1) != std::string::npos)
    return std::nullopt;
  return std::stoul(name.substr(1));
}

}  // namespace

std::string StageEmitter::uncheckedIn(const std::vector<const ir::Node*>& statements) const {
  std::set<const CExprNode*> held;
  for (const PendingCheck& check : checks_)
    if (check.expr) held.insert(check.expr.get());
  std::set<const ir::ValueNode*> runtime;
  for (const ir::Value& value : runtimeValues_) runtime.insert(value.get());
  std::string why;
  auto hold = [&](const CExpr& e, const std::string& what) {
    if (why.empty() && !held.count(e.get()))
      why = what + " `" + printCExpr(e) + "` is no checked one";
  };
  std::function<void(const ir::Value&)> value = [&](const ir::Value& v) {
    if (!v) return;
    if (v->kind == ir::ValueNode::Kind::kLoad || v->kind == ir::ValueNode::Kind::kAddress)
      hold(v->index, "the offset into " + v->name);
    if (v->kind == ir::ValueNode::Kind::kIndex) hold(v->index, "an index value");
    for (const ir::Value& operand : v->operands) value(operand);
  };
  std::function<void(const std::vector<ir::Node>&)> nodes = [&](const std::vector<ir::Node>& list) {
    for (const ir::Node& node : list) {
      switch (node.kind) {
        case ir::Node::Kind::kLet:
          if (node.name.starts_with("rt")) {
            if (why.empty() && !runtime.count(node.value.get()))
              why = node.name + "'s value is no checked one";
            continue;
          }
          break;
        case ir::Node::Kind::kIf:
          hold(node.condition, "a branch condition");
          break;
        case ir::Node::Kind::kFor: {  // a reduced dim's loop, over its range
          const std::optional<size_t> dim = dimNumber(node.name);
          const Interval range = dim && *dim >= outputDims_ && *dim < map_.dims.size()
                                     ? map_.dims[*dim].range
                                     : Interval{1, 0};  // no reduced dim's: refused
          if (why.empty() && !(range.lo <= range.hi && node.step == 1 && node.type.empty() &&
                               printCExpr(node.lower) == printCExpr(literal(range.lo)) &&
                               printCExpr(node.condition) ==
                                   printCExpr(binary(COp::kLessEqual, variable(node.name, width_),
                                                     literal(range.hi)))))
            why = "the loop over " + node.name + " is not its reduced dim's range";
          break;
        }
        case ir::Node::Kind::kStore:
          value(node.value);  // its offset: storesRead
          nodes(node.body);
          continue;
        default:
          break;
      }
      value(node.value);
      for (const ir::Value& load : node.loads) value(load);
      nodes(node.body);
      nodes(node.orElse);
    }
  };
  for (const ir::Node* statement : statements) {
    // The dims isl fixed at this statement (its first lets): read with the loop nest.
    std::vector<ir::Node> rest;
    bool opening = true;
    for (const ir::Node& node : statement->body) {
      opening = opening && node.kind == ir::Node::Kind::kLet &&
                dimNumber(node.name).value_or(outputDims_) < outputDims_;
      if (!opening) rest.push_back(node);
    }
    nodes(rest);
  }
  return why;
}

}  // namespace idxmap::codegen::hlo_stage
