// torch.gather(input, 1, indices) as spec 003 maps it to tcp.gather ("Gather elements along a
// given dim", example 1): out[i][j] = input[i][indices[i][j]].
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %x = tcp.gather %input, %indices { dim = 1 } :
          (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  func.return %x : tensor<3x2xf32>
}
