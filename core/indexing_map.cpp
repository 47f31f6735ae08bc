#include "core/indexing_map.h"

#include <utility>

namespace idxmap {

std::string defaultVariableName(ExprKind kind, unsigned index) {
  switch (kind) {
    case ExprKind::Dim:
      return "d" + std::to_string(index);
    case ExprKind::RangeVar:
      return "s" + std::to_string(index);
    case ExprKind::RuntimeVar:
      return "rt" + std::to_string(index);
    default:
      throw Error("not a variable kind");
  }
}

bool RuntimeSource::operator==(const RuntimeSource& o) const {
  if (tensor != o.tensor || !index != !o.index) return false;
  return !index || *index == *o.index;
}

bool Variable::operator==(const Variable& o) const {
  if (range != o.range || name != o.name || !source != !o.source) return false;
  return !source || *source == *o.source;
}

IndexingMap IndexingMap::identity(const std::vector<int64_t>& sizes) {
  IndexingMap map;
  for (size_t i = 0; i < sizes.size(); ++i) {
    map.dims.push_back({{0, checkedSub(sizes[i], 1)}, ""});
    map.results.push_back(Expr::dim(static_cast<unsigned>(i)));
  }
  return map;
}

const std::vector<Variable>& IndexingMap::variables(ExprKind kind) const {
  switch (kind) {
    case ExprKind::Dim:
      return dims;
    case ExprKind::RangeVar:
      return rangeVars;
    case ExprKind::RuntimeVar:
      return runtimeVars;
    default:
      throw Error("not a variable kind");
  }
}

std::vector<Variable>& IndexingMap::variables(ExprKind kind) {
  return const_cast<std::vector<Variable>&>(std::as_const(*this).variables(kind));
}

std::string IndexingMap::variableName(ExprKind kind, unsigned index) const {
  const auto& vars = variables(kind);
  if (index < vars.size() && !vars[index].name.empty()) return vars[index].name;
  return defaultVariableName(kind, index);
}

void IndexingMap::markKnownEmpty() {
  knownEmpty = true;
  for (Expr& r : results) r = Expr::constant(0);
  for (Variable& v : dims) v.range = {0, -1};
  for (Variable& v : rangeVars) v.range = {0, -1};
  constraints.clear();
}

std::optional<std::string> IndexingMap::brokenInvariant() const {
  std::optional<std::string> error;
  auto check = [&](Expr root, const std::string& where) {
    root.walk([&](Expr e) {
      if (error || !e.isVariable()) return;
      if (e.variableIndex() >= variables(e.kind()).size())
        error = where + " uses " + defaultVariableName(e.kind(), e.variableIndex()) +
                ", which is not declared";
    });
  };
  for (size_t i = 0; i < results.size(); ++i) check(results[i], "result " + std::to_string(i));
  for (const Constraint& c : constraints) check(c.expr, "a constraint");
  if (error || knownEmpty) return error;
  for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar}) {
    const auto& vars = variables(kind);
    for (unsigned i = 0; i < vars.size(); ++i)
      if (vars[i].range.isEmpty())
        return "variable " + variableName(kind, i) + " has an empty range " +
               vars[i].range.toString();
  }
  return std::nullopt;
}

bool IndexingMap::contains(std::span<const int64_t> d, std::span<const int64_t> s,
                           std::span<const int64_t> rt) const {
  if (knownEmpty) return false;
  auto inRanges = [](const std::vector<Variable>& vars, std::span<const int64_t> values) {
    for (size_t i = 0; i < vars.size(); ++i)
      if (!vars[i].range.contains(values[i])) return false;
    return true;
  };
  if (!inRanges(dims, d) || !inRanges(rangeVars, s) || !inRanges(runtimeVars, rt)) return false;
  for (const Constraint& c : constraints)
    if (!c.range.contains(c.expr.evaluate(d, s, rt))) return false;
  return true;
}

bool IndexingMap::operator==(const IndexingMap& o) const {
  return dims == o.dims && rangeVars == o.rangeVars && runtimeVars == o.runtimeVars &&
         results == o.results && constraints == o.constraints && knownEmpty == o.knownEmpty;
}

IndexingMap compose(const IndexingMap& first, const IndexingMap& second) {
  if (first.results.size() != second.dims.size())
    throw Error("cannot compose: the first map has " + std::to_string(first.results.size()) +
                " results but the second has " + std::to_string(second.dims.size()) +
                " dimensions");
  IndexingMap out;
  out.dims = first.dims;
  out.rangeVars = second.rangeVars;
  out.rangeVars.insert(out.rangeVars.end(), first.rangeVars.begin(), first.rangeVars.end());
  out.runtimeVars = second.runtimeVars;
  for (Variable& var : out.runtimeVars) {
    if (!var.source || !var.source->index) continue;
    // The value second's variable stands for is read at an index of second's dims: seen from
    // first's dims, that is the index map after first.
    auto index =
        std::make_shared<IndexingMap>(withoutUnusedRuntimeVars(compose(first, *var.source->index)));
    var.source = std::make_shared<RuntimeSource>(RuntimeSource{var.source->tensor, index});
  }
  out.runtimeVars.insert(out.runtimeVars.end(), first.runtimeVars.begin(), first.runtimeVars.end());

  // first's symbols move behind second's; second's dims become first's results.
  std::vector<Expr> firstRange, firstRuntime, secondRange, secondRuntime;
  for (unsigned i = 0; i < first.rangeVars.size(); ++i)
    firstRange.push_back(Expr::rangeVar(i + second.rangeVars.size()));
  for (unsigned i = 0; i < first.runtimeVars.size(); ++i)
    firstRuntime.push_back(Expr::runtimeVar(i + second.runtimeVars.size()));
  for (unsigned i = 0; i < second.rangeVars.size(); ++i) secondRange.push_back(Expr::rangeVar(i));
  for (unsigned i = 0; i < second.runtimeVars.size(); ++i)
    secondRuntime.push_back(Expr::runtimeVar(i));

  std::vector<Expr> firstResults;
  for (Expr r : first.results)
    firstResults.push_back(r.replaceVariables({}, firstRange, firstRuntime));
  for (Expr r : second.results)
    out.results.push_back(r.replaceVariables(firstResults, secondRange, secondRuntime));
  for (const Constraint& c : second.constraints)
    out.constraints.push_back(
        {c.expr.replaceVariables(firstResults, secondRange, secondRuntime), c.range});
  for (const Constraint& c : first.constraints)
    out.constraints.push_back({c.expr.replaceVariables({}, firstRange, firstRuntime), c.range});
  for (size_t i = 0; i < firstResults.size(); ++i)
    out.constraints.push_back({firstResults[i], second.dims[i].range});
  out.knownEmpty = first.knownEmpty || second.knownEmpty;
  if (out.knownEmpty) out.markKnownEmpty();
  return out;
}

IndexingMap withoutUnusedRuntimeVars(IndexingMap map) {
  if (map.runtimeVars.empty() || map.knownEmpty) return map;
  auto used = [&map](unsigned index) {
    for (Expr result : map.results)
      if (result.uses(ExprKind::RuntimeVar, index)) return true;
    for (const Constraint& constraint : map.constraints)
      if (constraint.expr.uses(ExprKind::RuntimeVar, index)) return true;
    return false;
  };
  std::vector<Expr> renamed(map.runtimeVars.size());
  std::vector<Variable> kept;
  for (unsigned i = 0; i < map.runtimeVars.size(); ++i) {
    if (!used(i) && !map.runtimeVars[i].range.isEmpty()) continue;
    renamed[i] = Expr::runtimeVar(static_cast<unsigned>(kept.size()));
    kept.push_back(map.runtimeVars[i]);
  }
  if (kept.size() == map.runtimeVars.size()) return map;
  for (Expr& result : map.results) result = result.replaceVariables({}, {}, renamed);
  for (Constraint& constraint : map.constraints)
    constraint.expr = constraint.expr.replaceVariables({}, {}, renamed);
  map.runtimeVars = std::move(kept);
  return map;
}

}  // namespace idxmap
