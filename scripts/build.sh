#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds idxmap in build/ (Ninja,
# RelWithDebInfo). Arguments are Ninja targets (default: everything).
#   ./scripts/build.sh              # library, CLI, tests, benchmarks
#   ./scripts/build.sh idxmap_cli   # just the command-line tool: build/idxmap
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build ${1:+--target "$@"}
