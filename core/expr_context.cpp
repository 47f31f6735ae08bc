#include "core/expr_context.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/expr_storage_internal.h"

namespace idxmap {

std::atomic<uint64_t> ExprContext::destroyed_{0};

// Reaches ExprContext's table for the functions below (friend of ExprContext).
struct ExprContextAccess {
  static expr_storage::NodeTable& table(ExprContext& c) { return *c.table_; }
  static uint32_t owner(const ExprContext& c) { return c.owner_; }
};

namespace expr_storage {
namespace {

thread_local ExprContext* inUse = nullptr;

NodeTable& processTable() {
  static auto* table = new NodeTable(kProcessOwner);  // leaked: Exprs outlive static dtors
  return *table;
}

// Whether the process's table holds nodes besides the shared constants; until it does,
// contexts skip looking there.
std::atomic<bool> processHoldsNodes{false};

uint32_t newOwner() {
  static std::atomic<uint32_t> next{kProcessOwner + 1};
  uint32_t owner = next.fetch_add(1, std::memory_order_relaxed);
  if (owner == kProcessOwner) owner = next.fetch_add(1, std::memory_order_relaxed);
  return owner;
}

[[noreturn, gnu::cold]] void throwForeignOperand(uint32_t owner) {
  if (owner == kProcessOwner)
    throw ExprError(
        "an expression built in an ExprContext is used on a thread with no context in use "
        "(ExprContext::Use)");
  throw ExprError("expressions built in two different ExprContexts are combined");
}

// A node in `owner`'s table may refer to its own nodes and to the process's. Inline: it runs
// twice for every node built.
inline void checkOperand(Expr operand, uint32_t owner) {
  if (operand.isNull()) return;
  uint32_t of = operand.node()->owner;
  if (of != owner && of != kProcessOwner) throwForeignOperand(owner);
}

const ExprNode* insert(NodeTable& table, const NodeKey& key, size_t hash) {
  std::lock_guard<SpinLock> lock(table.lock);
  return table.findOrInsert(key, hash);
}

// The nodes this thread interned last, direct-mapped by hash, in front of the tables (as
// MLIR's StorageUniquer keeps a thread-local cache): a hit takes no lock and does not probe
// a table that may hold millions of nodes. A key has one node among the tables a thread
// sees (the process's and its context's), so a cached node that matches the key and is
// owned by one of them is the answer whatever context was in use when it was cached; a
// node of another context is a miss. A context's nodes are forgotten when the thread stops
// using it (ExprContext::Use's destructor), before the context can be destroyed.
class RecentNodes {
 public:
  const ExprNode* find(const NodeKey& key, size_t hash, uint32_t owner) const {
    const ExprNode* node = nodes_[hash & (kSlots - 1)];
    if (node && node->hash == hash && key.matches(*node) &&
        (node->owner == owner || node->owner == kProcessOwner))
      return node;
    return nullptr;
  }
  void remember(const ExprNode* node) {
    nodes_[node->hash & (kSlots - 1)] = node;
    holdsContextNodes_ = holdsContextNodes_ || node->owner != kProcessOwner;
  }
  void forgetContextNodes() {
    if (!holdsContextNodes_) return;
    nodes_.fill(nullptr);
    holdsContextNodes_ = false;
  }

 private:
  static constexpr size_t kSlots = 2048;  // 16 KiB: stays in the first-level cache
  std::array<const ExprNode*, kSlots> nodes_{};
  bool holdsContextNodes_ = false;
};

thread_local RecentNodes recentNodes;

const ExprNode* internInTables(const NodeKey& key, size_t hash, ExprContext* context);

}  // namespace

const ExprNode* intern(const NodeKey& key) {
  size_t hash = hashKey(key);
  ExprContext* context = inUse;
  uint32_t owner = context ? ExprContextAccess::owner(*context) : kProcessOwner;
  checkOperand(key.lhs, owner);
  checkOperand(key.rhs, owner);
  if (const ExprNode* node = recentNodes.find(key, hash, owner)) return node;
  const ExprNode* node = internInTables(key, hash, context);
  recentNodes.remember(node);
  return node;
}

namespace {

const ExprNode* internInTables(const NodeKey& key, size_t hash, ExprContext* context) {
  NodeTable& process = processTable();
  if (context == nullptr) {
    std::lock_guard<SpinLock> lock(process.lock);
    size_t before = process.size();
    const ExprNode* node = process.findOrInsert(key, hash);
    if (process.size() != before && !processHoldsNodes.load(std::memory_order_relaxed))
      processHoldsNodes.store(true, std::memory_order_relaxed);
    return node;
  }
  if (processHoldsNodes.load(std::memory_order_relaxed)) {
    std::lock_guard<SpinLock> lock(process.lock);
    if (const ExprNode* node = process.find(key, hash)) return node;
  }
  return insert(ExprContextAccess::table(*context), key, hash);
}

}  // namespace

const ExprNode* internShared(const NodeKey& key) {
  return insert(processTable(), key, hashKey(key));
}

}  // namespace expr_storage

ExprContext::ExprContext()
    : owner_(expr_storage::newOwner()), table_(std::make_unique<expr_storage::NodeTable>(owner_)) {}

ExprContext::~ExprContext() {
  if (users_.load() != 0) {
    // Freeing nodes a thread is still building on would leave it with dangling handles.
    std::fputs("idxmap: an ExprContext was destroyed while an ExprContext::Use held it\n", stderr);
    std::abort();
  }
  // Before the nodes are freed, so a cache that sees an address reused also sees the count.
  destroyed_.fetch_add(1, std::memory_order_release);
}

size_t ExprContext::size() const {
  std::lock_guard<expr_storage::SpinLock> lock(table_->lock);
  return table_->size();
}

ExprContext::Use::Use(ExprContext& context) : previous_(expr_storage::inUse), context_(context) {
  context_.users_.fetch_add(1);
  expr_storage::inUse = &context_;
}

ExprContext::Use::~Use() {
  expr_storage::recentNodes.forgetContextNodes();
  expr_storage::inUse = previous_;
  context_.users_.fetch_sub(1);
}

}  // namespace idxmap
