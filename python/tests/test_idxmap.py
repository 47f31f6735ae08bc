"""The Python bindings, end to end: maps, programs and errors, checked against answers worked
out by hand (and, for simplify, by brute-force evaluation of both maps on their domain)."""
import itertools
import os

import pytest

import idxmap

EXAMPLES = os.environ.get(
    "IDXMAP_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))

TILED = "(d0, d1) -> (d0 * 16 + d1 floordiv 4), domain: d0 in [0, 3], d1 in [0, 15]"
RESHAPE = ("(d0, d1) -> ((d0 * 16 + d1) floordiv 64, (d0 * 16 + d1) mod 64), "
           "domain: d0 in [0, 7], d1 in [0, 15]")


def test_the_issue_one_liner_simplifies_and_prints():
    text = str(idxmap.simplify(TILED))
    assert text.startswith("(d0, d1) -> (d0 * 16 + d1 floordiv 4)")
    assert "d0 in [0, 3]" in text and "d1 in [0, 15]" in text


def test_simplify_keeps_every_point():
    simplified = idxmap.simplify(RESHAPE)
    assert str(simplified).startswith("(d0, d1) -> (d0 floordiv 4, (d0 mod 4) * 16 + d1)")
    # Brute force: the simplified results are the original formula at every point.
    for d0, d1 in itertools.product(range(8), range(16)):
        flat = d0 * 16 + d1
        assert (flat // 64, flat % 64) == (d0 // 4, (d0 % 4) * 16 + d1)
    assert idxmap.prove_equal(RESHAPE, simplified).proven


def test_maps_are_objects():
    m = idxmap.Map(RESHAPE)
    assert m.dim_count == 2 and m.result_count == 2
    assert str(m.simplify()) == str(idxmap.simplify(m))
    assert m.to_isl().startswith("{ [d0, d1] -> [")
    assert idxmap.parse(str(m.simplify())).prove_equal(m)
    assert len(idxmap.parse_all(TILED + "\n\n" + RESHAPE)) == 2
    assert str(eval(repr(m), {"Map": idxmap.Map})) == str(m)  # repr reads back


def test_compose_feeds_results_to_dims():
    transpose = "(d0, d1) -> (d1, d0), domain: d0 in [0, 15], d1 in [0, 3]"
    composed = idxmap.compose(transpose, TILED)
    assert str(composed).startswith("(d0, d1) -> (d1 * 16 + d0 floordiv 4)")
    assert str(idxmap.Map(transpose).compose(TILED)) == str(composed)


def test_unequal_maps_are_refuted_with_a_point():
    result = idxmap.prove_equal("(d0) -> (d0), domain: d0 in [0, 9]",
                                "(d0) -> (d0 mod 9), domain: d0 in [0, 9]")
    assert result.verdict == "refuted" and not result
    assert "d0 = 9" in result.counterexample


def test_errors_carry_the_diagnostic_and_location():
    with pytest.raises(idxmap.Error) as caught:
        idxmap.parse("(d0) -> (d0 floordiv 0), domain: d0 in [0, 3]")
    error = caught.value
    assert error.line == 1 and error.column == 13
    assert "division by zero" in error.message
    assert str(error).count("\n") >= 2 and str(error).rstrip().endswith("^")


def read(name):
    return idxmap.read_program(os.path.join(EXAMPLES, name))


def test_hlo_op_maps():
    program = read("broadcast.hlo")
    assert program.is_hlo
    (op,) = [op for op in program.op_maps() if op["name"] == "bc0"]
    assert op["op"] == "broadcast"
    assert str(op["maps"][0]["map"]).startswith("(d0, d1, d2) -> (d1)")


def test_mlir_properties_and_kernels():
    program = read("gather.mlir")
    ops = program.properties()
    # Row 9 of 5 is out of range (the gather clamps it); 2 * iota over 4 rows of 8 is not.
    assert ops[0]["in_bounds"].verdict == "refuted"
    assert ops[1]["in_bounds"].verdict == "proven"
    assert ops[1]["location"].endswith("gather.mlir:17:11")
    code = program.emit()
    assert "idxmap_stablehlo_gather_" in code
    assert "__global__" in program.emit("cuda")
    with pytest.raises(idxmap.Error):
        program.emit("fortran")


def test_a_condition_on_arguments_comes_with_values_that_break_it():
    # scatter_claims.mlir's second scatter writes rows %rows of an 8-row table: in bounds iff
    # every element of %rows is in [0, 7]; the witness, replayed by the interpreter, says which
    # values of %rows break it, and a row outside [0, 7] is among them.
    in_bounds = read("scatter_claims.mlir").properties()[1]["in_bounds"]
    assert in_bounds.verdict == "unknown" and in_bounds.condition_on == "arguments"
    assert in_bounds.condition == "every element of %rows is in [0, 7]"
    shown = in_bounds.witness
    assert shown.startswith("%rows = [[")
    rows = [int(row) for row in shown[len("%rows = [["):shown.index("]]")].split("], [")]
    assert any(row < 0 or row > 7 for row in rows), shown
    # A verdict without a condition on arguments has none.
    assert read("gather.mlir").properties()[0]["in_bounds"].witness is None


def test_broken_op_constraint_names_its_label():
    with pytest.raises(idxmap.Error) as caught:
        read("bad_gather.mlir").properties()
    assert "(C" in caught.value.message and caught.value.line > 0


def test_prove_programs_equal():
    tf = read("prove_equal/tf_gather.mlir")
    assert idxmap.prove_programs_equal(tf, read("prove_equal/tf_gather_tcp.mlir")).proven
    wrong = idxmap.prove_programs_equal(tf, read("prove_equal/tf_gather_wrong_axis.mlir"))
    assert wrong.refuted
    assert wrong.counterexample.startswith("for %indices = [")


def test_float_sums_are_compared_bit_for_bit():
    # Reassociated f32 sums round otherwise: refuted with the values that show it. The same
    # order with each add's operands swapped is bit-identical: proven.
    left = read("prove_equal/sum_left.mlir")
    reassociated = idxmap.prove_programs_equal(left, read("prove_equal/sum_right.mlir"))
    assert reassociated.refuted and not reassociated
    assert reassociated.counterexample.startswith("for %a = [")
    commuted = idxmap.prove_programs_equal(left, read("prove_equal/sum_commuted.mlir"))
    assert commuted.proven and commuted


def test_float_updates_summed_in_the_same_order_are_proven():
    batched, decomposed = read("prove_equal/batched.mlir"), read("prove_equal/decomposed.mlir")
    assert idxmap.prove_programs_equal(batched, decomposed, "scatter_fn").proven
    assert idxmap.prove_programs_equal(batched, decomposed, "gather_fn").proven


def test_equal_over_the_reals_is_not_true(tmp_path):
    # x * y + -0 is y * x bit for bit, but an f64 multiplier's bits are out of reach in half a
    # second: equal over the reals only, false under bool().
    (tmp_path / "a.mlir").write_text("""func.func @main(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %c = stablehlo.constant dense<-0.0> : tensor<f64>
  %p = stablehlo.multiply %x, %y : tensor<f64>
  %r = stablehlo.add %p, %c : tensor<f64>
  func.return %r : tensor<f64>
}""")
    (tmp_path / "b.mlir").write_text("""func.func @main(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %r = stablehlo.multiply %y, %x : tensor<f64>
  func.return %r : tensor<f64>
}""")
    first = idxmap.read_program(str(tmp_path / "a.mlir"))
    second = idxmap.read_program(str(tmp_path / "b.mlir"))
    result = idxmap.prove_programs_equal(first, second, timeout_ms=500)
    assert result.verdict == "equal-over-reals"
    assert not result and not result.proven and not result.refuted


def test_proofs_on_two_threads_agree_with_one_thread():
    # The library runs with the GIL released: proofs on several threads at once give what
    # they give on one.
    import threading
    tf = read("prove_equal/tf_gather.mlir")
    pairs = [(tf, read("prove_equal/tf_gather_tcp.mlir")),
             (tf, read("prove_equal/tf_gather_wrong_axis.mlir"))]
    expected = [str(idxmap.prove_programs_equal(a, b)) for a, b in pairs]
    results = [None] * 4

    def prove(k):
        a, b = pairs[k % 2]
        results[k] = str(idxmap.prove_programs_equal(a, b))

    threads = [threading.Thread(target=prove, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == expected * 2
    assert expected[0].startswith("proven") and expected[1].startswith("refuted")


def test_python_runs_while_a_proof_does():
    # Were the GIL held by a library call, no other Python thread could run during it (but for
    # a switch interval at its start). Here the main thread counts through most of one call:
    # the properties of 300 gathers, a few tenths of a second.
    import threading
    import time
    gathers = "\n".join(
        f"  %i{k} = stablehlo.iota dim = 0 : tensor<64x1xi64>\n"
        f'  %g{k} = "stablehlo.gather"(%x, %i{k}) {{dimension_numbers = #stablehlo.gather<'
        "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
        "index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>} "
        ": (tensor<64x8xf32>, tensor<64x1xi64>) -> tensor<64x8xf32>" for k in range(300))
    program = idxmap.Program("func.func @main(%x: tensor<64x8xf32>) -> tensor<64x8xf32> {\n" +
                             gathers + "\n  return %g0 : tensor<64x8xf32>\n}\n", "many.mlir")
    call = {}

    def prove():
        call["start"] = time.perf_counter()
        call["ops"] = program.properties()
        call["end"] = time.perf_counter()

    worker = threading.Thread(target=prove)
    ticks = []
    count = 0
    worker.start()
    while worker.is_alive():
        count += 1
        if count % 256 == 0:
            ticks.append(time.perf_counter())
    worker.join()
    assert len(call["ops"]) == 300
    assert all(op["in_bounds"].proven for op in call["ops"])
    inside = [t for t in ticks if call["start"] <= t <= call["end"]]
    duration = call["end"] - call["start"]
    assert duration > 0.05, "the call was too short to tell"
    assert inside and inside[-1] - inside[0] > 0.5 * duration, (len(inside), duration)
