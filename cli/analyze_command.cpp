#include "cli/analyze_command.h"

#include "cli/options.h"

#include <set>
#include <vector>

#include "cli/analyze_mlir.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/units.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/model.h"
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
  std::string why;  // the first reason a model gave
  for (const InstructionIndexing& indexing : all)
    for (const OperandIndexing& entry : indexing.entries) {
      anyUnknown = anyUnknown || entry.unknown;
      if (why.empty() && entry.unknown) why = entry.why;
    }
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
                                        "' cannot be expressed exactly" +
                                        (why.empty() ? "" : " (" + why + ")") + "; it is unknown")
                << '\n';
}

nlohmann::ordered_json entryJson(const OperandIndexing& entry, size_t id, PrintStyle style) {
  nlohmann::ordered_json maps = nlohmann::ordered_json::array();
  for (const IndexingMap& map : entry.maps) maps.push_back(printIndexingMap(map, style));
  nlohmann::ordered_json record = {{"operand", id}, {"maps", maps}, {"unknown", entry.unknown}};
  // Per map, what each of its runtime variables stands for (XLA's `runtime variables:`).
  nlohmann::ordered_json sources = nlohmann::ordered_json::array();
  bool anySource = false;
  for (const IndexingMap& map : entry.maps) {
    nlohmann::ordered_json vars = nlohmann::ordered_json::array();
    for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
      const RuntimeSource* source = map.runtimeVars[k].source.get();
      nlohmann::ordered_json var = {
          {"name", map.variableName(ExprKind::RuntimeVar, static_cast<unsigned>(k))}};
      if (source) {
        var["source"] = source->tensor;
        if (source->index) var["index"] = printIndexingMap(*source->index, style);
        anySource = true;
      }
      vars.push_back(var);
    }
    sources.push_back(vars);
  }
  if (anySource) record["runtime_variables"] = sources;
  if (!entry.replicaIdMaps.empty()) {
    nlohmann::ordered_json replicas = nlohmann::ordered_json::array();
    for (const IndexingMap& map : entry.replicaIdMaps)
      replicas.push_back(printIndexingMap(map, style));
    record["replica_id_maps"] = replicas;
  }
  return record;
}

void checkIndex(int index, size_t count, const hlo::Instruction& instruction,
                const std::string& what, const std::string& sourceName,
                const std::string& option = "--operand") {
  if (index < 0 || static_cast<size_t>(index) >= count)
    throw InputError(sourceName + ": error: " + option + " " + std::to_string(index) +
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
      ->add_option("inputs", options.inputs,
                   "HLO module text, or MLIR (a .mlir name or MLIR text); - or none reads stdin")
      ->type_name("FILE|-");
  command->add_flag("--split-input-file", options.splitInputFile,
                    "Read each section of a file between `// -----` lines as its own module "
                    "(outputs separated by `// -----`; an error in one does not stop the rest)");
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
      ->add_option("--output", options.output,
                   "The result to analyze from when the instruction has several (a tuple, a "
                   "multi-output fusion), as XLA's output_id (default 0)")
      ->type_name("K");
  command
      ->add_option("--operand", options.operand,
                   "out-to-in: print only this operand's maps; in-to-out: analyze from this "
                   "operand (default: every operand in turn)")
      ->type_name("K");
  command->add_flag("--json", options.json,
                    "Print a JSON array of {operand, maps, unknown} records (in-to-out: {input, "
                    "result, maps, unknown}); MLIR: {location, op, function, indices, maps}");
  command
      ->add_option("--format", options.format,
                   "MLIR: syntax of the printed maps (default xla; a map of several pieces is "
                   "always printed as isl)")
      ->type_name("xla|isl")
      ->check(CLI::IsMember({"xla", "isl"}));
  addStyleOption(*command, options.style);
  command->add_flag("--decompose-batching", options.decomposeBatching,
                    "MLIR: print each gather/scatter with batching dims as the equivalent "
                    "old-form op (iotas concatenated to the indices) and prove them equal; "
                    "exit 3 when a proof is not found");
  command->footer(R"(Prints XLA's layout, one `operand id = K <map>` per map and `operand id = K
unknown indexing` where an op has no model; a note on stderr names the opcode. A fusion
gets the maps of its fused computation, composed and deduplicated by meaning. For an
instruction of several results (a tuple, a multi-output fusion) out-to-in starts from
result --output K and lists only the operands that result reads.

HLO as XLA reads it: the `HloModule` line may be left out, an operand may be an
instruction written inline (`reshape(f32[2,3] parameter(0))`), a scalar's broadcast may
leave out `dimensions={}`. Several files, or with --split-input-file the `// -----`
sections of one, are analyzed one after another (JSON: one {file, line, exit, output}
record each).

Examples:
  idxmap analyze bc.hlo
      operand id = 0 (d0, d1, d2) -> (d1),
      domain:
      d0 in [0, 9],
      d1 in [0, 19],
      d2 in [0, 29]
  idxmap analyze bc.hlo --direction in-to-out --operand 0 --json
  idxmap analyze fusion.hlo --instruction transpose_p0
  idxmap analyze --split-input-file modules.hlo

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

namespace {

// An entry the chosen result does not read: every map known empty (a tuple's other operands).
bool unread(const OperandIndexing& entry) {
  if (entry.unknown || entry.maps.empty()) return false;
  for (const IndexingMap& map : entry.maps)
    if (!map.knownEmpty) return false;
  return true;
}

ExitCode analyzeHlo(const AnalyzeOptions& options, const Source& source, std::ostream& out,
                    std::ostream& diagnostics) {
  hlo::Module module = readHloModule(source.text, source.name);
  const hlo::Instruction& instruction = findInstruction(module, options.instruction, source.name);
  bool inToOut = options.direction == "in-to-out";
  int results = ops::resultCount(instruction);
  int output = options.output.value_or(0);
  if (results == 0) {
    diagnostics << formatDiagnostic(instruction.opcodeLocation, "note",
                                    "'" + instruction.name + "' has no results (an empty tuple)")
                << '\n';
    if (options.json) writeJson(out, nlohmann::ordered_json::array());
    return kSuccess;
  }
  if (options.output) {
    if (inToOut) throw InputError(source.name + ": error: --output applies to out-to-in analysis");
    checkIndex(output, static_cast<size_t>(results), instruction, "results", source.name,
               "--output");
  }
  bool tupleResult = results > 1 && !inToOut;

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
  std::vector<InstructionIndexing> indexings;
  // XLA prints the maps it does not simplify with their point dimensions.
  PointDims pointDims =
      options.style == PrintStyle::kXla ? PointDims::kPreserve : PointDims::kReplace;
  try {
    if (inToOut) {
      for (int input : inputs)
        indexings.push_back(computeInputToOutputIndexing(instruction, input, pointDims));
    } else {
      indexings.push_back(
          computeOutputToInputIndexing(instruction, output, RuntimeVariables::kFolded, pointDims));
      if (options.operand)
        checkIndex(*options.operand, indexings[0].entries.size(), instruction, "operands",
                   source.name);
    }
  } catch (const ParseError& error) {
    // The op models locate their diagnostics but do not hold the text.
    throw ParseError(error.location(), error.message(), sourceLine(source, error.location().line));
  }
  noteUnknowns(instruction, indexings, diagnostics);
  if (tupleResult)
    diagnostics << formatDiagnostic(instruction.opcodeLocation, "note",
                                    "'" + instruction.name + "' has " + std::to_string(results) +
                                        " results; these are the operands result " +
                                        std::to_string(output) +
                                        " reads (--output K picks another)")
                << '\n';

  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::string> blocks;
  for (size_t i = 0; i < indexings.size(); ++i) {
    const InstructionIndexing& indexing = indexings[i];
    std::string header =
        inToOut && inputs.size() > 1 ? "input id = " + std::to_string(inputs[i]) + "\n" : "";
    std::string text;
    for (size_t k = 0; k < indexing.entries.size(); ++k) {
      if (!inToOut && options.operand && static_cast<int>(k) != *options.operand) continue;
      if (tupleResult && !options.operand && unread(indexing.entries[k])) continue;
      nlohmann::ordered_json record = entryJson(indexing.entries[k], k, options.style);
      if (inToOut)
        // Entries are per result here; the text keeps XLA's `operand id =` for diffing.
        record = {{"input", inputs[i]},
                  {"result", k},
                  {"maps", record["maps"]},
                  {"unknown", record["unknown"]}};
      records.push_back(record);
      text += (text.empty() ? "" : "\n") +
              printEntryIndexing(indexing.entries[k], "operand", k, options.style);
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

}  // namespace

ExitCode runAnalyze(const AnalyzeOptions& options, std::ostream& out, std::ostream& diagnostics) {
  return forEachUnit(
      options.inputs, options.splitInputFile, options.json, out, diagnostics,
      [&](const Source& source, std::ostream& unitOut, std::ostream& unitDiag) {
        bool mlir = isMlir(source);
        if (mlir && options.output)
          throw InputError(source.name + ": error: --output applies to HLO input only");
        if (mlir) return runAnalyzeMlir(options, source.name, source.text, unitOut, unitDiag);
        if (options.decomposeBatching || options.format != "xla")
          throw InputError(source.name +
                           ": error: --decompose-batching and --format apply to "
                           "MLIR input only");
        return analyzeHlo(options, source, unitOut, unitDiag);
      });
}

}  // namespace idxmap::cli
