// dot_general in its pretty and generic forms, with the precision and algorithm hints
// StableHLO's tests write. Expected values worked out by hand:
//   batch 0: [[1,2,3],[4,5,6]] . [[1],[0],[2]] = [[7],[16]]
//   batch 1: [[1,0,-1],[2,2,2]] . [[3],[1],[1]] = [[2],[10]]
func.func @batched_matmul_pretty() {
  %lhs = stablehlo.constant dense<[[[1, 2, 3], [4, 5, 6]], [[1, 0, -1], [2, 2, 2]]]> : tensor<2x2x3xi32>
  %rhs = stablehlo.constant dense<[[[1], [0], [2]], [[3], [1], [1]]]> : tensor<2x3x1xi32>
  %result = stablehlo.dot_general %lhs, %rhs,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT],
    algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
    : (tensor<2x2x3xi32>, tensor<2x3x1xi32>) -> tensor<2x2x1xi32>
  check.expect_eq_const %result, dense<[[[7], [16]], [[2], [10]]]> : tensor<2x2x1xi32>
  func.return
}

// -----

// The same product in the generic form, rhs's batch dimension last.
func.func @batched_matmul_generic() {
  %lhs = stablehlo.constant dense<[[[1, 2, 3], [4, 5, 6]], [[1, 0, -1], [2, 2, 2]]]> : tensor<2x2x3xi32>
  %rhs = stablehlo.constant dense<[[[1, 3]], [[0, 1]], [[2, 1]]]> : tensor<3x1x2xi32>
  %result = "stablehlo.dot_general"(%lhs, %rhs) {
    dot_dimension_numbers = #stablehlo.dot<
      lhs_batching_dimensions = [0],
      rhs_batching_dimensions = [2],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [0]>
  } : (tensor<2x2x3xi32>, tensor<3x1x2xi32>) -> tensor<2x2x1xi32>
  check.expect_eq_const %result, dense<[[[7], [16]], [[2], [10]]]> : tensor<2x2x1xi32>
  func.return
}

// -----

// Two contracting dims and no free one: 1*5 + 2*7 + 3*6 + 4*8 = 69.
func.func @full_contraction() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %rhs = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %result = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0, 1] x [1, 0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<f32>
  check.expect_almost_eq_const %result, dense<69.0> : tensor<f32>, tolerance = 0.0
  func.return
}
