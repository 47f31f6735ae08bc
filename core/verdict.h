// ProofResult: the one answer to every yes/no question idxmap does not guess at — are two maps
// the same relation, is a relation empty, do two maps agree at a point, is a decomposition
// equal to its op (and, with the provers, are indices unique, sorted, in bounds):
//   - Proven: `method` names what proved it ("isl", "z3"); never said without a proof.
//   - Refuted: the claim is false. `method` names what decided it; `counterexample` is an
//     input point where it fails, replayed by evaluation before it is reported, whenever
//     the question has points (every prover in verify/ gives one; a bare isl question such
//     as islEqual says only that the relations differ, and `reason` says so).
//   - EqualOverReals (prove-equal only): the two programs compute the same results when their
//     float ops are read as arithmetic on reals, which IEEE rounding is not — `(a + b) + c`
//     and `a + (b + c)` are equal here and differ in f32. Not a proof of equality: isProven()
//     is false, and `reason` names the ops.
//   - Unknown: `reason` says why (a budget or timeout, an unsupported construct, a
//     counterexample that evaluation did not confirm). Unknown is never rounded to an answer.
//     When the answer depends on values known only at run time, `condition` may state the
//     exact condition on those values under which the claim holds, and `witness` (a condition
//     on a function's arguments) values of them that break it, shown once replayed.
// A verdict that relies on facts the user asserted (`idxmap verify --assume`) lists them in
// `assumptions`: such a proof holds for every input that satisfies them, and only for those.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace idxmap {

enum class Verdict { Proven, Refuted, Unknown, EqualOverReals };

// "proven", "refuted", "unknown", "equal-over-reals".
const char* verdictName(Verdict verdict);
inline std::ostream& operator<<(std::ostream& out, Verdict verdict) {
  return out << verdictName(verdict);
}

// Where a claim fails: an input point of a map (dims, runtime variables), or, for a claim
// about an op's tensors, the elements that show it (two updates and the result element both
// write, say).
struct Counterexample {
  struct Element {
    std::string tensor;  // "updates", "result", "scatter_indices", ...
    std::vector<int64_t> index;
    bool operator==(const Element& o) const = default;
  };
  std::vector<int64_t> dims;
  std::vector<int64_t> runtimeVars;
  std::string explanation;  // e.g. "(d0 = 3): first gives (4), second gives (5)"
  std::vector<Element> elements = {};
};

// Values of a function's arguments under which a property that depends on them fails (where
// an unknown verdict's condition on the arguments is false): each listed element holds its
// value, every other element of a listed tensor `fill` (a value that keeps the property, where
// one value keeps it for every element; else the tensor's first listed value), and every
// element of every other argument 0. Found by isl; `replayed` once the interpreter has computed
// the op's index values from them and the property failed on those
// (verify/replay/argument_witness.h), which `explanation` then says. Unreplayed ones are never
// printed.
struct ArgumentWitness {
  struct Element {
    std::string tensor;  // "%idx"
    std::vector<int64_t> index;
    int64_t value = 0;
    bool operator==(const Element& o) const = default;
  };
  std::vector<Element> elements;
  std::optional<int64_t> fill;
  bool replayed = false;
  std::string explanation;  // replayed: "%idx = [8, 0, 0, 0] (every other argument 0): ..."
};

struct ProofResult {
  Verdict verdict = Verdict::Unknown;
  std::string method;                            // what proved or refuted it; empty when unknown
  std::optional<Counterexample> counterexample;  // refuted at a point
  std::string reason;                            // unknown: why; refuted without a point: how
  std::string condition;                         // unknown: holds iff this, when known
  // What `condition` is stated on, when a caller needs to know: "arguments" (the function's,
  // issue 31: "every element of %idx is in [-10, 9]"), "index vectors", "sizes" (`?` dims);
  // empty otherwise.
  std::string conditionOn;
  std::vector<std::string> assumptions;    // user-asserted facts relied on ("%arg2: unique")
  std::optional<ArgumentWitness> witness;  // unknown on "arguments": values that break it

  static ProofResult proven(std::string method);
  static ProofResult refuted(std::string method, Counterexample counterexample);
  static ProofResult refuted(std::string method, std::string reason);
  static ProofResult unknown(std::string reason);
  static ProofResult conditional(std::string reason, std::string condition);

  bool isProven() const { return verdict == Verdict::Proven; }
  bool isRefuted() const { return verdict == Verdict::Refuted; }
  bool isUnknown() const { return verdict == Verdict::Unknown; }
};

}  // namespace idxmap
