"""Testing one's own lowerings and kernels against idxmap's reference, from pytest.

    from idxmap.testing import assert_same

    def test_my_lowering():
        indices = numpy.array([[4], [-1], [2]])
        assert_same("take.mlir", "my_take.mlir", operand, indices)           # two programs
        assert_same("take.mlir", "take.mlir", operand, indices, other_engine="kernel")

Programs are idxmap.Program objects, paths to .mlir files, or MLIR text. Both run on the same
NumPy arrays (Program.run: each converted to its parameter's element type where every value
fits); the results must have the same count, dtypes and shapes, and equal values — exactly by
default (NaN equals NaN), or within rtol / atol where float results may round differently (a
scatter-add whose kernel adds in another order). A failure says which result, which engines,
and where the values differ.
"""

import os

import numpy

from . import Program, read_program


def program_of(program):
    """A Program from a Program, a path to an .mlir file, or MLIR text."""
    if isinstance(program, Program):
        return program
    if isinstance(program, (str, os.PathLike)) and os.path.exists(program):
        return read_program(os.fspath(program))
    return Program(program)


def results_of(program, arrays, engine="reference", function="main"):
    """The results of a run as a tuple of NumPy arrays (one result too)."""
    results = program_of(program).run(*arrays, engine=engine, function=function)
    return results if isinstance(results, tuple) else (results,)


def assert_same(first, second, *arrays, engine="reference", other_engine=None, function="main",
                other_function=None, rtol=0.0, atol=0.0):
    """Asserts that `first` and `second` give the same results on `arrays`.

    engine runs `first`; other_engine (engine when None) runs `second`; function and
    other_function (function when None) name what each calls."""
    other_engine = other_engine or engine
    other_function = other_function or function
    a = results_of(first, arrays, engine, function)
    b = results_of(second, arrays, other_engine, other_function)
    what = f"@{function} ({engine}) and @{other_function} ({other_engine})"
    assert len(a) == len(b), f"{what} give {len(a)} and {len(b)} results"
    for k, (x, y) in enumerate(zip(a, b)):
        where = f"result {k} of {what}"
        assert x.dtype == y.dtype, f"{where}: dtypes {x.dtype} and {y.dtype}"
        assert x.shape == y.shape, f"{where}: shapes {x.shape} and {y.shape}"
        if rtol == 0 and atol == 0:
            numpy.testing.assert_array_equal(x, y, err_msg=where)
        else:
            numpy.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=where)
