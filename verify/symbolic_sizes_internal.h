// Index properties of a gather or scatter whose tensors have `?` dims (spec 002), decided for
// every size at once. Each `?` is an isl parameter n<j>: at least 0, at most its bound when it
// has one, and tied to the other sizes by the op's own shape constraints — a run where they fail
// is not a run of the op (scatter's C4 puts each update window inside the input, gather's C21
// each slice inside the operand, C1 / C3 give all inputs / updates one shape).
//
// A property is proven when no size breaks it; refuted when every size that gives the index
// space a point breaks it; otherwise unknown with the exact condition on the sizes under which
// it holds. Sizes that break a property are replayed before they are reported: the op is built
// at those sizes and the static provers (which replay their own counterexamples by evaluation)
// must refute it there too. Index values known only at run time (leaves): where they do not
// change the answer at any size, as without them (the breaking sizes replayed with the values
// fixed); where sizes and values break in-bounds apart, the condition on both; otherwise
// unknown, with what the static provers say at the sizes that break it.
//
// A `?` dim of the index tensor is a size parameter too: its values come from the value analysis
// following `?` dims (index_provenance::ValueContext::followDynamicShapes), over points bounded
// by the largest size only, which the op's index space bounds. Private to verify/.
#pragma once

#include "ops/provenance/index_values.h"
#include "ops/stablehlo/gather_scatter.h"
#include "verify/assumptions.h"
#include "verify/index_properties.h"

namespace idxmap::symbolic_sizes {

// Whether the op has a `?` dim (outside its declared results, which the others determine).
bool hasDynamicDims(const gather_scatter::GatherOp& op);
bool hasDynamicDims(const gather_scatter::ScatterOp& op);

IndexProperties proveForAllSizes(const gather_scatter::GatherOp& op,
                                 const index_provenance::IndexValues& startIndices,
                                 const IndexOpForm& form,
                                 const std::vector<Assumption>& assumptions,
                                 const std::vector<VectorBlock>& blocks);
IndexProperties proveForAllSizes(const gather_scatter::ScatterOp& op,
                                 const index_provenance::IndexValues& scatterIndices,
                                 const IndexOpForm& form,
                                 const std::vector<Assumption>& assumptions,
                                 const std::vector<VectorBlock>& blocks);

}  // namespace idxmap::symbolic_sizes
