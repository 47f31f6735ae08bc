// Scatter-adds of f32 into a 16x8 table through 64 one-coordinate indices, whose kernels meet
// every strategy the IR mutation tests of both targets change: segmented (sorted indices),
// owned by an index's value (C++; atomics in CUDA), and a split loop (C++ threads take shares
// of d0). The mutation tests run them besides their random sample, so that each kind of change
// is met in every run, whatever the sample draws.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "core/checked.h"
#include "tests/codegen/random_kernel_cases.h"

namespace idxmap::codegen::testing {

// `updates` is the updates' type; `windowDim` the update dim over the table's other dim.
inline Kernel tableScatter(const std::string& updates, int windowDim, int scattered,
                           const std::vector<std::string>& assumptions) {
  const std::string text =
      R"(func.func @main(%table: tensor<16x8xf32>, %rows: tensor<64x1xi32>, %updates: )" + updates +
      R"() -> tensor<16x8xf32> {
  %0 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    %s = "stablehlo.add"(%old, %new) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [)" +
      std::to_string(windowDim) + R"(],
      inserted_window_dims = [)" +
      std::to_string(scattered) + R"(], scatter_dims_to_operand_dims = [)" +
      std::to_string(scattered) + R"(], index_vector_dim = 1>
  } : (tensor<16x8xf32>, tensor<64x1xi32>, )" +
      updates + R"() -> tensor<16x8xf32>
  func.return %0 : tensor<16x8xf32>
})";
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "table.mlir");
  EmittedModule emitted = emitMlirModule(module, parseAssumptions(assumptions));
  if (emitted.kernels.size() != 1) throw Error("one kernel expected");
  return emitted.kernels[0].kernel;
}

// Rows of 8 added to table rows whose indices are assumed sorted (`%rows: sorted`): threads
// split d0 at runs of equal indices; CUDA threads take tiles of rows.
inline Kernel segmentedScatter() {
  return tableScatter("tensor<64x8xf32>", 1, 0, {"%rows: sorted"});
}

// The same rows, indices unknown: C++ threads own ranges of the index's value; CUDA adds
// atomically, a thread a point decoded into (d0, d1).
inline Kernel ownedRowsScatter() { return tableScatter("tensor<64x8xf32>", 1, 0, {}); }

// Columns of 16 added to table columns: d0 is the table's row, so C++ threads split d0's loop.
inline Kernel splitColumnsScatter() { return tableScatter("tensor<16x64xf32>", 0, 1, {}); }

// What a mutation test changes: the kernels above, then those of `random`'s cases that build
// (some take an update computation or element type kernels do not).
inline std::vector<Kernel> mutationKernels(const RandomCases& random) {
  std::vector<Kernel> kernels{segmentedScatter(), ownedRowsScatter(), splitColumnsScatter()};
  for (const RandomCase& c : random.cases) {
    try {
      kernels.push_back(
          c.scatter ? scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"})
                    : gatherKernel(c.gather, {}, {"result", "operand", "start_indices"}));
    } catch (const Error&) {
    }
  }
  return kernels;
}

}  // namespace idxmap::codegen::testing
