"""A worked example: testing one's own lowering with idxmap.testing (python/README.md).

`jnp.take(x, idx, axis=0, mode="clip")` lowers to a gather, which clamps out-of-range start
indices itself (StableHLO's gather). Suppose a compiler lowers it another way: clamp the
indices first, then gather rows. assert_same runs both on NumPy arrays with idxmap's reference
interpreter and compares every result element; the same call checks the C++ kernel
`idxmap emit` writes for the gather against the reference.

Run it: PYTHONPATH=build/python python3 -m pytest python/examples
"""

import pytest

numpy = pytest.importorskip("numpy")
from idxmap.testing import assert_same  # noqa: E402  (after NumPy is known to be there)

# What JAX writes: the gather clamps each start index to [0, 5] (6 rows, slices of 1).
TAKE = """
func.func @main(%x: tensor<6x3xf32>, %idx: tensor<4xi64>) -> tensor<4x3xf32> {
  %col = stablehlo.reshape %idx : (tensor<4xi64>) -> tensor<4x1xi64>
  %r = "stablehlo.gather"(%x, %col) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 3>} : (tensor<6x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""

# The lowering under test: clamp to [0, LAST] first, then the same gather.
def clamped_take(last):
    return f"""
func.func @main(%x: tensor<6x3xf32>, %idx: tensor<4xi64>) -> tensor<4x3xf32> {{
  %lo = stablehlo.constant dense<0> : tensor<i64>
  %hi = stablehlo.constant dense<{last}> : tensor<i64>
  %c = stablehlo.clamp %lo, %idx, %hi : (tensor<i64>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %col = stablehlo.reshape %c : (tensor<4xi64>) -> tensor<4x1xi64>
  %r = "stablehlo.gather"(%x, %col) {{dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 3>}} : (tensor<6x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}}
"""


def arrays(seed):
    rng = numpy.random.default_rng(seed)
    x = rng.standard_normal((6, 3)).astype(numpy.float32)
    idx = rng.integers(-3, 9, size=4)  # int64, some out of range on both sides
    return x, idx


@pytest.mark.parametrize("seed", range(5))
def test_clamping_first_is_the_same_take(seed):
    assert_same(TAKE, clamped_take(5), *arrays(seed))


def test_a_wrong_bound_is_caught():
    x, _ = arrays(0)
    with pytest.raises(AssertionError, match="result 0 of @main"):
        assert_same(TAKE, clamped_take(4), x, numpy.array([5, 0, 1, 2]))


def test_the_emitted_kernel_is_the_reference():
    assert_same(TAKE, TAKE, *arrays(1), other_engine="kernel")
