// ExprContext: owns the expression nodes built while it is in use, and frees them when it
// is destroyed, as an MLIRContext owns its uniqued storage. Without one, nodes live in the
// process's table for as long as the process (what the CLI and one-shot tools want); a
// long-running host (a JIT service, an autotuner) builds each batch of work in a context
// and destroys it afterwards, so its memory stays bounded. Chosen over reference-counted
// nodes (isl's way) by measurement: an atomic count on every Expr copy, even one that never
// freed anything, made simplify 6.7 times slower (bench/simplify_bench); a context costs
// nothing per copy, and its bookkeeping when a node is built (the thread's context, each
// operand's owner) about 3%.
//
//   idxmap::ExprContext context;
//   {
//     idxmap::ExprContext::Use use(context);  // this thread builds nodes in `context`
//     IndexingMap simplified = simplify(parseIndexingMap(text));
//     ... print or copy out what must outlive the context ...
//   }
//   // ~ExprContext frees every node built under it.
//
// Rules (checked where they can be):
//  - A node is built in the context in use on its thread (ExprContext::Use), or in the
//    process's table when none is. Several threads may use one context at once.
//  - A node may refer to nodes of its own context and of the process's table, which
//    outlives everything; building one that refers to another context's nodes, or a
//    process node that refers to a context's, throws ExprError.
//  - Equal expressions are the same node within a context and across it and the process's
//    table: a context looks a node up in the process's table before building its own copy.
//    (The one exception is a process node built while the same expression already exists in
//    a context; avoid building outside contexts while contexts are in use.)
//  - Destroying a context ends the life of every Expr built in it, and of the maps, terms
//    and results that hold them: copy out (print) what must outlive it. No thread may be
//    using it then.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace idxmap {

namespace expr_storage {
class NodeTable;
}

class ExprContext {
 public:
  ExprContext();
  ~ExprContext();
  ExprContext(const ExprContext&) = delete;
  ExprContext& operator=(const ExprContext&) = delete;

  // Makes `context` the one this thread builds nodes in, until destroyed; then the one in
  // use before (they nest).
  class Use {
   public:
    explicit Use(ExprContext& context);
    ~Use();
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    ExprContext* previous_;
    ExprContext& context_;
  };

  // Nodes this context holds.
  size_t size() const;

  // Counts destroyed contexts: a cache keyed by node addresses is valid only while this is
  // unchanged, since a freed node's address may be reused by a new one.
  static uint64_t generation() { return destroyed_.load(std::memory_order_acquire); }

 private:
  friend struct ExprContextAccess;
  uint32_t owner_;  // stamped on every node of table_
  std::unique_ptr<expr_storage::NodeTable> table_;
  std::atomic<int> users_{0};
  static std::atomic<uint64_t> destroyed_;
};

}  // namespace idxmap
