# Runs examples/embed (PROGRAM) on EXAMPLES and checks what it prints against answers worked
# out by hand from the maps and programs it reads (docs/api.md shows the same run).
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${PROGRAM} ${EXAMPLES} RESULT_VARIABLE status OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "embed failed (${status}):\n${out}\n${err}")
endif()
set(expected
  # (d0 * 16 + d1) floordiv 64 and mod 64 on d0 in [0, 7], d1 in [0, 15].
  "simplified: (d0, d1) -> (d0 floordiv 4, (d0 mod 4) * 16 + d1)"
  "equal to its input: proven"
  # The transpose's (d1, d0) fed to d0 * 16 + d1 floordiv 4.
  "composed: (d0, d1) -> (d1 * 16 + d0 floordiv 4)"
  # broadcast.hlo: f32[20] broadcast to [10, 20, 30] along dimension 1.
  "bc0 operand 0: (d0, d1, d2) -> (d1)"
  # gather.mlir: row 9 of 5 is out of range (clamped); 2 * iota of 4 rows of 8 is not.
  "stablehlo.gather at ${EXAMPLES}/gather.mlir:8:11: in bounds refuted"
  "stablehlo.gather at ${EXAMPLES}/gather.mlir:17:11: in bounds proven"
  "with gather kernels"
  "tcp lowering: proven"
  "wrong lowering: refuted"
  "error at line 1, column"
  "bad.map:1:")
foreach(line IN LISTS expected)
  string(FIND "${out}" "${line}" position)
  if(position EQUAL -1)
    message(FATAL_ERROR "embed's output lacks \"${line}\":\n${out}")
  endif()
endforeach()
message(STATUS "embed output:\n${out}")
