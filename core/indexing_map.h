// IndexingMap: XLA's indexing map. It denotes the relation
//   { (d, rt) -> results(d, s, rt) : every variable in its range, every constraint holds }
// where dimensions d and runtime variables rt are inputs and range variables s are
// existential. The map carries its own domain; its printed form is the debugging interface.
//
// Invariant (see brokenInvariant()): every variable an expression uses is declared, and every
// declared range is non-empty unless the map is KNOWN EMPTY.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/expr.h"
#include "core/interval.h"

namespace idxmap {

struct IndexingMap;

// What a runtime variable stands for: the element of `tensor` at `index` (a map from the
// owning map's dimensions), read at run time. Front ends record it where they know it (an
// HLO operand: XLA's "parameter(1)", "constant(42)" or the instruction's name); compose()
// carries it, re-rooted on the composed map's dimensions. Two maps whose runtime variables
// stand for different values are different maps, whatever their text.
struct RuntimeSource {
  std::string tensor;
  std::shared_ptr<const IndexingMap> index;
  bool operator==(const RuntimeSource& o) const;
};

struct Variable {
  Interval range;
  std::string name;  // empty: the default name (d3, s0, rt1) for its kind and position
  std::shared_ptr<const RuntimeSource> source = nullptr;  // runtime variables only; may be null
  bool operator==(const Variable& o) const;
};

struct Constraint {
  Expr expr;
  Interval range;
  bool operator==(const Constraint& o) const = default;
};

struct IndexingMap {
  std::vector<Variable> dims;
  std::vector<Variable> rangeVars;
  std::vector<Variable> runtimeVars;
  std::vector<Expr> results;
  std::vector<Constraint> constraints;
  bool knownEmpty = false;  // the domain is provably empty (printed as KNOWN EMPTY)

  // A map from a tensor of `sizes` whose results are its dimensions (d0, ..., dn-1).
  static IndexingMap identity(const std::vector<int64_t>& sizes);

  const std::vector<Variable>& variables(ExprKind kind) const;
  std::vector<Variable>& variables(ExprKind kind);
  // The variable's printed name: its custom name or the default one.
  std::string variableName(ExprKind kind, unsigned index) const;

  // Turns this map into KNOWN EMPTY in XLA's form: results become 0, dim and range
  // variable ranges [0, -1], constraints cleared; the variable and result counts stay.
  void markKnownEmpty();

  // The first broken invariant, if any, as a message.
  std::optional<std::string> brokenInvariant() const;

  // Whether every variable of the point (dims, range vars, runtime vars) is in its range
  // and every constraint holds there.
  bool contains(std::span<const int64_t> dims, std::span<const int64_t> rangeVars,
                std::span<const int64_t> runtimeVars) const;

  bool operator==(const IndexingMap& o) const;  // structural: same text
};

std::string defaultVariableName(ExprKind kind, unsigned index);

// XLA's ComposeIndexingMaps(first, second), i.e. second ∘ first: the results of `first`
// feed the dimensions of `second`. The result has the dims of `first`, range variables
// [second's, first's], runtime variables {second's, first's}, both maps' constraints, and a
// constraint keeping each result of `first` inside the matching dim of `second`. The
// composed map is not simplified. Throws Error when the arities disagree.
IndexingMap compose(const IndexingMap& first, const IndexingMap& second);

// `map` without the runtime variables that neither a result nor a constraint uses, as XLA's
// RemoveUnusedSymbols drops them: with a non-empty range and nothing tying it, such a
// variable cannot change which elements are read. The others are renumbered in order.
IndexingMap withoutUnusedRuntimeVars(IndexingMap map);

}  // namespace idxmap
