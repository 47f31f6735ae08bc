# Installs the build tree into a fresh prefix, then configures, builds and runs a consumer
# project that finds it with find_package(idxmap). Run with cmake -P; see CMakeLists.txt
# here for the variables it expects.
cmake_minimum_required(VERSION 3.20)

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${description} failed (${status}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer-build)
# A stale prefix could hide a missing install rule.
file(REMOVE_RECURSE ${prefix} ${consumer_build})

run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed
    include/idxmap/core/expr.h include/idxmap/simplifier/simplify.h
    include/idxmap/verify/equivalence.h bin/idxmap)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()

# Only the install prefix: the consumer must not see the source or build tree.
run_step("configuring the consumer" ${CMAKE_COMMAND}
  -S ${CONSUMER_SOURCE_DIR} -B ${consumer_build} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
  -DCMAKE_PREFIX_PATH=${prefix})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
run_step("running the consumer" ${consumer_build}/consumer)

# The input's term order is the printer's business; the simplified map is exactly known.
foreach(expected IN ITEMS "input:\n(d0, d1) -> (" "d1 floordiv 16" "d1 mod 16"
                          "simplified:\n(d0, d1) -> (d0, d1),")
  string(FIND "${step_output}" "${expected}" position)
  if(position EQUAL -1)
    message(FATAL_ERROR "consumer output lacks \"${expected}\":\n${step_output}")
  endif()
endforeach()
message(STATUS "consumer output:\n${step_output}")
