// The StableHLO forms of tensor_gather.mlir's functions: the indices' last dim is the index
// vector, the gathered dims are collapsed with slice size 1, the other dims kept whole; the
// scatter replaces (its update computation returns the update).
func.func @coordinates(%input: tensor<4x4x4xf32>, %indices: tensor<1x2x3xi64>) -> tensor<1x2xf32> {
  %out = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [], collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 1, 2],
      index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 1>, indices_are_sorted = false}
      : (tensor<4x4x4xf32>, tensor<1x2x3xi64>) -> tensor<1x2xf32>
  func.return %out : tensor<1x2xf32>
}

func.func @slices(%input: tensor<2x3x4xf32>, %indices: tensor<2x3x2xi64>) -> tensor<2x3x3xf32> {
  %out = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [2], collapsed_slice_dims = [0, 2], start_index_map = [0, 2],
      index_vector_dim = 2>, slice_sizes = array<i64: 1, 3, 1>, indices_are_sorted = false}
      : (tensor<2x3x4xf32>, tensor<2x3x2xi64>) -> tensor<2x3x3xf32>
  func.return %out : tensor<2x3x3xf32>
}

func.func @rows(%source: tensor<3x1x5xf32>, %dest: tensor<4x5xf32>, %indices: tensor<3x1xi64>)
    -> tensor<4x5xf32> {
  %out = "stablehlo.scatter"(%dest, %indices, %source) ({
    ^bb0(%current: tensor<f32>, %update: tensor<f32>):
      "stablehlo.return"(%update) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1, 2], inserted_window_dims = [], scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true}
      : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x1x5xf32>) -> tensor<4x5xf32>
  func.return %out : tensor<4x5xf32>
}
