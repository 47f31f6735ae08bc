// onnx.Gather(input, indices, axis=0) with 2-D indices as StableHLO:
// out[i, j, k] = input[indices[i, j], k] (spec 003, example 3: "exactly similar to tf.gather").
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2x4xf32> {
  %x = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0],
      index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false}
      : (tensor<3x4xf32>, tensor<2x2xi64>) -> tensor<2x2x4xf32>
  func.return %x : tensor<2x2x4xf32>
}
