// Inside the value analysis: isl relations written as text ({ [p0, p1] -> [v] : ... }), leaves
// as parameters, the "not represented" answer, and the limits every traced value must meet.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ops/mlir/module.h"
#include "ops/provenance/index_values.h"

namespace idxmap::index_provenance {

std::string join(const std::vector<std::string>& parts, const std::string& separator);
// `p3`: the name of variable i of a tuple.
std::string var(char prefix, size_t i);
// `[p0, p1, p2]`.
std::string tuple(char prefix, size_t rank);
// "0 <= p0 <= 2", ... for every axis of `shape`; a `?` (kDynamic) axis up to the largest
// size, INT64_MAX (whoever knows its size bounds it further).
std::vector<std::string> box(char prefix, const std::vector<int64_t>& shape);
std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b);
// The `?` (kDynamic) dims of `shape`, in order.
std::vector<size_t> dynamicDims(const std::vector<int64_t>& shape);

// Parsed once per thread (the texts repeat); throws Error for a text isl does not read.
isl::map readMap(const std::string& text);
isl::set readSet(const std::string& text);
// `{ [in] -> [out] : conditions }`.
isl::map relation(const std::string& in, const std::string& out,
                  const std::vector<std::string>& conditions);
isl::map applyRange(const isl::map& map, const isl::map& function);
// The union of maps with disjoint domains (a constant's points).
isl::map disjointUnion(const std::vector<isl::map>& maps, size_t begin, size_t end);
// { [p] -> [values[p]] } for the row-major `values` of a tensor of `shape`: one piece per
// element, built with isl's constraints rather than parsed (parsing is most of the cost).
isl::map pointTable(const std::vector<int64_t>& shape, const std::vector<int64_t>& values);
// "3 + 2 * p1" when the values are an affine function of the position (checked at every
// element, with checked arithmetic); nullopt otherwise.
std::optional<std::string> affineValue(const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& values);
int pieces(const isl::map& map);

// Values the analysis does not represent (no relation), and why.
IndexValues unknown(const std::vector<int64_t>& shape, std::string reason);

// The values an element type holds, as int64 (ui64 up to 2^63 - 1: larger values are not
// modeled); nullopt for non-integer types.
std::optional<std::pair<int64_t, int64_t>> valueRange(const mlir_ir::ElementType& type);

// "l3": the parameter that stands for leaf 3.
std::string leafParameter(size_t leaf);
// The leaf a parameter stands for.
size_t leafOfParameter(const std::string& name);
// The map with its parameters renamed: `renames[k]` is the new leaf of parameter "l<k>";
// parameters renamed to one leaf are equated (they read one element).
isl::map renamedLeaves(isl::map map, const std::vector<std::pair<size_t, size_t>>& renames);
// Points whose value no leaf changes, with that value: { [p] -> [v] } without parameters.
// Exact on the pieces that name no leaf (where the leaves lie in their ranges); a point
// where pieces split on leaves yet give one value is left out.
isl::map knownPart(const isl::map& symbolic, const std::vector<Leaf>& leaves);
// { [p] -> [a, b] }: both values where both are known; nullopt when the pairing would cost
// too much.
std::optional<isl::map> paired(const isl::map& a, const isl::map& b);
// Coalesces and checks the limits every op's result must meet (pieces, values that fit the
// element type). A table of values (a piece per element, more than a few) is not coalesced:
// its pieces rarely merge, and isl's coalescing is quadratic in them.
IndexValues finish(IndexValues values, const mlir_ir::ElementType& elementType);

}  // namespace idxmap::index_provenance
