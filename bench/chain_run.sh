#!/usr/bin/env bash
# Builds chain_bench (Release, build-gbench/, shared with gather_run.sh and kernel_run.sh) and runs it: the size report (idxmap against isl's
# exact path on 400 random op chains), then per-map timings of parse + simplify + print for
# both, summarized as mean and median per map and their ratio. About two minutes.
# Extra arguments go to the benchmark, e.g. bench/chain_run.sh --benchmark_filter=chain1
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-gbench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDXMAP_BUILD_TESTS=OFF >/dev/null
ninja -C "$build" chain_bench
json="$build/chain_bench.json"
"$build/bench/chain_bench" --benchmark_min_time=0.02 --benchmark_out="$json" \
  --benchmark_out_format=json "$@" >"$build/chain_bench.txt"
grep -v '^-\|^Benchmark\|^Idxmap\|^IslPath\|^[0-9]' "$build/chain_bench.txt" | sed -n '1,3p;/^digit families/p'
python3 - "$json" <<'PY'
import json, statistics, sys
UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
times = {}
for run in json.load(open(sys.argv[1]))["benchmarks"]:
    engine, name = run["name"].split("/", 1)
    times.setdefault(name, {})[engine] = run["cpu_time"] * UNIT_US[run["time_unit"]]
for family in ("chain", "digits"):
    pairs = [(t["Idxmap"], t["IslPath"]) for name, t in times.items()
             if name.rstrip("0123456789") == family and "Idxmap" in t and "IslPath" in t]
    if not pairs:
        continue
    idx = [a for a, _ in pairs]
    isl = [b for _, b in pairs]
    ratios = sorted(b / a for a, b in pairs)
    print(f"{family}: maps timed: {len(pairs)} (parse + simplify + print, CPU time per map)")
    print(f"  idxmap: mean {statistics.mean(idx):9.1f} µs   median {statistics.median(idx):9.1f} µs")
    print(f"  isl:    mean {statistics.mean(isl):9.1f} µs   median {statistics.median(isl):9.1f} µs")
    print(f"  isl / idxmap: of the means {statistics.mean(isl) / statistics.mean(idx):.0f}x, "
          f"of the medians {statistics.median(isl) / statistics.median(idx):.0f}x, "
          f"per map median {statistics.median(ratios):.0f}x, worst {ratios[0]:.1f}x")
PY
