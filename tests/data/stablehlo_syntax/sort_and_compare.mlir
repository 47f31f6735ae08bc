// sort with a multi-input comparator, and compare in every ordering StableHLO names.
func.func @sort_pairs() {
  %keys = stablehlo.constant dense<[3, 1, 3, 2]> : tensor<4xi64>
  %vals = stablehlo.constant dense<[10, 11, 12, 13]> : tensor<4xi64>
  %r:2 = "stablehlo.sort"(%keys, %vals) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)
  check.expect_eq_const %r#0, dense<[1, 2, 3, 3]> : tensor<4xi64>
  check.expect_eq_const %r#1, dense<[11, 13, 10, 12]> : tensor<4xi64>
  func.return
}

// -----

func.func @orderings() {
  // NaN, -0.0, +0.0, 1.0 against NaN, +0.0, -0.0, NaN.
  %a = stablehlo.constant dense<[0x7FF8000000000000, -0.0, 0.0, 1.0]> : tensor<4xf64>
  %b = stablehlo.constant dense<[0x7FF8000000000000, 0.0, -0.0, 0x7FF8000000000000]> : tensor<4xf64>
  %float = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  check.expect_eq_const %float, dense<[false, true, true, false]> : tensor<4xi1>
  %total = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  check.expect_eq_const %total, dense<[true, false, false, false]> : tensor<4xi1>
  %weak = stablehlo.compare LT, %a, %b, WEAKORDER : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  check.expect_eq_const %weak, dense<[false, false, false, true]> : tensor<4xi1>
  %u = stablehlo.constant dense<[255, 1]> : tensor<2xui8>
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %unsigned = stablehlo.compare GT, %u, %v, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %unsigned, dense<[true, false]> : tensor<2xi1>
  func.return
}
