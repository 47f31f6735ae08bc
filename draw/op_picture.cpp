#include "draw/op_picture.h"

#include "core/checked.h"
#include "ops/import/stablehlo.h"
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
    if (op.name != "stablehlo.gather" && op.name != "stablehlo.scatter") continue;
    if (++seen != ordinal) continue;
    if (checked.findingCount > 0)
      throw Error(op.name + " at " + checked.location.toString() + ": " +
                  report.findings[checked.firstFinding].message);
    const size_t indicesOperand = op.name == "stablehlo.gather" ? 1 : op.operands.size() / 2;
    index_provenance::IndexValues values = index_provenance::indexValues(
        *checked.block, op.operands.at(indicesOperand), op.operandTypes.at(indicesOperand));
    if (op.name == "stablehlo.gather") {
      GatherOp gather = stablehlo_import::importGather(op);
      if (!gather_scatter::hasStaticShapes(gather))
        throw Error("gather: drawing needs static shapes");
      IndexingMap map = gather_scatter::gatherOutputToOperandMap(gather);
      Index result = gather_scatter::inferGatherResultShape(
          gather.dimension_numbers, gather.start_indices.shape, gather.slice_sizes);
      return finish(map, {"result", result}, {"operand", gather.operand.shape}, std::move(points),
                    pointCount,
                    knownStarts(gather_scatter::gatherOutputToStartIndicesMap(gather),
                                gather.dimension_numbers.start_index_map.size(), std::move(values)),
                    OutOfRange::kClamp);
    }
    ScatterOp scatter = stablehlo_import::importScatter(op);
    if (!gather_scatter::hasStaticShapes(scatter))
      throw Error("scatter: drawing needs static shapes");
    IndexingMap map = gather_scatter::scatterUpdateToResultMap(scatter);
    return finish(map, {"updates", scatter.updates.at(0).shape},
                  {"result", scatter.inputs.at(0).shape}, std::move(points), pointCount,
                  knownStarts(gather_scatter::scatterUpdateToIndicesMap(scatter),
                              scatter.dimension_numbers.scatter_dims_to_operand_dims.size(),
                              std::move(values)),
                  OutOfRange::kSkip);
  }
  throw Error("there is no op " + std::to_string(ordinal) + ": the file has " +
              std::to_string(seen) + " stablehlo.gather / stablehlo.scatter op" +
              (seen == 1 ? "" : "s"));
}

}  // namespace idxmap::draw
