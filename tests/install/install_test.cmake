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
foreach(installed include/idxmap/idxmap.h include/idxmap/core/expr_context.h bin/idxmap)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()
# Only the public API's headers: the rest of the library is internal.
foreach(internal simplifier ops verify codegen draw core/text.h core/bridges)
  if(EXISTS ${prefix}/include/idxmap/${internal})
    message(FATAL_ERROR "cmake --install installed internal headers: include/idxmap/${internal}")
  endif()
endforeach()

# examples/embed, which includes only <idxmap/idxmap.h>; only the install prefix is on its
# path: the consumer must not see the source or build tree.
run_step("configuring the consumer" ${CMAKE_COMMAND}
  -S ${CONSUMER_SOURCE_DIR} -B ${consumer_build} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
  -DCMAKE_PREFIX_PATH=${prefix})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
execute_process(COMMAND ${CMAKE_COMMAND} -DPROGRAM=${consumer_build}/embed
  -DEXAMPLES=${EXAMPLES_DIR} -P ${CMAKE_CURRENT_LIST_DIR}/check_embed.cmake
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the installed consumer failed:\n${out}")
endif()
message(STATUS "${out}")
