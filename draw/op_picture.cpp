#include "draw/op_picture.h"

#include <algorithm>
#include <map>

#include "core/checked.h"
#include "core/text.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/gather_analysis/modeled_op.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "ops/validate/mlir.h"
#include "verify/index_points.h"

namespace idxmap::draw {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;

// The start index vectors read at each point, when provenance knows every index value.
RuntimeValues knownStarts(const IndexingMap& indicesMap, size_t entries,
                          index_provenance::IndexValues values) {
  if (!values.allKnown()) return {};
  auto shared = std::make_shared<index_provenance::IndexValues>(std::move(values));
  auto reader = std::make_shared<index_points::StartIndexReader>(indicesMap, entries, *shared);
  return [shared, reader](const Index& point) -> std::optional<Index> { return reader->at(point); };
}

Picture finish(const IndexingMap& map, const TensorGrid& source, const TensorGrid& target,
               std::vector<Index> points, size_t pointCount, const RuntimeValues& values,
               OutOfRange outOfRange) {
  if (points.empty()) points = choosePoints(map, pointCount);
  return drawMap(map, source, target, points, values, outOfRange);
}

}  // namespace

Picture drawMlirOp(const mlir_ir::Module& module, size_t ordinal, std::vector<Index> points,
                   size_t pointCount) {
  validation::Report report = validation::validateMlirModule(module);
  size_t seen = 0;
  for (const validation::CheckedOp& checked : report.ops) {
    if (!checked.mlirOp) continue;
    const mlir_ir::Operation& op = *checked.mlirOp;
    if (!mlir_gather_analysis::isGatherOrScatter(op.name) || ++seen != ordinal) continue;
    if (checked.findingCount > 0) {
      const validation::Finding& finding = report.findings[checked.firstFinding];
      throw LocatedError(finding.attributeLocation.value_or(finding.location), finding.message);
    }
    std::optional<mlir_gather_analysis::ModeledOp> model;
    try {
      model = mlir_gather_analysis::modelOp(op, *checked.block);
    } catch (const Error& error) {
      throw LocatedError(checked.location, op.name + ": no picture: " + error.what());
    }
    index_provenance::IndexValues values =
        index_provenance::indexValues(*checked.block, op.operands.at(model->indicesOperand),
                                      op.operandTypes.at(model->indicesOperand));
    if (model->gather) {
      const GatherOp& gather = *model->gather;
      Index result = gather_scatter::inferGatherResultShape(
          gather.dimension_numbers, gather.start_indices.shape, gather.slice_sizes);
      Index target = model->wholeTarget.empty() ? gather.operand.shape : model->wholeTarget;
      return finish(gather_scatter::gatherOutputToOperandMap(gather), {model->indexSpace, result},
                    {model->target, target}, std::move(points), pointCount,
                    knownStarts(gather_scatter::gatherOutputToStartIndicesMap(gather),
                                gather.dimension_numbers.start_index_map.size(), std::move(values)),
                    model->outOfRangeIsUndefined ? OutOfRange::kUndefined : OutOfRange::kClamp);
    }
    const ScatterOp& scatter = *model->scatter;
    return finish(gather_scatter::scatterUpdateToResultMap(scatter),
                  {model->indexSpace, scatter.updates.at(0).shape},
                  {model->target, scatter.inputs.at(0).shape}, std::move(points), pointCount,
                  knownStarts(gather_scatter::scatterUpdateToIndicesMap(scatter),
                              scatter.dimension_numbers.scatter_dims_to_operand_dims.size(),
                              std::move(values)),
                  model->outOfRangeIsUndefined ? OutOfRange::kUndefined : OutOfRange::kSkip);
  }
  throw Error("there is no op " + std::to_string(ordinal) + ": the file has " +
              std::to_string(seen) + " gather / scatter op" + (seen == 1 ? "" : "s"));
}

Picture drawHloInstruction(const hlo::Instruction& instruction, size_t operand,
                           std::vector<Index> points, size_t pointCount) {
  if (operand >= instruction.operands.size())
    throw Error("--operand " + std::to_string(operand) + " is out of range: '" + instruction.name +
                "' has " + std::to_string(instruction.operands.size()) + " operand" +
                (instruction.operands.size() == 1 ? "" : "s"));
  if (instruction.shape.isTuple) throw Error("'" + instruction.name + "': a tuple is not drawn");
  const hlo::Instruction& input = *instruction.operands[operand];
  InstructionIndexing indexing = computeOutputToInputIndexing(instruction, 0);
  const OperandIndexing& entry = indexing.entries.at(operand);
  if (entry.unknown || entry.maps.empty())
    throw Error("'" + instruction.name + "' -> operand " + std::to_string(operand) +
                ": unknown indexing (" + (entry.why.empty() ? "an op without a model" : entry.why) +
                "), nothing to draw");
  const TensorGrid source{instruction.name, instruction.shape.shape},
      target{input.name, input.shape.shape};
  // Points over the whole result: some may read another operand (the legend says so).
  if (points.empty()) points = choosePoints(IndexingMap::identity(source.shape), pointCount);
  // Each map of the operand draws the points in its dims' ranges (XLA narrows them: a
  // concatenate's operand is read from part of the result); a point reaches their union.
  Picture picture{source, target, {}, {}};
  for (const Index& p : points) picture.points.push_back({p, {}});
  for (const IndexingMap& map : entry.maps) {
    std::vector<Index> inRange;
    std::vector<size_t> at;
    for (size_t i = 0; i < points.size(); ++i) {
      bool inside = points[i].size() == map.dims.size();
      for (size_t d = 0; inside && d < points[i].size(); ++d)
        inside = map.dims[d].range.contains(points[i][d]);
      if (!inside) continue;
      inRange.push_back(points[i]);
      at.push_back(i);
    }
    Picture part = drawMap(map, source, target, inRange);
    for (size_t k = 0; k < at.size(); ++k) {
      DrawnPoint& p = picture.points[at[k]];
      const DrawnPoint& q = part.points[k];
      p.targets.insert(p.targets.end(), q.targets.begin(), q.targets.end());
      std::sort(p.targets.begin(), p.targets.end());
      p.targets.erase(std::unique(p.targets.begin(), p.targets.end()), p.targets.end());
      p.runtimeUnknown |= q.runtimeUnknown;
      p.truncated |= q.truncated;
    }
  }
  std::map<Index, int> reachedBy;
  for (const DrawnPoint& p : picture.points)
    for (const Index& t : p.targets) ++reachedBy[t];
  picture.collisions.clear();
  for (const auto& [element, count] : reachedBy)
    if (count > 1) picture.collisions.push_back(element);
  return picture;
}

}  // namespace idxmap::draw
