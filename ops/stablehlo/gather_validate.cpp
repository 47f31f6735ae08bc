// stablehlo.gather's constraints C1-C23 as a table: label, attribute, predicate.
#include "ops/stablehlo/constraint_rules.h"
#include "ops/stablehlo/gather_rules.h"

namespace idxmap::gather_scatter {
namespace {

using namespace gather_rules;
using GatherCheck = ConstraintRule<GatherOp>;
using Message = std::optional<std::string>;

const GatherDimensionNumbers& dn(const GatherOp& op) { return op.dimension_numbers; }

const std::vector<GatherCheck>& gatherChecks() {
  static const std::vector<GatherCheck> table = {
      {"I1", "operand", operandPerTensor},
      {"I2", "start_indices", startIndicesInteger},
      {"C1", "offset_dims", rankAddsUp},
      {"C2", "index_vector_dim", indexVectorDimInRange},
      {"C3", "start_index_map", startIndexMapSize},
      {"C4", "offset_dims", offsetDimsUniqueSorted},
      {"C5", "offset_dims", offsetDimsInRange},
      {"C6", "collapsed_slice_dims",
       [](const GatherOp& op) {
         return uniquenessMessage(dn(op).collapsed_slice_dims, "collapsed_slice_dims",
                                  dn(op).operand_batching_dims, "operand_batching_dims");
       }},
      {"C7", "collapsed_slice_dims", collapsedSorted},
      {"C8", "collapsed_slice_dims", collapsedInRange},
      {"C9", "slice_sizes", collapsedSizes},
      {"C10", "operand_batching_dims",
       [](const GatherOp& op) {
         return sortedMessage(dn(op).operand_batching_dims, "operand_batching_dims");
       }},
      {"C11", "operand_batching_dims",
       [](const GatherOp& op) {
         return rangeMessage(dn(op).operand_batching_dims, "operand_batching_dims",
                             op.operand.rank(), "rank(operand)");
       }},
      {"C12", "slice_sizes",
       [](const GatherOp& op) -> Message {
         if (sliceSizesCount(op)) return std::nullopt;  // C20
         return collapsedSizeMessage(op.slice_sizes, dn(op).operand_batching_dims,
                                     "operand_batching_dims");
       }},
      {"C13", "start_indices_batching_dims",
       [](const GatherOp& op) -> Message {
         if (std::optional<int64_t> twice = firstDuplicate(dn(op).start_indices_batching_dims))
           return "dimension " + std::to_string(*twice) +
                  " appears twice in start_indices_batching_dims";
         return std::nullopt;
       }},
      {"C14", "start_indices_batching_dims",
       [](const GatherOp& op) {
         return rangeMessage(dn(op).start_indices_batching_dims, "start_indices_batching_dims",
                             op.start_indices.rank(), "rank(start_indices)");
       }},
      {"C15", "index_vector_dim",
       [](const GatherOp& op) -> Message {
         if (!listContains(dn(op).start_indices_batching_dims, dn(op).index_vector_dim))
           return std::nullopt;
         return "index_vector_dim " + std::to_string(dn(op).index_vector_dim) +
                " is also in start_indices_batching_dims";
       }},
      {"C16", "start_indices_batching_dims",
       [](const GatherOp& op) -> Message {
         size_t a = dn(op).operand_batching_dims.size();
         size_t b = dn(op).start_indices_batching_dims.size();
         if (a == b) return std::nullopt;
         return "size(operand_batching_dims) = " + std::to_string(a) +
                " but size(start_indices_batching_dims) = " + std::to_string(b);
       }},
      {"C17", "operand_batching_dims",
       [](const GatherOp& op) -> Message {
         const auto& a = dn(op).operand_batching_dims;
         const auto& b = dn(op).start_indices_batching_dims;
         for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
           if (a[i] < 0 || a[i] >= op.operand.rank() || b[i] < 0 || b[i] >= op.start_indices.rank())
             continue;  // C11 / C14
           if (!compatibleDims(op.operand, a[i], op.start_indices, b[i]))
             return "dim(operand, " + std::to_string(a[i]) + ") = " + dimText(op.operand, a[i]) +
                    " but dim(start_indices, " + std::to_string(b[i]) +
                    ") = " + dimText(op.start_indices, b[i]);
         }
         return std::nullopt;
       }},
      {"C18", "start_index_map",
       [](const GatherOp& op) {
         return uniquenessMessage(dn(op).start_index_map, "start_index_map",
                                  dn(op).operand_batching_dims, "operand_batching_dims");
       }},
      {"C19", "start_index_map", startIndexMapInRange},
      {"C20", "slice_sizes", sliceSizesCount},
      {"C21", "slice_sizes", sliceSizesInRange},
      {"C22", "result", resultShape},
      {"C23", "result", resultElementType},
  };
  return table;
}

}  // namespace

std::vector<Violation> validateGather(const GatherOp& op) {
  return runRules("stablehlo.gather", gatherChecks(), op);
}

}  // namespace idxmap::gather_scatter
