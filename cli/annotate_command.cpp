#include "cli/annotate_command.h"

#include <chrono>

#include "cli/claim_edits.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/verify_command.h"
#include "cli/verify_properties.h"
#include "core/bridges/isl_bridge.h"
#include "ops/hlo/module.h"
#include "ops/validate/hlo.h"
#include "ops/validate/mlir.h"
#include "verify/assumptions.h"
#include "verify/op_properties.h"

namespace idxmap::cli {

CLI::App* addAnnotateCommand(CLI::App& app, AnnotateOptions& options) {
  CLI::App* command =
      app.add_subcommand("annotate",
                         "Write what verify proves of gathers and scatters back into the program: "
                         "unique_indices = true and indices_are_sorted = true where they hold");
  command->add_option("input", options.input, "MLIR or HLO text; - or none reads stdin")
      ->type_name("FILE|-");
  command->add_option("-o,--output", options.output, "Write the annotated text here, not stdout")
      ->type_name("FILE");
  command->add_flag("--in-place", options.inPlace, "Rewrite the input file");
  command
      ->add_option("--assume", options.assumptions,
                   "A fact about index values, as verify takes it: '%VALUE: FACT[, FACT]...' "
                   "(repeatable); a claim proven under it is written")
      ->type_name("FACTS")
      ->allow_extra_args(false);
  command->footer(
      "Proves each gather's and scatter's index properties as `idxmap verify` does, then, for\n"
      "every StableHLO or HLO gather and scatter that does not claim a property that is\n"
      "proven, writes the claim: `false` turned to `true` where the op writes the attribute,\n"
      "else `, unique_indices = true` added at the end of its attribute dictionary (HLO:\n"
      "`, unique_indices=true` after its operands). Every other byte is left as it was; a\n"
      "claim is never removed or weakened, so running it twice changes nothing. A claim the\n"
      "program makes that is refuted is an `error:` (with the elements that show it) and is\n"
      "left as it is. Each written claim is a `note:` on stderr, then a summary line.\n\n"
      "Exit status: 0 written (or nothing to write); 1 a claim of the program refuted (the\n"
      "annotated text is still written); 2 an op invalid (nothing written), malformed text,\n"
      "--assume or options.\n\n"
      "Examples:\n"
      "  idxmap annotate model.mlir -o model.annotated.mlir\n"
      "  idxmap annotate --in-place --assume '%arg1: unique, in [0, 99]' model.mlir\n"
      "  idxmap annotate examples/jax_scatter_add.mlir");
  return command;
}

namespace {

// The claims annotate writes: StableHLO's and HLO's attributes (the forms' own claims, such
// as tensor.gather's `unique`, are verify's to report).
bool writable(const IndexProperty& property) {
  return property.claim == "unique_indices" || property.claim == "indices_are_sorted";
}

}  // namespace

ExitCode runAnnotate(const AnnotateOptions& options, std::ostream& out, std::ostream& diagnostics) {
  if (options.inPlace && (options.input == "-" || !options.output.empty())) {
    diagnostics << "idxmap annotate: error: --in-place rewrites the named input file: name one, "
                   "and no -o\n";
    return kInvalidInput;
  }
  std::vector<Assumption> assumptions = parseAssumptions(options.assumptions);
  setIslLimits({5'000'000, std::chrono::milliseconds(120'000)});  // verify's verdicts
  Source source = readSource(options.input);
  const ValidatedSource validated(source);
  const validation::Report& report = validated.report;
  if (!report.findings.empty()) {
    for (const validation::Finding& finding : report.findings)
      diagnostics << LocatedError(finding.location, finding.message,
                                  sourceLine(source, finding.location.line))
                         .what()
                  << '\n';
    diagnostics << source.label() << ": nothing written: " << report.invalidOps
                << " op(s) invalid\n";
    return kInvalidInput;
  }
  std::vector<TextEdit> edits;
  int64_t refuted = 0;
  for (const validation::CheckedOp& checked : report.ops) {
    std::optional<OpIndexProperties> properties = validated.properties(checked, assumptions);
    if (!properties) continue;
    std::vector<const IndexProperty*> claimable = {&properties->sorted};
    if (properties->unique) claimable.insert(claimable.begin(), &*properties->unique);
    for (const IndexProperty* property : claimable) {
      const ProofResult& result = property->result;
      if (property->claimed == true && result.isRefuted()) {
        diagnostics << formatDiagnostic(checked.location, "error",
                                        checked.op + ": " + refutedClaim(*properties, *property))
                    << '\n';
        ++refuted;
        continue;
      }
      if (property->claimed != false || !result.isProven() || !writable(*property)) continue;
      std::optional<TextEdit> edit =
          checked.mlirOp ? mlirClaimEdit(source.text, *checked.mlirOp, property->claim)
                         : hloClaimEdit(source.text, *checked.hloInstruction, property->claim);
      if (!edit) {
        diagnostics << formatDiagnostic(checked.location, "warning",
                                        checked.op + ": " + property->claim +
                                            " holds but was not written: the op's text has "
                                            "neither a literal false to turn nor an attribute "
                                            "list to add it to")
                    << '\n';
        continue;
      }
      edits.push_back(*edit);
      diagnostics << formatDiagnostic(checked.location, "note",
                                      checked.op + ": wrote " + property->claim +
                                          " = true: proven (" + certificate(result) + ")")
                  << '\n';
    }
  }
  const std::string annotated = withEdits(source.text, edits);
  const std::string& path = options.inPlace ? options.input : options.output;
  if (!writeOutput(path, false, annotated, out, diagnostics)) return kInvalidInput;
  diagnostics << source.label() << ": " << edits.size() << " claim"
              << (edits.size() == 1 ? "" : "s") << " written, " << refuted << " refuted\n";
  return refuted > 0 ? kRefuted : kSuccess;
}

}  // namespace idxmap::cli
