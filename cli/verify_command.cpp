#include "cli/verify_command.h"

#include <string_view>

#include "cli/input.h"
#include "cli/output.h"
#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"
#include "ops/validate/hlo.h"
#include "ops/validate/mlir.h"

namespace idxmap::cli {
namespace {

nlohmann::ordered_json findingJson(const validation::Finding& finding) {
  nlohmann::ordered_json attribute = nullptr;
  if (!finding.attribute.empty()) {
    attribute = {{"name", finding.attribute}, {"line", nullptr}, {"column", nullptr}};
    if (finding.attributeLocation) {
      attribute["line"] = finding.attributeLocation->line;
      attribute["column"] = finding.attributeLocation->column;
    }
  }
  return {{"file", finding.location.file},
          {"line", finding.location.line},
          {"column", finding.location.column},
          {"op", finding.op},
          {"label", finding.label.empty() ? nlohmann::ordered_json(nullptr)
                                          : nlohmann::ordered_json(finding.label)},
          {"message", finding.message},
          {"attribute", attribute}};
}

std::string summary(const std::string& name, const validation::Report& report) {
  if (report.checkedOps == 0) return name + ": no op to verify (none has a model)";
  std::string ops = std::to_string(report.checkedOps) + " op" + (report.checkedOps == 1 ? "" : "s");
  if (report.invalidOps == 0) return name + ": " + ops + " verified, all valid";
  std::string count = std::to_string(report.findings.size());
  return name + ": " + ops + " verified, " + std::to_string(report.invalidOps) + " invalid (" +
         count + " violation" + (report.findings.size() == 1 ? "" : "s") + ")";
}

// The names, comma separated, in lines of at most 90 columns indented by two.
std::string opList(const std::vector<std::string>& names) {
  std::string text = " ";
  size_t lineStart = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string item = " " + names[i] + (i + 1 < names.size() ? "," : "");
    if (text.size() - lineStart + item.size() > 90) {
      text += "\n ";
      lineStart = text.size() - 1;
    }
    text += item;
  }
  return text;
}

}  // namespace

CLI::App* addVerifyCommand(CLI::App& app, VerifyOptions& options) {
  CLI::App* command = app.add_subcommand(
      "verify", "Check every op's constraints and types in a StableHLO MLIR or HLO file");
  command->add_option("input", options.input, "MLIR or HLO text; - or none reads stdin")
      ->type_name("FILE|-");
  command->add_flag("--json", options.json,
                    "Print a JSON array of {file, line, column, op, label, message, attribute} "
                    "records, one per violation, on stdout");
  std::vector<std::string> hloOpcodes;
  for (std::string_view opcode : modeledOpcodes()) hloOpcodes.emplace_back(opcode);
  command->footer(
      "MLIR when the file ends in .mlir or its text starts as MLIR does (`module`, `func.func`,\n"
      "`%`, a quoted op name, `#`, `stablehlo.`); HLO otherwise.\n\n"
      "Checked MLIR ops (stablehlo.* by every constraint of the spec, with its label;\n"
      "tensor.* and tcp.* by their own rules; a dynamic dim is compatible with any size its\n"
      "bound allows):\n" +
      opList(validation::validatedMlirOps()) +
      "\nChecked HLO opcodes (attributes against operand shapes, declared shape against the\n"
      "inferred one):\n" +
      opList(hloOpcodes) +
      "\nOther ops are not checked.\n\n"
      "Prints each violation on stderr as `file:line:col: error: op (label): message`, located\n"
      "at the op (--json: the attribute's value too), then a summary line. Exit status 0 when\n"
      "every checked op is valid, 2 when one is not or the text is malformed.\n\n"
      "Examples:\n"
      "  idxmap verify examples/bad_gather.mlir\n"
      "      examples/bad_gather.mlir:3:8: error: stablehlo.gather (C6): dimension 1 is in both\n"
      "      collapsed_slice_dims and operand_batching_dims\n"
      "      examples/bad_gather.mlir: 1 op verified, 1 invalid (1 violation)\n"
      "  idxmap verify --json model.hlo\n"
      "  stablehlo-opt in.mlir | idxmap verify -");
  return command;
}

ExitCode runVerify(const VerifyOptions& options, std::ostream& out, std::ostream& diagnostics) {
  Source source = readSource(options.input);
  validation::Report report =
      isMlir(source)
          ? validation::validateMlirModule(mlir_ir::parseMlirModule(source.text, source.name))
          : validation::validateHloModule(hlo::parseHloModule(source.text, source.name));
  if (options.json) {
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (const validation::Finding& finding : report.findings)
      records.push_back(findingJson(finding));
    writeJson(out, records);
  } else {
    for (const validation::Finding& finding : report.findings)
      diagnostics << formatDiagnostic(finding.location, "error", finding.message) << '\n';
  }
  diagnostics << summary(source.name, report) << '\n';
  return report.findings.empty() ? kSuccess : kInvalidInput;
}

}  // namespace idxmap::cli
