// Validation of a C++ gather/scatter kernel from its IR alone (KernelText::checkKernel): its
// copies, loop nest or threads' shares, where points run at once, run starts and prefetches,
// and each statement (statement_check.cpp), proven against the Kernel's maps (the op's),
// whatever code built it.
#include "codegen/cpp/kernel_text.h"

#include "codegen/ir/loops.h"

namespace idxmap::codegen {
namespace {

bool containsPrefetch(const ir::Node& node) {
  if (node.kind == ir::Node::Kind::kPrefetch) return true;
  for (const ir::Node& child : node.body)
    if (containsPrefetch(child)) return true;
  return false;
}

}  // namespace

void KernelText::checkKernel(const ir::Function& function) {
  std::span<const ir::Node> nodes = function.body;
  for (auto [into, from] : kernel_.initialCopies) {
    const KernelBuffer& target = buffer(into);
    // Every element (as its storage), or every byte of a packed buffer, from a source packed
    // alike.
    const bool packed = target.packedBits > 0;
    requireShape(
        !nodes.empty() && nodes.front().kind == ir::Node::Kind::kCopy &&
            nodes.front().name == target.name && nodes.front().from == buffer(from).name &&
            nodes.front().packed == packed && buffer(from).packedBits == target.packedBits &&
            nodes.front().type == (packed ? "uint8_t" : storage(target)) &&
            nodes.front().count ==
                (packed ? packedBytes(target.elements(), target.packedBits) : target.elements()),
        "the copy into " + target.name);
    nodes = nodes.subspan(1);
  }
  if (kernel_.map.knownEmpty) return requireShape(nodes.empty(), "an empty domain's kernel");
  if (kernel_.check) {
    requireShape(nodes.size() >= 2 && nodes.front().kind == ir::Node::Kind::kBadIndexFlag &&
                     nodes.back().kind == ir::Node::Kind::kReturnIfBad,
                 "the bad-index flag");
    nodes = nodes.subspan(1, nodes.size() - 2);
  }
  const ir::Node *runs = nullptr, *team = nullptr;
  std::vector<const ir::Node*> nest;
  for (const ir::Node& node : nodes) {
    if (node.kind == ir::Node::Kind::kComment) continue;  // documentation
    if (node.kind == ir::Node::Kind::kRunStarts && !runs && !team) {
      runs = &node;
    } else if (node.kind == ir::Node::Kind::kThreads && !team && nest.empty()) {
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
  requireShape(!inside.empty() && inside.front().kind == ir::Node::Kind::kThreadShare,
               "the threads' shares");
  const ir::Node& share = inside.front();
  inside = inside.subspan(1);
  const Interval shares{share.lo, share.lo + share.count - 1};
  if (runs) {
    requireShape(inside.size() > 2 && inside[0].kind == ir::Node::Kind::kToRunStart &&
                     inside[0].name == share.name &&
                     inside[1].kind == ir::Node::Kind::kToRunStart && inside[1].name == share.from,
                 "the shares moved to run starts");
    inside = inside.subspan(2);
  }
  nest.clear();
  for (const ir::Node& node : inside) nest.push_back(&node);
  // A dim's loop shared: its bounds are the thread's share.
  std::string shared;
  std::function<void(const ir::Node&)> find = [&](const ir::Node& node) {
    if (node.kind == ir::Node::Kind::kFor && node.lower->op == COp::kVariable &&
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
    if (node.kind == ir::Node::Kind::kFor && node.mapping.kind != ir::LoopMapping::Kind::kSerial)
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

void KernelText::checkNest(const std::vector<const ir::Node*>& nodes,
                           const std::optional<KernelValidator::ThreadShare>& share,
                           Ownership ownership, Interval shares, bool lanes) {
  requireShape(lanes || !runsAtOnce(nodes),
               "threads or SIMD lanes over points that may write one element");
  ir::NestParts parts;
  std::string why;
  const std::optional<LoopNest> nest =
      ir::readLoopNest(nodes, kernel_.map, width_, why, &parts, [](const ir::Node& node) {
        return node.kind == ir::Node::Kind::kIf && containsPrefetch(node);
      });
  requireShape(nest.has_value(), "the loop nest");
  require(validator_.checkLoopNest(*nest, share),
          share ? "each thread's share of " + share->iterator : "the loop nest");
  for (const ir::Node* prefetch : parts.aside) checkPrefetch(*prefetch);
  for (const ir::Node* statement : parts.statements) checkStatement(*statement, ownership, shares);
}

}  // namespace idxmap::codegen

namespace idxmap::codegen {

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
  requireShape(ahead.size() == 2 && ir::isLet(ahead[0], "idxmap_ahead") &&
                   ahead[0].value->kind == ir::ValueNode::Kind::kIndex &&
                   ahead[1].kind == ir::Node::Kind::kBlock,
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
  requireShape(ir::isLet(point[0], "d0") && ir::printValue(point[0].value) == "idxmap_ahead",
               "the prefetch's d0");
  for (size_t d = 1; d < map.dims.size(); ++d)
    requireShape(ir::isLet(point[d], "d" + std::to_string(d)) &&
                     ir::printValue(point[d].value) == printCExpr(literal(map.dims[d].range.lo)),
                 "the prefetch's d" + std::to_string(d));
  for (size_t k = 0; k < kernel_.loads.size(); ++k) {
    // rt<k> the loaded value unclamped (no wrap either: checked above).
    const ir::Node& rt = point[map.dims.size() + k];
    requireShape(ir::isLet(rt, "rt" + std::to_string(k)) &&
                     rt.value->kind == ir::ValueNode::Kind::kCast &&
                     rt.value->name == typeName(width_) && rt.value->operands.size() == 1,
                 "the prefetch's rt" + std::to_string(k));
    checkLoadedValue(k, rt.value->operands[0]);
  }
  const ir::Node& fetch = point.back();
  const Transfer& transfer = kernel_.transfers[0];
  requireShape(fetch.kind == ir::Node::Kind::kPrefetch &&
                   fetch.value->kind == ir::ValueNode::Kind::kAddress &&
                   fetch.value->name == buffer(transfer.from.buffer).name,
               "the prefetch's address");
  proveOffset("load from", fetch.value->index, transfer.from, Where::kGuarded);
}

}  // namespace idxmap::codegen
