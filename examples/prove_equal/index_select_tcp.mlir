// Spec 003's lowering of torch.index_select(input, 0, indices) to tcp.gather: the indices
// expanded to 2x1, broadcast along axis 1 to the input's row length, then gathered along dim 0.
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<2xi64>) -> tensor<2x4xf32> {
  %indices_2d = tensor.expand_shape %indices [[0, 1]] :
          (tensor<2xi64>) -> tensor<2x1xi64>
  %cst4 = arith.constant 4 : index
  %indices_bcast = tcp.broadcast_to %indices_2d, %cst4 { axes = [1] } :
          (tensor<2x1xi64>, index) -> tensor<2x4xi64>
  %x = tcp.gather %input, %indices_bcast { dim = 0 } :
          (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  func.return %x : tensor<2x4xf32>
}
