#include "cli/certification.h"

#include "cli/output.h"

namespace idxmap::cli {

ProofResult Certifier::certify(const IndexingMap& input, const IndexingMap& output,
                               const ParsedMap& source, std::ostream& diagnostics) {
  EquivalenceOptions proofOptions;
  proofOptions.z3TimeoutMs = options_.timeoutMs;
  ProofResult proof = atMap(source, [&] { return proveEquivalent(input, output, proofOptions); });
  switch (proof.verdict) {
    case Verdict::Proven:
      break;
    case Verdict::Refuted:
      anyRefuted_ = true;
      diagnostics << formatDiagnostic(source.location, "error",
                                      "output differs from input (" + proof.method + "): " +
                                          (proof.counterexample ? proof.counterexample->explanation
                                                                : std::string("no counterexample")))
                  << '\n';
      break;
    case Verdict::Unknown:
    case Verdict::EqualOverReals:  // maps have no floats; counted as not certified
      anyUnknown_ = true;
      diagnostics << formatDiagnostic(source.location, "warning",
                                      "could not certify the output: " + proof.reason)
                  << '\n';
      break;
  }
  return proof;
}

ExitCode Certifier::exitCode() const {
  if (anyRefuted_) return kRefuted;
  if (anyUnknown_) return kUnknown;
  return kSuccess;
}

void addCertificate(nlohmann::ordered_json& record, const ProofResult* proof) {
  if (proof == nullptr || proof->verdict != Verdict::Proven) {
    record["certified"] = false;
  } else {
    record["certified"] = proof->method;
  }
  if (proof == nullptr) return;
  record["verdict"] = verdictName(proof->verdict);
  if (proof->verdict == Verdict::Refuted && proof->counterexample) {
    const Counterexample& counterexample = *proof->counterexample;
    record["counterexample"] = {{"dims", counterexample.dims},
                                {"runtime_vars", counterexample.runtimeVars},
                                {"explanation", counterexample.explanation}};
  } else if (proof->verdict == Verdict::Unknown) {
    record["reason"] = proof->reason;
  }
}

}  // namespace idxmap::cli
