#include "simplifier/linear_form.h"

#include <algorithm>
#include <numeric>

namespace idxmap {
namespace {

template <typename Terms>
void accumulate(Expr e, int64_t scale, Terms& terms, int64_t& constant) {
  switch (e.kind()) {
    case ExprKind::Constant:
      constant = checkedAdd(constant, checkedMul(e.constantValue(), scale));
      return;
    case ExprKind::Add:
      accumulate(e.lhs(), scale, terms, constant);
      accumulate(e.rhs(), scale, terms, constant);
      return;
    case ExprKind::Mul:
      accumulate(e.lhs(), checkedMul(scale, e.rhs().constantValue()), terms, constant);
      return;
    default:
      terms.push_back({e, scale});
  }
}

// Rank of an atom in a sum; XLA's order: mod < floordiv < ceildiv < max < min < variables.
int atomRank(ExprKind kind) {
  switch (kind) {
    case ExprKind::Add:
      return 0;
    case ExprKind::Mul:
      return 1;
    case ExprKind::Mod:
      return 2;
    case ExprKind::FloorDiv:
      return 3;
    case ExprKind::CeilDiv:
      return 4;
    case ExprKind::Max:
      return 5;
    case ExprKind::Min:
      return 6;
    case ExprKind::Dim:
      return 7;
    case ExprKind::RangeVar:
      return 8;
    case ExprKind::RuntimeVar:
      return 9;
    case ExprKind::Constant:
      return 10;
  }
  return 11;
}

}  // namespace

int compareExprs(Expr a, Expr b) {
  if (a == b) return 0;
  int ra = atomRank(a.kind()), rb = atomRank(b.kind());
  if (ra != rb) return ra < rb ? -1 : 1;
  if (a.isConstant() || a.isVariable()) {
    int64_t va = a.isConstant() ? a.constantValue() : a.variableIndex();
    int64_t vb = b.isConstant() ? b.constantValue() : b.variableIndex();
    return va < vb ? -1 : (va > vb ? 1 : 0);
  }
  if (int c = compareExprs(a.lhs(), b.lhs())) return c;
  return compareExprs(a.rhs(), b.rhs());
}

LinearForm LinearForm::of(Expr e) {
  LinearForm form;
  boost::container::small_vector<LinearTerm, 8> raw;
  accumulate(e, 1, raw, form.constant);
  // Combine like terms; atoms are uniqued, so pointer identity finds them.
  for (const LinearTerm& t : raw) {
    auto it = std::find_if(form.terms.begin(), form.terms.end(),
                           [&](const LinearTerm& u) { return u.atom == t.atom; });
    if (it == form.terms.end())
      form.terms.push_back(t);
    else
      it->coefficient = checkedAdd(it->coefficient, t.coefficient);
  }
  form.terms.erase(std::remove_if(form.terms.begin(), form.terms.end(),
                                  [](const LinearTerm& t) { return t.coefficient == 0; }),
                   form.terms.end());
  return form;
}

void LinearForm::sortTerms() {
  // Products first (as XLA prints them), then bare atoms; each group by atom order.
  std::sort(terms.begin(), terms.end(), [](const LinearTerm& a, const LinearTerm& b) {
    bool pa = a.coefficient != 1, pb = b.coefficient != 1;
    if (pa != pb) return pa;
    int c = compareExprs(a.atom, b.atom);
    if (c != 0) return c < 0;
    return a.coefficient < b.coefficient;
  });
}

Expr LinearForm::build() const {
  LinearForm sorted = *this;
  sorted.sortTerms();
  Expr sum;
  for (const LinearTerm& t : sorted.terms) {
    Expr term = t.atom * t.coefficient;
    sum = sum.isNull() ? term : sum + term;
  }
  if (sum.isNull()) return Expr::constant(constant);
  return sum + constant;
}

int64_t LinearForm::coefficientGcd() const {
  int64_t g = 0;
  for (const LinearTerm& t : terms) g = std::gcd(g, t.coefficient);
  return g;
}

bool LinearForm::operator==(const LinearForm& other) const {
  if (constant != other.constant || terms.size() != other.terms.size()) return false;
  for (size_t i = 0; i < terms.size(); ++i)
    if (terms[i].atom != other.terms[i].atom || terms[i].coefficient != other.terms[i].coefficient)
      return false;
  return true;
}

}  // namespace idxmap
