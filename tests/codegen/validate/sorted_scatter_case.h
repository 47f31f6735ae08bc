// A scatter-add of rows whose indices are assumed sorted (`%rows: sorted`): its kernel is
// segmented (threads split d0 at runs of equal indices; CUDA threads take tiles of rows). Shared
// by the IR mutation tests of both targets.
#pragma once

#include <string>

#include "codegen/emit.h"
#include "core/checked.h"

namespace idxmap::codegen::testing {

inline Kernel segmentedScatter() {
  const std::string text =
      R"(func.func @main(%table: tensor<16x8xf32>, %rows: tensor<64x1xi32>, %updates: tensor<64x8xf32>) -> tensor<16x8xf32> {
  %0 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    %s = "stablehlo.add"(%old, %new) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<16x8xf32>, tensor<64x1xi32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  func.return %0 : tensor<16x8xf32>
})";
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "sorted.mlir");
  EmittedModule emitted = emitMlirModule(module, parseAssumptions({"%rows: sorted"}));
  if (emitted.kernels.size() != 1) throw Error("one kernel expected");
  return emitted.kernels[0].kernel;
}

}  // namespace idxmap::codegen::testing
