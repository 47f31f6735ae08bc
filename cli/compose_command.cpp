#include "cli/compose_command.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
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
It prints one map (--json: one {inputs, output} object, with the certificate
under --check). --no-simplify prints the raw composition, whose text repeats
every shared subexpression: past 1,000,000 printed nodes it is refused (exit 2).

Examples:
  idxmap compose examples/compose/1_reshape_10x10x10_to_50x20.map \
                 examples/compose/2_reshape_50x20_to_10x10x10.map
  idxmap compose --no-simplify examples/compose/*.map
  cat a.map b.map | idxmap compose --check --json)");
  return command;
}

namespace {

// Printed text repeats every shared subexpression: a raw chain of reshapes doubles at each
// step (24 maps print as 83 MB). Past this many printed nodes the raw map is refused.
constexpr uint64_t kMaxPrintedNodes = 1'000'000;

// The nodes `map` prints, counting a shared subexpression at every use (saturating).
uint64_t printedNodes(const IndexingMap& map) {
  std::unordered_map<const void*, uint64_t> memo;
  std::function<uint64_t(Expr)> count = [&](Expr e) -> uint64_t {
    if (!e.isBinary()) return 1;
    auto found = memo.find(e.node());
    if (found != memo.end()) return found->second;
    uint64_t n = std::min(kMaxPrintedNodes + 1, 1 + count(e.lhs()) + count(e.rhs()));
    memo.emplace(e.node(), n);
    return n;
  };
  uint64_t total = 0;
  for (Expr e : map.results) total = std::min(kMaxPrintedNodes + 1, total + count(e));
  for (const Constraint& c : map.constraints)
    total = std::min(kMaxPrintedNodes + 1, total + count(c.expr));
  return total;
}

}  // namespace

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
  if (options.noSimplify && printedNodes(result) > kMaxPrintedNodes)
    throw MapError(inputs.back().location,
                   "the raw composition of " + std::to_string(inputs.size()) +
                       " maps prints more than " + std::to_string(kMaxPrintedNodes) +
                       " expression nodes (the text repeats each shared subexpression at every "
                       "use); not printed. Without --no-simplify the chain is simplified after "
                       "each step");
  std::string text = atMap(inputs.back(), [&] {
    return formatMap(result, options.common.format, options.common.style);
  });

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
