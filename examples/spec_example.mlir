// StableHLO spec (spec 000): the gather and scatter examples with their documented results,
// and a take-along-axis gather over a batching dimension whose results are derived by hand.
// Run: idxmap run examples/spec_example.mlir   (or --engine maps)
func.func @main() {
  %operand = stablehlo.constant dense<[
    [[[1, 2], [3, 4], [5, 6], [7, 8]],
     [[9, 10], [11, 12], [13, 14], [15, 16]],
     [[17, 18], [19, 20], [21, 22], [23, 24]]],
    [[[25, 26], [27, 28], [29, 30], [31, 32]],
     [[33, 34], [35, 36], [37, 38], [39, 40]],
     [[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi32>
  %start_indices = stablehlo.constant dense<[
    [[[0, 0], [1, 0], [2, 1]],
     [[0, 1], [1, 1], [0, 9]]],
    [[[0, 0], [2, 1], [2, 2]],
     [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>

  // The spec's gather example (gather / Examples).
  %result = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  check.expect_eq_const %result, dense<[
    [[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
     [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],
    [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],
     [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]]> : tensor<2x2x3x2x2xi32>

  // The spec's scatter example (scatter / Examples): every update is 1, added.
  %input = stablehlo.convert %operand : (tensor<2x3x4x2xi32>) -> tensor<2x3x4x2xi64>
  %update = stablehlo.constant dense<1> : tensor<2x2x3x2x2xi64>
  %scattered = "stablehlo.scatter"(%input, %start_indices, %update) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  check.expect_eq_const %scattered, dense<[
    [[[3, 4], [6, 7], [6, 7], [7, 8]],
     [[9, 10], [11, 12], [15, 16], [17, 18]],
     [[17, 18], [19, 20], [22, 23], [24, 25]]],
    [[[25, 26], [28, 29], [30, 31], [31, 32]],
     [[35, 36], [38, 39], [38, 39], [39, 40]],
     [[41, 42], [44, 45], [46, 47], [47, 48]]]]> : tensor<2x3x4x2xi64>

  // take_along_axis: result[b, j] = table[b, clamp(idx[b, j], 0, 2)], b a batching dim.
  // Row 0 takes columns 2 and 0; row 1 takes column 1, then 7 clamped to the last, 2.
  %table = stablehlo.constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi64>
  %idx = stablehlo.constant dense<[[[2], [0]], [[1], [7]]]> : tensor<2x2x1xi64>
  %taken = "stablehlo.gather"(%table, %idx) {
    dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [0],
      start_index_map = [1],
      index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>
  } : (tensor<2x3xi64>, tensor<2x2x1xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %taken, dense<[[12, 10], [21, 22]]> : tensor<2x2xi64>
  func.return
}
