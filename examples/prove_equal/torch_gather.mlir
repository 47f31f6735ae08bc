// torch.gather(input, 1, indices) as a StableHLO gather with batching dims (spec 000): row i of
// the indices reads row i of the input, so dim 0 is a batching dim of both; each index is a
// start index into dim 1 (index_vector_dim = 2, the implicit vector).
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %x = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0],
      start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
      slice_sizes = array<i64: 1, 1>, indices_are_sorted = false}
      : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  func.return %x : tensor<3x2xf32>
}
