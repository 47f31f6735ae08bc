// Spec 003's design for onnx.Gather(input, indices, axis=0), input [a, b] = [3, 4] and indices
// [x, y] = [2, 2]: the input broadcast to [a, y, b] = 3x2x4, the indices to [x, y, b] = 2x2x4,
// then tcp.gather along dim 0: out[i, j, k] = input[indices[i, j], k].
func.func @main(%input: tensor<3x4xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2x4xf32> {
  %input_3d = tensor.expand_shape %input [[0], [1, 2]] :
          (tensor<3x4xf32>) -> tensor<3x1x4xf32>
  %cst2 = arith.constant 2 : index
  %input_bcast = tcp.broadcast_to %input_3d, %cst2 { axes = [1] } :
          (tensor<3x1x4xf32>, index) -> tensor<3x2x4xf32>
  %indices_3d = tensor.expand_shape %indices [[0], [1, 2]] :
          (tensor<2x2xi64>) -> tensor<2x2x1xi64>
  %cst4 = arith.constant 4 : index
  %indices_bcast = tcp.broadcast_to %indices_3d, %cst4 { axes = [2] } :
          (tensor<2x2x1xi64>, index) -> tensor<2x2x4xi64>
  %x = tcp.gather %input_bcast, %indices_bcast { dim = 0 } :
          (tensor<3x2x4xf32>, tensor<2x2x4xi64>) -> tensor<2x2x4xf32>
  func.return %x : tensor<2x2x4xf32>
}
