// tf.gather(input, indices, axis=1) as StableHLO: out[i, j, k] = input[i, indices[j], k]
// (spec 003, "Gather slices along a given dim", example 2).
func.func @main(%input: tensor<3x4x5xf32>, %indices: tensor<3xi64>) -> tensor<3x3x5xf32> {
  %x = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1],
      index_vector_dim = 1>, slice_sizes = array<i64: 3, 1, 5>, indices_are_sorted = false}
      : (tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<3x3x5xf32>
  func.return %x : tensor<3x3x5xf32>
}
