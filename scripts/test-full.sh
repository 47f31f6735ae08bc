#!/usr/bin/env bash
# The sampled tests at their full counts (tests/support/sampling.h): what CI samples, run whole,
# in build/ and, unless IDXMAP_SKIP_SANITIZE=1, under ASan + UBSan in build-asan/. A soak, not a
# CI step: it takes several times CI's test time. Builds the trees first (scripts/test.sh's
# configurations) when they are missing.
#   ./scripts/test-full.sh                    # a fresh seed
#   IDXMAP_TEST_SEED=1234 ./scripts/test-full.sh   # replay one
#   ./scripts/test-full.sh -R RandomKernels   # extra arguments go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."

export IDXMAP_TEST_FULL=1
export IDXMAP_TEST_SEED=${IDXMAP_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "test-full.sh: IDXMAP_TEST_SEED=$IDXMAP_TEST_SEED"
jobs=${IDXMAP_JOBS:-$(nproc)}

if [[ ! -f build/build.ninja ]]; then IDXMAP_BENCH_COMPILE_ONLY=1 ./scripts/build.sh; fi
cmake --build build
ctest --test-dir build --output-on-failure -j "$jobs" "$@"

if [[ ${IDXMAP_SKIP_SANITIZE:-0} != 1 ]]; then
  if [[ ! -f build-asan/build.ninja ]]; then
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
      -DIDXMAP_SANITIZE=ON -DIDXMAP_BUILD_BENCH=OFF -DIDXMAP_FUZZ=ON
  fi
  cmake --build build-asan
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_stack_use_after_return=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    IDXMAP_SKIP_NVCC=1 ctest --test-dir build-asan --output-on-failure -j "$jobs" -E 'RuleProof' "$@"
fi
echo "test-full.sh: passed with IDXMAP_TEST_SEED=$IDXMAP_TEST_SEED"
