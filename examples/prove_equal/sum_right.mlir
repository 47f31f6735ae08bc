// a + (b + c) in f32 (see sum_left.mlir); sum_commuted.mlir adds in sum_left's order with the
// operands of each add swapped, which IEEE arithmetic keeps bit for bit.
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %bc = stablehlo.add %b, %c : tensor<4xf32>
  %r = stablehlo.add %a, %bc : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
