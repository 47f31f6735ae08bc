// @main with arguments: `idxmap run --inputs main_arguments.args main_arguments.mlir` gives
// them values; the gathered rows 3 and 0 of [[0, 1], [2, 3], [4, 5], [6, 7]] are printed.
func.func @main(%operand: tensor<4x2xi32>, %indices: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %g = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>, indices_are_sorted = false
  } : (tensor<4x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %g, dense<[[6, 7], [0, 1]]> : tensor<2x2xi32>
  func.return %g : tensor<2x2xi32>
}
