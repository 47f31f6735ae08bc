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
#include <utility>
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

// [lo, hi] of an integer element type as MLIR writes it ("i32", "si8", "ui16"): what run-time
// index values of that type can be. The whole of int64 for 64-bit types (no bound beyond what
// checked arithmetic keeps); nullopt for any other type ("index", "f32").
std::optional<std::pair<int64_t, int64_t>> integerTypeRange(const std::string& elementType);

// The range every entry lies in by the facts: the meet of their `in [lo, hi]`, and of
// [0, points - 1] for `permutation` when `points` (the number of index vectors) is given;
// nullopt when no fact bounds the entries.
std::optional<std::pair<int64_t, int64_t>> entryRange(const std::vector<IndexFact>& facts,
                                                      std::optional<int64_t> points);

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
