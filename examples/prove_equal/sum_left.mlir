// (a + b) + c in f32: against sum_right.mlir, a + (b + c), equal as arithmetic on reals and
// refuted bit for bit (IEEE rounding depends on the order of the additions).
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %ab = stablehlo.add %a, %b : tensor<4xf32>
  %r = stablehlo.add %ab, %c : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
