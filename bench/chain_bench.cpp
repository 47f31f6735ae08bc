// simplify() against isl's path on random chains of reshape / transpose / reverse / slice /
// broadcast (tests/support/op_chains.h), the maps issue 13 is about: sizes first (the share of
// chains whose output is no larger than isl's, and the worst ones), then per-map timings of
// the whole job a user runs (parse the text, simplify, print) for both, so mean and median
// ratios come from the same run. The same for 400 sums of the digits of one base, written as
// reshapes, bitcasts and strided slices leave them (tests/support/digit_families.h, issue 33's
// digit families; benchmarks named digits<N>). --sizes_only prints the size reports and stops.
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
#include "tests/support/digit_families.h"
#include "tests/support/op_chains.h"

namespace idxmap::bench {
namespace {

constexpr int kChains = 400;

struct Case {
  std::string name;  // chain<N> or digits<N>
  std::string what;  // the chain's ops, or the digits' forms
  IndexingMap map;
  std::string text;  // the unsimplified map, as a user would hand it over
  int inNodes = 0, idxmapNodes = 0;
  std::optional<int> islNodes;  // nullopt: isl gives no single piece
  std::string idxmapText, islText;
};

Case measured(std::string name, std::string what, IndexingMap map) {
  Case c{std::move(name), std::move(what), std::move(map), "", 0, 0, std::nullopt, "", ""};
  c.text = printIndexingMap(c.map);
  c.inNodes = mapNodes(c.map);
  IndexingMap simplified = simplify(c.map);
  c.idxmapNodes = mapNodes(simplified);
  c.idxmapText = printIndexingMap(simplified);
  if (std::optional<IndexingMap> isl = simplifyWithIsl(c.map)) {
    c.islNodes = mapNodes(*isl);
    c.islText = printIndexingMap(*isl);
  }
  return c;
}

std::vector<Case> makeChains() {
  std::vector<Case> cases;
  for (int i = 0; i < kChains; ++i) {
    testing::OpChainGenerator generator(static_cast<uint64_t>(i) * 7919 + 13);
    testing::OpChain chain = generator.chain(1 + i % 8, 65536);
    cases.push_back(measured("chain" + std::to_string(i), chain.ops, chain.map));
  }
  return cases;
}

std::vector<Case> makeDigitFamilies() {
  std::vector<Case> cases;
  testing::DigitFamilyGenerator generator(2026);
  for (int i = 0; i < kChains; ++i) {
    testing::DigitFamily family = generator.next();
    cases.push_back(measured("digits" + std::to_string(i), family.forms, family.map));
  }
  return cases;
}

void reportSizes(const char* kind, const std::vector<Case>& cases) {
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
  std::cout << kind << ": " << cases.size() << ", isl gives one piece for " << compared
            << "; idxmap no larger than isl on " << noLarger << " ("
            << (compared ? 100.0 * noLarger / compared : 0.0) << "%), smaller on " << smaller
            << "\n";
  for (size_t i = 0; i < worst.size() && i < 8; ++i) {
    const Case& c = *worst[i];
    std::cout << "larger: " << c.what << "  (" << c.idxmapNodes << " vs " << *c.islNodes
              << " nodes)\n  idxmap: " << c.idxmapText << "\n  isl:    " << c.islText << "\n";
  }
}

}  // namespace
}  // namespace idxmap::bench

int main(int argc, char** argv) {
  using namespace idxmap;
  using namespace idxmap::bench;
  static std::vector<Case> cases = makeChains();
  std::vector<Case> digits = makeDigitFamilies();
  reportSizes("chains", cases);
  reportSizes("digit families", digits);
  cases.insert(cases.end(), digits.begin(), digits.end());
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--sizes_only") == 0) return 0;
  for (const Case& c : cases) {
    const std::string& text = c.text;
    benchmark::RegisterBenchmark(("Idxmap/" + c.name).c_str(), [&text](benchmark::State& state) {
      for (auto _ : state)
        benchmark::DoNotOptimize(printIndexingMap(simplify(parseIndexingMap(text))));
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("IslPath/" + c.name).c_str(), [&text](benchmark::State& state) {
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
