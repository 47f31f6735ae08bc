// Gathers and a scatter for `idxmap analyze examples/gather.mlir` (maps, with the index values
// folded in where they are known) and `idxmap analyze --decompose-batching` (the batching-dims
// ops in the old form, proven equal).

// Rows 4, 0, 2 and 9 of a 5-row operand: 9 is clamped to the last row, 4.
func.func @constant_rows(%operand: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %indices = stablehlo.constant dense<[[4], [0], [2], [9]]> : tensor<4x1xi64>
  %rows = "stablehlo.gather"(%operand, %indices) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  func.return %rows : tensor<4x3xf32>
}

// The even rows, 2 * iota: an affine map, (d0, d1) -> (d0 * 2, d1).
func.func @even_rows(%operand: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi64>
  %two = stablehlo.constant dense<2> : tensor<4x1xi64>
  %even = stablehlo.multiply %iota, %two : tensor<4x1xi64>
  %rows = "stablehlo.gather"(%operand, %even) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<8x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  func.return %rows : tensor<4x3xf32>
}

// Spec 000's gather example: batching dims, indices known only at run time.
func.func @batching_gather(%operand: tensor<2x3x4x2xi32>, %start_indices: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %result = "stablehlo.gather"(%operand, %start_indices) {dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 2, 2>} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  func.return %result : tensor<2x2x3x2x2xi32>
}

// Spec 000's scatter example: batching dims, update computation add.
func.func @batching_scatter(%input: tensor<2x3x4x2xi64>, %scatter_indices: tensor<2x2x3x2xi64>, %update: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %result = "stablehlo.scatter"(%input, %scatter_indices, %update) ({
  ^bb0(%current: tensor<i64>, %new: tensor<i64>):
    %sum = stablehlo.add %current, %new : tensor<i64>
    stablehlo.return %sum : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, indices_are_sorted = false, unique_indices = false} : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  func.return %result : tensor<2x3x4x2xi64>
}
