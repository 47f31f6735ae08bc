#include "cli/analyze_mlir.h"

#include <nlohmann/json.hpp>

#include "cli/input.h"
#include "cli/output.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/mlir/module.h"

namespace idxmap::cli {
namespace {

using mlir_gather_analysis::AnalyzedOp;
using mlir_gather_analysis::DecomposedOp;

std::string header(const SourceLocation& location, const std::string& name,
                   const std::string& function) {
  return location.toString() + ": " + name + (function.empty() ? "" : " in @" + function);
}

// Every import error and violated constraint, as `idxmap verify` prints them; true if any.
template <typename Op>
bool reportInvalid(const std::vector<Op>& ops, std::ostream& diagnostics) {
  bool any = false;
  for (const Op& op : ops) {
    if (op.importError)
      diagnostics << formatDiagnostic(op.location, "error", *op.importError) << '\n';
    for (const gather_scatter::Violation& violation : op.violations)
      diagnostics << formatDiagnostic(op.location, "error", violation.message) << '\n';
    any = any || !op.valid();
  }
  return any;
}

std::string withoutTrailingNewline(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// XLA syntax when the map is one affine piece; the isl relation otherwise (or when asked).
std::pair<std::string, std::string> mapText(const mlir_gather_analysis::OpMap& map, bool isl,
                                            PrintStyle style) {
  if (isl || !map.map) return {withoutTrailingNewline(map.isl), "isl"};
  return {formatMap(*map.map, OutputFormat::Xla, style), "xla"};
}

ExitCode printAnalysis(const std::vector<AnalyzedOp>& ops, const AnalyzeOptions& options,
                       std::ostream& out) {
  bool isl = options.format == "isl";
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::string> blocks;
  for (const AnalyzedOp& op : ops) {
    nlohmann::ordered_json maps = nlohmann::ordered_json::array();
    std::string block = header(op.location, op.name, op.function) + "\nindices: " + op.indices;
    for (const mlir_gather_analysis::OpMap& map : op.maps) {
      auto [text, format] = mapText(map, isl, options.style);
      maps.push_back({{"from", map.from},
                      {"to", map.to},
                      {"map", text},
                      {"format", format},
                      {"folded", map.folded}});
      block += "\n" + map.from + " -> " + map.to + ": " + text;
    }
    records.push_back({{"location", op.location.toString()},
                       {"op", op.name},
                       {"function", op.function},
                       {"indices", op.indices},
                       {"maps", maps}});
    blocks.push_back(block);
  }
  if (options.json) {
    writeJson(out, records);
  } else {
    writeMapTexts(out, blocks);
  }
  return kSuccess;
}

ExitCode printDecompositions(const std::vector<DecomposedOp>& ops, const AnalyzeOptions& options,
                             std::ostream& out, std::ostream& diagnostics) {
  bool allProven = true;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::string> blocks;
  for (const DecomposedOp& op : ops) {
    const mlir_batching_decomposition::Decomposition& d = op.decomposition;
    bool proven = d.proof.isProven();
    allProven = allProven && proven;
    std::string verdict = proven ? "// proven equal to the original (" + d.proof.method + ")"
                                 : "// equality unknown: " + d.proof.reason;
    records.push_back({{"location", op.location.toString()},
                       {"op", op.name},
                       {"function", op.function},
                       {"mlir", d.mlir},
                       {"proven", proven},
                       {"reason", proven ? "" : d.proof.reason}});
    blocks.push_back("// " + header(op.location, op.name, op.function) + "\n" + d.mlir + verdict);
  }
  if (ops.empty())
    diagnostics << "idxmap: note: no gather or scatter with batching dims in the input\n";
  if (options.json) {
    writeJson(out, records);
  } else {
    writeMapTexts(out, blocks);
  }
  return allProven ? kSuccess : kUnknown;
}

}  // namespace

ExitCode runAnalyzeMlir(const AnalyzeOptions& options, const std::string& name,
                        const std::string& text, std::ostream& out, std::ostream& diagnostics) {
  if (!options.instruction.empty() || options.operand || options.direction != "out-to-in")
    throw InputError(name +
                     ": error: --instruction, --operand and --direction apply to HLO "
                     "input only");
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, name);
  if (options.decomposeBatching) {
    std::vector<DecomposedOp> ops = mlir_gather_analysis::decomposeBatchingOps(module);
    if (reportInvalid(ops, diagnostics)) return kInvalidInput;
    return printDecompositions(ops, options, out, diagnostics);
  }
  std::vector<AnalyzedOp> ops = mlir_gather_analysis::analyzeGathers(module);
  if (reportInvalid(ops, diagnostics)) return kInvalidInput;
  if (ops.empty()) diagnostics << "idxmap: note: no gather or scatter in the input\n";
  return printAnalysis(ops, options, out);
}

}  // namespace idxmap::cli
