// Index expressions of a map as C: each Expr of a simplified map lowered to a CExpr that a
// kernel evaluates in one width (int32_t where the int32 prover said every expression of the
// kernel fits, int64_t otherwise). C's `/` and `%` are used only where interval bounds show the
// dividend is never negative, where truncation and floor agree; elsewhere the prelude's
// idxmap_floordiv / idxmap_floormod / idxmap_ceildiv. Each such choice is recorded as the fact
// it rests on, for the kernel's header. Validation (codegen/validate/validation.h) then proves
// the printed result equal to the Expr; nothing here needs to be trusted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"
#include "core/indexing_map.h"

namespace idxmap::codegen {

// A fact a lowering relied on, e.g. "d0 * 2 >= 0 -> C '/' and '%' are floor division here".
struct LoweringFact {
  std::string statement;
  std::string method;  // "interval"
  bool operator==(const LoweringFact& o) const = default;
};

class IndexLowering {
 public:
  // `map` gives the variables' ranges; variables are named d<i> and rt<k> (range variables
  // are not supported: a kernel substitutes them first) and declared in `width`.
  // Runtime variables are named `runtimePrefix`<k> and declared in `runtimeWidth` (a guard
  // computes with the raw loaded values, v0 in int64_t, before they are known to be in range).
  IndexLowering(const IndexingMap& map, CWidth width, std::string runtimePrefix = "rt",
                std::optional<CWidth> runtimeWidth = std::nullopt);

  CExpr lower(Expr expr);
  // The declared variables the lowered expressions use (for reading them back).
  std::vector<DeclaredVariable> declared() const;
  const std::vector<LoweringFact>& facts() const { return facts_; }
  CWidth width() const { return width_; }

 private:
  CExpr lowerDivision(Expr expr);
  CExpr lowerSum(Expr expr);
  void record(std::string statement);

  const IndexingMap& map_;
  CWidth width_;
  std::string runtimePrefix_;
  CWidth runtimeWidth_;
  std::vector<LoweringFact> facts_;
};

// sum_k results[k] * stride_k: the row-major element offset of a map's results into a tensor
// of `shape`, simplified over the map's domain.
Expr rowMajorOffset(const IndexingMap& map, const std::vector<int64_t>& shape);

// `raw` simplified within `context` (its dims, runtime and range variables, constraints), once
// proven to take raw's value at every point of the context (requireSameValue): what a kernel
// prints and validation compares against is then the op's own expression.
Expr provenSimplified(const Expr& raw, const IndexingMap& context);
// `simplified` where it takes `raw`'s value at every point of `context` (verify/equivalence,
// each point's range variables kept apart, so the same set of values is not enough). Throws
// Error, naming both, where that is not proven: no kernel is written.
Expr requireSameValue(const Expr& raw, const Expr& simplified, const IndexingMap& context);

}  // namespace idxmap::codegen
