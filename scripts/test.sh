#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. install missing dependencies; build everything in build/ (RelWithDebInfo); ctest;
#   2. build the tests with ASan + UBSan in build-asan/ (clang) and run ctest there (the rule
#      proofs excepted: Z3 work, run in step 1); build the verify tests with ThreadSanitizer in
#      build-tsan/ and run the concurrency test there;
#   3. when fuzz/ has targets: build them with clang in build-fuzz/ and fuzz briefly;
#   4. clang-tidy (.clang-tidy) on the sources the last commit changed (scripts/tidy.sh).
# Any failure stops the script with a non-zero status and names the step.
#
# Knobs (environment): IDXMAP_JOBS (default: nproc), IDXMAP_SKIP_SANITIZE=1,
# IDXMAP_FUZZ_SECONDS (total fuzzing time, default 60; 0 skips fuzzing), IDXMAP_SKIP_TIDY=1.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

jobs=${IDXMAP_JOBS:-$(nproc)}
fuzz_seconds=${IDXMAP_FUZZ_SECONDS:-60}
timings=()
current_step=""
step_started=0

begin_step() {
  current_step=$1
  step_started=$SECONDS
  echo
  echo "=== $current_step"
}
end_step() {
  timings+=("$(printf '%5ds  %s' $((SECONDS - step_started)) "$current_step")")
}
print_timings() {
  if [[ ${#timings[@]} -gt 0 ]]; then printf '%s\n' "${timings[@]}"; fi
  echo "$(printf '%5ds' "$SECONDS")  total"
}
report_failure() {
  echo >&2
  echo "test.sh: FAILED in step '$current_step' (after $((SECONDS - step_started))s)" >&2
  print_timings >&2
}
trap report_failure ERR

begin_step "dependencies, configure and build (build/)"
./scripts/build.sh
end_step

begin_step "ctest (build/)"
ctest --test-dir build --output-on-failure -j "$jobs"
end_step

if [[ ${IDXMAP_SKIP_SANITIZE:-0} != 1 ]]; then
  begin_step "configure and build with ASan + UBSan (build-asan/)"
  # -O1 -g1 (line tables) halves the compile time of -O2 -g and still gives the sanitizers
  # readable stack traces; no -DNDEBUG, so assertions are checked here too. Clang compiles the
  # instrumented code in half GCC's time (GCC's build is the one tested in step 1).
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DIDXMAP_SANITIZE=ON -DIDXMAP_BUILD_BENCH=OFF
  cmake --build build-asan
  end_step

  begin_step "ctest with ASan + UBSan (build-asan/)"
  # The rewrite rules' Z3 proofs are Z3's work, four times slower under ASan's allocator and
  # no check of ours: step 2 runs them; the code that builds them is covered by the rest.
  # nvcc's verdicts on the emitted CUDA do not depend on how the tests were built: step 2
  # checked them (IDXMAP_SKIP_NVCC).
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_stack_use_after_return=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    IDXMAP_SKIP_NVCC=1 ctest --test-dir build-asan --output-on-failure -j "$jobs" -E 'RuleProofTest'
  end_step

  begin_step "ThreadSanitizer: the library on 4 threads (build-tsan/)"
  # The concurrency test only (tests/verify/concurrency_test.cpp: simplify, validation, proofs,
  # analysis, emission and prove-equal on 4 threads at once); the other tests run single-
  # threaded code. tests/tsan.supp silences Z3's timer mutex, a known false positive.
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
    -DIDXMAP_BUILD_BENCH=OFF
  cmake --build build-tsan --target verify_tests
  TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1" \
    build-tsan/tests/verify_tests --gtest_filter='Concurrency.*'
  end_step
fi

if [[ -f fuzz/CMakeLists.txt && $fuzz_seconds -gt 0 ]]; then
  begin_step "build the fuzz targets with clang (build-fuzz/)"
  # Only the fuzzers: the rest of the tree is already built and tested above.
  mapfile -t fuzzers < <(sed -nE 's/^[[:space:]]*add_executable\([[:space:]]*([A-Za-z0-9_]+).*/\1/p' \
    fuzz/CMakeLists.txt)
  if [[ ${#fuzzers[@]} -eq 0 ]]; then
    echo "test.sh: fuzz/CMakeLists.txt declares no fuzzer" >&2
    false
  fi
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DIDXMAP_FUZZ=ON -DIDXMAP_BUILD_TESTS=OFF -DIDXMAP_BUILD_BENCH=OFF
  cmake --build build-fuzz --target "${fuzzers[@]}"
  end_step

  begin_step "fuzz for ${fuzz_seconds}s"
  per_fuzzer=$((fuzz_seconds / ${#fuzzers[@]} > 0 ? fuzz_seconds / ${#fuzzers[@]} : 1))
  for name in "${fuzzers[@]}"; do
    # A scratch corpus seeded with the examples and fuzz/corpus, so fuzzing never writes
    # into the source tree.
    corpus=build-fuzz/corpus/$name
    mkdir -p "$corpus"
    find examples fuzz/corpus -type f \( -path "fuzz/corpus/$name/*" -o ! -path "fuzz/corpus/*/*" \) \
      -exec cp {} "$corpus"/ \; 2>/dev/null || true
    dict=()
    for candidate in "fuzz/$name.dict" "fuzz/${name%_fuzzer}.dict"; do
      if [[ -f $candidate ]]; then dict=(-dict="$candidate"); break; fi
    done
    echo "--- $name: ${per_fuzzer}s, $(ls "$corpus" | wc -l) seed inputs ${dict[*]}"
    log=build-fuzz/$name.log
    if ! build-fuzz/fuzz/"$name" -max_total_time="$per_fuzzer" -timeout=10 -rss_limit_mb=2048 \
      "${dict[@]}" -artifact_prefix=build-fuzz/"$name"- -print_final_stats=1 "$corpus" \
      >"$log" 2>&1; then
      cat "$log"
      echo "test.sh: $name found a failure; the input is in build-fuzz/$name-*" >&2
      false
    fi
    tail -n 12 "$log"
  done
  end_step
fi

if [[ ${IDXMAP_SKIP_TIDY:-0} != 1 ]]; then
  begin_step "clang-tidy on the sources the last commit changed"
  ./scripts/tidy.sh
  end_step
fi

trap - ERR
echo
echo "=== test.sh: all steps passed"
print_timings
