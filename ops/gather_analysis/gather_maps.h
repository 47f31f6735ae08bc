// Every stablehlo.gather / dynamic_gather / scatter of an MLIR module with its maps: the
// output->operand map with the index values folded in where index provenance knows them
// (ops/provenance/index_values.h), and the output->indices map. What `idxmap analyze FILE.mlir`
// prints. Ops are taken from each function's entry block and from the module's bare ops.
// tensor.gather / tensor.scatter (spec 001) and tcp.gather / tcp.gather_nd (spec 003) are
// analyzed through their StableHLO lowering (ops/forms/lowering.h), indices not clamped.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "core/text.h"
#include "ops/gather_analysis/batching_decomposition.h"
#include "ops/mlir/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::mlir_gather_analysis {

struct OpMap {
  std::string from;                // "result", "updates"
  std::string to;                  // "operand", "start_indices", "result", "scatter_indices"
  std::optional<IndexingMap> map;  // simplified; absent when only isl can say it (pieces)
  std::string isl;                 // the relation in isl syntax
  bool folded = false;             // some index values are composed in
};

struct AnalyzedOp {
  SourceLocation location;
  std::string name;      // "stablehlo.gather"
  std::string function;  // empty for a bare op
  // Why no model exists (an ImportError's message), or the broken constraints.
  std::optional<std::string> importError;
  std::vector<gather_scatter::Violation> violations;
  std::vector<OpMap> maps;  // empty when invalid
  std::string indices;      // provenance of the index values, or why they are not known
  bool valid() const { return !importError && violations.empty(); }
};

// The ops in text order: functions first (in order), then bare ops.
std::vector<AnalyzedOp> analyzeGathers(const mlir_ir::Module& module);

// `--decompose-batching`: each gather and scatter with batching dims, decomposed and proven
// (ops/gather_analysis/batching_decomposition.h). Invalid ops come with their errors and no
// decomposition; ops without batching dims (and dynamic_gather, which has none) are left out.
struct DecomposedOp {
  SourceLocation location;
  std::string name;
  std::string function;
  std::optional<std::string> importError;
  std::vector<gather_scatter::Violation> violations;
  mlir_batching_decomposition::Decomposition decomposition;
  bool valid() const { return !importError && violations.empty(); }
};
std::vector<DecomposedOp> decomposeBatchingOps(const mlir_ir::Module& module);

// Whether `name` is one of the ops analyzed here.
bool isGatherOrScatter(const std::string& name);

// The slice sizes of a dynamic_gather when its third operand is a constant of `scope`.
std::optional<std::vector<int64_t>> constantSliceSizes(const std::vector<mlir_ir::Operation>& scope,
                                                       const mlir_ir::Operation& op);

}  // namespace idxmap::mlir_gather_analysis
