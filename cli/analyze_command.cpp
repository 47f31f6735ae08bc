#include "cli/analyze_command.h"

#include <set>
#include <vector>

#include "cli/analyze_mlir.h"
#include "cli/input.h"
#include "cli/output.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap::cli {
namespace {

// Opcodes without a model that `instruction` depends on, fused computations included.
void collectUnmodeled(const hlo::Instruction& instruction, std::set<std::string>& opcodes) {
  if (instruction.opcode == "fusion") {
    for (const hlo::Computation* body : instruction.calledComputations)
      for (const auto& fused : body->instructions) collectUnmodeled(*fused, opcodes);
  } else if (!findOpModel(instruction.opcode)) {
    opcodes.insert(instruction.opcode);
  }
}

void noteUnknowns(const hlo::Instruction& instruction, const std::vector<InstructionIndexing>& all,
                  std::ostream& diagnostics) {
  bool anyUnknown = false;
  for (const InstructionIndexing& indexing : all)
    for (const OperandIndexing& entry : indexing.entries) anyUnknown = anyUnknown || entry.unknown;
  if (!anyUnknown) return;
  std::set<std::string> opcodes;
  collectUnmodeled(instruction, opcodes);
  for (const std::string& opcode : opcodes)
    diagnostics << formatDiagnostic(instruction.opcodeLocation, "note",
                                    "no indexing model for opcode '" + opcode +
                                        "'; its indexing is unknown (in '" + instruction.name +
                                        "')")
                << '\n';
  if (opcodes.empty())
    diagnostics << formatDiagnostic(instruction.opcodeLocation, "note",
                                    "the indexing of '" + instruction.name +
                                        "' cannot be expressed exactly; it is unknown")
                << '\n';
}

nlohmann::ordered_json entryJson(const OperandIndexing& entry, size_t id) {
  nlohmann::ordered_json maps = nlohmann::ordered_json::array();
  for (const IndexingMap& map : entry.maps) maps.push_back(printIndexingMap(map));
  return {{"operand", id}, {"maps", maps}, {"unknown", entry.unknown}};
}

void checkIndex(int index, size_t count, const hlo::Instruction& instruction,
                const std::string& what, const std::string& sourceName) {
  if (index < 0 || static_cast<size_t>(index) >= count)
    throw InputError(sourceName + ": error: --operand " + std::to_string(index) +
                     " is out of range: '" + instruction.name + "' has " + std::to_string(count) +
                     " " + what);
}

}  // namespace

CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeOptions& options) {
  CLI::App* command =
      app.add_subcommand("analyze",
                         "XLA's indexing analysis of an HLO module: maps between an instruction's "
                         "result and its operands; for StableHLO MLIR, the maps of every gather "
                         "and scatter");
  command
      ->add_option("input", options.input,
                   "HLO module text, or MLIR (a .mlir name or MLIR text); - or none reads stdin")
      ->type_name("FILE|-");
  command
      ->add_option("--direction", options.direction,
                   "out-to-in: from the result to each operand (default); in-to-out: from an "
                   "operand to the result")
      ->type_name("out-to-in|in-to-out")
      ->check(CLI::IsMember({"out-to-in", "in-to-out"}));
  command
      ->add_option("--instruction", options.instruction,
                   "The instruction to analyze (default: the ENTRY computation's ROOT)")
      ->type_name("NAME");
  command
      ->add_option("--operand", options.operand,
                   "out-to-in: print only this operand's maps; in-to-out: analyze from this "
                   "operand (default: every operand in turn)")
      ->type_name("K");
  command->add_flag("--json", options.json,
                    "Print a JSON array of {operand, maps, unknown} records (in-to-out adds "
                    "the input); MLIR: {location, op, function, indices, maps}");
  command
      ->add_option("--format", options.format,
                   "MLIR: syntax of the printed maps (default xla; a map of several pieces is "
                   "always printed as isl)")
      ->type_name("xla|isl")
      ->check(CLI::IsMember({"xla", "isl"}));
  command->add_flag("--decompose-batching", options.decomposeBatching,
                    "MLIR: print each gather/scatter with batching dims as the equivalent "
                    "old-form op (iotas concatenated to the indices) and prove them equal; "
                    "exit 3 when a proof is not found");
  command->footer(R"(Prints XLA's layout, one `operand id = K <map>` per map and `operand id = K
unknown indexing` where an op has no model; a note on stderr names the opcode. A fusion
gets the maps of its fused computation, composed and deduplicated by meaning.

Examples:
  idxmap analyze bc.hlo
      operand id = 0 (d0, d1, d2) -> (d1),
      domain:
      d0 in [0, 9],
      d1 in [0, 19],
      d2 in [0, 29]
  idxmap analyze bc.hlo --direction in-to-out --operand 0 --json
  idxmap analyze fusion.hlo --instruction transpose_p0

For MLIR, each stablehlo.gather / dynamic_gather / scatter (and tensor.gather / scatter,
tcp.gather / gather_nd, through their StableHLO lowering) prints its location, where its
index values come from, and its maps (gather: result -> operand, result -> start_indices;
scatter: updates -> result, updates -> scatter_indices). Runtime variables rt_k stand for
entry k of the index vector; when the indices are constants or iotas (also through
concatenate, broadcast_in_dim, reshape, transpose, clamp, add, subtract, multiply by a
constant, convert), their values are folded in (gather clamps them as the op does).
Invalid ops print `file:line:col: error: stablehlo.gather (C6): ...` and exit 2.

  idxmap analyze examples/gather.mlir
  idxmap analyze --format isl --json examples/gather.mlir
  idxmap analyze --decompose-batching examples/gather.mlir
      (the old-form op as MLIR, then `// proven equal to the original (isl)`))");
  return command;
}

ExitCode runAnalyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& diagnostics) {
  Source source = readSource(options.input);
  if (isMlir(source)) return runAnalyzeMlir(options, source.name, source.text, out, diagnostics);
  if (options.decomposeBatching || options.format != "xla")
    throw InputError(source.name +
                     ": error: --decompose-batching and --format apply to MLIR input only");
  hlo::Module module = hlo::parseHloModule(source.text, source.name);
  const hlo::Instruction& instruction = findInstruction(module, options.instruction, source.name);
  bool inToOut = options.direction == "in-to-out";

  // In-to-out: one analysis per input; out-to-in: one analysis of result 0.
  std::vector<int> inputs;
  if (inToOut) {
    if (options.operand) {
      checkIndex(*options.operand, instruction.operands.size(), instruction, "operands",
                 source.name);
      inputs.push_back(*options.operand);
    } else {
      for (size_t k = 0; k < instruction.operands.size(); ++k)
        inputs.push_back(static_cast<int>(k));
    }
  }
  std::vector<InstructionIndexing> results;
  try {
    if (inToOut) {
      for (int input : inputs) results.push_back(computeInputToOutputIndexing(instruction, input));
    } else {
      results.push_back(computeOutputToInputIndexing(instruction, 0));
      if (options.operand)
        checkIndex(*options.operand, results[0].entries.size(), instruction, "operands",
                   source.name);
    }
  } catch (const ParseError& error) {
    // The op models locate their diagnostics but do not hold the text.
    throw ParseError(error.location(), error.message(), sourceLine(source, error.location().line));
  }
  noteUnknowns(instruction, results, diagnostics);

  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::string> blocks;
  for (size_t i = 0; i < results.size(); ++i) {
    const InstructionIndexing& indexing = results[i];
    std::string header =
        inToOut && inputs.size() > 1 ? "input id = " + std::to_string(inputs[i]) + "\n" : "";
    std::string text;
    for (size_t k = 0; k < indexing.entries.size(); ++k) {
      if (!inToOut && options.operand && static_cast<int>(k) != *options.operand) continue;
      nlohmann::ordered_json record = entryJson(indexing.entries[k], k);
      if (inToOut)
        record = {{"input", inputs[i]},
                  {"operand", k},
                  {"maps", record["maps"]},
                  {"unknown", record["unknown"]}};
      records.push_back(record);
      text += (text.empty() ? "" : "\n") + printEntryIndexing(indexing.entries[k], "operand", k);
    }
    blocks.push_back(header + text);
  }
  if (options.json) {
    writeJson(out, records);
  } else {
    for (size_t i = 0; i < blocks.size(); ++i) out << (i ? "\n" : "") << blocks[i];
  }
  return kSuccess;
}

}  // namespace idxmap::cli
