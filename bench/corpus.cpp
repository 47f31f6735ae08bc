#include "bench/corpus.h"

#include "bench/generators.h"
#include "core/text.h"

namespace idxmap::bench {
namespace {

// Spec 004, "Indexing Map Simplifier", examples 1-4, as tests/simplifier/simplify_test.cpp
// writes them.
const char* const kSpec004[] = {
    "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]",
    "(d0, d1, d2) -> ((100 * d0 + 10 * d1 + d2) floordiv 100,"
    " ((100 * d0 + 10 * d1 + d2) mod 100) floordiv 10, d2 mod 10),"
    " domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
    "(d0, d1, d2) -> ((16 * d0 + 4 * d1 + d2) floordiv 8, (16 * d0 + 4 * d1 + d2) mod 8),"
    " domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
    "(d0, d1) -> (-((-11 * d0 - d1 + 109) floordiv 11) + 9),"
    " domain: d0 in [0, 9], d1 in [0, 10]",
};

// reshape f32[10,10,10] -> [50,20] -> [10,10,10], composed but not simplified: what the
// simplifier sees when it proves the two reshapes cancel.
IndexingMap reshapeRoundTrip() {
  IndexingMap toRank3 = parseIndexingMap(
      "(d0, d1) -> ((d0 * 20 + d1) floordiv 100, ((d0 * 20 + d1) floordiv 10) mod 10,"
      " (d0 * 20 + d1) mod 10), domain: d0 in [0, 49], d1 in [0, 19]");
  IndexingMap toRank2 = parseIndexingMap(
      "(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 20,"
      " (d0 * 100 + d1 * 10 + d2) mod 20), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]");
  return compose(toRank2, toRank3);
}

}  // namespace

std::vector<CorpusEntry> buildCorpus() {
  std::vector<CorpusEntry> corpus;
  int example = 1;
  for (const char* text : kSpec004)
    corpus.push_back({"spec004_ex" + std::to_string(example++), parseIndexingMap(text)});
  corpus.push_back({"reshape_roundtrip", reshapeRoundTrip()});
  for (int rank = 1; rank <= 8; ++rank) {
    const std::string r = "_r" + std::to_string(rank);
    corpus.push_back({"delin_lin" + r, delinearizeLinearize(rank)});
    corpus.push_back({"lin_delin_k" + std::to_string(rank), linearizeDelinearize(rank)});
    corpus.push_back({"reshape" + r, reshape(rank, /*aligned=*/false)});
    corpus.push_back({"reshape_aligned" + r, reshape(rank, /*aligned=*/true)});
    corpus.push_back({"tiling" + r, tiling(rank)});
    corpus.push_back({"gpu_tiling" + r, gpuTiling(rank)});
  }
  return corpus;
}

int mapNodes(const IndexingMap& map) {
  int nodes = 0;
  for (Expr e : map.results) nodes += e.size();
  for (const Constraint& c : map.constraints) nodes += c.expr.size();
  return nodes;
}

}  // namespace idxmap::bench
