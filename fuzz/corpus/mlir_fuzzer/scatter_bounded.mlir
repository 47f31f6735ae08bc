func.func @main(%input: tensor<4x?xf32, #stablehlo.bounds<?, 8>>, %indices: tensor<2x1xi64>, %updates: tensor<2x?xf32>) -> tensor<4x?xf32> {
  %0 = "stablehlo.scatter"(%input, %indices, %updates) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x?xf32, #stablehlo.bounds<?, 8>>, tensor<2x1xi64>, tensor<2x?xf32>) -> tensor<4x?xf32>
  %1 = "stablehlo.dynamic_gather"(%0, %indices, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<4x?xf32>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x?xf32>
  func.return %0 : tensor<4x?xf32>
}
