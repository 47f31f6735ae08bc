// Spec 000's gather and scatter examples with run-time start indices: operand_batching_dims
// = [0] pairs operand dim 0 with start_indices dim 1 (the batching dims).
// `idxmap prove-equal batched.mlir decomposed.mlir --function gather_fn` proves the
// decomposition of spec 000's "Compatibility" section equal for every %start_indices.
func.func @gather_fn(%operand: tensor<2x3x4x2xf32>, %start_indices: tensor<2x2x3x2xi64>)
    -> tensor<2x2x3x2x2xf32> {
  %result = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xf32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xf32>
  func.return %result : tensor<2x2x3x2x2xf32>
}

func.func @scatter_fn(%input: tensor<2x3x4x2xf32>, %scatter_indices: tensor<2x2x3x2xi64>,
                      %update: tensor<2x2x3x2x2xf32>) -> tensor<2x3x4x2xf32> {
  %result = "stablehlo.scatter"(%input, %scatter_indices, %update) ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%0) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xf32>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xf32>) -> tensor<2x3x4x2xf32>
  func.return %result : tensor<2x3x4x2xf32>
}
