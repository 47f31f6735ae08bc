#include "codegen/cuda/cuda_vectors_internal.h"

#include <algorithm>

#include "codegen/cuda/cuda_kernel_internal.h"

#include "codegen/kernel/loop_nest.h"
#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

constexpr int64_t kVectorBytes = 16;

// `offset` less the last dim `last`, when it is that dim plus terms free of it.
std::optional<Expr> baseOf(Expr offset, unsigned last) {
  std::vector<Expr> terms, pending = {offset};
  while (!pending.empty()) {
    Expr e = pending.back();
    pending.pop_back();
    if (e.kind() == ExprKind::Add) {
      pending.push_back(e.lhs());
      pending.push_back(e.rhs());
    } else {
      terms.push_back(e);
    }
  }
  const Expr lane = Expr::dim(last);
  std::optional<Expr> base;
  bool laneSeen = false;
  for (Expr term : terms) {
    if (term == lane && !laneSeen) {
      laneSeen = true;
      continue;
    }
    if (term.uses(ExprKind::Dim, last)) return std::nullopt;
    base = base ? *base + term : term;
  }
  if (!laneSeen) return std::nullopt;
  return base ? *base : Expr::constant(0);
}

}  // namespace

std::optional<VectorPlan> planVectors(const Kernel& kernel) {
  const IndexingMap& map = kernel.map;
  if (map.dims.empty() || kernel.transfers.empty()) return std::nullopt;
  const unsigned last = static_cast<unsigned>(map.dims.size() - 1);
  if (kernel.coupled) return std::nullopt;  // its combines are the caller's, one element each
  for (const KernelBuffer& b : kernel.buffers)
    if (b.packedBits) return std::nullopt;  // packed elements are not 16-byte lanes
  const std::string& type = kernel.buffers.at(kernel.transfers[0].to.buffer).elementType;
  const std::optional<int> bytes = storageBytes(type);
  if (!bytes || kVectorBytes % *bytes != 0) return std::nullopt;
  VectorPlan plan;
  plan.lanes = kVectorBytes / *bytes;
  const Interval range = map.dims[last].range;
  if (range.isEmpty() || range.lo != 0 || (range.hi + 1) % plan.lanes != 0) return std::nullopt;
  for (const Access& load : kernel.loads)
    if (load.offset.uses(ExprKind::Dim, last)) return std::nullopt;
  for (const Constraint& c : map.constraints)
    if (c.expr.uses(ExprKind::Dim, last)) return std::nullopt;
  for (const Transfer& transfer : kernel.transfers) {
    if (!transfer.combine.empty()) {  // a replace copies too
      std::optional<CombineKind> kind = combineKind(transfer.combine);
      if (!kind || kind->computation != gather_scatter::UpdateComputation::kReplace)
        return std::nullopt;
    }
    for (const Access* access : {&transfer.to, &transfer.from}) {
      if (storageBytes(kernel.buffers.at(access->buffer).elementType) != bytes) return std::nullopt;
      std::optional<Expr> base = baseOf(access->offset, last);
      if (!base) return std::nullopt;
      plan.bases.push_back(*base);
      if (std::find(plan.moved.begin(), plan.moved.end(), access->buffer) == plan.moved.end())
        plan.moved.push_back(access->buffer);
    }
  }
  return plan;
}

std::string CudaKernelPrinter::vectorsKernel() {
  std::optional<VectorPlan> plan = planVectors(kernel_);
  if (!plan) return "";
  const std::string lanes = std::to_string(plan->lanes);
  for (size_t b = 0; b < plan->bases.size(); ++b) {
    const Transfer& transfer = kernel_.transfers[b / 2];
    const std::string role = std::string(b % 2 ? "load from " : "store to ") +
                             buffer((b % 2 ? transfer.from : transfer.to).buffer).name;
    const std::string text = printCExpr(lowering_.lower(plan->bases[b]));
    if (!validator_
             .checkExpression("16-byte rows: " + role + " less the last dim",
                              "(" + text + ") / " + lanes + " * " + lanes, plan->bases[b],
                              Where::kGuarded)
             .isProven())
      return "";
  }
  ThreadPoints threads(kernel_.map, width_, 1, plan->lanes);
  ir::Node vectors = threads.gridLoop({statement(dimVariables(), Store::kVector)});
  if (edit_) edit_(vectors);
  // The lanes a thread takes, read from the IR: a 16-byte copy moves 16 / (element size) of them.
  std::optional<int> copied;
  std::function<void(const ir::Node&)> find = [&](const ir::Node& node) {
    if (node.kind == ir::Node::Kind::kVectorCopy) {
      for (const KernelBuffer& b : kernel_.buffers)
        if (b.name == node.name) copied = storageBytes(b.elementType);
    }
    for (const ir::Node& child : node.body) find(child);
    for (const ir::Node& child : node.orElse) find(child);
  };
  find(vectors);
  requireShape(copied && kVectorBytes % *copied == 0, "the thread's 16-byte copies");
  require(checkGridPoints(validator_, vectors, kernel_.map, {1, kVectorBytes / *copied}),
          "the thread's lanes decoding");
  lanes_ = plan->lanes;
  vectorThreads_ = threads.points();
  for (size_t b : plan->moved) aligned_.push_back(buffer(b).name);
  return kernelFunction("vectors", {}, {vectors});
}

}  // namespace idxmap::codegen
