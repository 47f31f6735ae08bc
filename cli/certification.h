// --check: proving each output equal to what it came from, and turning the verdicts into
// JSON fields, diagnostics and the exit status.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/exit_code.h"
#include "cli/options.h"
#include "core/text.h"
#include "verify/equivalence.h"

namespace idxmap::cli {

class Certifier {
 public:
  explicit Certifier(const CommonOptions& options) : options_(options) {}

  // Proves `output` equal to `input`, reports a refutation or an inconclusive proof on
  // `diagnostics` at `source`'s location, and remembers the verdict for exitCode().
  ProofResult certify(const IndexingMap& input, const IndexingMap& output, const ParsedMap& source,
                      std::ostream& diagnostics);

  // A refutation outranks an unknown: exit 1 when any output was refuted, else 3 when any
  // was unknown, else 0.
  ExitCode exitCode() const;

 private:
  const CommonOptions& options_;
  bool anyRefuted_ = false;
  bool anyUnknown_ = false;
};

// The JSON "certified" field: the proof's method when proven, else false. With a proof, also
// "verdict" (proven|refuted|unknown) and "counterexample" or "reason" when it failed.
void addCertificate(nlohmann::ordered_json& record, const ProofResult* proof);

}  // namespace idxmap::cli
