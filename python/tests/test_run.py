"""Program.run on NumPy arrays (issue 35): results against NumPy's own indexing (an oracle
independent of idxmap), every engine but CUDA agreeing, dtypes in and out, and errors located.
"""
import pytest

import idxmap

numpy = pytest.importorskip("numpy")  # Debian's python3-numpy (scripts/install-deps.sh)

# Rows of x at idx: the gather clamps each start to [0, 4] (5 rows).
TAKE = """
func.func @main(%x: tensor<5x3xf32>, %idx: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %r = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""

# x.at[idx].add(u), twice: results of two functions, and two results of one.
SCATTER_ADD = """
func.func @main(%x: tensor<6xi64>, %idx: tensor<5x1xi64>, %u: tensor<5xi64>)
    -> (tensor<6xi64>, tensor<6xi1>) {
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
      : (tensor<6xi64>, tensor<5x1xi64>, tensor<5xi64>) -> tensor<6xi64>
  %zero = stablehlo.constant dense<0> : tensor<6xi64>
  %pos = stablehlo.compare GT, %r, %zero, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
  return %r, %pos : tensor<6xi64>, tensor<6xi1>
}
"""

HALF = """
func.func @main(%x: tensor<3xf16>) -> tensor<3xbf16> {
  %y = stablehlo.convert %x : (tensor<3xf16>) -> tensor<3xbf16>
  return %y : tensor<3xbf16>
}
"""


@pytest.mark.parametrize("engine", ["reference", "maps", "kernel"])
def test_a_gather_is_numpy_indexing_with_clamped_rows(engine):
    rng = numpy.random.default_rng(7)
    x = rng.standard_normal((5, 3)).astype(numpy.float32)
    idx = numpy.array([[3], [-2], [9], [0]])  # int64 into an i32 parameter: every value fits
    got = idxmap.Program(TAKE).run(x, idx, engine=engine)
    assert got.dtype == numpy.float32 and got.shape == (4, 3)
    numpy.testing.assert_array_equal(got, x[numpy.clip(idx[:, 0], 0, 4)])


@pytest.mark.parametrize("engine", ["reference", "maps", "kernel"])
def test_a_scatter_add_is_numpy_add_at_and_gives_two_results(engine):
    x = numpy.arange(6)
    idx = numpy.array([[1], [4], [1], [7], [-1]])  # 7 and -1 are out of range: skipped
    u = numpy.array([10, 20, 30, 40, 50])
    total, positive = idxmap.Program(SCATTER_ADD).run(x, idx, u, engine=engine)
    expected = x.copy()
    for (i,), v in zip(idx, u):
        if 0 <= i < 6:
            expected[i] += v
    numpy.testing.assert_array_equal(total, expected)
    assert positive.dtype == numpy.bool_
    numpy.testing.assert_array_equal(positive, expected > 0)


def test_half_floats_in_and_bf16_out_as_float32():
    x = numpy.array([1.0, 0.1, 65504.0], dtype=numpy.float16)
    y = idxmap.Program(HALF).run(x)
    assert y.dtype == numpy.float32  # NumPy has no bfloat16: every bf16 value is a float32
    # bf16 keeps 8 significant bits: 0.1 (as f16) rounds to 0.10009765625, 65504 to 65536.
    numpy.testing.assert_array_equal(y, numpy.array([1.0, 0.10009765625, 65536.0], numpy.float32))


def test_a_value_its_parameter_cannot_hold_is_an_error_at_the_function():
    x = numpy.zeros((5, 3), numpy.float32)
    with pytest.raises(idxmap.Error) as raised:
        idxmap.Program(TAKE, "take.mlir").run(x, numpy.array([[0], [1], [2], [2**40]]))
    assert raised.value.file == "take.mlir" and raised.value.line == 2
    assert "argument 1 of @main holds 1099511627776, which i32 cannot" in raised.value.message


def test_wrong_shapes_kinds_and_counts_are_errors():
    program = idxmap.Program(TAKE)
    x = numpy.zeros((5, 3), numpy.float32)
    with pytest.raises(idxmap.Error, match=r"argument 0 of @main has shape \[3x5\]"):
        program.run(x.T, numpy.zeros((4, 1), numpy.int32))
    with pytest.raises(idxmap.Error, match="argument 1 of @main is f64"):
        program.run(x, numpy.zeros((4, 1)))
    with pytest.raises(idxmap.Error, match="takes 2 argument"):
        program.run(x)
    with pytest.raises(idxmap.Error, match="unknown engine 'gpu'"):
        program.run(x, numpy.zeros((4, 1), numpy.int32), engine="gpu")
    with pytest.raises(idxmap.Error, match="dtype"):
        program.run(x, numpy.zeros((4, 1), numpy.complex64))
