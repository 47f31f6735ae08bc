// Internal to core/expr*.cpp: where expression nodes live. One NodeTable uniques the nodes
// built outside any ExprContext (the process's, never freed); each ExprContext owns one
// more, freed with it.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <thread>
#include <vector>

#include "core/expr.h"

namespace idxmap::expr_storage {

struct NodeKey {
  ExprKind kind;
  int64_t value;
  Expr lhs, rhs;

  bool matches(const ExprNode& n) const {
    return kind == n.kind && value == n.value && lhs == n.lhs && rhs == n.rhs;
  }
};

// Nodes are allocated close together, so pointer bits are mixed well (a multiply and the
// high half) before the table masks them.
inline size_t hashKey(const NodeKey& k) {
  auto mix = [](uint64_t h, uint64_t v) {
    __uint128_t m = static_cast<__uint128_t>(h ^ v) * 0x9E3779B97F4A7C15ull;
    return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
  };
  uint64_t h = static_cast<uint64_t>(k.kind) + 1;
  h = mix(h, static_cast<uint64_t>(k.value));
  h = mix(h, reinterpret_cast<uintptr_t>(k.lhs.node()));
  h = mix(h, reinterpret_cast<uintptr_t>(k.rhs.node()));
  return static_cast<size_t>(h);
}

// Guards a table. A test-and-test-and-set spinlock: lookups are short and nearly always
// uncontended, and a pthread mutex's lock/unlock pair cost a fifth of simplification time.
class SpinLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire))
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

// A uniquing table: open addressing with linear probing over (hash, node) slots, so a
// lookup touches one array and dereferences only a node whose full hash matches
// (std::unordered_set's buckets, prime modulus and chains were a tenth of simplification
// time). Its nodes live as long as the table. Callers hold `lock`.
class NodeTable {
 public:
  explicit NodeTable(uint32_t owner) : owner_(owner) {}

  SpinLock lock;

  // `hash` is hashKey(key), computed by the caller outside the lock.
  const ExprNode* findOrInsert(const NodeKey& key, size_t hash) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.node == nullptr) {
        ExprNode& node =
            storage_.emplace_back(ExprNode{key.kind, owner_, key.value, key.lhs, key.rhs, hash});
        slot = {hash, &node};
        ++count_;
        return &node;
      }
      if (slot.hash == hash && key.matches(*slot.node)) return slot.node;
    }
  }

  const ExprNode* find(const NodeKey& key, size_t hash) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask; slots_[i].node != nullptr; i = (i + 1) & mask)
      if (slots_[i].hash == hash && key.matches(*slots_[i].node)) return slots_[i].node;
    return nullptr;
  }

  size_t size() const { return count_; }

 private:
  struct Slot {
    size_t hash = 0;
    const ExprNode* node = nullptr;
  };

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.node == nullptr) continue;
      size_t i = s.hash & mask;
      while (slots_[i].node != nullptr) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  uint32_t owner_;
  std::deque<ExprNode> storage_;
  std::vector<Slot> slots_;
  size_t count_ = 0;
};

// The owner number of the process's table; contexts number from 1.
inline constexpr uint32_t kProcessOwner = 0;

// The node for `key`: found in, or added to, the table of the context in use on this thread
// (ExprContext::Use), else the process's. Throws ExprError when an operand belongs to a
// table the new node may not refer to (expr_context.h).
const ExprNode* intern(const NodeKey& key);
// The node for `key` in the process's table, whatever context is in use: for the constants
// every context shares (Expr::constant's cache).
const ExprNode* internShared(const NodeKey& key);

}  // namespace idxmap::expr_storage
