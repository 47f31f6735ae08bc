# Runs the include checker on one probe file at a time, each alone in a scratch tree, and
# asserts the outcome: a wrong-way include fails with a located
# message naming the rule; a right-way include passes. Finally the real tree must pass.
cmake_minimum_required(VERSION 3.20)

# probe(<file> <included header> <expected message fragment, or "" for success>)
function(probe file header expected)
  set(root ${WORK_DIR}/${file})
  file(REMOVE_RECURSE ${root})
  file(WRITE ${root}/${file} "// probe\n#include \"${header}\"\n")
  file(WRITE ${root}/${header} "")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DRULES=${RULES} -DSOURCE_DIR=${root} -DFILES=${file} -P ${CHECKER}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expected STREQUAL "")
    if(NOT status EQUAL 0)
      message(SEND_ERROR "${file} including ${header} should pass, but:\n${out}")
    endif()
  else()
    string(FIND "${out}" "${file}:2: error: ${expected}" found)
    if(status EQUAL 0 OR found EQUAL -1)
      message(SEND_ERROR "${file} including ${header} should fail with\n  ${file}:2: error: "
                         "${expected}\nbut the checker said (status ${status}):\n${out}")
    endif()
  endif()
endfunction()

# Wrong way along the module order.
probe(core/probe.cpp ops/hlo/module.h "core/ (idxmap_core) may not include ops/hlo/module.h")
probe(simplifier/probe.cpp verify/equivalence.h "simplifier/ (idxmap_simplifier) may not include")
probe(ops/hlo/probe.cpp simplifier/simplify.h "ops/hlo/ (idxmap_ops_hlo) may not include")
# The static half of ops/ never reaches the run-time half.
probe(ops/stablehlo/probe.cpp ops/eval/tensor.h "ops/stablehlo/ (idxmap_ops_stablehlo) may not")
probe(ops/forms/probe.cpp ops/eval/reference_evaluator.h "ops/forms/ (idxmap_ops_forms) may not")
probe(verify/probe.cpp ops/interp/interpreter.h "verify/ (idxmap_verify) may not include")
# A module no library declares yet is still a project module.
probe(verify/probe.cpp codegen/emitter.h "verify/ (idxmap_verify) may not include codegen/emitter.h")
# Sibling subsystems that do not depend on each other.
probe(ops/mlir/probe.cpp ops/hlo/module.h "ops/mlir/ (idxmap_ops_mlir) may not include")
# codegen/'s pipeline: a step never includes a later one, nor a sibling it does not build on.
probe(codegen/kernel/probe.cpp codegen/validate/validation.h
      "codegen/kernel/ (idxmap_codegen_kernel) may not include")
probe(codegen/cuda/probe.cpp codegen/hlo/hlo_kernel.h
      "codegen/cuda/ (idxmap_codegen_cuda) may not include")
probe(codegen/lower/probe.cpp codegen/cpp/cpp_kernel.h
      "codegen/lower/ (idxmap_codegen_lower) may not include")
probe(codegen/hlo/probe.cpp codegen/cuda/cuda_kernel_internal.h
      "codegen/cuda/cuda_kernel_internal.h is internal to codegen/cuda/")
# A library never includes the CLI or the tests; internal headers stay in their folder.
probe(core/probe.cpp tests/support/map_oracle.h "core/ (idxmap_core) may not include")
probe(verify/probe.cpp cli/options.h "verify/ (idxmap_verify) may not include cli/options.h")
probe(ops/provenance/probe.cpp core/bridges/isl_internal.h
      "core/bridges/isl_internal.h is internal to core/bridges/")
probe(core/probe.cpp core/bridges/isl_internal.h "core/bridges/isl_internal.h is internal to")

# Right way.
probe(simplifier/probe.cpp core/expr.h "")
probe(ops/interp/probe.cpp ops/eval/tensor.h "")
probe(verify/probe.cpp ops/stablehlo/gather_scatter.h "")
probe(cli/probe.cpp ops/interp/interpreter.h "")
probe(core/bridges/probe.cpp core/bridges/isl_internal.h "")
probe(codegen/hlo/probe.cpp codegen/cuda/cuda_threads.h "")
probe(codegen/cpp/probe.cpp codegen/kernel/loop_nest.h "")

# The real tree.
execute_process(
  COMMAND ${CMAKE_COMMAND} -DRULES=${RULES} -DSOURCE_DIR=${SOURCE_DIR} -P ${CHECKER}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(SEND_ERROR "the source tree breaks the module order:\n${out}")
endif()
