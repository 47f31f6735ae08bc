// Dimension 1 of the operand is both collapsed and a batching dim: `idxmap verify` reports C6.
func.func @main(%operand: tensor<3x3x4x9xi32>, %start_indices: tensor<1x3x5x2xi32>) -> tensor<1x3x5x8xi32> {
  %0 = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3],
      collapsed_slice_dims = [1, 2],
      operand_batching_dims = [1],
      start_indices_batching_dims = [1],
      start_index_map = [0, 2],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 1, 8>,
    indices_are_sorted = false
  } : (tensor<3x3x4x9xi32>, tensor<1x3x5x2xi32>) -> tensor<1x3x5x8xi32>
  func.return %0 : tensor<1x3x5x8xi32>
}
