// torch.index_select(input, 0, indices) as torch-mlir lowers it to StableHLO: whole rows of
// %input at the values of %indices (spec 003, "Gather slices along a given dim", example 1).
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<2xi64>) -> tensor<2x4xf32> {
  %x = "stablehlo.gather"(%input, %indices) {dimension_numbers = #stablehlo.gather<
      offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
      index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false}
      : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %x : tensor<2x4xf32>
}
