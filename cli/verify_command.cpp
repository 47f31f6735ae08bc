#include "cli/verify_command.h"

#include <chrono>
#include <map>
#include <string_view>

#include "cli/input.h"
#include "cli/output.h"
#include "cli/units.h"
#include "cli/verify_properties.h"
#include "core/bridges/isl_bridge.h"
#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"
#include "ops/validate/hlo.h"
#include "ops/validate/mlir.h"
#include "verify/assumptions.h"
#include "verify/op_properties.h"
#include "verify/replay/argument_witness.h"

namespace idxmap::cli {
namespace {

// An op as verify reports it: its constraint findings and, for gathers and scatters that are
// valid, its index properties.
struct VerifiedOp {
  const validation::CheckedOp* checked;
  std::optional<OpIndexProperties> properties;
};

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

nlohmann::ordered_json opJson(const VerifiedOp& op, const validation::Report& report) {
  const validation::CheckedOp& checked = *op.checked;
  nlohmann::ordered_json constraints = nlohmann::ordered_json::array();
  for (size_t i = 0; i < checked.findingCount; ++i)
    constraints.push_back(findingJson(report.findings[checked.firstFinding + i]));
  return {{"op", checked.op},
          {"location",
           {{"file", checked.location.file},
            {"line", checked.location.line},
            {"column", checked.location.column}}},
          {"constraints", constraints},
          {"properties",
           op.properties ? propertiesJson(*op.properties) : nlohmann::ordered_json(nullptr)}};
}

std::string propertySummary(const std::string& name, const PropertyTally& tally) {
  auto count = [](int64_t n, const char* what) { return std::to_string(n) + " " + what; };
  std::string line = name + ": index properties of " + count(tally.ops, "op") +
                     (tally.ops == 1 ? "" : "s") + ": " + count(tally.proven, "proven") + ", " +
                     count(tally.refuted, "refuted") + ", " + count(tally.unknown, "unknown");
  if (tally.claimsRefuted + tally.claimsUnknown > 0)
    line += " (claims: " + count(tally.claimsRefuted, "refuted") + ", " +
            count(tally.claimsUnknown, "not proven") + ")";
  return line;
}

std::string summary(const std::string& name, const validation::Report& report) {
  if (report.checkedOps == 0) return name + ": no op to verify (none has a model)";
  std::string ops = std::to_string(report.checkedOps) + " op" + (report.checkedOps == 1 ? "" : "s");
  if (report.invalidOps == 0) return name + ": " + ops + " verified, all valid";
  std::string count = std::to_string(report.findings.size());
  return name + ": " + ops + " verified, " + std::to_string(report.invalidOps) + " invalid (" +
         count + " violation" + (report.findings.size() == 1 ? "" : "s") + ")";
}

// The ops without a model, so that none is taken for valid: HLO instructions by name and
// opcode, MLIR ops by name and count; at most 12 listed.
std::string uncheckedLine(const std::string& name, const validation::Report& report) {
  std::vector<std::string> items;
  std::map<std::string, int64_t> counts;  // MLIR: op name -> count, in first-seen order below
  for (const validation::UncheckedOp& op : report.unchecked) {
    if (!op.name.empty()) {
      items.push_back(op.name + " (" + op.op + ")");
    } else if (counts[op.op]++ == 0) {
      items.push_back(op.op);
    }
  }
  for (std::string& item : items)
    if (counts.count(item) && counts[item] > 1) item += " x" + std::to_string(counts[item]);
  size_t shown = std::min<size_t>(items.size(), 12);
  std::string line = name + ": not checked (no model): ";
  for (size_t i = 0; i < shown; ++i) line += (i ? ", " : "") + items[i];
  if (shown < items.size()) line += ", and " + std::to_string(items.size() - shown) + " more";
  return line;
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
      "verify",
      "Check every op's constraints and types in a StableHLO MLIR or HLO file, and prove what "
      "gathers and scatters claim about their indices");
  command->add_option("inputs", options.inputs, "MLIR or HLO text; - or none reads stdin")
      ->type_name("FILE|-");
  command->add_flag("--split-input-file", options.splitInputFile,
                    "Verify each section of a file between `// -----` lines on its own (an "
                    "error in one does not stop the rest)");
  command->add_flag("--json", options.json,
                    "Print a JSON array with one record per checked op on stdout: {op, location, "
                    "constraints: [{file, line, column, op, label, message, attribute}], "
                    "properties: null | {unique, sorted, in_bounds, int32_safe, indices}}");
  command
      ->add_option("--assume", options.assumptions,
                   "A fact about index values: '%VALUE: FACT[, FACT]...' with FACT one of "
                   "unique, sorted, permutation, in [LO, HI] (repeatable)")
      ->type_name("FACTS")
      ->allow_extra_args(false);  // one fact list per --assume: the input file stays positional
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
      "\nOther ops are not checked: the summary names them (`not checked (no model): ...`),\n"
      "never counting them as valid.\n\n"
      "Prints each violation on stderr as `file:line:col: error: op (label): message`, located\n"
      "at the op, with its line and a caret (--json: the attribute's value too), then a\n"
      "summary line. Several files, or\n"
      "with --split-input-file the `// -----` sections of one, are verified one after another\n"
      "(--json: one {file, line, exit, output} record each); the exit status is the worst.\n\n"
      "Index properties of every valid gather and scatter form with static shapes (MLIR; and\n"
      "HLO's gather and scatter, whose index values are followed through the instructions of\n"
      "their computation as the StableHLO ops they are, a parameter as an argument):\n"
      "  unique     no two applied updates write one element (tensor.gather: no two reads);\n"
      "  sorted     start indices in row-major order are lexicographically non-decreasing;\n"
      "  in bounds  no start index is clamped (gather), no update skipped (scatter), every\n"
      "             index in range (tensor.*, tcp.*: out of range is undefined behavior);\n"
      "  int32 safe every index expression of the op's maps, and each offset into a tensor,\n"
      "             fits in signed 32 bits (--json only: nothing claims it).\n"
      "Proven or refuted exactly (isl) when the index values are constants, iotas and ops of\n"
      "them; otherwise proven when the op's structure or the --assume facts imply them, or\n"
      "stated as the exact condition on the values. What an op claims (unique_indices,\n"
      "indices_are_sorted, tensor.gather's `unique`, tensor.scatter's required `unique`, the\n"
      "forms' in-range indices) is checked: refuted is an `error:` with the elements that show\n"
      "it, not proven a `warning:` (and a `remark:` with the condition); a property that holds\n"
      "but is not claimed gets a `note: ... could be set`.\n\n"
      "--assume facts are about the index vectors an op reads from the value (the index tensor\n"
      "without its index vector dim): unique (no two equal), sorted (non-decreasing in\n"
      "row-major order), in [LO, HI] (every entry), permutation (unique, entries in\n"
      "[0, n-1] for n vectors). A value is named as written (%arg2), in every function; when\n"
      "an op's indices are a stablehlo.concatenate along the index vector dim, facts about an\n"
      "operand are about the entries it gives (as the batching-dims decomposition writes it).\n"
      "Facts hold wherever the value flows: index values are followed back through constants,\n"
      "iotas, movement, integer arithmetic (wrapping as its types wrap), compare, select,\n"
      "func.call, argsort, top_k and argmax, to the arguments and the values assumed about.\n"
      "`idxmap annotate` writes the claims proven here back into the program.\n\n"
      "A `?` dim of an op's operand, inputs or updates is a size (n0, n1, ...), within its\n"
      "bound and the op's own shape constraints: a property is proven for every size, refuted\n"
      "when every size breaks it (the smallest shown), or unknown with the condition on the\n"
      "sizes (\"n1 <= 1, where n1 is dim 0 of updates\").\n\n"
      "Each isl question runs under an operation budget (the same input always gets the same\n"
      "verdicts); a question past it is unknown, with the reason.\n\n"
      "Exit status: 0 every op valid and every claim proven; 1 a claim refuted; 2 an op\n"
      "invalid, or malformed text or --assume; 3 a claim not proven.\n\n"
      "Examples:\n"
      "  idxmap verify examples/bad_gather.mlir\n"
      "      examples/bad_gather.mlir:3:8: error: stablehlo.gather (C6): dimension 1 is in both\n"
      "      collapsed_slice_dims and operand_batching_dims\n"
      "        %0 = \"stablehlo.gather\"(%operand, %start_indices) {\n"
      "             ^\n"
      "      examples/bad_gather.mlir: 1 op verified, 1 invalid (1 violation)\n"
      "  idxmap verify --json model.hlo\n"
      "  idxmap verify --assume '%arg2: unique, in [0, 99]' model.mlir\n"
      "  stablehlo-opt in.mlir | idxmap verify -");
  return command;
}

namespace {

ExitCode verifySource(const Source& source, const std::vector<Assumption>& assumptions, bool json,
                      std::ostream& out, std::ostream& diagnostics) {
  const ValidatedSource validated(source);
  const validation::Report& report = validated.report;
  std::vector<VerifiedOp> ops;
  PropertyTally properties;
  for (const validation::CheckedOp& checked : report.ops) {
    VerifiedOp op{&checked, validated.properties(checked, assumptions)};
    if (op.properties) tally(*op.properties, properties);
    ops.push_back(std::move(op));
  }
  if (json) {
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (const VerifiedOp& op : ops) records.push_back(opJson(op, report));
    writeJson(out, records);
  } else {
    for (const VerifiedOp& op : ops) {
      for (size_t i = 0; i < op.checked->findingCount; ++i) {
        const validation::Finding& finding = report.findings[op.checked->firstFinding + i];
        // As a parse error is shown: the op's line and a caret under it.
        diagnostics << LocatedError(finding.location, finding.message,
                                    sourceLine(source, finding.location.line))
                           .what()
                    << '\n';
      }
      if (op.properties)
        printPropertyDiagnostics(op.checked->location, op.checked->op, *op.properties, diagnostics);
    }
  }
  diagnostics << summary(source.label(), report) << '\n';
  if (properties.ops > 0) diagnostics << propertySummary(source.label(), properties) << '\n';
  if (!report.unchecked.empty()) diagnostics << uncheckedLine(source.label(), report) << '\n';
  if (!report.findings.empty()) return kInvalidInput;
  if (properties.claimsRefuted > 0) return kRefuted;
  if (properties.claimsUnknown > 0) return kUnknown;
  return kSuccess;
}

}  // namespace

ValidatedSource::ValidatedSource(const Source& source) {
  if (isMlir(source)) {
    mlir = mlir_ir::parseMlirModule(source.text, source.name);
    report = validation::validateMlirModule(*mlir);
  } else {
    hlo = readHloModule(source.text, source.name);
    report = validation::validateHloModule(*hlo);
  }
}

std::optional<OpIndexProperties> ValidatedSource::properties(
    const validation::CheckedOp& checked, const std::vector<Assumption>& assumptions) const {
  if (checked.findingCount != 0) return std::nullopt;
  if (checked.mlirOp) {
    std::optional<OpIndexProperties> properties =
        proveOpIndexProperties(*checked.mlirOp, *checked.block, assumptions, &*mlir);
    // Conditions on a function's arguments come with values that break them, shown once the
    // interpreter has replayed them.
    if (properties)
      argument_witness::replayWitnesses(*mlir, *checked.block, *checked.mlirOp, assumptions,
                                        *properties);
    return properties;
  }
  if (checked.hloInstruction)
    return proveHloOpIndexProperties(*checked.hloInstruction, assumptions);
  return std::nullopt;
}

ExitCode runVerify(const VerifyOptions& options, std::ostream& out, std::ostream& diagnostics) {
  std::vector<Assumption> assumptions = parseAssumptions(options.assumptions);
  // The same input gets the same verdicts: each isl question is bounded by its operation
  // budget, which does not depend on the machine; the time limit is only a backstop far past it.
  setIslLimits({5'000'000, std::chrono::milliseconds(120'000)});
  return forEachUnit(options.inputs, options.splitInputFile, options.json, out, diagnostics,
                     [&](const Source& source, std::ostream& unitOut, std::ostream& unitDiag) {
                       return verifySource(source, assumptions, options.json, unitOut, unitDiag);
                     });
}

}  // namespace idxmap::cli
