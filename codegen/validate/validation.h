// Validation: each kernel checked against its map before it is written. What is checked is
// the code as printed, read back (c_expr.h's parser):
//   - the loop nest enumerates exactly the map's points on dims (isl: the union of the
//     statements' point sets equals the domain, each point once);
//   - every index expression equals the map's expression over the points where the kernel
//     evaluates it, with C's truncating `/` and `%` and the prelude's floor helpers (isl);
//   - every node evaluated in int32_t (int64_t) stays in that type's range there, so C's
//     arithmetic never wraps (isl; for int32_t, Z3 on bit-vectors too: checkBitWidths);
//   - every offset into a buffer lies inside it;
//   - each runtime variable's value is its loaded value, clamped where the op clamps;
//   - a guard (scatter's skip test) holds exactly at the map's points, its range checks on the
//     raw loaded values coming first so that what follows computes with bounded values.
// A check that fails is refuted with a point, replayed by evaluating the C expression and
// the map's there; one isl gives up on is unknown.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/validate/width_proof.h"
#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap::codegen {

// Where a kernel evaluates an expression: at every point of the loop nest with runtime
// variables in their ranges (kBox), or only where the map's constraints hold (kGuarded).
enum class Where : uint8_t { kBox, kGuarded };

// One expression a validator proved (checkExpression), with what it was proved against: what
// the validator's mutation test (tests/codegen/validate/validator_mutation_test.cpp) asks again
// about changed text.
struct CheckedExpression {
  std::string role, text;
  Expr meaning;
  Where where;
  std::optional<int64_t> bufferElements;
  IndexingMap map;
  std::vector<DeclaredVariable> declared;
};

class KernelValidator {
 public:
  // Where set (a test's seam, null otherwise), every expression proven on this thread is
  // recorded there.
  static inline thread_local std::vector<CheckedExpression>* journal = nullptr;

  // `map`: the kernel's map (dims, runtime variables, constraints; no range variables);
  // `declared`: the variables the kernel declares, with their widths (d<i>, rt<k>, v<k>).
  KernelValidator(const IndexingMap& map, std::vector<DeclaredVariable> declared);
  ~KernelValidator();
  KernelValidator(const KernelValidator&) = delete;
  KernelValidator& operator=(const KernelValidator&) = delete;

  // A thread's share of one dim's loop (loop_nest.h's narrowLoop): the loop over `iterator`
  // runs over [first, last), int64_t variables the thread sets at run time.
  struct ThreadShare {
    std::string iterator, first, last;
    Interval range;  // the loop's range before it was shared
  };
  // With `share`: for every first <= last in [range.lo, range.hi + 1], the nest enumerates
  // exactly the domain's points whose iterator lies in [first, last), each once; so threads
  // whose shares partition the range partition the domain.
  ProofResult checkLoopNest(const LoopNest& nest,
                            const std::optional<ThreadShare>& share = std::nullopt);
  // Threads that each walk every point and apply those they own: `condition` (comparisons
  // joined by &&, over the kernel's variables and the int64_t share bounds `first` and `last`)
  // holds exactly where first <= owner < last, for every first <= last in
  // [shares.lo, shares.hi + 1], wherever the statement runs (the map's domain); and `owner`
  // lies in `shares` there. Threads whose shares partition them apply each point once.
  ProofResult checkOwnership(const std::string& role, const std::string& condition, Expr owner,
                             Interval shares, const std::string& first, const std::string& last);
  // Points that run at once (threads, SIMD lanes) write distinct elements: `offset` (over dims
  // only) sends no two points of the map's domain to one element. Refuted with such a pair,
  // replayed by evaluating `offset` at both.
  ProofResult checkDistinct(const std::string& role, Expr offset);
  // `text` as printed must equal `meaning` (a null Expr: no meaning to compare) at the points
  // `where` says; with `bufferElements`, it must also lie in [0, bufferElements).
  ProofResult checkExpression(const std::string& role, const std::string& text, Expr meaning,
                              Where where, std::optional<int64_t> bufferElements = std::nullopt);
  // `text`: the value the kernel gives runtime variable k from its loaded value v<k>
  // (int64_t), as printed. `clamped` (the op clamps): it must be v<k> clamped into rt<k>'s
  // range for every int64_t v<k>; otherwise it must be v<k> wherever v<k> lies in the range
  // (what runs before it makes sure of that: `why`, for the certificate).
  // `raw`: the loaded value's name in `text` (v<k> when empty; an HLO stage's local).
  ProofResult checkRuntimeValue(size_t k, const std::string& text, bool clamped,
                                const std::string& why, const std::string& raw = "");
  // `text`: `v0 >= lo && v0 <= hi && ... && <constraints>` over the raw loaded values v<k>
  // (int64_t); the first 2 * runtimeVars conjuncts must be their range checks.
  ProofResult checkGuard(const std::string& text);
  // `text` (comparisons joined by &&) holds exactly where `meaning`'s constraints hold, within
  // the map's domain (its constraints included: the branch the condition sits in).
  ProofResult checkCondition(const std::string& role, const std::string& text,
                             const std::vector<Constraint>& meaning);
  // Every point of the map's domain satisfies the constraints of one of `alternatives` (the
  // last branch of an if-else chain, which prints no condition, holds where it runs).
  ProofResult checkCovered(const std::string& role,
                           const std::vector<std::vector<Constraint>>& alternatives);

  // The int32_t expressions checked since the last call, asked of Z3 on bit-vectors in one
  // query (codegen/validate/width_proof.h): proven adds a certificate (Z3 undecided, too, saying
  // so: isl's proof of each stands); a Z3 refutation of what isl proved is unknown.
  ProofResult checkBitWidths();

  // One line per check that passed, for the kernel's header (certificateComment).
  const std::vector<std::string>& certificates() const { return certificates_; }

 private:
  const IndexingMap& map() const;
  struct State;
  std::unique_ptr<State> state_;
  std::vector<std::string> certificates_;
  std::vector<WidthQuestion> widthQuestions_;
};

// A certificate as the header's comment line: "// validated (isl): ..." or, for the bit-width
// proof, "// validated (Z3, bit-vectors): ...".
std::string certificateComment(const std::string& certificate);

}  // namespace idxmap::codegen
