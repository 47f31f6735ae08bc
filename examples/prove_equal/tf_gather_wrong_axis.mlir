// A wrong lowering of tf.gather(input, indices, axis=1): the indices expanded to 3x1x1 and
// broadcast along axes 1 and 2, so out[i, j, k] reads input[i, indices[i], k] instead of
// input[i, indices[j], k]. `idxmap prove-equal tf_gather.mlir tf_gather_wrong_axis.mlir`
// refutes it with index values the interpreter replays.
func.func @main(%input: tensor<3x4x5xf32>, %indices: tensor<3xi64>) -> tensor<3x3x5xf32> {
  %indices_3d = tensor.expand_shape %indices [[0, 1, 2]] :
          (tensor<3xi64>) -> tensor<3x1x1xi64>
  %cst3 = arith.constant 3 : index
  %cst5 = arith.constant 5 : index
  %indices_bcast = tcp.broadcast_to %indices_3d, %cst3, %cst5 { axes = [1, 2] } :
          (tensor<3x1x1xi64>, index, index) -> tensor<3x3x5xi64>
  %x = tcp.gather %input, %indices_bcast { dim = 1 } :
          (tensor<3x4x5xf32>, tensor<3x3x5xi64>) -> tensor<3x3x5xf32>
  func.return %x : tensor<3x3x5xf32>
}
