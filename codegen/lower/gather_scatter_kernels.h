// Gather and scatter as kernels (codegen/kernel/kernel.h): their maps (ops/stablehlo), the
// buffers the maps index, and the index properties verify/ proved, which decide the code:
//   in bounds proven    gather: no clamp of the start indices; scatter: no skip test;
//   unique proven       scatter: parallel plain stores;
//   sorted proven       scatter: threads split d0 at runs of equal index vectors, when only
//                       equal vectors can collide (else ordered; both deterministic);
//   int32 safe proven   index arithmetic in int32_t.
// Every other form (tensor.gather / scatter, tcp.gather / gather_nd) comes through its
// StableHLO lowering, with its own tensor names.
#pragma once

#include <string>
#include <vector>

#include "codegen/kernel/kernel.h"
#include "ops/forms/lowering.h"
#include "ops/stablehlo/gather_scatter.h"
#include "verify/op_properties.h"

namespace idxmap::codegen {

// The names of an op's tensors in the kernel's parameters, as the op's form names them.
struct TensorNames {
  std::string indexSpace;  // "result" (gather) / "updates" (scatter)
  std::string target;      // "operand" / "result"
  std::string indices;     // "start_indices" / "scatter_indices"
};

// `operandShape`: the operand buffer's shape when the lowered op reads a prefix of it
// (torch.gather's smaller index tensor); empty: the op's own operand shape. Throws Error for
// an op with dynamic shapes or an element type kernels cannot store.
Kernel gatherKernel(const gather_scatter::GatherOp& op, const OpIndexProperties& properties,
                    const TensorNames& names, const std::vector<int64_t>& operandShape = {});
// A gather form lowered to StableHLO (ops/forms/lowering.h; torch, TF and ONNX among them, which
// have no text form here): `inputShape` is the operand buffer's (before torch.gather's prefix
// slice). Nothing clamps: unless in bounds is proven, each index value is checked, and the entry
// returns 2 when one is out of range (the framework's error); ONNX's negative values are wrapped
// first. Properties: verify/op_properties.h's proveLoweredGatherProperties.
Kernel loweredGatherKernel(const gather_scatter::LoweredGather& lowered,
                           const std::vector<int64_t>& inputShape,
                           const OpIndexProperties& properties, const TensorNames& names);
// `simplified`, the map a kernel is built and validated on, with the proof (verify/equivalence:
// isl, else Z3) that it is the op's `own` map, which the kernel then relies on: validated
// against `simplified`, its code computes the op's own map, and a simplifier fault cannot reach
// a kernel. Throws Error, naming both maps, where the two are not proven equal: no kernel.
ReliedFact simplificationFact(const IndexingMap& own, const IndexingMap& simplified,
                              const std::string& name);
// `updateFunctions`: for an update computation the prelude does not have (kOther), one function
// an input, each taking every input's current value and then every update value (Kernel::coupled),
// which the caller defines; without them such a computation throws Error, as does one that is not
// add, mul, min, max or replace.
Kernel scatterKernel(const gather_scatter::ScatterOp& op, const OpIndexProperties& properties,
                     const TensorNames& names,
                     const std::vector<std::string>& updateFunctions = {});

}  // namespace idxmap::codegen
