#include "cli/simplify_command.h"

#include <optional>
#include <string>
#include <vector>

#include "cli/certification.h"
#include "cli/input.h"
#include "cli/output.h"
#include "simplifier/simplify.h"

namespace idxmap::cli {

CLI::App* addSimplifyCommand(CLI::App& app, CommonOptions& options) {
  CLI::App* command =
      app.add_subcommand("simplify", "Simplify indexing maps using the ranges of their variables");
  addCommonOptions(*command, options);
  command->footer(R"(Maps are written in XLA's indexing-map syntax (also MLIR affine_map<...> or
isl); several maps in one input are separated by blank lines. Each is printed
simplified, in the same order, blank-line separated. A malformed map is reported at its
line (--json: a record with "error") and the others are still simplified; exit 2 at the end.

Examples:
  idxmap simplify examples/reshape_roundtrip.map
  echo '(d0) -> (d0 mod 16), domain: d0 in [0, 9]' | idxmap simplify
  idxmap simplify --check --json examples/spec004.map
  idxmap simplify --format isl examples/tiling.map)");
  return command;
}

ExitCode runSimplify(const CommonOptions& options, std::ostream& out, std::ostream& diagnostics) {
  // A malformed map is reported where it is and the others are still simplified; exit 2 at
  // the end.
  Certifier certifier(options);
  std::vector<std::string> texts;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  bool malformed = false;
  for (const MapReading& reading : readEachMap(options.inputs)) {
    if (reading.error) {
      malformed = true;
      diagnostics << reading.error->what() << '\n';
      if (options.json) {
        std::string what = reading.error->what();
        records.push_back({{"input", reading.text}, {"error", what.substr(0, what.find('\n'))}});
      }
      continue;
    }
    const ParsedMap& input = *reading.map;
    IndexingMap output = atMap(input, [&] { return simplify(input.map); });
    std::string text =
        atMap(input, [&] { return formatMap(output, options.format, options.style); });
    std::optional<ProofResult> proof;
    if (options.check) proof = certifier.certify(input.map, output, input, diagnostics);
    if (options.json) {
      nlohmann::ordered_json record = {{"input", input.text}, {"output", text}};
      addCertificate(record, proof ? &*proof : nullptr);
      records.push_back(std::move(record));
    }
    texts.push_back(std::move(text));
  }
  if (options.json) {
    writeJson(out, records);
  } else {
    writeMapTexts(out, texts);
  }
  return malformed ? kInvalidInput : certifier.exitCode();
}

}  // namespace idxmap::cli
