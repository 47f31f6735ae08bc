#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds idxmap in build/ (Ninja,
# RelWithDebInfo). Arguments are Ninja targets (default: everything).
#   ./scripts/build.sh              # library, CLI, tests, benchmarks
#   ./scripts/build.sh idxmap_cli   # just the command-line tool: build/idxmap
# IDXMAP_BENCH_COMPILE_ONLY=1 builds the benchmarks only as far as proves they compile
# (scripts/test.sh, CI); without it they are built for timing.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
bench_compile_only=OFF
if [[ ${IDXMAP_BENCH_COMPILE_ONLY:-0} == 1 ]]; then bench_compile_only=ON; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DIDXMAP_BENCH_COMPILE_ONLY=$bench_compile_only
cmake --build build ${1:+--target "$@"}
