// simplify() against isl's own simplification path (simplifyWithIsl), map by map, in the
// same run: the isl path is the anchor the timings are read against (DESIGN.md, bench/).
// Before timing, every output is checked to be no larger than isl's wherever isl finds a
// single quasi-affine piece, and with --check_equal also equal in meaning to its input
// (isl; off by default because it costs about 20 s on the rank 7-8 maps, and the
// simplifier's own tests already compare meanings). Exceptions are warnings on stderr, not
// failures, so a regression still gets measured.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "bench/corpus.h"
#include "bench/generators.h"
#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "simplifier/simplify.h"

namespace idxmap::bench {
namespace {

struct Outputs {
  std::optional<IndexingMap> idxmap;  // nullopt: simplify threw
  std::optional<IndexingMap> isl;     // nullopt: not a single piece, or isl gave up
};

std::string oneLine(const IndexingMap& map) {
  std::string text = printIndexingMap(map);
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

void warn(const CorpusEntry& entry, const std::string& problem, const Outputs& out) {
  std::cerr << "warning: " << entry.name << ": " << problem << "\n  input:  " << oneLine(entry.map)
            << "\n";
  if (out.idxmap) std::cerr << "  idxmap: " << oneLine(*out.idxmap) << "\n";
  if (out.isl) std::cerr << "  isl:    " << oneLine(*out.isl) << "\n";
}

Outputs check(const CorpusEntry& entry, bool checkEqual) {
  Outputs out;
  try {
    out.idxmap = simplify(entry.map);
  } catch (const std::exception& e) {
    warn(entry, std::string("simplify threw: ") + e.what(), out);
  }
  out.isl = simplifyWithIsl(entry.map);
  if (!out.idxmap) return out;
  if (checkEqual && islEqual(entry.map, *out.idxmap).isRefuted())
    warn(entry, "simplify changed the meaning", out);
  if (out.isl && mapNodes(*out.idxmap) > mapNodes(*out.isl))
    warn(entry,
         "idxmap output has " + std::to_string(mapNodes(*out.idxmap)) + " nodes, isl's " +
             std::to_string(mapNodes(*out.isl)),
         out);
  return out;
}

void setSizeCounters(benchmark::State& state, const IndexingMap& in, const Outputs& out) {
  state.counters["in_nodes"] = mapNodes(in);
  if (out.idxmap) state.counters["out_nodes"] = mapNodes(*out.idxmap);
  if (out.isl) state.counters["isl_nodes"] = mapNodes(*out.isl);
}

// Whether --benchmark_filter selects `name`, read the way Google Benchmark reads it, so a
// filtered run checks (and pays isl for) only the maps it times.
bool selected(const std::string& name) {
  std::string filter = benchmark::GetBenchmarkFilter();
  if (filter.empty() || filter == "all") return true;
  bool negative = filter[0] == '-';
  if (negative) filter.erase(0, 1);
  return std::regex_search(name, std::regex(filter, std::regex::extended)) != negative;
}

void registerCorpus(const std::vector<CorpusEntry>& corpus, bool checkEqual) {
  for (const CorpusEntry& entry : corpus) {
    if (!selected("Simplify/" + entry.name) && !selected("IslPath/" + entry.name)) continue;
    Outputs out = check(entry, checkEqual);
    const IndexingMap* map = &entry.map;  // the corpus outlives the run
    if (out.idxmap)
      benchmark::RegisterBenchmark(("Simplify/" + entry.name).c_str(),
                                   [map, out](benchmark::State& state) {
                                     for (auto _ : state) benchmark::DoNotOptimize(simplify(*map));
                                     setSizeCounters(state, *map, out);
                                   })
          ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("IslPath/" + entry.name).c_str(), [map,
                                                                     out](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(simplifyWithIsl(*map));
      setSizeCounters(state, *map, out);
    })->Unit(benchmark::kMicrosecond);
  }
}

// Growth: N is the rank (reshape) or the input's node count (lin_delin, rank 1 with a
// longer chain of digits), so the complexity fit reads against what grows. The isl path's
// growth by rank is IslPath/reshape_r1..8 of the corpus: timing those maps twice would
// double the run's longest benchmarks (up to a second per call at rank 7-8).
template <bool kIsl>
void timeOne(benchmark::State& state, const IndexingMap& map) {
  for (auto _ : state) {
    if constexpr (kIsl)
      benchmark::DoNotOptimize(simplifyWithIsl(map));
    else
      benchmark::DoNotOptimize(simplify(map));
  }
  state.counters["in_nodes"] = mapNodes(map);
}

void byRank(benchmark::State& state) {
  IndexingMap map = reshape(static_cast<int>(state.range(0)), /*aligned=*/false);
  timeOne<false>(state, map);
  state.SetComplexityN(state.range(0));
}

template <bool kIsl>
void bySize(benchmark::State& state) {
  IndexingMap map = linearizeDelinearize(static_cast<int>(state.range(0)));
  timeOne<kIsl>(state, map);
  state.SetComplexityN(mapNodes(map));
}

void registerGrowth() {
  auto grow = [](benchmark::internal::Benchmark* b) {
    b->DenseRange(1, 8)->Complexity(benchmark::oAuto)->Unit(benchmark::kMicrosecond);
  };
  grow(benchmark::RegisterBenchmark("SimplifyByRank/reshape", byRank));
  grow(benchmark::RegisterBenchmark("SimplifyBySize/lin_delin", bySize<false>));
  grow(benchmark::RegisterBenchmark("IslBySize/lin_delin", bySize<true>));
}

// Removes `flag` from argv; Google Benchmark has already taken its own flags out.
bool takeFlag(int& argc, char** argv, std::string_view flag) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != flag) continue;
    std::copy(argv + i + 1, argv + argc, argv + i);
    --argc;
    return true;
  }
  return false;
}

}  // namespace
}  // namespace idxmap::bench

int main(int argc, char** argv) {
  using namespace idxmap::bench;
  benchmark::Initialize(&argc, argv);
  bool checkEqual = takeFlag(argc, argv, "--check_equal");
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  static const std::vector<CorpusEntry> corpus = buildCorpus();
  registerCorpus(corpus, checkEqual);
  registerGrowth();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
