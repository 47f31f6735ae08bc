// The value analysis (issue 31): the value of every element of an integer or predicate tensor
// of a program, as an exact piecewise quasi-affine isl relation
//   { [point of the tensor] -> [value] }
// whose parameters are *leaves*: elements of tensors the analysis does not see into (the
// function's arguments, results of ops it does not model, values the user makes assumptions
// about), each with the range its type (or an assumption) allows. Parameter "l<i>" stands for
// leaves[i]'s element read at the point. Ops are followed through constants, iotas, movement
// (broadcast_in_dim, reshape, transpose, slice, reverse, pad, concatenate), integer
// arithmetic (add, subtract, multiply by a constant, negate, abs, min, max, clamp, divide and
// remainder by a constant with C truncation, shifts by a constant), converts (wrapping exactly
// where they can wrap: every arithmetic result wraps as its type does), compare, select,
// and / or / not of predicates, func.call into the module's functions, and ops that pick among
// values (argsort, top_k's indices, argmax / argmin reduces: leaves with the range the op
// guarantees).
//
// Where the value is known (no leaf changes it) it is also given without parameters: `known`,
// what index folding (fold.h) composes into an op's map, exactly as before. A value the
// analysis cannot represent (floats, a shape with `?` unless the caller follows them, isl past
// its limits) has no relation and says why.
#pragma once

#include <isl/cpp.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::index_provenance {

// One element of a tensor the analysis does not see into, read at each point of a value.
struct Leaf {
  std::string tensor;       // as the text writes it: "%arg0", "%3", "%2#1"
  std::string elementType;  // "i32"
  std::vector<int64_t> tensorShape;
  isl::map access;                    // { [p] -> [a] }: the element of `tensor` read at point p
  std::pair<int64_t, int64_t> range;  // what the element can be (its type's, or assumed)
  std::string why;                    // "an argument", "stablehlo.dot is not followed"
  bool distinct = false;  // no two elements of the tensor are equal (argsort's, top_k's)
};

// What the analysis is told beyond the ops: the module (for func.call), and the values the
// user makes assumptions about (verify/assumptions.h), by name without '%': such a value is a
// leaf, in the range assumed.
struct ValueContext {
  const mlir_ir::Module* module = nullptr;
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> assumed;
  // The op of the scope that reads the value, when the caller knows it: definitions are
  // looked up backwards from there (exported programs define a value just before its use),
  // so a long scope is not scanned from its start for every value.
  const mlir_ir::Operation* user = nullptr;
  // Tensors with `?` dims are followed too (for a caller that decides for every size,
  // verify/symbolic_sizes): a point's coordinate along a `?` dim is bounded by the largest size
  // only, INT64_MAX (the caller bounds it by its sizes). A `?` size that values depend on
  // (get_dimension_size, a reverse or pad along the dim) is a size leaf (Leaf::sizeOf); ops
  // whose values would need sizes in other ways (a reshape that moves `?` dims other than as
  // a whole or the first, a concatenation along one, a broadcast that may or may not stretch
  // it, sort) are leaves with the reason. Off: such values are not represented.
  bool followDynamicShapes = false;
};

inline constexpr int64_t kMaxConstantElements = 4096;
inline constexpr int64_t kMaxPieces = 4096;
// Unions of more pieces are not coalesced: isl's coalescing is quadratic in the pieces.
inline constexpr int64_t kMaxCoalescedPieces = 256;
// A table of values (one piece per element, a constant's) is coalesced only up to this many:
// its pieces rarely merge (an affine constant is written as one piece in the first place).
inline constexpr int64_t kMaxTablePiecesCoalesced = 16;
// Ops followed back from the indices before giving up (long chains cost isl time).
inline constexpr int kMaxDepth = 64;

struct IndexValues {
  std::vector<int64_t> shape;
  // { [p0, ..., p_{r-1}] -> [v] } on the points whose value is known (no parameters).
  isl::map known;
  // How the values were obtained ("select(compare(%arg1, 0), add(%arg1, 10), %arg1)"), or
  // why they are not represented.
  std::string provenance;
  // Known at every point by construction (a constant, an iota, ops of such): lets the
  // folding skip a subset test that costs isl quadratic time on a union of many points.
  bool complete = false;
  // Every point's value, parameters l<i> for leaves[i]; none when the values are not
  // represented (provenance says why).
  std::optional<isl::map> symbolic;
  std::vector<Leaf> leaves;
  // Parameter "z<i>" is the size of the `?` dims sizes[i] lists (value name as the text writes
  // it, dim), which the program's shape rules make one number: get_dimension_size reads it,
  // and a reverse or pad along a `?` dim reads through it (a leaf's access may name it too).
  // verify/symbolic_sizes ties each to its own size of the same dims.
  std::vector<std::vector<std::pair<std::string, size_t>>> sizes;
  // What the program's shapes say of them, as isl constraints over z<i> ("z2 = 2 + z0": a
  // concatenation's size is its parts'); the index tensor's own `?` dims are among the sizes.
  std::vector<std::string> sizeFacts;
  bool anyKnown() const;
  bool allKnown() const;  // every point of the shape has its value
  bool represented() const { return symbolic.has_value(); }
};

// A tensor's values given element by element (row-major, as many as its shape has), as a
// constant of `elementType` holds them: one affine piece where they are one, else a piece per
// element; not represented past kMaxConstantElements elements (provenance says so).
IndexValues tensorValues(const std::vector<int64_t>& shape, const std::vector<int64_t>& values,
                         const mlir_ir::ElementType& elementType, const std::string& provenance);

// The values of `value`, defined by the ops of `scope` (a function's entry block, or the
// bare ops of a module), of type `type`.
IndexValues indexValues(const std::vector<mlir_ir::Operation>& scope, const mlir_ir::Value& value,
                        const mlir_ir::Type& type, const ValueContext& context = {});

// The values of an op's index vectors: entry k of the vector at point p (the index tensor's
// point without its vector dim). The leaves are those of each entry (a leaf read at entry k
// reads the element its access gives with the vector dim at k), one parameter per element:
// two entries that read one element share it.
struct VectorValues {
  std::vector<int64_t> pointShape;
  size_t entries = 0;
  isl::map relation;         // { [p] -> [x_0, ..., x_{entries-1}] }, parameter l<i> for leaves[i]
  std::vector<Leaf> leaves;  // access: { [p] -> [a] }
};

// The values of a tensor with `?` dims (followed with ValueContext::followDynamicShapes) at
// `shape`, static: the relations restricted to that shape's points, the leaves' reads too.
IndexValues atShape(const IndexValues& values, const std::vector<int64_t>& shape);

// The values with every leaf fixed to one value of its range (0, or the range's end nearest to
// it): known at every point, no leaves left.
IndexValues withLeavesFixed(IndexValues values);

// The values with each size z<i> (IndexValues::sizes) fixed to at[i]: verify's replay at
// given sizes. Sizes `at` does not name stay parameters.
IndexValues withSizesAt(IndexValues values, const std::map<size_t, int64_t>& at);

// "z3": the parameter that stands for IndexValues::sizes[3]; whether a parameter is one.
std::string sizeParameter(size_t size);
bool isSizeParameter(const std::string& name);

// nullopt when the values are not represented. Throws Error when isl gives up, or when the
// vector dim is `?`.
std::optional<VectorValues> indexVectors(const IndexValues& values, int64_t indexVectorDim);

}  // namespace idxmap::index_provenance
