// Complex constants are read (their shape and type checked) even though nothing computes
// with them: a file holding them still verifies its gathers.
func.func @main(%operand: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %c = stablehlo.constant dense<[(1.0, -2.0), (0.5, 0.0)]> : tensor<2xcomplex<f32>>
  %s = stablehlo.constant dense<(0.0, 1.0)> : tensor<2x2xcomplex<f64>>
  %indices = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi64>
  %g = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>, indices_are_sorted = false
  } : (tensor<4x2xf32>, tensor<2x1xi64>) -> tensor<2x2xf32>
  func.return %g : tensor<2x2xf32>
}
