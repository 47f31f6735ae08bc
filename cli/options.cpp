#include "cli/options.h"

#include <string>

namespace idxmap::cli {

void addCommonOptions(CLI::App& command, CommonOptions& options) {
  command
      .add_option("inputs", options.inputs,
                  "Files of maps separated by blank lines; - or none reads stdin")
      ->type_name("FILE|-");
  // A string checked against the names (rather than CLI11's enum transformer) keeps the help
  // and the error message in the user's words: "latex not in {xla,isl}".
  command
      .add_option_function<std::string>(
          "--format",
          [&options](const std::string& name) {
            options.format = name == "isl" ? OutputFormat::Isl : OutputFormat::Xla;
          },
          "Syntax of the printed maps (default: xla)")
      ->type_name("xla|isl")
      ->transform(CLI::IsMember({"xla", "isl"}, CLI::ignore_case));
  command.add_flag("--json", options.json, "Print a JSON array of records instead of maps");
  command.add_flag("--check", options.check,
                   "Prove each output equal to its input (isl, else Z3); exit 1 with a "
                   "counterexample if one differs, 3 if a proof is inconclusive");
  command
      .add_option("--timeout-ms", options.timeoutMs,
                  "Z3 time limit per --check proof (default 10000)")
      ->check(CLI::PositiveNumber);
}

}  // namespace idxmap::cli
