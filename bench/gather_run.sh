#!/usr/bin/env bash
# Builds gather_bench (Release, build-gbench/) and runs it in a few minutes, then prints one
# line per case, size and engine: elements/s, GB/s and the ratio to the memcpy of the same
# bytes that ran just before it. Figures are medians of the repetitions (CPU time; the
# machine is shared, so expect a few percent of noise between runs).
# Extra arguments go to the benchmark, e.g. bench/gather_run.sh --benchmark_filter=row_gather.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-gbench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDXMAP_BUILD_TESTS=OFF >/dev/null
# Only the benchmark target: the tests and the CLI are not needed here.
ninja -C "$build" -j2 gather_bench
json="$build/gather_bench.json"
"$build/bench/gather_bench" --benchmark_repetitions=3 --benchmark_min_time=0.2 \
  --benchmark_report_aggregates_only=true --benchmark_out="$json" \
  --benchmark_out_format=json "$@" >/dev/null
python3 - "$json" <<'EOF'
import json, sys

rows = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median" or b.get("error_occurred"):
        continue
    case, engine, size = b["run_name"].split("/")[:3]  # then "iterations:1"
    rows[(case, size, engine)] = b

def rate(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f}{unit}"
    return f"{x:.0f}"

print(f"{'case':<16}{'elements':>9}  {'engine':<10}{'elements/s':>11}{'GB/s':>8}{'vs memcpy':>11}")
for (case, size, engine), b in rows.items():
    anchor = rows.get((case, size, "memcpy"))
    ratio = b["GB_per_s"] / anchor["GB_per_s"] if anchor else float("nan")
    print(f"{case:<16}{size:>9}  {engine:<10}{rate(b['elements_per_s']):>11}"
          f"{b['GB_per_s']:>8.2f}{ratio:>11.3f}")
EOF
