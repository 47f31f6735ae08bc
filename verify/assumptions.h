// Facts the user asserts about index values (`idxmap verify --assume '%arg2: unique'`), and the
// isl sets the index provers meet their violation sets with (verify/index_conditions.h).
//
// A fact is about the index vectors an op reads from the value, at the points p of the index
// tensor without its index vector dim:
//   unique         no two points hold the same vector;
//   sorted         vectors are lexicographically non-decreasing in row-major order of p;
//   in [lo, hi]    every entry of every vector lies in [lo, hi];
//   permutation    unique, and every entry lies in [0, n - 1] for n points (with one entry
//                  per vector: the values are a permutation of 0 .. n-1).
// Facts name the value as the text writes it (`%arg2`, `%5`), in every function.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/text.h"

namespace idxmap {

struct IndexFact {
  enum class Kind { Unique, Sorted, InRange, Permutation };
  Kind kind = Kind::Unique;
  int64_t lo = 0, hi = 0;  // InRange
  std::string text;        // as written: "in [0, 7]"
};

struct Assumption {
  std::string value;  // without the '%'
  std::vector<IndexFact> facts;
  std::string text;  // "%arg2: unique, in [0, 7]"
};

// Each argument is `%value: fact[, fact]...`; argument n is located at `--assume:n:col`.
// Throws ParseError on malformed text, an inverted range or a value that does not fit int64.
std::vector<Assumption> parseAssumptions(const std::vector<std::string>& arguments);

// The facts about one op's index vectors as a set over the points of the index conditions:
// [p, x, q, y] when `pairwise`, [p, x] otherwise. `pointShape`: the index tensor's shape
// without the index vector dim; `entries`: the vector length. With `blockEntries` set, the
// facts are about entries [firstEntry, firstEntry + blockEntries) of each vector only (the
// index vectors are a concatenation along the vector dim, and the facts name one operand).
isl::set factsSet(const std::vector<IndexFact>& facts, const std::vector<int64_t>& pointShape,
                  size_t entries, bool pairwise, size_t firstEntry = 0,
                  std::optional<size_t> blockEntries = std::nullopt);

}  // namespace idxmap
