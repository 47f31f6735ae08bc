// The Z3 bridge: expressions and domains as Z3 terms, over mathematical integers or over
// 64-bit two's-complement bit-vectors (the arithmetic of emitted code).
#pragma once

#include <z3++.h>

#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

// A Z3 context for one proof, borrowed from this thread and given back when the borrow ends.
// Making a context costs milliseconds (Z3 sets up every theory), more than most proofs that
// idxmap asks, so each thread keeps one. It is replaced, when no borrow holds it, after
// kProofsPerZ3Context borrows, so that what a context accumulates stays bounded. Nested borrows
// share it. Terms, solvers and models made in it must not outlive the borrow.
class BorrowedZ3Context {
 public:
  static constexpr int kProofsPerZ3Context = 256;
  BorrowedZ3Context();
  ~BorrowedZ3Context();
  BorrowedZ3Context(const BorrowedZ3Context&) = delete;
  BorrowedZ3Context& operator=(const BorrowedZ3Context&) = delete;
  z3::context& get() const { return *context_; }

 private:
  z3::context* context_;
};

// `attempt(context)` in this thread's reused context, and an answer `settled` rejects again in
// a fresh context, whose answer is returned. A reused context proves as soundly as a fresh
// one, but which model Z3 finds -- the counterexample printed -- depends on what the context
// did before: every answer but a proof (or a timeout, which would only wait again) comes from a
// fresh context, so that no output depends on earlier proofs.
template <class Attempt, class Settled>
auto proveInReusedZ3Context(const Attempt& attempt, const Settled& settled) {
  {
    BorrowedZ3Context borrowed;
    auto answer = attempt(borrowed.get());
    if (settled(answer)) return answer;
  }
  z3::context fresh;
  return attempt(fresh);
}

// Whether Z3's reason for an unknown answer (reason_unknown()) is its time limit.
bool isZ3Timeout(const std::string& reason);

// proveInReusedZ3Context's `settled` for a ProofResult: proven, or unknown for lack of time.
bool provenOrTimedOut(const ProofResult& answer);

struct Z3Variables {
  std::vector<z3::expr> dims, rangeVars, runtimeVars;
};

// Fresh Z3 constants for every variable of `map`, named `<prefix><default name>`.
Z3Variables makeZ3Variables(z3::context& ctx, const IndexingMap& map, const std::string& prefix,
                            bool bitVector = false);

// Integer semantics: floordiv/ceildiv/mod with floor semantics (divisors are positive).
z3::expr toZ3(Expr e, const Z3Variables& vars, z3::context& ctx);

// 64-bit bit-vector semantics. `noOverflow` receives a formula that holds exactly when no
// operation in `e` overflows int64 (so the bit-vector value is the integer value).
z3::expr toZ3BitVector(Expr e, const Z3Variables& vars, z3::context& ctx, z3::expr& noOverflow);

// Every variable in its range and every constraint holds (integer semantics).
z3::expr domainToZ3(const IndexingMap& map, const Z3Variables& vars, z3::context& ctx);

}  // namespace idxmap
