#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds idxmap in build/ (Ninja,
# RelWithDebInfo). Arguments are Ninja targets (default: everything).
#   ./scripts/build.sh              # library, CLI, tests, benchmarks
#   ./scripts/build.sh idxmap_cli   # just the command-line tool: build/idxmap
# IDXMAP_BENCH_COMPILE_ONLY=1 builds the benchmarks only as far as proves they compile
# (scripts/test.sh, CI); without it they are built for timing. The libraries are compiled in
# unity batches (IDXMAP_UNITY, CMakeLists.txt: a fresh build of them in half the time);
# IDXMAP_UNITY=0 compiles them file by file, for day-to-day work on one file.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
bench_compile_only=OFF
if [[ ${IDXMAP_BENCH_COMPILE_ONLY:-0} == 1 ]]; then bench_compile_only=ON; fi
unity=ON
if [[ ${IDXMAP_UNITY:-1} == 0 ]]; then unity=OFF; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DIDXMAP_BENCH_COMPILE_ONLY=$bench_compile_only -DIDXMAP_UNITY=$unity
cmake --build build ${1:+--target "$@"}
