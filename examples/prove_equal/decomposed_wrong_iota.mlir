// Spec 000, "Compatibility": the gather and scatter of batched.mlir without batching dims.
// WRONG: the iota counts along dim 2 instead of the batching dim 1 (idxmap refutes it).
// The batching dim moves into collapsed_slice_dims (inserted_window_dims) and the end of
// start_index_map (scatter_dims_to_operand_dims), and an iota concatenated to the start
// indices supplies its coordinate.
func.func @gather_fn(%operand: tensor<2x3x4x2xf32>, %start_indices: tensor<2x2x3x2xi64>)
    -> tensor<2x2x3x2x2xf32> {
  %iota = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x2x3x1xi64>
  %indices = "stablehlo.concatenate"(%start_indices, %iota) {dimension = 3 : i64}
      : (tensor<2x2x3x2xi64>, tensor<2x2x3x1xi64>) -> tensor<2x2x3x3xi64>
  %result = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [0, 1],
      start_index_map = [2, 1, 0],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xf32>, tensor<2x2x3x3xi64>) -> tensor<2x2x3x2x2xf32>
  func.return %result : tensor<2x2x3x2x2xf32>
}

func.func @scatter_fn(%input: tensor<2x3x4x2xf32>, %scatter_indices: tensor<2x2x3x2xi64>,
                      %update: tensor<2x2x3x2x2xf32>) -> tensor<2x3x4x2xf32> {
  %iota = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x2x3x1xi64>
  %indices = "stablehlo.concatenate"(%scatter_indices, %iota) {dimension = 3 : i64}
      : (tensor<2x2x3x2xi64>, tensor<2x2x3x1xi64>) -> tensor<2x2x3x3xi64>
  %result = "stablehlo.scatter"(%input, %indices, %update) ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%0) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [0, 1],
      scatter_dims_to_operand_dims = [2, 1, 0],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xf32>, tensor<2x2x3x3xi64>, tensor<2x2x3x2x2xf32>) -> tensor<2x3x4x2xf32>
  func.return %result : tensor<2x3x4x2xf32>
}
