// c + (b + a) in f32: sum_left.mlir's additions in its order, each with its operands swapped.
// Proven bit-identical to it (add commutes in IEEE arithmetic, NaN and zeros included).
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %ba = stablehlo.add %b, %a : tensor<4xf32>
  %r = stablehlo.add %c, %ba : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
