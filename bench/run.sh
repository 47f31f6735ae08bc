#!/usr/bin/env bash
# Builds simplify_bench (Release, build-bench/) and runs it in about a minute, then prints
# per-map medians for simplify vs the isl path and their corpus-wide medians.
# Extra arguments go to the benchmark, e.g. bench/run.sh --benchmark_filter=spec004, or
# bench/run.sh --check_equal to also prove each output equal to its input with isl (+20 s).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDXMAP_BUILD_TESTS=OFF >/dev/null
# Only the benchmark target: the tests and the CLI are not needed here.
ninja -C "$build" simplify_bench
json="$build/simplify_bench.json"
# Three repetitions so each figure is a median; CPU time, since the machine is shared.
"$build/bench/simplify_bench" --benchmark_min_time=0.05 --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$json" \
  --benchmark_out_format=json "$@" >/dev/null
python3 "bench/summarize.py" "$json"
