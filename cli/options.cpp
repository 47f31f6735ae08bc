#include "cli/options.h"

#include <string>

namespace idxmap::cli {

void addStyleOption(CLI::App& command, PrintStyle& style) {
  command
      .add_option_function<std::string>(
          "--style",
          [&style](const std::string& name) {
            style = name == "xla" ? PrintStyle::kXla : PrintStyle::kIdxmap;
          },
          "xla: print maps as current XLA does, `/` for floor division and a KNOWN EMPTY map as "
          "those words alone, to diff against XLA's output (analyze also keeps point dimensions "
          "where XLA does and adds its `runtime variables:` block); idxmap (default): "
          "`floordiv`, which "
          "every XLA version reads, and KNOWN EMPTY maps with their domain, which read back to "
          "the same map")
      ->type_name("idxmap|xla")
      ->transform(CLI::IsMember({"idxmap", "xla"}, CLI::ignore_case));
}

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
  addStyleOption(command, options.style);
  command.add_flag("--json", options.json, "Print a JSON array of records instead of maps");
  command.add_flag("--check", options.check,
                   "Prove each output equal to its input (isl, else Z3); exit 1 with a "
                   "counterexample if one differs, 3 if a proof is inconclusive");
  // CLI11's own messages for a bad number print the double range (1.8e308 in full).
  const CLI::Validator milliseconds(
      [](std::string& value) -> std::string {
        bool digits = !value.empty() && value.size() <= 8 &&
                      value.find_first_not_of("0123456789") == std::string::npos;
        if (digits && std::stoul(value) >= 1 && std::stoul(value) <= kMaxTimeoutMs) return "";
        return "expected a whole number of milliseconds from 1 to " +
               std::to_string(kMaxTimeoutMs) + " (a day), got '" + value + "'";
      },
      "MS");
  command
      .add_option("--timeout-ms", options.timeoutMs,
                  "Z3 time limit per --check proof, 1 to 86400000 (default 10000)")
      ->type_name("MS")
      ->check(milliseconds);
}

}  // namespace idxmap::cli
