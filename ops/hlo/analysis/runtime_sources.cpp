#include "ops/hlo/analysis/runtime_sources.h"

#include "ops/hlo/models/common.h"
#include "ops/hlo/models/gather_scatter.h"
#include "simplifier/simplify.h"

namespace idxmap {
namespace {

using hlo::Instruction;

std::shared_ptr<const RuntimeSource> sourceAt(const Instruction& tensor, IndexingMap index) {
  return std::make_shared<RuntimeSource>(
      RuntimeSource{runtimeSourceName(tensor), std::make_shared<IndexingMap>(simplify(index))});
}

// Every point of the map's dimensions reads the same scalar: `(d...) -> ()`.
IndexingMap scalarIndex(const IndexingMap& map) {
  IndexingMap index;
  index.dims = map.dims;
  return index;
}

// Gather result point -> element k of its index vector: the start-indices map with the range
// variable that walks the index vector fixed at k.
std::optional<IndexingMap> indexVectorElement(const IndexingMap& startIndices, int64_t k) {
  if (startIndices.rangeVars.size() > 1 || !startIndices.runtimeVars.empty()) return std::nullopt;
  if (startIndices.rangeVars.empty()) return k == 0 ? std::optional(startIndices) : std::nullopt;
  IndexingMap index = startIndices;
  std::vector<Expr> fixed = {Expr::constant(k)};
  for (Expr& result : index.results) result = result.replaceVariables({}, fixed, {});
  for (Constraint& constraint : index.constraints)
    constraint.expr = constraint.expr.replaceVariables({}, fixed, {});
  index.rangeVars.clear();
  return index;
}

void recordScalarStarts(const Instruction& instruction, size_t firstStart,
                        InstructionIndexing& indexing) {
  size_t starts = instruction.operands.size() - std::min(firstStart, instruction.operands.size());
  for (OperandIndexing& entry : indexing.entries)
    for (IndexingMap& map : entry.maps) {
      if (map.runtimeVars.size() != starts || map.knownEmpty) continue;
      IndexingMap index = scalarIndex(map);
      for (size_t k = 0; k < starts; ++k)
        map.runtimeVars[k].source = sourceAt(*instruction.operands[firstStart + k], index);
    }
}

void recordGatherStarts(const Instruction& instruction, InstructionIndexing& indexing) {
  if (indexing.entries.size() != 2 || indexing.entries[1].maps.size() != 1) return;
  const IndexingMap& startIndices = indexing.entries[1].maps[0];
  for (IndexingMap& map : indexing.entries[0].maps) {
    if (map.knownEmpty) continue;
    std::vector<IndexingMap> indices;
    for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
      std::optional<IndexingMap> index = indexVectorElement(startIndices, static_cast<int64_t>(k));
      if (!index) return;
      indices.push_back(std::move(*index));
    }
    for (size_t k = 0; k < indices.size(); ++k)
      map.runtimeVars[k].source = sourceAt(*instruction.operands[1], indices[k]);
  }
}

}  // namespace

std::string runtimeSourceName(const Instruction& instruction) {
  if (instruction.opcode == "parameter" && instruction.parameterNumber >= 0)
    return "parameter(" + std::to_string(instruction.parameterNumber) + ")";
  if (instruction.opcode == "constant" && !instruction.shape.isTuple &&
      instruction.shape.shape.empty())
    return "constant(" + instruction.literal + ")";
  return instruction.name;
}

InstructionIndexing withRuntimeSources(const Instruction& instruction, InstructionIndexing indexing,
                                       bool outputToInput) {
  if (instruction.opcode == "dynamic-slice") recordScalarStarts(instruction, 1, indexing);
  if (instruction.opcode == "dynamic-update-slice") recordScalarStarts(instruction, 2, indexing);
  if (instruction.opcode == "gather" && outputToInput && instruction.operands.size() == 2)
    recordGatherStarts(instruction, indexing);
  return indexing;
}

std::string printRuntimeSources(const IndexingMap& map, PrintStyle style) {
  bool any = false;
  for (const Variable& var : map.runtimeVars) any = any || var.source != nullptr;
  if (!any) return "";
  std::string text = "runtime variables:\n";
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    const RuntimeSource* source = map.runtimeVars[k].source.get();
    text += "\n" + map.variableName(ExprKind::RuntimeVar, static_cast<unsigned>(k)) + ": ";
    if (!source) {
      text += "not recorded";
      continue;
    }
    text += source->tensor;
    if (source->index) text += "; " + printIndexingMap(*source->index, style);
  }
  return text;
}

}  // namespace idxmap
