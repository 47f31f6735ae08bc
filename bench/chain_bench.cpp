// simplify() against isl's path on random chains of reshape / transpose / reverse / slice /
// broadcast (tests/support/op_chains.h), the maps issue 13 is about: sizes first (the share of
// chains whose output is no larger than isl's, and the worst ones), then per-map timings of
// the whole job a user runs (parse the text, simplify, print) for both, so mean and median
// ratios come from the same run. --sizes_only prints the size report and stops.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench/corpus.h"
#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "simplifier/simplify.h"
#include "tests/support/op_chains.h"

namespace idxmap::bench {
namespace {

constexpr int kChains = 400;

struct Case {
  testing::OpChain chain;
  std::string text;  // the unsimplified map, as a user would hand it over
  int inNodes = 0, idxmapNodes = 0;
  std::optional<int> islNodes;  // nullopt: isl gives no single piece
  std::string idxmapText, islText;
};

std::vector<Case> makeCases() {
  std::vector<Case> cases;
  for (int i = 0; i < kChains; ++i) {
    testing::OpChainGenerator generator(static_cast<uint64_t>(i) * 7919 + 13);
    Case c{generator.chain(1 + i % 8, 65536), "", 0, 0, std::nullopt, "", ""};
    c.text = printIndexingMap(c.chain.map);
    c.inNodes = mapNodes(c.chain.map);
    IndexingMap simplified = simplify(c.chain.map);
    c.idxmapNodes = mapNodes(simplified);
    c.idxmapText = printIndexingMap(simplified);
    if (std::optional<IndexingMap> isl = simplifyWithIsl(c.chain.map)) {
      c.islNodes = mapNodes(*isl);
      c.islText = printIndexingMap(*isl);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

void reportSizes(const std::vector<Case>& cases) {
  int compared = 0, noLarger = 0, smaller = 0;
  std::vector<const Case*> worst;
  for (const Case& c : cases) {
    if (!c.islNodes) continue;
    ++compared;
    noLarger += c.idxmapNodes <= *c.islNodes;
    smaller += c.idxmapNodes < *c.islNodes;
    if (c.idxmapNodes > *c.islNodes) worst.push_back(&c);
  }
  std::sort(worst.begin(), worst.end(), [](const Case* a, const Case* b) {
    return a->idxmapNodes * *b->islNodes > b->idxmapNodes * *a->islNodes;
  });
  std::cout << "chains: " << cases.size() << ", isl gives one piece for " << compared
            << "; idxmap no larger than isl on " << noLarger << " ("
            << (compared ? 100.0 * noLarger / compared : 0.0) << "%), smaller on " << smaller
            << "\n";
  for (size_t i = 0; i < worst.size() && i < 8; ++i) {
    const Case& c = *worst[i];
    std::cout << "larger: " << c.chain.ops << "  (" << c.idxmapNodes << " vs " << *c.islNodes
              << " nodes)\n  idxmap: " << c.idxmapText << "\n  isl:    " << c.islText << "\n";
  }
}

}  // namespace
}  // namespace idxmap::bench

int main(int argc, char** argv) {
  using namespace idxmap;
  using namespace idxmap::bench;
  static std::vector<Case> cases = makeCases();
  reportSizes(cases);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--sizes_only") == 0) return 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string& text = cases[i].text;
    const std::string name = "chain" + std::to_string(i);
    benchmark::RegisterBenchmark(("Idxmap/" + name).c_str(), [&text](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(printIndexingMap(simplify(parseIndexingMap(text))));
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("IslPath/" + name).c_str(), [&text](benchmark::State& state) {
      for (auto _ : state) {
        std::optional<IndexingMap> out = simplifyWithIsl(parseIndexingMap(text));
        benchmark::DoNotOptimize(out ? printIndexingMap(*out) : std::string());
      }
    })->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
