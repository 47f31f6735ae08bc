#!/usr/bin/env bash
# Builds verify_bench (Release, build-bench/) and runs it in about two minutes, then prints per
# op (gather/scatter, operand rank 1-8, index values) the median verify time per op, the
# provers' share of it, and the anchors: brute force on known values, one isl question.
# Extra arguments go to the benchmark, e.g. bench/verify_run.sh --benchmark_filter=rank8.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDXMAP_BUILD_TESTS=OFF >/dev/null
ninja -C "$build" verify_bench
json="$build/verify_bench.json"
# Three repetitions so each figure is a median; CPU time, since the machine is shared.
"$build/bench/verify_bench" --benchmark_min_time=0.05 --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$json" \
  --benchmark_out_format=json "$@" >/dev/null
python3 - "$json" <<'PY'
import json, statistics, sys
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
runs = {}
for run in json.load(open(sys.argv[1]))["benchmarks"]:
    if run.get("aggregate_name") == "median":
        runs[run["run_name"]] = run["cpu_time"] * UNIT_MS[run["time_unit"]]
cases = sorted({name.split("/", 1)[1] for name in runs if name.startswith("verify/")},
               key=lambda c: (c.split("/")[0], int(c.split("/")[1][4:]), c.split("/")[2]))
print(f"{'op':<30}{'verify ms':>10}{'prove share':>13}{'brute ms':>10}{'isl question ms':>17}")
for case in cases:
    verify, prove = runs[f"verify/{case}"], runs.get(f"prove/{case}")
    brute, question = runs.get(f"bruteforce/{case}"), runs.get(f"islquestion/{case}")
    share = f"{prove / verify:.0%}" if prove is not None else "-"
    cell = lambda ms: "-" if ms is None else f"{ms:.3f}"
    print(f"{case:<30}{verify:>10.2f}{share:>13}{cell(brute):>10}{cell(question):>17}")
times = [runs[f"verify/{c}"] for c in cases]
rank8 = [runs[f"verify/{c}"] for c in cases if "/rank8/" in c]
shares = [runs[f"prove/{c}"] / runs[f"verify/{c}"] for c in cases if f"prove/{c}" in runs]
print(f"\nmedian verify time per op: {statistics.median(times):.2f} ms over {len(times)} ops; "
      f"slowest {max(times):.1f} ms; slowest rank-8 op {max(rank8) if rank8 else float('nan'):.1f} ms")
print(f"provers' share of verify time: median {statistics.median(shares):.0%}")
for run in json.load(open(sys.argv[1]))["benchmarks"]:
    if run.get("aggregate_name") == "median" and run["run_name"].startswith("conformance/"):
        print(f"StableHLO testdata ops: {int(run['ops'])} ops, median {run['median_ms']:.2f} ms "
              f"per op, slowest {run['max_ms']:.1f} ms")
PY
