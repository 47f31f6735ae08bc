#!/usr/bin/env bash
# Builds kernel_bench (Release, build-gbench/) and runs it in about three minutes, then prints
# one line per case and thread count: the median real time, GB/s, and the ratio of each anchor's
# time to the kernel's (above 1: the kernel is faster). Kernels compile on the first run (JIT,
# cached by content in $IDXMAP_CACHE_DIR or ~/.cache/idxmap).
# Extra arguments go to the benchmark, e.g. bench/kernel_run.sh --benchmark_filter=RowGather.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-gbench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDXMAP_BUILD_TESTS=OFF >/dev/null
ninja -C "$build" -j2 kernel_bench
json="$build/kernel_bench.json"
"$build/bench/kernel_bench" --benchmark_repetitions=3 --benchmark_min_time=0.2 \
  --benchmark_report_aggregates_only=true --benchmark_out="$json" \
  --benchmark_out_format=json "$@" >/dev/null
python3 - "$json" <<'PY'
import json, sys

median = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median" or b.get("error_occurred"):
        continue
    name = b["run_name"].replace("/real_time", "")
    median[name] = b

def row(name, anchors):
    if name not in median:
        return
    b = median[name]
    line = f"{name:38s} {b['real_time']:8.3f} ms {b['bytes_per_second'] / 1e9:7.2f} GB/s"
    threads = name.split("/")[1]
    for anchor in anchors:
        key = f"{anchor}/{threads}"
        if key in median:
            line += f"   {anchor.replace('BM_', '')}: {median[key]['real_time'] / b['real_time']:.2f}x"
    print(line)

for t in ("1", "2"):
    row(f"BM_RowGather256/{t}", ["BM_RowGather256_Torch", "BM_RowGather256_Clamped", "BM_RowGather256_Int64"])
    row(f"BM_RowGather4K/{t}", ["BM_RowGather4K_Torch"])
    row(f"BM_ElementGather/{t}/0", ["BM_ElementGather_Torch", "BM_RandomRead"])
    row(f"BM_ElementGather/{t}/1", ["BM_ElementGather_Torch"])
    row(f"BM_BatchedGather/{t}/0", ["BM_BatchedGather_Torch"])
    row(f"BM_BatchedGather/{t}/1", ["BM_BatchedGather_Torch"])
    row(f"BM_UniqueScatter/{t}", ["BM_UniqueScatter_Torch"])
    row(f"BM_SortedScatterAdd/{t}", ["BM_SortedScatterAdd_Torch"])
    row(f"BM_UnsortedScatterAdd/{t}", ["BM_UnsortedScatterAdd_Torch", "BM_UnsortedScatterAdd_TorchIndexPut"])
    row(f"BM_SmallRowGather/{t}", ["BM_SmallRowGather_MapEvaluator"])
    row(f"BM_Memcpy16MB/{t}", [])
print("(ratios: anchor time / kernel time; /0 int32 kernels, /1 their int64 twins)")
PY
