// What `idxmap verify` proves about index claims (see README): a scatter whose constant
// indices collide although it claims unique_indices, one whose indices are an argument (its
// claim holds under `--assume '%rows: unique'`), and a gather whose iota indices are sorted
// without saying so.
func.func @main(%table: tensor<8x2xf32>, %updates: tensor<4x2xf32>, %rows: tensor<4x1xi32>)
    -> (tensor<8x2xf32>, tensor<8x2xf32>, tensor<4x2xf32>) {
  %fixed = stablehlo.constant dense<[[3], [1], [3], [5]]> : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%table, %fixed, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true
  } : (tensor<8x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %1 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    unique_indices = true
  } : (tensor<8x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %evens = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %two = stablehlo.constant dense<2> : tensor<4x1xi32>
  %starts = stablehlo.multiply %evens, %two : tensor<4x1xi32>
  %2 = "stablehlo.gather"(%table, %starts) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<8x2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
  return %0, %1, %2 : tensor<8x2xf32>, tensor<8x2xf32>, tensor<4x2xf32>
}
