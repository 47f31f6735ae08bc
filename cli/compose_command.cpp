#include "cli/compose_command.h"

#include <optional>
#include <string>
#include <vector>

#include "cli/certification.h"
#include "cli/input.h"
#include "cli/output.h"
#include "simplifier/simplify.h"

namespace idxmap::cli {

CLI::App* addComposeCommand(CLI::App& app, ComposeOptions& options) {
  CLI::App* command = app.add_subcommand(
      "compose", "Compose indexing maps in order (the first map is applied first)");
  addCommonOptions(*command, options.common);
  CLI::Option* noSimplify = command->add_flag("--no-simplify", options.noSimplify,
                                              "Print the raw composition, without simplifying it");
  // --check certifies the simplified composition against the raw one: nothing to prove
  // when the raw one is what gets printed.
  noSimplify->excludes(command->get_option("--check"));
  command->footer(R"(With maps A, B, C (in that order, from one or several inputs) the result is
C(B(A(x))): the results of A feed the dimensions of B, and so on, as XLA's
ComposeIndexingMaps(A, B) does. The result is simplified after each step.
With --check the simplified result is proven equal to the raw composition.

Examples:
  idxmap compose examples/compose/reshape_10x10x10_to_50x20.map \
                 examples/compose/reshape_50x20_to_10x10x10.map
  idxmap compose --no-simplify examples/compose/*.map
  cat a.map b.map | idxmap compose --check --json)");
  return command;
}

ExitCode runCompose(const ComposeOptions& options, std::ostream& out, std::ostream& diagnostics) {
  std::vector<ParsedMap> inputs = readMaps(options.common.inputs);
  if (inputs.empty()) throw InputError("idxmap compose: error: no maps in the input");

  // `raw` is the unsimplified chain, kept only to certify the simplified `result`.
  IndexingMap raw = inputs.front().map;
  IndexingMap result =
      options.noSimplify ? raw : atMap(inputs.front(), [&] { return simplify(raw); });
  for (size_t i = 1; i < inputs.size(); ++i) {
    const ParsedMap& next = inputs[i];
    atMap(next, [&] {
      if (options.common.check) raw = compose(raw, next.map);
      result =
          options.noSimplify ? compose(result, next.map) : composeAndSimplify(result, next.map);
    });
  }
  std::string text = atMap(inputs.back(), [&] { return formatMap(result, options.common.format); });

  Certifier certifier(options.common);
  std::optional<ProofResult> proof;
  if (options.common.check) proof = certifier.certify(raw, result, inputs.front(), diagnostics);

  if (options.common.json) {
    nlohmann::ordered_json inputTexts = nlohmann::ordered_json::array();
    for (const ParsedMap& input : inputs) inputTexts.push_back(input.text);
    nlohmann::ordered_json record = {{"inputs", inputTexts}, {"output", text}};
    addCertificate(record, proof ? &*proof : nullptr);
    writeJson(out, record);
  } else {
    writeMapTexts(out, {text});
  }
  return certifier.exitCode();
}

}  // namespace idxmap::cli
