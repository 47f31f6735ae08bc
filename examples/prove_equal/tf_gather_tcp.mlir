// Spec 003's lowering of tf.gather(input, indices, axis=1): the indices expanded to 1x3x1,
// broadcast along axes 0 and 2 to the input's sizes, then tcp.gather along dim 1.
func.func @main(%input: tensor<3x4x5xf32>, %indices: tensor<3xi64>) -> tensor<3x3x5xf32> {
  %indices_3d = tensor.expand_shape %indices [[0, 1, 2]] :
          (tensor<3xi64>) -> tensor<1x3x1xi64>
  %cst3 = arith.constant 3 : index
  %cst5 = arith.constant 5 : index
  %indices_bcast = tcp.broadcast_to %indices_3d, %cst3, %cst5 { axes = [0, 2] } :
          (tensor<1x3x1xi64>, index, index) -> tensor<3x3x5xi64>
  %x = tcp.gather %input, %indices_bcast { dim = 1 } :
          (tensor<3x4x5xf32>, tensor<3x3x5xi64>) -> tensor<3x3x5xf32>
  func.return %x : tensor<3x3x5xf32>
}
