// Shapes that come from values: dynamic_iota, dynamic_reshape, dynamic_broadcast_in_dim.
func.func @dynamic_shapes() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xi64>
  check.expect_eq_const %i, dense<[[0, 0, 0], [1, 1, 1]]> : tensor<2x3xi64>
  %flat = stablehlo.constant dense<[6]> : tensor<1xi64>
  %r = stablehlo.dynamic_reshape %i, %flat : (tensor<?x?xi64>, tensor<1xi64>) -> tensor<?xi64>
  check.expect_eq_const %r, dense<[0, 0, 0, 1, 1, 1]> : tensor<6xi64>
  %row = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi64>
  %b = "stablehlo.dynamic_broadcast_in_dim"(%row, %shape) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi64>, tensor<2xi64>) -> tensor<?x3xi64>
  check.expect_eq_const %b, dense<[[4, 5, 6], [4, 5, 6]]> : tensor<2x3xi64>
  func.return
}
