#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. install missing dependencies; build everything in build/ (RelWithDebInfo; the benchmarks
#      only as far as proves they compile and link); ctest; `pip install .` into a virtual
#      environment (scripts/pip-install.sh, with build/'s module);
#   2. build the tests and the fuzzers with ASan + UBSan in build-asan/ (clang) and run ctest
#      there (a third of each sample; the rule proofs, nvcc's verdicts and the emitted
#      kernels' races excepted: step 1 checks them); fuzz briefly;
#   3. build the concurrency test with ThreadSanitizer in build-tsan/ (clang) and run it;
#   4. clang-tidy (.clang-tidy) on the sources the last commit changed (scripts/tidy.sh).
# Any failure stops the script with a non-zero status and names the step. At the end it prints
# each step's time, ccache's hits, the tests that skipped, and the seeds of the sampled tests.
#
# Every compile goes through ccache (its cache under the home folder), so a second run on the
# same machine rebuilds little; every tree compiles the libraries in unity batches
# (IDXMAP_UNITY, CMakeLists.txt), which halves a cold build of them. Tests that take seconds
# run a sample drawn fresh each run (tests/support/sampling.h prints the seed);
# scripts/test-full.sh runs them whole.
#
# Knobs (environment): IDXMAP_JOBS (default: nproc), IDXMAP_SKIP_SANITIZE=1,
# IDXMAP_FUZZ_SECONDS (total fuzzing time, default 60; 0 skips fuzzing), IDXMAP_SKIP_TIDY=1,
# IDXMAP_TEST_FULL=1 and IDXMAP_TEST_SEED=N (tests/support/sampling.h).
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

# ccache's counters, to report this run's hits: "hits misses" (direct and preprocessed hits).
ccache_counts() {
  if ! command -v ccache >/dev/null; then
    echo "0 0"
    return
  fi
  ccache --print-stats 2>/dev/null | awk '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hits += $2 }
    $1 == "cache_miss" { misses += $2 }
    END { print hits + 0, misses + 0 }'
}
# What the tests of one tree said of themselves: skipped tests and the samples' seeds.
test_notes() {
  local log=$1/Testing/Temporary/LastTest.log
  [[ -f $log ]] || return 0
  grep -hE '^\[  SKIPPED \] [A-Za-z]' "$log" |
    sed -E 's/^\[  SKIPPED \] /  skipped: /; s/ \([0-9]+ ms\)$//' | sort -u || true
  grep -hE '^\[ sample \]' "$log" | sort -u | sed 's/^/  /' || true
}
read -r ccache_hits_before ccache_misses_before < <(ccache_counts)

# One seed for every sampled test of this run, in both trees (the sanitizer tree's smaller
# samples are drawn with it too): one number replays the whole run.
export IDXMAP_TEST_SEED=${IDXMAP_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "test.sh: sampled tests draw with IDXMAP_TEST_SEED=$IDXMAP_TEST_SEED"

begin_step "dependencies, configure and build (build/)"
IDXMAP_BENCH_COMPILE_ONLY=1 ./scripts/build.sh
end_step

begin_step "ctest (build/)"
ctest --test-dir build --output-on-failure -j "$jobs"
end_step

# `pip install .` into a fresh virtual environment, the package used from there (issue 35); the
# module from build/'s tree, so this step costs the packaging only (scripts/pip-install.sh
# without IDXMAP_BUILD_DIR builds a tree of its own, as a user's pip does).
if [[ -f build/python/idxmap/__init__.py ]]; then
  begin_step "pip install . into a virtual environment"
  IDXMAP_BUILD_DIR=build ./scripts/pip-install.sh
  end_step
fi

if [[ ${IDXMAP_SKIP_SANITIZE:-0} != 1 ]]; then
  begin_step "configure and build with ASan + UBSan, and the fuzzers (build-asan/)"
  # -O1 -g1 (line tables) halves the compile time of -O2 -g and still gives the sanitizers
  # readable stack traces; no -DNDEBUG, so assertions are checked here too. The tests' own code
  # is compiled at -O0, in both trees (IDXMAP_TESTS_O0, tests/CMakeLists.txt). Clang compiles the
  # instrumented code in half GCC's time (GCC's build is the one tested in step 1). The
  # fuzzers link this tree's libraries (fuzz/CMakeLists.txt).
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DIDXMAP_SANITIZE=ON -DIDXMAP_BUILD_BENCH=OFF -DIDXMAP_FUZZ=ON -DIDXMAP_UNITY=ON
  cmake --build build-asan
  end_step

  begin_step "ctest with ASan + UBSan (build-asan/)"
  # The Z3 proofs of the rewrite rules and of the digit identities are Z3's work, four times
  # slower under ASan's allocator and no check of ours: step 1 runs them; the code that builds
  # them is covered by the rest.
  # nvcc's verdicts on the emitted CUDA do not depend on how the tests were built: step 1
  # checked them (IDXMAP_SKIP_NVCC); nor do the races of emitted kernels, which the
  # ThreadSanitizer suite builds with its own clang and TSan (step 1 runs it). The sampled
  # suites run a third of step 1's count, drawn with the same seed: the same code paths of the
  # library, under the sanitizers, at a third of the cost. The concurrency suite (its jobs on 4
  # threads of 2 cores, 45 s here) runs in step 1 and under ThreadSanitizer below, which reports
  # the races a use-after-free across threads would come from; its jobs' code runs here
  # single-threaded in the other suites.
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_stack_use_after_return=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    IDXMAP_SKIP_NVCC=1 IDXMAP_TEST_SAMPLE_DIVIDE=${IDXMAP_TEST_SAMPLE_DIVIDE:-3} \
    ctest --test-dir build-asan --output-on-failure -j "$jobs" \
      -E 'RuleProof|^DigitProof$|^ThreadSanitizer$|^Concurrency$'
  end_step

  if [[ $fuzz_seconds -gt 0 ]]; then
    begin_step "fuzz for ${fuzz_seconds}s of CPU (build-asan/fuzz/)"
    # The fuzzers run side by side, one a core, sharing the time between them.
    mapfile -t fuzzers < <(cd fuzz && ls ./*_fuzzer.cpp | sed -E 's|^\./||; s|\.cpp$||')
    per_fuzzer=$((fuzz_seconds / ${#fuzzers[@]} > 0 ? fuzz_seconds / ${#fuzzers[@]} : 1))
    pids=()
    for name in "${fuzzers[@]}"; do
      # A scratch corpus seeded with the examples and fuzz/corpus, so fuzzing never writes
      # into the source tree.
      corpus=build-asan/fuzz/corpus/$name
      mkdir -p "$corpus"
      find examples fuzz/corpus -type f \( -path "fuzz/corpus/$name/*" -o ! -path "fuzz/corpus/*/*" \) \
        -exec cp {} "$corpus"/ \; 2>/dev/null || true
      dict=()
      for candidate in "fuzz/$name.dict" "fuzz/${name%_fuzzer}.dict"; do
        if [[ -f $candidate ]]; then dict=(-dict="$candidate"); break; fi
      done
      echo "--- $name: ${per_fuzzer}s, $(ls "$corpus" | wc -l) seed inputs ${dict[*]}"
      build-asan/fuzz/"$name" -max_total_time="$per_fuzzer" -timeout=10 -rss_limit_mb=2048 \
        "${dict[@]}" -artifact_prefix=build-asan/fuzz/"$name"- -print_final_stats=1 "$corpus" \
        >"build-asan/fuzz/$name.log" 2>&1 &
      pids+=($!)
    done
    failed=()
    for i in "${!fuzzers[@]}"; do
      name=${fuzzers[$i]}
      if ! wait "${pids[$i]}"; then failed+=("$name"); fi
      echo "--- $name"
      tail -n 12 "build-asan/fuzz/$name.log"
    done
    for name in "${failed[@]}"; do
      cat "build-asan/fuzz/$name.log"
      echo "test.sh: $name found a failure; the input is in build-asan/fuzz/$name-*" >&2
    done
    [[ ${#failed[@]} -eq 0 ]]
    end_step
  fi

  begin_step "ThreadSanitizer: the library on 4 threads (build-tsan/)"
  # The concurrency test only (tests/concurrency/: simplify, validation, proofs, analysis,
  # emission and prove-equal on 4 threads at once), and only the libraries it links; the other
  # tests run single-threaded code. -O0: it compiles in a third of -O1's time (the verify
  # library's unity file 34 -> 11 s) and the test runs 28 -> 39 s, its time being isl's and
  # Z3's, which are not instrumented; clang: it builds this tree faster than GCC.
  # tests/tsan.supp silences Z3's timer mutex, a known false positive.
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
    -DIDXMAP_BUILD_BENCH=OFF -DIDXMAP_PYTHON=OFF -DIDXMAP_UNITY=ON
  cmake --build build-tsan --target concurrency_tests
  TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1" \
    build-tsan/tests/concurrency_tests
  end_step
fi

if [[ ${IDXMAP_SKIP_TIDY:-0} != 1 ]]; then
  begin_step "clang-tidy on the sources the last commit changed"
  ./scripts/tidy.sh
  end_step
fi

trap - ERR
read -r ccache_hits_after ccache_misses_after < <(ccache_counts)
echo
echo "=== test.sh: all steps passed"
echo "ccache: $((ccache_hits_after - ccache_hits_before)) hits," \
  "$((ccache_misses_after - ccache_misses_before)) misses"
echo "sampled tests drew with IDXMAP_TEST_SEED=$IDXMAP_TEST_SEED (scripts/test-full.sh runs them whole)"
for tree in build build-asan; do
  notes=$(test_notes "$tree")
  if [[ -n $notes ]]; then
    echo "$tree:"
    echo "$notes"
  fi
done
print_timings
