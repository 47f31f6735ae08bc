// Sections as StableHLO's tests split them, a commented-out marker included.
func.func @first() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
  func.return
}

// // -----

func.func @second() {
  %a = stablehlo.iota dim = 0 : tensor<3xi64>
  %r = stablehlo.reverse %a, dims = [0] : tensor<3xi64>
  check.expect_eq_const %r, dense<[2, 1, 0]> : tensor<3xi64>
  func.return
}

// -----

func.func @third() {
  %operand = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %indices = stablehlo.constant dense<[[2], [2]]> : tensor<2x1xi64>
  %updates = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %s = "stablehlo.scatter"(%operand, %indices, %updates) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %sum = stablehlo.add %x, %y : tensor<i64>
      stablehlo.return %sum : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<3xi64>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<3xi64>
  check.expect_eq_const %s, dense<[10, 20, 33]> : tensor<3xi64>
  func.return
}
