// The benchmark corpus: spec 004's simplifier examples, the reshape round trip it
// describes, and the generated families of bench/generators.h at ranks 1-8.
#pragma once

#include <string>
#include <vector>

#include "core/indexing_map.h"

namespace idxmap::bench {

struct CorpusEntry {
  std::string name;  // the benchmark suffix: Simplify/<name>, IslPath/<name>
  IndexingMap map;
};

std::vector<CorpusEntry> buildCorpus();

// Expression nodes of results and constraints (Expr::size), the measure the simplifier
// minimizes and the conformance test compares.
int mapNodes(const IndexingMap& map);

}  // namespace idxmap::bench
