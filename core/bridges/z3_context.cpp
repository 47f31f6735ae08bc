// BorrowedZ3Context: one Z3 context per thread, reused by its proofs (z3_bridge.h).
#include <memory>
#include <string>

#include "core/bridges/z3_bridge.h"

namespace idxmap {
namespace {

struct ThreadZ3Context {
  std::unique_ptr<z3::context> context;
  int borrows = 0;  // since `context` was made
  int held = 0;     // borrows not yet ended
};

ThreadZ3Context& threadZ3Context() {
  thread_local ThreadZ3Context state;
  return state;
}

}  // namespace

BorrowedZ3Context::BorrowedZ3Context() {
  ThreadZ3Context& state = threadZ3Context();
  if (!state.context || (state.held == 0 && state.borrows >= kProofsPerZ3Context)) {
    state.context.reset();  // the old one goes before the new one is made
    state.context = std::make_unique<z3::context>();
    state.borrows = 0;
  }
  ++state.borrows;
  ++state.held;
  context_ = state.context.get();
}

BorrowedZ3Context::~BorrowedZ3Context() { --threadZ3Context().held; }

bool isZ3Timeout(const std::string& reason) {
  return reason.find("timeout") != std::string::npos ||
         reason.find("canceled") != std::string::npos;
}

bool provenOrTimedOut(const ProofResult& answer) {
  return answer.isProven() || (answer.isUnknown() && isZ3Timeout(answer.reason));
}

}  // namespace idxmap
