// Validation of one point's statement from its IR alone (KernelText::statementAt's): its
// loads, skip test and runtime values (checkOpening, both targets), then for C++ kernels what
// selects its stores for a thread and the stores themselves, proven against the Kernel's maps.
#include "codegen/cpp/kernel_text.h"

namespace idxmap::codegen {

void KernelText::checkLoadedValue(size_t k, ir::Value value) {
  const std::string v = "v" + std::to_string(k);
  const int64_t wrap = k < kernel_.wrapNegative.size() ? kernel_.wrapNegative[k] : 0;
  if (wrap != 0) {
    requireShape(value->kind == ir::ValueNode::Kind::kCall &&
                     value->name == "idxmap_wrap_negative" && value->operands.size() == 2 &&
                     ir::printValue(value->operands[1]) == printCExpr(literal(wrap)),
                 v + "'s wrap of negative indices");
    value = value->operands[0];
  }
  requireShape(value->kind == ir::ValueNode::Kind::kCast && value->name == "int64_t" &&
                   value->operands.size() == 1 &&
                   value->operands[0]->kind == ir::ValueNode::Kind::kLoad &&
                   value->operands[0]->name == buffer(kernel_.loads[k].buffer).name,
               v + "'s load");
  proveOffset("load of rt" + std::to_string(k) + " from", value->operands[0]->index,
              kernel_.loads[k], Where::kBox);
}

std::span<const ir::Node> KernelText::checkOpening(const ir::Node& statement) {
  const std::string what = "the statement at a point";
  requireShape(statement.kind == ir::Node::Kind::kBlock && statement.scoped, what);
  std::span<const ir::Node> nodes = statement.body;
  // The point's fixed dims, in order: the caller's to prove (a C++ kernel's loop nest check reads
  // them as the statement's point, ir::readLoopNest).
  for (size_t i = 0; i < kernel_.map.dims.size() && !nodes.empty(); ++i)
    if (ir::isLet(nodes.front(), "d" + std::to_string(i))) nodes = nodes.subspan(1);
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    const std::string v = "v" + std::to_string(k);
    requireShape(!nodes.empty() && ir::isLet(nodes.front(), v) && nodes.front().type == "int64_t",
                 v + "'s load");
    checkLoadedValue(k, nodes.front().value);
    nodes = nodes.subspan(1);
  }
  const bool tested = kernel_.guard || kernel_.check;
  bool hasTest = tested && !kernel_.map.runtimeVars.empty();
  for (const Constraint& c : kernel_.map.constraints) hasTest |= tested && !usesOnlyDims(c.expr);
  if (hasTest) {
    requireShape(nodes.size() == 1 && nodes.front().kind == ir::Node::Kind::kIf, "the skip test");
    const ir::Node& test = nodes.front();
    require(validator_.checkGuard(printCExpr(test.condition)), "the skip test");
    const bool reports =
        test.orElse.size() == 1 && test.orElse[0].kind == ir::Node::Kind::kBadIndex;
    requireShape(kernel_.check ? reports : test.orElse.empty(), "the skip test's else");
    nodes = test.body;
  }
  // Why an unclamped loaded value is in its range where rt<k> takes it.
  const std::string inRange = tested ? "the skip test checks the range first"
                                     : "the proof above that every loaded value lies there";
  for (size_t k = 0; k < kernel_.map.runtimeVars.size(); ++k) {
    const std::string rt = "rt" + std::to_string(k);
    requireShape(
        !nodes.empty() && ir::isLet(nodes.front(), rt) && nodes.front().type == typeName(width_),
        rt + "'s value");
    require(validator_.checkRuntimeValue(k, ir::printValue(nodes.front().value), kernel_.clamp,
                                         inRange),
            rt + "'s value");
    nodes = nodes.subspan(1);
  }
  return nodes;
}

void KernelText::checkStatement(const ir::Node& statement, Ownership ownership, Interval shares) {
  std::span<const ir::Node> inner = checkOpening(statement);
  if (ownership == Ownership::kNone) return checkStores(inner);
  const Transfer& first = kernel_.transfers.at(0);
  CExpr target;  // kTargetElement: the owner, the first store's target
  if (ownership == Ownership::kTargetElement) {
    requireShape(inner.size() == 2 && ir::isLet(inner[0], "idxmap_target") &&
                     inner[0].type == "int64_t" &&
                     inner[0].value->kind == ir::ValueNode::Kind::kIndex,
                 "the point's target");
    target = inner[0].value->index;
    proveOffset("store to", target, first.to, Where::kGuarded);
    inner = inner.subspan(1);
  }
  requireShape(inner.size() == 1 && inner[0].kind == ir::Node::Kind::kIf && inner[0].orElse.empty(),
               "the threads' ownership test");
  // The test as the validator reads it: over the kernel's variables, the owner spelled out.
  std::string test = printCExpr(inner[0].condition);
  if (target)
    for (size_t at; (at = test.find("idxmap_target")) != std::string::npos;)
      test.replace(at, 13, "(" + printCExpr(target) + ")");
  if (provenTests_.insert(test).second)
    require(
        validator_.checkOwnership("each thread's updates", test,
                                  target ? first.to.offset : Expr::runtimeVar(kernel_.splitIndex),
                                  shares, "idxmap_first", "idxmap_last"),
        "the threads' ownership test");
  const std::vector<ir::Node>& stores = inner[0].body;
  // The first store (a coupled kernel's come after its held values) writes the owned element.
  const size_t firstStore = kernel_.coupled ? kernel_.transfers.size() : 0;
  requireShape(
      !target || (stores.size() > firstStore && stores[firstStore].kind == ir::Node::Kind::kStore &&
                  printCExpr(stores[firstStore].offset) == printCExpr(target)),
      "the owner's store");
  checkStores(stores);
}

void KernelText::checkStores(std::span<const ir::Node> stores) {
  if (kernel_.coupled) return checkCoupledStores(stores);
  requireShape(stores.size() == kernel_.transfers.size(), "the point's stores");
  for (size_t t = 0; t < stores.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const ir::Node& store = stores[t];
    const std::string& target = buffer(transfer.to.buffer).name;
    const std::string& source = buffer(transfer.from.buffer).name;
    requireShape(
        store.kind == ir::Node::Kind::kStore && store.name == target && store.atomic.empty(),
        "the store into " + target);
    proveOffset("store to", store.offset, transfer.to, Where::kGuarded);
    ir::Value read = store.value;
    if (!transfer.combine.empty()) {
      const ir::Value& old = read->operands.empty() ? nullptr : read->operands[0];
      requireShape(read->kind == ir::ValueNode::Kind::kCall && read->name == transfer.combine &&
                       read->operands.size() == 2 && old->kind == ir::ValueNode::Kind::kLoad &&
                       old->name == target && printCExpr(old->index) == printCExpr(store.offset),
                   "the update of " + target);
      read = read->operands[1];
    }
    requireShape(read->kind == ir::ValueNode::Kind::kLoad && read->name == source,
                 "the load from " + source);
    proveOffset("load from", read->index, transfer.from, Where::kGuarded);
  }
}

// A coupled kernel's point: held values idxmap_new<t>, each transfer t's combine of every
// target's element at its store offset and every source's at its load offset (transfer order),
// then the stores, each of its held value to the element its combine read.
void KernelText::checkCoupledStores(std::span<const ir::Node> stores, bool prefetched) {
  const size_t n = kernel_.transfers.size();
  requireShape(stores.size() == 2 * n, "the point's held values and stores");
  std::vector<std::string> read(n);  // each target's offset as its combines read it
  for (size_t t = 0; t < n; ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const KernelBuffer& target = buffer(transfer.to.buffer);
    const ir::Node& held = stores[t];
    const std::string name = "idxmap_new" + std::to_string(t);
    requireShape(ir::isLet(held, name) && held.type == storage(target) &&
                     held.value->kind == ir::ValueNode::Kind::kCall &&
                     held.value->name == transfer.combine && held.value->operands.size() == 2 * n,
                 "the new value of " + target.name);
    for (size_t k = 0; k < 2 * n; ++k) {
      const ir::Value& argument = held.value->operands[k];
      const Access& access = k < n ? kernel_.transfers[k].to : kernel_.transfers[k - n].from;
      const std::string from = k >= n && prefetched ? "idxmap_source" + std::to_string(k - n)
                                                    : buffer(access.buffer).name;
      requireShape(argument->kind == ir::ValueNode::Kind::kLoad && argument->name == from,
                   "argument " + std::to_string(k) + " of " + transfer.combine);
      if (k < n || !prefetched)
        proveOffset(k < n ? "store to" : "load from", argument->index, access, Where::kGuarded);
      if (k < n && t == 0) read[k] = printCExpr(argument->index);
      requireShape(k >= n || printCExpr(argument->index) == read[k],
                   "the element " + transfer.combine + " reads of " + from);
    }
    const ir::Node& store = stores[n + t];
    requireShape(store.kind == ir::Node::Kind::kStore && store.name == target.name &&
                     store.atomic.empty() && printCExpr(store.offset) == read[t] &&
                     store.value->kind == ir::ValueNode::Kind::kVariable &&
                     store.value->name == name,
                 "the store into " + target.name);
  }
}

}  // namespace idxmap::codegen
