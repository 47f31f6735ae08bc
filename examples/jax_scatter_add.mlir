// `x.at[jnp.arange(4) * 2].add(v)` as JAX lowers it (written for idxmap from JAX's lowering
// rules): the indices, JAX's negative-index fix-up (select(i < 0, i + 8, i)), a column of
// index vectors, and a scatter-add that claims nothing. `idxmap annotate` proves and writes
// unique_indices and indices_are_sorted; XLA then needs no atomics and no sort.
func.func public @main(%x: tensor<8x3xf32>, %v: tensor<4x3xf32>) -> tensor<8x3xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4xi32>
  %two = stablehlo.constant dense<2> : tensor<4xi32>
  %idx = stablehlo.multiply %iota, %two : tensor<4xi32>
  %zero = stablehlo.constant dense<0> : tensor<4xi32>
  %neg = stablehlo.compare LT, %idx, %zero, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %n = stablehlo.constant dense<8> : tensor<4xi32>
  %wrap = stablehlo.add %idx, %n : tensor<4xi32>
  %fixed = stablehlo.select %neg, %wrap, %idx : tensor<4xi1>, tensor<4xi32>
  %col = stablehlo.broadcast_in_dim %fixed, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %r = "stablehlo.scatter"(%x, %col, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<8x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
