#include "cli/options.h"

#include <map>

namespace idxmap::cli {

void addCommonOptions(CLI::App& command, CommonOptions& options) {
  command
      .add_option("inputs", options.inputs,
                  "Files of maps separated by blank lines; - or none reads stdin")
      ->type_name("FILE|-");
  command.add_option("--format", options.format, "Syntax of the printed maps (default: xla)")
      ->type_name("xla|isl")
      ->transform(
          CLI::CheckedTransformer(std::map<std::string, OutputFormat>{{"xla", OutputFormat::Xla},
                                                                      {"isl", OutputFormat::Isl}},
                                  CLI::ignore_case));
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
