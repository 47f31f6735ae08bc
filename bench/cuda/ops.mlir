// The CUDA kernel bench's ops (bench/cuda/kernel_bench.cu), f32, emitted at build time with
// facts a user would assert (bench/CMakeLists.txt). The bench calls the kernels by symbol, which
// is the op's line and column: moving an op renames its kernel, and the bench fails to link.
func.func @row_gather_16m(%table: tensor<1048576x64xf32>, %rows_1m: tensor<262144x1xi32>) -> tensor<262144x64xf32> {
  %r = "stablehlo.gather"(%table, %rows_1m) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>} : (tensor<1048576x64xf32>, tensor<262144x1xi32>) -> tensor<262144x64xf32>
  func.return %r : tensor<262144x64xf32>
}
func.func @row_gather_256m(%table: tensor<4194304x64xf32>, %rows_4m: tensor<4194304x1xi32>) -> tensor<4194304x64xf32> {
  %r = "stablehlo.gather"(%table, %rows_4m) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>} : (tensor<4194304x64xf32>, tensor<4194304x1xi32>) -> tensor<4194304x64xf32>
  func.return %r : tensor<4194304x64xf32>
}
func.func @element_gather_16m(%operand: tensor<4096x4096xf32>, %cols: tensor<4096x4096x1xi32>) -> tensor<4096x4096xf32> {
  %r = "stablehlo.gather"(%operand, %cols) {dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>} : (tensor<4096x4096xf32>, tensor<4096x4096x1xi32>) -> tensor<4096x4096xf32>
  func.return %r : tensor<4096x4096xf32>
}
func.func @unique_scatter_16m(%table: tensor<1048576x64xf32>, %unique_rows_1m: tensor<262144x1xi32>, %updates: tensor<262144x64xf32>) -> tensor<1048576x64xf32> {
  %r = "stablehlo.scatter"(%table, %unique_rows_1m, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1048576x64xf32>, tensor<262144x1xi32>, tensor<262144x64xf32>) -> tensor<1048576x64xf32>
  func.return %r : tensor<1048576x64xf32>
}
func.func @sorted_scatter_add_16m(%table: tensor<65536x64xf32>, %sorted_rows_64k: tensor<262144x1xi32>, %updates: tensor<262144x64xf32>) -> tensor<65536x64xf32> {
  %r = "stablehlo.scatter"(%table, %sorted_rows_64k, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<65536x64xf32>, tensor<262144x1xi32>, tensor<262144x64xf32>) -> tensor<65536x64xf32>
  func.return %r : tensor<65536x64xf32>
}
func.func @scatter_add_16m(%table: tensor<65536x64xf32>, %rows_64k: tensor<262144x1xi32>, %updates: tensor<262144x64xf32>) -> tensor<65536x64xf32> {
  %r = "stablehlo.scatter"(%table, %rows_64k, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<65536x64xf32>, tensor<262144x1xi32>, tensor<262144x64xf32>) -> tensor<65536x64xf32>
  func.return %r : tensor<65536x64xf32>
}
func.func @unique_scatter_256m(%table: tensor<4194304x64xf32>, %unique_rows_4m: tensor<4194304x1xi32>, %updates: tensor<4194304x64xf32>) -> tensor<4194304x64xf32> {
  %r = "stablehlo.scatter"(%table, %unique_rows_4m, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4194304x64xf32>, tensor<4194304x1xi32>, tensor<4194304x64xf32>) -> tensor<4194304x64xf32>
  func.return %r : tensor<4194304x64xf32>
}
func.func @sorted_scatter_add_256m(%table: tensor<1048576x64xf32>, %sorted_rows_1m: tensor<4194304x1xi32>, %updates: tensor<4194304x64xf32>) -> tensor<1048576x64xf32> {
  %r = "stablehlo.scatter"(%table, %sorted_rows_1m, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1048576x64xf32>, tensor<4194304x1xi32>, tensor<4194304x64xf32>) -> tensor<1048576x64xf32>
  func.return %r : tensor<1048576x64xf32>
}
func.func @scatter_add_256m(%table: tensor<1048576x64xf32>, %rows_1m: tensor<4194304x1xi32>, %updates: tensor<4194304x64xf32>) -> tensor<1048576x64xf32> {
  %r = "stablehlo.scatter"(%table, %rows_1m, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1048576x64xf32>, tensor<4194304x1xi32>, tensor<4194304x64xf32>) -> tensor<1048576x64xf32>
  func.return %r : tensor<1048576x64xf32>
}
func.func @sorted_scalar_scatter_add_16m(%bins: tensor<4194304xf32>, %sorted_bins_4m: tensor<16777216x1xi32>, %values: tensor<16777216xf32>) -> tensor<4194304xf32> {
  %r = "stablehlo.scatter"(%bins, %sorted_bins_4m, %values) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4194304xf32>, tensor<16777216x1xi32>, tensor<16777216xf32>) -> tensor<4194304xf32>
  func.return %r : tensor<4194304xf32>
}
func.func @scalar_scatter_add_16m(%bins: tensor<4194304xf32>, %bins_4m: tensor<16777216x1xi32>, %values: tensor<16777216xf32>) -> tensor<4194304xf32> {
  %r = "stablehlo.scatter"(%bins, %bins_4m, %values) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4194304xf32>, tensor<16777216x1xi32>, tensor<16777216xf32>) -> tensor<4194304xf32>
  func.return %r : tensor<4194304xf32>
}
