#include "core/verdict.h"

namespace idxmap {

const char* verdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::Proven:
      return "proven";
    case Verdict::Refuted:
      return "refuted";
    case Verdict::EqualOverReals:
      return "equal-over-reals";
    case Verdict::Unknown:
      break;
  }
  return "unknown";
}

ProofResult ProofResult::proven(std::string method) {
  ProofResult result;
  result.verdict = Verdict::Proven;
  result.method = std::move(method);
  return result;
}

ProofResult ProofResult::refuted(std::string method, Counterexample counterexample) {
  ProofResult result;
  result.verdict = Verdict::Refuted;
  result.method = std::move(method);
  result.counterexample = std::move(counterexample);
  return result;
}

ProofResult ProofResult::refuted(std::string method, std::string reason) {
  ProofResult result;
  result.verdict = Verdict::Refuted;
  result.method = std::move(method);
  result.reason = std::move(reason);
  return result;
}

ProofResult ProofResult::unknown(std::string reason) {
  ProofResult result;
  result.reason = std::move(reason);
  return result;
}

ProofResult ProofResult::conditional(std::string reason, std::string condition) {
  ProofResult result = unknown(std::move(reason));
  result.condition = std::move(condition);
  return result;
}

}  // namespace idxmap
