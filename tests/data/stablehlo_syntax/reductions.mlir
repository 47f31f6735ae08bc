// Reductions as StableHLO's printer and its tests write them: the pretty `applies` form, a
// region-form reducer, a variadic reducer with one (lhs, rhs) group per input, reduce_window.
func.func @reduce_forms() {
  %x = stablehlo.constant dense<[[1, 5, 2], [7, 0, 3]]> : tensor<2x3xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %rows = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %rows, dense<[8, 10]> : tensor<2xi64>
  %cols = stablehlo.reduce(%x init: %zero) across dimensions = [0] : (tensor<2x3xi64>, tensor<i64>) -> tensor<3xi64>
   reducer(%a: tensor<i64>, %b: tensor<i64>)  {
    %m = stablehlo.maximum %a, %b : tensor<i64>
    stablehlo.return %m : tensor<i64>
  }
  check.expect_eq_const %cols, dense<[7, 5, 3]> : tensor<3xi64>
  func.return
}

// -----

// The largest value of each row and where it is: two inputs reduced together.
func.func @argmax() {
  %x = stablehlo.constant dense<[[1, 5, 2], [7, 0, 7]]> : tensor<2x3xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %low = stablehlo.constant dense<-100> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %low), (%i init: %zero) across dimensions = [1] : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<2xi32>, tensor<2xi32>)
   reducer(%av: tensor<i32>, %bv: tensor<i32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %gt = stablehlo.compare  GT, %bv, %av,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %v = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<i32>
    %w = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#0, dense<[5, 7]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[1, 0]> : tensor<2xi32>
  func.return
}

// -----

// Windows of 2 with stride 1 over [1, 2, 3, 4] padded by one 0 on each side:
// [0,1] [1,2] [2,3] [3,4] [4,0] summed.
func.func @reduce_window() {
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_almost_eq_const %r, dense<[1.0, 3.0, 5.0, 7.0, 4.0]> : tensor<5xf32>
  func.return
}
