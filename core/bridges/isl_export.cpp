// IndexingMap -> isl relation.
//
// The map's variables live in one isl set space: runtime variables are parameters, then
// come the dimensions and the range variables. Every expression becomes a piecewise
// quasi-affine function on that space (isl's floor, mod, min and max are exact), the
// domain is the set where every range and constraint holds, and projecting the range
// variables out of the graph makes them existential, which is what the map means.
#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <array>
#include <cctype>
#include <set>
#include <unordered_map>

#include "core/bridges/isl_bridge.h"

namespace idxmap::isl_bridge {
namespace {

// Words isl's parser reserves: a parameter named like one would not read back.
bool isIslKeyword(const std::string& word) {
  static const std::array<const char*, 16> keywords = {
      "exists", "and",   "or",  "not", "implies", "mod", "floor", "ceil",
      "floord", "ceild", "min", "max", "infty",   "NaN", "rat",   "true"};
  for (const char* k : keywords)
    if (word == k) return true;
  return word == "false" || word == "def";
}

// A valid isl identifier close to `name`, distinct from every name in `taken`.
std::string islIdentifier(const std::string& name, std::set<std::string>& taken) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  while (isIslKeyword(id) || taken.count(id)) id += "_";
  taken.insert(id);
  return id;
}

class IslMapBuilder {
 public:
  IslMapBuilder(const IndexingMap& map, IslNames names, unsigned runtimeVarOffset)
      : map_(map), ctx_(islContext().get()) {
    nameVariables(names, runtimeVarOffset);
  }

  isl::map build() {
    if (map_.knownEmpty) return own(isl_map_empty(mapSpace().release()));
    isl::map graph = own(isl_map_from_domain(domain().release()));
    for (Expr result : map_.results)
      graph = own(isl_map_flat_range_product(graph.release(),
                                             isl_map_from_pw_aff(toPwAff(result).release())));
    return own(
        isl_map_project_out(graph.release(), isl_dim_in, map_.dims.size(), map_.rangeVars.size()));
  }

 private:
  void nameVariables(IslNames names, unsigned runtimeVarOffset) {
    std::set<std::string> taken;
    for (unsigned i = 0; i < map_.runtimeVars.size(); ++i)
      paramNames_.push_back(names == IslNames::Positional
                                ? defaultVariableName(ExprKind::RuntimeVar, i + runtimeVarOffset)
                                : islIdentifier(map_.variableName(ExprKind::RuntimeVar, i), taken));
    for (unsigned i = 0; i < map_.dims.size(); ++i)
      dimNames_.push_back(islIdentifier(map_.variableName(ExprKind::Dim, i), taken));
    for (unsigned i = 0; i < map_.rangeVars.size(); ++i)
      dimNames_.push_back(islIdentifier(map_.variableName(ExprKind::RangeVar, i), taken));
  }

  isl_space* nameParams(isl_space* space) const {
    for (unsigned i = 0; i < paramNames_.size(); ++i)
      space = isl_space_set_dim_id(space, isl_dim_param, i,
                                   isl_id_alloc(ctx_, paramNames_[i].c_str(), nullptr));
    return space;
  }

  // params -> { [dims, range vars] }
  isl::space setSpace() const {
    isl_space* space = isl_space_set_alloc(ctx_, paramNames_.size(), dimNames_.size());
    space = nameParams(space);
    for (unsigned i = 0; i < dimNames_.size(); ++i)
      space = isl_space_set_dim_name(space, isl_dim_set, i, dimNames_[i].c_str());
    return own(space);
  }

  // params -> { [dims] -> [results] }
  isl::space mapSpace() const {
    isl_space* space =
        isl_space_alloc(ctx_, paramNames_.size(), map_.dims.size(), map_.results.size());
    space = nameParams(space);
    for (unsigned i = 0; i < map_.dims.size(); ++i)
      space = isl_space_set_dim_name(space, isl_dim_in, i, dimNames_[i].c_str());
    return own(space);
  }

  isl::pw_aff constant(int64_t value) {
    isl_local_space* ls = isl_local_space_from_space(setSpace().release());
    return own(isl_pw_aff_from_aff(isl_aff_val_on_domain(ls, toIslVal(value).release())));
  }

  isl::pw_aff variable(isl_dim_type type, unsigned position) {
    isl_local_space* ls = isl_local_space_from_space(setSpace().release());
    return own(isl_pw_aff_from_aff(isl_aff_var_on_domain(ls, type, position)));
  }

  isl::pw_aff toPwAff(Expr e) {
    auto found = memo_.find(e);
    if (found != memo_.end()) return found->second;
    isl::pw_aff result = convert(e);
    memo_.emplace(e, result);
    return result;
  }

  isl::pw_aff convert(Expr e) {
    switch (e.kind()) {
      case ExprKind::Constant:
        return constant(e.constantValue());
      case ExprKind::Dim:
        return variable(isl_dim_set, e.variableIndex());
      case ExprKind::RangeVar:
        return variable(isl_dim_set, map_.dims.size() + e.variableIndex());
      case ExprKind::RuntimeVar:
        return variable(isl_dim_param, e.variableIndex());
      default:
        break;
    }
    isl::pw_aff lhs = toPwAff(e.lhs());
    if (e.kind() == ExprKind::Add || e.kind() == ExprKind::Min || e.kind() == ExprKind::Max) {
      isl::pw_aff rhs = toPwAff(e.rhs());
      auto combine = e.kind() == ExprKind::Add   ? isl_pw_aff_add
                     : e.kind() == ExprKind::Min ? isl_pw_aff_min
                                                 : isl_pw_aff_max;
      return own(combine(lhs.release(), rhs.release()));
    }
    isl::val c = toIslVal(e.rhs().constantValue());
    switch (e.kind()) {
      case ExprKind::Mul:
        return own(isl_pw_aff_scale_val(lhs.release(), c.release()));
      case ExprKind::FloorDiv:
        return own(isl_pw_aff_floor(isl_pw_aff_scale_down_val(lhs.release(), c.release())));
      case ExprKind::CeilDiv:
        return own(isl_pw_aff_ceil(isl_pw_aff_scale_down_val(lhs.release(), c.release())));
      case ExprKind::Mod:
        return own(isl_pw_aff_mod_val(lhs.release(), c.release()));
      default:
        throw Error("isl bridge: unexpected expression kind");
    }
  }

  // The set of (rt; d, s) where every variable is in its range and every constraint holds.
  isl::set domain() {
    isl_set* set = isl_set_universe(setSpace().release());
    auto bound = [&](isl_dim_type type, unsigned position, const Interval& range) {
      if (range.lo != Interval::kNegInf)
        set = isl_set_lower_bound_val(set, type, position, toIslVal(range.lo).release());
      if (range.hi != Interval::kPosInf)
        set = isl_set_upper_bound_val(set, type, position, toIslVal(range.hi).release());
    };
    for (unsigned i = 0; i < map_.runtimeVars.size(); ++i)
      bound(isl_dim_param, i, map_.runtimeVars[i].range);
    for (unsigned i = 0; i < map_.dims.size(); ++i) bound(isl_dim_set, i, map_.dims[i].range);
    for (unsigned i = 0; i < map_.rangeVars.size(); ++i)
      bound(isl_dim_set, map_.dims.size() + i, map_.rangeVars[i].range);
    isl::set result = own(set);
    for (const Constraint& c : map_.constraints) {
      isl::pw_aff value = toPwAff(c.expr);
      if (c.range.lo != Interval::kNegInf)
        result = own(isl_set_intersect(
            result.release(), isl_pw_aff_ge_set(value.copy(), constant(c.range.lo).release())));
      if (c.range.hi != Interval::kPosInf)
        result = own(isl_set_intersect(
            result.release(), isl_pw_aff_le_set(value.copy(), constant(c.range.hi).release())));
    }
    return result;
  }

  const IndexingMap& map_;
  isl_ctx* ctx_;
  std::vector<std::string> paramNames_;
  std::vector<std::string> dimNames_;  // dims, then range variables
  std::unordered_map<Expr, isl::pw_aff, ExprHash> memo_;
};

}  // namespace

isl::map buildIslMap(const IndexingMap& map, IslNames names, unsigned runtimeVarOffset) {
  // An empty range needs no check: it simply makes the relation empty.
  auto checkDeclared = [&](Expr root) {
    root.walk([&](Expr e) {
      if (e.isVariable() && e.variableIndex() >= map.variables(e.kind()).size())
        throw Error("invalid indexing map: " + defaultVariableName(e.kind(), e.variableIndex()) +
                    " is used but not declared");
    });
  };
  for (Expr r : map.results) checkDeclared(r);
  for (const Constraint& c : map.constraints) checkDeclared(c.expr);
  return IslMapBuilder(map, names, runtimeVarOffset).build();
}

isl::map buildIslMapOverRuntimeVars(const IndexingMap& map) {
  isl::map relation = buildIslMap(map, IslNames::Positional);
  auto dims = static_cast<unsigned>(map.dims.size());
  for (unsigned k = 0; k < map.runtimeVars.size(); ++k) {
    // A runtime variable no expression uses has no parameter: it becomes a free input dim.
    std::string name = "rt" + std::to_string(k);
    int position = isl_map_find_dim_by_name(relation.get(), isl_dim_param, name.c_str());
    relation = position < 0 ? own(isl_map_insert_dims(relation.release(), isl_dim_in, dims + k, 1))
                            : own(isl_map_move_dims(relation.release(), isl_dim_in, dims + k,
                                                    isl_dim_param, position, 1));
  }
  return relation;
}

}  // namespace idxmap::isl_bridge
