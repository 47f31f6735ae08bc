#!/usr/bin/env bash
# Installs missing dependencies, builds the idxmap CLI and simplifies a bundled example
# (default: the reshape round trip of spec 004, which simplifies to the identity).
#   ./scripts/run-example.sh [FILE] [idxmap simplify options...]
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build.sh idxmap_cli
example=${1:-examples/reshape_roundtrip.map}
shift || true
echo "\$ idxmap simplify $example${*:+ $*}"
build/idxmap simplify "$example" "$@"
