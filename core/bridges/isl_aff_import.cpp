// isl's affine expressions (isl_aff) as Exprs: coefficients, integer divisions (cached by
// position in the local space) and `x - d * floor(x / d)` folded back into `x mod d`.
#include <isl/aff.h>
#include <isl/val.h>

#include "core/bridges/isl_bridge.h"
#include "core/bridges/isl_internal.h"

namespace idxmap::isl_bridge {

// `aff` is numerator / denominator; isl keeps one common denominator.
LinearForm AffConverter::numerator(isl_aff* aff, int64_t& denominator) {
  isl::val common = own(isl_aff_get_denominator_val(aff));
  denominator = toInt64(common);
  auto scaled = [&](isl_val* coefficient) {
    return toInt64(own(isl_val_mul(coefficient, common.copy())));
  };
  LinearForm form;
  int dims = checked(isl_aff_dim(aff, isl_dim_in));
  for (int i = 0; i < dims; ++i)
    form.add(vars_.setDims.at(i), scaled(isl_aff_get_coefficient_val(aff, isl_dim_in, i)));
  int params = checked(isl_aff_dim(aff, isl_dim_param));
  for (int i = 0; i < params; ++i)
    form.add(vars_.params.at(i), scaled(isl_aff_get_coefficient_val(aff, isl_dim_param, i)));
  int divs = checked(isl_aff_dim(aff, isl_dim_div));
  if (cache_.empty()) cache_.resize(divs);
  for (int i = 0; i < divs; ++i) {
    int64_t c = scaled(isl_aff_get_coefficient_val(aff, isl_dim_div, i));
    if (c != 0) form.add(division(aff, i, divs), c);
  }
  form.constant = checkedAdd(form.constant, scaled(isl_aff_get_constant_val(aff)));
  foldModulos(form);
  return form;
}

// floor(aff), which is aff itself wherever aff is integral.
Expr AffConverter::floorOf(isl_aff* aff) {
  int64_t denominator;
  Expr e = numerator(aff, denominator).toExpr();
  return denominator == 1 ? e : e.floorDiv(denominator);
}

// The value floor(f / d) of the division at `position`; isl_aff_get_div gives its
// argument f / d, over the same local space when every division is known.
Expr AffConverter::division(isl_aff* aff, int position, int divs) {
  bool cacheable = divs == static_cast<int>(cache_.size());
  if (cacheable && !cache_[position].isNull()) return cache_[position];
  isl::aff argument = own(isl_aff_get_div(aff, position));
  Division d;
  d.numerator = numerator(argument.get(), d.denominator);
  Expr value = d.numerator.toExpr().floorDiv(d.denominator);
  divisions_.emplace(value, std::move(d));
  if (cacheable) cache_[position] = value;
  return value;
}

// k * f - k * d * floor(f / d)  ->  k * (f mod d), wherever the form holds all of k * f.
// Each fold replaces a division atom by a `mod` one, so the loop ends.
void AffConverter::foldModulos(LinearForm& form) const {
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [atom, coefficient] : form.terms) {
      auto found = divisions_.find(atom);
      if (found == divisions_.end()) continue;
      const Division& div = found->second;
      if (coefficient % div.denominator != 0) continue;
      int64_t k = -(coefficient / div.denominator);
      bool holdsAll = true;
      for (const auto& [a, c] : div.numerator.terms) {
        int64_t needed;
        holdsAll =
            holdsAll && !__builtin_mul_overflow(k, c, &needed) && form.coefficientOf(a) == needed;
      }
      if (!holdsAll) continue;
      Expr divisionAtom = atom;  // `atom` dies with the term erased below
      for (const auto& [a, c] : div.numerator.terms) form.add(a, -checkedMul(k, c));
      form.add(divisionAtom, -form.coefficientOf(divisionAtom));
      form.constant = checkedSub(form.constant, checkedMul(k, div.numerator.constant));
      form.add(div.numerator.toExpr().mod(div.denominator), k);
      changed = true;
      break;
    }
  }
}

}  // namespace idxmap::isl_bridge
