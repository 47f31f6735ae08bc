// Integer edge values as StableHLO's interpreter gives them, shifts past the width, rounding,
// and the check ops' tolerance in both of the forms StableHLO's tests write.
func.func @divide_and_remainder() {
  %a = stablehlo.constant dense<[7, -7, 5, -128]> : tensor<4xi8>
  %b = stablehlo.constant dense<[2, 2, 0, -1]> : tensor<4xi8>
  %q = stablehlo.divide %a, %b : tensor<4xi8>
  check.expect_eq_const %q, dense<[3, -3, 0, 0]> : tensor<4xi8>
  %r = stablehlo.remainder %a, %b : tensor<4xi8>
  check.expect_eq_const %r, dense<[1, -1, 0, 0]> : tensor<4xi8>
  func.return
}

// -----

func.func @shifts() {
  %x = stablehlo.constant dense<[-16, 3, -1]> : tensor<3xi8>
  %n = stablehlo.constant dense<[2, 9, 7]> : tensor<3xi8>
  %l = stablehlo.shift_left %x, %n : tensor<3xi8>
  check.expect_eq_const %l, dense<[-64, 0, -128]> : tensor<3xi8>
  %ra = stablehlo.shift_right_arithmetic %x, %n : tensor<3xi8>
  check.expect_eq_const %ra, dense<[-4, 0, -1]> : tensor<3xi8>
  %rl = stablehlo.shift_right_logical %x, %n : tensor<3xi8>
  check.expect_eq_const %rl, dense<[60, 0, 1]> : tensor<3xi8>
  func.return
}

// -----

func.func @rounding_and_tolerance() {
  %x = stablehlo.constant dense<[-1.5, -0.5, 0.5, 2.5]> : tensor<4xf32>
  %f = stablehlo.floor %x : tensor<4xf32>
  check.expect_eq_const %f, dense<[-2.0, -1.0, 0.0, 2.0]> : tensor<4xf32>
  %c = stablehlo.ceil %x : tensor<4xf32>
  check.expect_eq_const %c, dense<[-1.0, -0.0, 1.0, 3.0]> : tensor<4xf32>
  %e = stablehlo.round_nearest_even %x : tensor<4xf32>
  check.expect_eq_const %e, dense<[-2.0, -0.0, 0.0, 2.0]> : tensor<4xf32>
  %s = stablehlo.sqrt %x : tensor<4xf32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %root = stablehlo.sqrt %two : tensor<f32>
  check.expect_almost_eq_const %root, dense<1.414> : tensor<f32>, tolerance = 1.0e-3
  check.expect_almost_eq_const %root, dense<1.41> : tensor<f32> {tolerance = 0.01 : f64}
  func.return
}
