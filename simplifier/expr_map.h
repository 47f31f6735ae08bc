// ExprMap: a flat, open-addressing map keyed by Expr (a hash-consed pointer), for the
// simplifier's per-call caches. std::unordered_map allocated a node per entry and showed up
// as a tenth of simplification time; here one array holds everything.
#pragma once

#include <cstdint>
#include <vector>

#include "core/expr.h"

namespace idxmap {

template <typename Value>
class ExprMap {
 public:
  const Value* find(Expr key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = slotOf(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key.isNull()) return nullptr;
    }
  }

  // Inserts when absent; returns the stored value either way.
  Value& insert(Expr key, const Value& value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = slotOf(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return slots_[i].value;
      if (slots_[i].key.isNull()) {
        slots_[i] = {key, value};
        ++size_;
        return slots_[i].value;
      }
    }
  }

 private:
  struct Slot {
    Expr key;
    Value value;
  };

  size_t mask() const { return slots_.size() - 1; }
  size_t slotOf(Expr key) const {
    // Nodes are 8-byte aligned and close together: mix the bits before masking.
    uint64_t h = reinterpret_cast<uintptr_t>(key.node()) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 32) & mask();
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 32 : old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot& s : old)
      if (!s.key.isNull()) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace idxmap
