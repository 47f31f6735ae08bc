#!/usr/bin/env python3
"""Summarizes simplify_bench's JSON: per-map median CPU time of simplify vs the isl path,
their ratio, the medians over the corpus, and the growth families."""
import json
import statistics
import sys

UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def medians(path):
    """name -> (median CPU µs, counters) for every benchmark's median aggregate."""
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    out = {}
    for run in runs:
        if run.get("aggregate_name") != "median":
            continue
        counters = {k: run[k] for k in ("in_nodes", "out_nodes", "isl_nodes") if k in run}
        out[run["run_name"]] = (run["cpu_time"] * UNIT_US[run["time_unit"]], counters)
    return out


def nodes(counters, key):
    return str(int(counters[key])) if key in counters else "-"


def corpus_table(runs):
    maps = [name.split("/", 1)[1] for name in runs if name.startswith("Simplify/")]
    print(f"{'map':<22}{'in':>5}{'idx':>5}{'isl':>5}{'idxmap µs':>12}{'isl µs':>12}{'ratio':>9}")
    idx_times, isl_times, ratios, larger = [], [], [], []
    for m in maps:
        idx, counters = runs[f"Simplify/{m}"]
        isl = runs.get(f"IslPath/{m}", (None,))[0]
        ratio = isl / idx if isl else None
        idx_times.append(idx)
        if isl:
            isl_times.append(isl)
            ratios.append(ratio)
        if "isl_nodes" in counters and counters["out_nodes"] > counters["isl_nodes"]:
            larger.append(m)
        print(f"{m:<22}{nodes(counters, 'in_nodes'):>5}{nodes(counters, 'out_nodes'):>5}"
              f"{nodes(counters, 'isl_nodes'):>5}{idx:>12.2f}"
              f"{isl if isl else float('nan'):>12.1f}{ratio if ratio else float('nan'):>8.0f}x")
    print(f"\n{len(maps)} maps. Median over the corpus: simplify "
          f"{statistics.median(idx_times):.2f} µs, isl path {statistics.median(isl_times):.1f} µs"
          f" (ratio of medians {statistics.median(isl_times) / statistics.median(idx_times):.0f}x,"
          f" median per-map ratio {statistics.median(ratios):.0f}x, slowest per-map ratio"
          f" {min(ratios):.1f}x)")
    print("idxmap output larger than isl's on: " + (", ".join(larger) if larger else "none"))


def growth_table(runs, family, label, isl_name):
    """isl_name(arg): the isl benchmark timing the same map."""
    rows = sorted((int(n.rsplit("/", 1)[1]), n) for n in runs
                  if n.startswith(f"Simplify{family}/"))
    if not rows:
        return
    print(f"\n{label:<6}{'in':>5}{'idxmap µs':>12}{'isl µs':>12}")
    for arg, name in rows:
        idx, counters = runs[name]
        isl = runs.get(isl_name(arg), (float("nan"),))[0]
        print(f"{arg:<6}{nodes(counters, 'in_nodes'):>5}{idx:>12.2f}{isl:>12.1f}")


def main():
    runs = medians(sys.argv[1])
    corpus_table(runs)
    # The corpus's reshape_r<k> is the map SimplifyByRank/reshape/<k> times.
    growth_table(runs, "ByRank/reshape", "rank", lambda k: f"IslPath/reshape_r{k}")
    growth_table(runs, "BySize/lin_delin", "levels", lambda k: f"IslBySize/lin_delin/{k}")
    with open(sys.argv[1]) as f:
        for run in json.load(f)["benchmarks"]:
            if run.get("aggregate_name") == "BigO":
                coefficient = run["cpu_coefficient"] * UNIT_US[run["time_unit"]]
                print(f"{run['name']}: {coefficient:.3g} µs * {run['big_o']} (CPU)")


if __name__ == "__main__":
    main()
