// Dispatch: fusion walks its fused computation (ops/hlo/analysis/fusion.cpp); every other opcode
// goes to its model; an opcode without one reads "unknown indexing", so that one unmodeled op never
// stops the analysis of the rest of a module.
#include "ops/hlo/analysis/indexing.h"

#include <algorithm>

#include "ops/hlo/analysis/fusion.h"
#include "ops/hlo/analysis/known_offsets.h"
#include "ops/hlo/analysis/runtime_sources.h"
#include "ops/hlo/models/common.h"

namespace idxmap {
namespace {

InstructionIndexing unknownIndexing(size_t entries) {
  InstructionIndexing indexing;
  indexing.entries.assign(entries, OperandIndexing::unknownIndexing());
  return indexing;
}

// XLA simplifies (replacing point dims) the maps it builds by composing others.
PointDims asXlaPrints(const hlo::Instruction& instruction, PointDims requested) {
  const std::string& opcode = instruction.opcode;
  return opcode == "reduce-window" || opcode == "convolution" ? PointDims::kReplace : requested;
}

// A gather's runtime variables in the order of the operand dims they offset, as XLA numbers
// them (the op model numbers them by index vector entry, which is what a kernel binds).
InstructionIndexing inOperandDimOrder(InstructionIndexing indexing) {
  if (indexing.entries.empty()) return indexing;
  for (IndexingMap& map : indexing.entries[0].maps) {
    std::vector<unsigned> order;  // old runtime variable numbers, in their new order
    for (const Expr& result : map.results)
      for (unsigned k = 0; k < map.runtimeVars.size(); ++k)
        if (result.uses(ExprKind::RuntimeVar, k) &&
            std::find(order.begin(), order.end(), k) == order.end())
          order.push_back(k);
    if (order.size() != map.runtimeVars.size()) continue;
    std::vector<Expr> renamed(order.size());
    std::vector<Variable> variables;
    for (unsigned position = 0; position < order.size(); ++position) {
      renamed[order[position]] = Expr::runtimeVar(position);
      variables.push_back(map.runtimeVars[order[position]]);
    }
    for (Expr& result : map.results) result = result.replaceVariables({}, {}, renamed);
    for (Constraint& constraint : map.constraints)
      constraint.expr = constraint.expr.replaceVariables({}, {}, renamed);
    map.runtimeVars = std::move(variables);
  }
  return indexing;
}

}  // namespace

InstructionIndexing computeOutputToInputIndexing(const hlo::Instruction& instruction, int outputId,
                                                 RuntimeVariables runtimeVariables,
                                                 PointDims pointDims) {
  if (instruction.opcode == "fusion") return fusionOutputToInput(instruction, outputId);
  const OpModel* model = findOpModel(instruction.opcode);
  if (!model) return unknownIndexing(instruction.operands.size());
  InstructionIndexing indexing = withRuntimeSources(
      instruction, model->outputToInput(instruction, outputId, asXlaPrints(instruction, pointDims)),
      true);
  if (runtimeVariables == RuntimeVariables::kPositional) return indexing;
  indexing = foldKnownStarts(instruction, std::move(indexing));
  return instruction.opcode == "gather" ? inOperandDimOrder(std::move(indexing)) : indexing;
}

InstructionIndexing computeInputToOutputIndexing(const hlo::Instruction& instruction, int inputId,
                                                 PointDims pointDims) {
  if (instruction.opcode == "fusion") return fusionInputToOutput(instruction, inputId);
  const OpModel* model = findOpModel(instruction.opcode);
  if (!model) return unknownIndexing(static_cast<size_t>(ops::resultCount(instruction)));
  return withRuntimeSources(
      instruction, model->inputToOutput(instruction, inputId, asXlaPrints(instruction, pointDims)),
      false);
}

std::string printEntryIndexing(const OperandIndexing& entry, const std::string& label, size_t id,
                               PrintStyle style) {
  std::string prefix = label + " id = " + std::to_string(id), text;
  auto add = [&text](const std::string& block) {
    text += (text.empty() ? "" : "\n") + block + "\n";
  };
  // An entry with no maps is an operand the result does not read; XLA prints the bare
  // header for it.
  if (entry.maps.empty() && !entry.unknown) add(prefix);
  // XLA prints what each runtime variable stands for after the map; idxmap's own style
  // leaves it out, so that every printed map reads back as one map.
  for (const IndexingMap& map : entry.maps) {
    std::string sources = style == PrintStyle::kXla ? printRuntimeSources(map, style) : "";
    add(prefix + " " + printIndexingMap(map, style) + (sources.empty() ? "" : "\n" + sources));
  }
  if (entry.unknown) add(prefix + " unknown indexing");
  // XLA prints a collective's replica map after the operand map, under `replica id:`.
  for (const IndexingMap& map : entry.replicaIdMaps)
    add("replica id:\n" + printIndexingMap(map, style));
  return text;
}

std::string printIndexing(const InstructionIndexing& indexing, const std::string& label,
                          PrintStyle style) {
  std::string text;
  for (size_t k = 0; k < indexing.entries.size(); ++k)
    text += (k ? "\n" : "") + printEntryIndexing(indexing.entries[k], label, k, style);
  return text;
}

}  // namespace idxmap
