// How many cases a test that takes seconds runs (issue 30): CI runs a sample, drawn fresh each
// run, so that over many runs it still covers the whole space; IDXMAP_TEST_FULL=1
// (scripts/test-full.sh) runs the full count. The seed is random unless IDXMAP_TEST_SEED sets
// it, and every sample prints one line,
//   [ sample ] RandomKernels: 60 of 600 cases, seed 1234567 (IDXMAP_TEST_SEED=1234567 replays it)
// which scripts/test.sh collects, so a failure in CI can be replayed exactly.
// IDXMAP_TEST_SAMPLE_DIVIDE=N runs a sample N times smaller (at least one case): the sanitizer
// tree checks the library's memory on the same code paths with fewer cases, drawn with the
// same seed (a corpus's smaller sample is among its larger one's records).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace idxmap::sampling {

inline bool fullTestCounts() {
  const char* full = std::getenv("IDXMAP_TEST_FULL");
  return full && *full && std::string(full) != "0";
}

// The seed of this run's samples: IDXMAP_TEST_SEED, or drawn once per process.
inline uint32_t sampleSeed() {
  static const uint32_t seed = [] {
    if (const char* text = std::getenv("IDXMAP_TEST_SEED"); text && *text)
      return static_cast<uint32_t>(std::strtoul(text, nullptr, 10));
    return std::random_device{}();
  }();
  return seed;
}

struct Sample {
  size_t count = 0;   // how many cases to run
  uint32_t seed = 0;  // what to draw them with
};

// How many times smaller than its CI count a sample is: IDXMAP_TEST_SAMPLE_DIVIDE, else 1.
inline size_t sampleDivisor() {
  const char* text = std::getenv("IDXMAP_TEST_SAMPLE_DIVIDE");
  if (!text || !*text) return 1;
  return std::max<size_t>(1, std::strtoul(text, nullptr, 10));
}

// `full` cases in full runs, `ci` (at most `full`, divided by sampleDivisor()) otherwise;
// `what` names the test in the printed line.
inline Sample sampleOf(const std::string& what, size_t full, size_t ci) {
  const size_t ciCount = std::min(ci, full);  // at least one case, when there is one
  const size_t sampled = ciCount == 0 ? 0 : std::max<size_t>(1, ciCount / sampleDivisor());
  Sample sample{fullTestCounts() ? full : sampled, sampleSeed()};
  std::printf("[ sample ] %s: %zu of %zu cases, seed %u (IDXMAP_TEST_SEED=%u replays it)\n",
              what.c_str(), sample.count, full, sample.seed, sample.seed);
  std::fflush(stdout);
  return sample;
}

// Which of `total` fixed cases (records of a corpus) a sample runs: `sample.count` of them,
// drawn with the sample's seed, in their original order.
inline std::vector<size_t> sampledPositions(size_t total, const Sample& sample) {
  std::vector<size_t> positions(total);
  std::iota(positions.begin(), positions.end(), size_t{0});
  if (sample.count >= total) return positions;
  std::mt19937 rng(sample.seed);
  std::shuffle(positions.begin(), positions.end(), rng);
  positions.resize(sample.count);
  std::sort(positions.begin(), positions.end());
  return positions;
}

// A floor for how often a choice is reached in a sample of `count` of `full` cases, given as
// `ofFull` of the full count: scaled to the sample and quartered, so that a fresh sample's spread
// stays above it. Where that leaves no count to expect there is no floor (-1): a small sample
// misses by chance a choice the full corpus reaches only a few times (seed 68213580 drew no
// kernel split by a runtime value in 53 cases; seed 3363521884 one in 160, where the full 600
// have 19 and a halved floor asked for 2: about one sample in 25 failed it).
inline int scaledFloor(int ofFull, size_t count, size_t full) {
  int floor = static_cast<int>(static_cast<size_t>(ofFull) * count / full / 4);
  return floor > 0 ? floor : -1;
}

}  // namespace idxmap::sampling
