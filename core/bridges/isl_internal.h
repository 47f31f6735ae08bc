// Internal to the isl bridge (core/bridges/isl_*.cpp); not part of the library's API: the importer
// behind fromIslMap and simplifyWithIsl (without their budget), and its pieces.
#pragma once

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/checked.h"
#include "core/indexing_map.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::isl_bridge {

// isl relation -> IndexingMap (see fromIslMap), without the budget reset.
IndexingMap importIslMap(const isl::map& map);
// The map when isl writes `map` as a single quasi-affine piece (or it is empty), else
// nullopt.
std::optional<IndexingMap> importSingleValued(const isl::map& map);

// --- Inside the importer (isl_import.cpp, isl_aff_import.cpp, isl_domain_import.cpp) ---------

// sum(atom * coefficient) + constant, with distinct atoms (variables, divisions, modulos).
struct LinearForm {
  std::vector<std::pair<Expr, int64_t>> terms;
  int64_t constant = 0;

  int64_t coefficientOf(Expr atom) const {
    for (const auto& [a, c] : terms)
      if (a == atom) return c;
    return 0;
  }
  void add(Expr atom, int64_t coefficient) {
    if (atom.isConstant()) {  // a division of constants folds; keep atoms variable
      constant = checkedAdd(constant, checkedMul(atom.constantValue(), coefficient));
      return;
    }
    for (auto it = terms.begin(); it != terms.end(); ++it) {
      if (it->first != atom) continue;
      it->second = checkedAdd(it->second, coefficient);
      if (it->second == 0) terms.erase(it);
      return;
    }
    if (coefficient != 0) terms.emplace_back(atom, coefficient);
  }
  Expr toExpr() const {
    Expr sum = Expr::constant(0);
    for (const auto& [atom, c] : terms) sum = sum + atom * c;
    return sum + constant;
  }
};

// Where isl's variables go: parameters are runtime variables; set dimensions are dims or,
// for a relation's output dimensions, range variables.
struct IslVariables {
  std::vector<Expr> params;
  std::vector<Expr> setDims;
};

// Converts the affine expressions that share one local space (the constraints of one basic
// set, or one isl_aff), caching its integer divisions by position.
class AffConverter {
 public:
  explicit AffConverter(const IslVariables& vars) : vars_(vars) {}

  // `aff` is numerator / denominator; isl keeps one common denominator.
  LinearForm numerator(isl_aff* aff, int64_t& denominator);
  // floor(aff), which is aff itself wherever aff is integral.
  Expr floorOf(isl_aff* aff);

 private:
  struct Division {
    LinearForm numerator;
    int64_t denominator = 1;
  };

  // The value floor(f / d) of the division at `position`.
  Expr division(isl_aff* aff, int position, int divs);
  // k * f - k * d * floor(f / d)  ->  k * (f mod d), wherever the form holds all of k * f.
  void foldModulos(LinearForm& form) const;

  const IslVariables& vars_;
  std::vector<Expr> cache_;  // by position in the local space
  std::unordered_map<Expr, Division, ExprHash> divisions_;
};

// Fills the variable ranges and constraints of `out` from `set`, a set over the params and
// set dimensions that `vars` name (isl_domain_import.cpp).
void importDomain(const isl::set& set, const IslVariables& vars, IndexingMap& out);
// The name isl gave a variable, kept only when it differs from our default name.
std::string customName(const char* islName, ExprKind kind, unsigned index);

}  // namespace idxmap::isl_bridge
