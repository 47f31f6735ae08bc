// Validation of a kernel from its IR alone: what statementAt built, read back node by node and
// proven against the Kernel's maps (the op's), whatever code built it.
#include "codegen/cpp/kernel_text.h"

namespace idxmap::codegen {
namespace {

bool isLet(const ir::Node& node, const std::string& name) {
  return node.kind == ir::Node::Kind::kLet && node.name == name;
}

}  // namespace

std::span<const ir::Node> KernelText::checkOpening(const ir::Node& statement) {
  const std::string what = "the statement at a point";
  requireShape(statement.kind == ir::Node::Kind::kBlock && statement.scoped, what);
  std::span<const ir::Node> nodes = statement.body;
  // The point's fixed dims, in order: the caller's to prove (a C++ kernel's loop nest check reads
  // them as the statement's point, loopNodeOf).
  for (size_t i = 0; i < kernel_.map.dims.size() && !nodes.empty(); ++i)
    if (isLet(nodes.front(), "d" + std::to_string(i))) nodes = nodes.subspan(1);
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    const std::string v = "v" + std::to_string(k);
    requireShape(!nodes.empty() && isLet(nodes.front(), v) && nodes.front().type == "int64_t",
                 v + "'s load");
    ir::Value value = nodes.front().value;
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
        !nodes.empty() && isLet(nodes.front(), rt) && nodes.front().type == typeName(width_),
        rt + "'s value");
    require(validator_.checkRuntimeValue(k, ir::printValue(nodes.front().value), kernel_.clamp,
                                         inRange),
            rt + "'s value");
    nodes = nodes.subspan(1);
  }
  return nodes;
}

}  // namespace idxmap::codegen

namespace idxmap::codegen {
namespace {

bool is(const ir::Node& node, ir::Node::Kind kind) { return node.kind == kind; }

bool containsPrefetch(const ir::Node& node) {
  if (node.kind == ir::Node::Kind::kPrefetch) return true;
  for (const ir::Node& child : node.body)
    if (containsPrefetch(child)) return true;
  return false;
}

}  // namespace

// What a nest's statements and prefetches are, gathered while it is read back as a LoopNest.
struct KernelText::NestParts {
  std::vector<const ir::Node*> statements, prefetches;
};

void KernelText::checkKernel(const ir::Function& function) {
  std::span<const ir::Node> nodes = function.body;
  for (auto [into, from] : kernel_.initialCopies) {
    const KernelBuffer& target = buffer(into);
    requireShape(!nodes.empty() && is(nodes.front(), ir::Node::Kind::kCopy) &&
                     nodes.front().name == target.name && nodes.front().from == buffer(from).name &&
                     nodes.front().type == storage(target) &&
                     nodes.front().count == target.elements(),
                 "the copy into " + target.name);
    nodes = nodes.subspan(1);
  }
  if (kernel_.map.knownEmpty) return requireShape(nodes.empty(), "an empty domain's kernel");
  if (kernel_.check) {
    requireShape(nodes.size() >= 2 && is(nodes.front(), ir::Node::Kind::kBadIndexFlag) &&
                     is(nodes.back(), ir::Node::Kind::kReturnIfBad),
                 "the bad-index flag");
    nodes = nodes.subspan(1, nodes.size() - 2);
  }
  const ir::Node *runs = nullptr, *team = nullptr;
  std::vector<const ir::Node*> nest;
  for (const ir::Node& node : nodes) {
    if (is(node, ir::Node::Kind::kComment)) continue;  // documentation
    if (is(node, ir::Node::Kind::kRunStarts) && !runs && !team) {
      runs = &node;
    } else if (is(node, ir::Node::Kind::kThreads) && !team && nest.empty()) {
      team = &node;
    } else {
      requireShape(!team, "code beside the threads' team");
      nest.push_back(&node);
    }
  }
  if (!team) {
    requireShape(!runs, "a run-start test");
    // Threads and SIMD lanes run points at once: only where no two write one element.
    const bool independent = kernel_.strategy == Strategy::kIndependent;
    if (independent && runsAtOnce(nest)) requireDistinctTargets();
    return checkNest(nest, std::nullopt, Ownership::kNone, {}, independent);
  }
  std::span<const ir::Node> inside = team->body;
  requireShape(!inside.empty() && is(inside.front(), ir::Node::Kind::kThreadShare),
               "the threads' shares");
  const ir::Node& share = inside.front();
  inside = inside.subspan(1);
  const Interval shares{share.lo, share.lo + share.count - 1};
  if (runs) {
    requireShape(inside.size() > 2 && is(inside[0], ir::Node::Kind::kToRunStart) &&
                     inside[0].name == share.name && is(inside[1], ir::Node::Kind::kToRunStart) &&
                     inside[1].name == share.from,
                 "the shares moved to run starts");
    inside = inside.subspan(2);
  }
  nest.clear();
  for (const ir::Node& node : inside) nest.push_back(&node);
  // A dim's loop shared: its bounds are the thread's share.
  std::string shared;
  std::function<void(const ir::Node&)> find = [&](const ir::Node& node) {
    if (is(node, ir::Node::Kind::kFor) && node.lower->op == COp::kVariable &&
        node.lower->name == share.name)
      shared = node.name;
    for (const ir::Node& child : node.body) find(child);
    for (const ir::Node& child : node.orElse) find(child);
  };
  for (const ir::Node* node : nest) find(*node);
  using SplitBy = Kernel::SplitBy;
  if (!shared.empty()) {
    const bool segmented = kernel_.strategy == Strategy::kSegmented && shared == "d0" && runs;
    const bool byDim = kernel_.strategy == Strategy::kOrdered && kernel_.splitBy == SplitBy::kDim &&
                       shared == "d" + std::to_string(kernel_.splitIndex) && !runs;
    requireShape(segmented || byDim, "the threads' shares of " + shared);
    // The shares together cover the dim's range: no point is left to no thread.
    const Interval& range = kernel_.map.dims.at(std::stoul(shared.substr(1))).range;
    requireShape(shares.lo <= range.lo && shares.hi >= range.hi,
                 "the threads' shares of " + shared + " covering its range");
    if (runs) checkRunStarts(*runs, shares);
    return checkNest(nest, KernelValidator::ThreadShare{shared, share.name, share.from, shares},
                     Ownership::kNone, {}, false);
  }
  requireShape(!runs && kernel_.strategy != Strategy::kIndependent, "the threads' ownership");
  const bool byValue =
      kernel_.strategy == Strategy::kOrdered && kernel_.splitBy == SplitBy::kRuntimeVar;
  const Interval owners =
      byValue ? kernel_.map.runtimeVars.at(kernel_.splitIndex).range
              : Interval{0, buffer(kernel_.transfers.at(0).to.buffer).elements() - 1};
  requireShape(share.name == "idxmap_first" && share.from == "idxmap_last" &&
                   shares.lo == owners.lo && shares.hi == owners.hi,
               "the threads' shares of the owners");
  checkNest(nest, std::nullopt, byValue ? Ownership::kRuntimeVar : Ownership::kTargetElement,
            shares, false);
}

bool KernelText::runsAtOnce(const std::vector<const ir::Node*>& nodes) {
  std::function<bool(const ir::Node&)> parallel = [&](const ir::Node& node) {
    if (is(node, ir::Node::Kind::kFor) && node.mapping.kind != ir::LoopMapping::Kind::kSerial)
      return true;
    for (const std::vector<ir::Node>* children : {&node.body, &node.orElse})
      for (const ir::Node& child : *children)
        if (parallel(child)) return true;
    return false;
  };
  for (const ir::Node* node : nodes)
    if (parallel(*node)) return true;
  return false;
}

void KernelText::requireDistinctTargets() {
  for (const Transfer& transfer : kernel_.transfers) {
    const std::string role = "points run at once, each writing " + buffer(transfer.to.buffer).name;
    if (usesOnlyDims(transfer.to.offset)) {
      const ProofResult distinct = validator_.checkDistinct(role, transfer.to.offset);
      if (distinct.isProven()) continue;
      // Every point writes unless a skip test drops some: then the pair may be one that never
      // writes both, and only verify/'s proof on the index values can say.
      if (!kernel_.guard && !kernel_.check) require(distinct, role);
    }
    // Targets that read index values, or only some points writing: verify/'s proof, which the
    // kernel must cite.
    const std::optional<size_t> fact = kernel_.distinctTargets;
    requireShape(fact && *fact < kernel_.facts.size() && kernel_.facts[*fact].proof.isProven(),
                 role + " (no proof that its targets are distinct)");
  }
}

void KernelText::checkRunStarts(const ir::Node& runs, Interval shares) {
  requireShape(
      runs.lo == shares.lo && runs.hi == shares.hi && runs.loads.size() == kernel_.loads.size(),
      "the run-start test");
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    const ir::Value& load = runs.loads[k];
    requireShape(load->kind == ir::ValueNode::Kind::kLoad &&
                     load->name == buffer(kernel_.loads[k].buffer).name,
                 "the run-start test's loads");
    proveOffset("load of rt" + std::to_string(k) + " from", load->index, kernel_.loads[k],
                Where::kBox);
  }
}

LoopNode KernelText::loopNodeOf(const ir::Node& node, bool lanes, NestParts& parts) {
  auto children = [&](const std::vector<ir::Node>& nodes) {
    std::vector<LoopNode> out;
    for (const ir::Node& child : nodes) {
      if (is(child, ir::Node::Kind::kComment)) continue;
      if (is(child, ir::Node::Kind::kIf) && containsPrefetch(child)) {
        parts.prefetches.push_back(&child);
        continue;
      }
      out.push_back(loopNodeOf(child, lanes, parts));
    }
    return out;
  };
  LoopNode out;
  switch (node.kind) {
    case ir::Node::Kind::kFor:
      requireShape(lanes || node.mapping.kind == ir::LoopMapping::Kind::kSerial,
                   "threads or SIMD lanes over points that may write one element");
      out.kind = LoopNode::Kind::kFor;
      out.iterator = node.name;
      out.lower = node.lower;
      out.step = node.step;
      out.condition = node.condition;
      out.body = children(node.body);
      return out;
    case ir::Node::Kind::kIf:
      out.kind = LoopNode::Kind::kIf;
      out.condition = node.condition;
      out.body = children(node.body);
      out.orElse = children(node.orElse);
      return out;
    case ir::Node::Kind::kBlock:
      if (!node.scoped) {
        out.body = children(node.body);
        return out;
      }
      // A statement: its point is the dims' iterators, or the values its lets fix them to.
      out.kind = LoopNode::Kind::kStatement;
      for (size_t i = 0; i < kernel_.map.dims.size(); ++i) {
        const std::string d = "d" + std::to_string(i);
        CExpr value = variable(d, width_);
        for (const ir::Node& let : node.body)
          if (isLet(let, d) && let.value->kind == ir::ValueNode::Kind::kIndex)
            value = let.value->index;
        out.point.push_back(value);
      }
      parts.statements.push_back(&node);
      return out;
    default:
      requireShape(false, "the loop nest");
      return out;
  }
}

void KernelText::checkNest(const std::vector<const ir::Node*>& nodes,
                           const std::optional<KernelValidator::ThreadShare>& share,
                           Ownership ownership, Interval shares, bool lanes) {
  LoopNest nest;
  nest.dims = kernel_.map.dims.size();
  nest.width = width_;
  for (const Constraint& c : kernel_.map.constraints)
    if (usesOnlyDims(c.expr)) nest.dimConstraints.push_back(c);
  NestParts parts;
  std::vector<LoopNode> roots;
  for (const ir::Node* node : nodes) roots.push_back(loopNodeOf(*node, lanes, parts));
  if (roots.size() == 1) {
    nest.root = std::move(roots[0]);
  } else {
    nest.root.body = std::move(roots);
  }
  require(validator_.checkLoopNest(nest, share),
          share ? "each thread's share of " + share->iterator : "the loop nest");
  for (const ir::Node* prefetch : parts.prefetches) checkPrefetch(*prefetch);
  for (const ir::Node* statement : parts.statements) checkStatement(*statement, ownership, shares);
}

}  // namespace idxmap::codegen

namespace idxmap::codegen {

void KernelText::checkStatement(const ir::Node& statement, Ownership ownership, Interval shares) {
  std::span<const ir::Node> inner = checkOpening(statement);
  if (ownership == Ownership::kNone) return checkStores(inner);
  const Transfer& first = kernel_.transfers.at(0);
  CExpr target;  // kTargetElement: the owner, the first store's target
  if (ownership == Ownership::kTargetElement) {
    requireShape(inner.size() == 2 && isLet(inner[0], "idxmap_target") &&
                     inner[0].type == "int64_t" &&
                     inner[0].value->kind == ir::ValueNode::Kind::kIndex,
                 "the point's target");
    target = inner[0].value->index;
    proveOffset("store to", target, first.to, Where::kGuarded);
    inner = inner.subspan(1);
  }
  requireShape(inner.size() == 1 && is(inner[0], ir::Node::Kind::kIf) && inner[0].orElse.empty(),
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
  requireShape(!target || (!stores.empty() && is(stores[0], ir::Node::Kind::kStore) &&
                           printCExpr(stores[0].offset) == printCExpr(target)),
               "the owner's store");
  checkStores(stores);
}

void KernelText::checkStores(std::span<const ir::Node> stores) {
  requireShape(stores.size() == kernel_.transfers.size(), "the point's stores");
  for (size_t t = 0; t < stores.size(); ++t) {
    const Transfer& transfer = kernel_.transfers[t];
    const ir::Node& store = stores[t];
    const std::string& target = buffer(transfer.to.buffer).name;
    const std::string& source = buffer(transfer.from.buffer).name;
    requireShape(is(store, ir::Node::Kind::kStore) && store.name == target && store.atomic.empty(),
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

// The row a later iteration of d0 reads, fetched ahead: a hint that changes no value, but its
// address is computed, so it must be one the kernel may compute: the statement's own load at
// the point (d0 + distance, the other dims at their lower bounds), a point of the domain while
// d0 + distance is in d0's range, with index values that are in range there (proven: the
// kernel neither clamps nor tests them).
void KernelText::checkPrefetch(const ir::Node& prefetch) {
  const IndexingMap& map = kernel_.map;
  bool unchecked = !kernel_.clamp && !kernel_.guard && !kernel_.check && map.constraints.empty() &&
                   kernel_.transfers.size() == 1 && !map.dims.empty();
  for (int64_t wrap : kernel_.wrapNegative) unchecked = unchecked && wrap == 0;
  requireShape(unchecked, "a prefetch in a kernel that checks its index values");
  const CExpr d0 = variable("d0", width_);
  const std::vector<ir::Node>& ahead = prefetch.body;
  requireShape(ahead.size() == 2 && isLet(ahead[0], "idxmap_ahead") &&
                   ahead[0].value->kind == ir::ValueNode::Kind::kIndex &&
                   is(ahead[1], ir::Node::Kind::kBlock),
               "the prefetch");
  const CExpr step = ahead[0].value->index;
  requireShape(step->op == COp::kAdd && printCExpr(step->operands[0]) == "d0" &&
                   step->operands[1]->op == COp::kLiteral && step->operands[1]->value > 0,
               "the prefetch's iteration");
  const int64_t distance = step->operands[1]->value;
  requireShape(
      printCExpr(prefetch.condition) ==
          printCExpr(binary(COp::kLessEqual, d0, literal(map.dims[0].range.hi - distance))),
      "the prefetch's test");
  std::span<const ir::Node> point = ahead[1].body;
  requireShape(point.size() == map.dims.size() + kernel_.loads.size() + 1, "the prefetch's point");
  requireShape(isLet(point[0], "d0") && ir::printValue(point[0].value) == "idxmap_ahead",
               "the prefetch's d0");
  for (size_t d = 1; d < map.dims.size(); ++d)
    requireShape(isLet(point[d], "d" + std::to_string(d)) &&
                     ir::printValue(point[d].value) == printCExpr(literal(map.dims[d].range.lo)),
                 "the prefetch's d" + std::to_string(d));
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    const ir::Node& rt = point[map.dims.size() + k];
    const ir::Value& value = rt.value;
    requireShape(isLet(rt, "rt" + std::to_string(k)) && value->kind == ir::ValueNode::Kind::kCast &&
                     value->name == typeName(width_) && value->operands.size() == 1 &&
                     value->operands[0]->kind == ir::ValueNode::Kind::kCast &&
                     value->operands[0]->name == "int64_t" &&
                     value->operands[0]->operands.size() == 1 &&
                     value->operands[0]->operands[0]->kind == ir::ValueNode::Kind::kLoad &&
                     value->operands[0]->operands[0]->name == buffer(kernel_.loads[k].buffer).name,
                 "the prefetch's rt" + std::to_string(k));
    proveOffset("load of rt" + std::to_string(k) + " from", value->operands[0]->operands[0]->index,
                kernel_.loads[k], Where::kBox);
  }
  const ir::Node& fetch = point.back();
  const Transfer& transfer = kernel_.transfers[0];
  requireShape(is(fetch, ir::Node::Kind::kPrefetch) &&
                   fetch.value->kind == ir::ValueNode::Kind::kAddress &&
                   fetch.value->name == buffer(transfer.from.buffer).name,
               "the prefetch's address");
  proveOffset("load from", fetch.value->index, transfer.from, Where::kGuarded);
}

}  // namespace idxmap::codegen
