# One CTest test per GoogleTest suite, instead of gtest_discover_tests()'s one per test.
#
# A suite's tests share what its SetUpTestSuite() builds (random corpora, emitted modules,
# compiled kernels): one process per test rebuilt it for every test, which under the
# sanitizers cost minutes of CI (issue 30). One process per suite builds it once and still
# lets CTest run suites in parallel. `ctest -R Suite` selects a suite; the executable's own
# --gtest_filter selects one test.
#
# A suite whose tests were all skipped (gtest reports no test passed) is reported skipped;
# scripts/test.sh lists every skipped test, whole suite or not, from CTest's log.

set(IDXMAP_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gtest_suites_list.cmake)

# idxmap_add_gtest_suites(<target> [TIMEOUT seconds] [LONG suite...])
# LONG names the suites that take tens of seconds: CTest starts them first (a fresh tree has no
# timings of its own to schedule by), so that none of them is left running alone at the end.
function(idxmap_add_gtest_suites target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LONG" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 1200)
  endif()
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND}
      -DEXECUTABLE=$<TARGET_FILE:${target}>
      -DWORKING_DIRECTORY=${CMAKE_CURRENT_BINARY_DIR}
      -DTIMEOUT=${ARG_TIMEOUT}
      "-DLONG=${ARG_LONG}"
      -DOUTPUT=${ctest_file}
      -P ${IDXMAP_GTEST_SUITES_SCRIPT}
    BYPRODUCTS ${ctest_file}
    VERBATIM)
  # Read by CTest when it starts; absent (not built yet) it is skipped with a warning.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${ctest_file})
endfunction()
