// isl relation -> IndexingMap.
//
// A single-valued relation that isl writes as one quasi-affine piece becomes results plus a
// domain. Otherwise each output that is a function of the inputs (one piece, or the min or
// max of its pieces) becomes a result, and every other output a range variable tied down
// by the relation's constraints, which is always exact. Domains become variable ranges (the
// bounding box, computed by isl) plus constraints for whatever the box does not imply; a
// union of convex pieces gets a 0/1 range variable per piece that switches the piece's
// constraints on, one of them on (affine throughout, so isl reads the map back cheaply).
//
// isl writes integer divisions as local variables `floor(f / d)` and `x mod d` as
// `x - d * floor(x / d)`; the conversion turns the latter back into `mod`.
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/set.h>

#include <memory>
#include <optional>
#include <unordered_map>

#include "core/bridges/isl_bridge.h"
#include "core/bridges/isl_internal.h"

namespace idxmap::isl_bridge {
namespace {

// The map's shape and names, without results or domain.
IndexingMap skeleton(const isl::map& map) {
  IndexingMap out;
  unsigned params = checked(isl_map_dim(map.get(), isl_dim_param));
  unsigned in = checked(isl_map_dim(map.get(), isl_dim_in));
  for (unsigned i = 0; i < params; ++i)
    out.runtimeVars.push_back(
        {{0, -1},
         customName(isl_map_get_dim_name(map.get(), isl_dim_param, i), ExprKind::RuntimeVar, i)});
  for (unsigned i = 0; i < in; ++i)
    out.dims.push_back(
        {{0, -1}, customName(isl_map_get_dim_name(map.get(), isl_dim_in, i), ExprKind::Dim, i)});
  return out;
}

IslVariables variablesOf(const IndexingMap& map, unsigned outputsAsRangeVars) {
  IslVariables vars;
  for (unsigned i = 0; i < map.runtimeVars.size(); ++i) vars.params.push_back(Expr::runtimeVar(i));
  for (unsigned i = 0; i < map.dims.size(); ++i) vars.setDims.push_back(Expr::dim(i));
  for (unsigned i = 0; i < outputsAsRangeVars; ++i) vars.setDims.push_back(Expr::rangeVar(i));
  return vars;
}

IndexingMap importEmpty(const isl::map& map) {
  IndexingMap out = skeleton(map);
  out.results.assign(checked(isl_map_dim(map.get(), isl_dim_out)), Expr::constant(0));
  out.markKnownEmpty();
  return out;
}

// The output as one expression of the inputs when isl writes it as one quasi-affine piece,
// or as the min or max of its pieces' expressions (floor commutes with min and max, so
// flooring each piece is exact where the output is integral); else nullopt.
std::optional<Expr> outputAsExpr(const isl::pw_aff& output, const IslVariables& vars) {
  std::vector<isl::aff> distinct;
  auto collect = [](isl_set* set, isl_aff* aff, void* user) {
    isl_set_free(set);
    auto* affs = static_cast<std::vector<isl::aff>*>(user);
    for (const isl::aff& a : *affs)
      if (isl_aff_plain_is_equal(a.get(), aff) == isl_bool_true) {
        isl_aff_free(aff);
        return isl_stat_ok;
      }
    affs->push_back(isl::manage(aff));
    return isl_stat_ok;
  };
  checked(isl_pw_aff_foreach_piece(output.get(), collect, &distinct));
  std::vector<Expr> exprs;
  for (const isl::aff& a : distinct) exprs.push_back(AffConverter(vars).floorOf(a.get()));
  if (exprs.size() == 1) return exprs.front();
  constexpr size_t kMaxMinMaxOperands = 4;
  if (exprs.empty() || exprs.size() > kMaxMinMaxOperands) return std::nullopt;
  isl::set domain = own(isl_pw_aff_domain(output.copy()));
  for (bool isMin : {true, false}) {
    isl::pw_aff candidate = own(isl_pw_aff_from_aff(distinct.front().copy()));
    Expr e = exprs.front();
    for (size_t i = 1; i < distinct.size(); ++i) {
      isl_pw_aff* next = isl_pw_aff_from_aff(distinct[i].copy());
      candidate = own(isMin ? isl_pw_aff_min(candidate.release(), next)
                            : isl_pw_aff_max(candidate.release(), next));
      e = isMin ? Expr::min(e, exprs[i]) : Expr::max(e, exprs[i]);
    }
    candidate = own(isl_pw_aff_intersect_domain(candidate.release(), domain.copy()));
    if (checked(isl_pw_aff_is_equal(candidate.get(), output.get()))) return e;
  }
  return std::nullopt;
}

// The results of `map`, where each output whose value is an expression of the inputs has
// it (an output can be a function of the inputs even where others are not).
std::vector<std::optional<Expr>> outputsAsExprs(const isl::map& map, const IslVariables& vars) {
  unsigned outputs = checked(isl_map_dim(map.get(), isl_dim_out));
  std::vector<std::optional<Expr>> exprs(outputs);
  if (checked(isl_map_is_single_valued(map.get()))) {
    isl::pw_multi_aff function = own(isl_pw_multi_aff_from_map(map.copy()));
    for (unsigned i = 0; i < outputs; ++i) {
      isl::pw_aff output = coalesce(own(isl_pw_multi_aff_get_at(function.get(), i)));
      exprs[i] = outputAsExpr(output, vars);
    }
    return exprs;
  }
  for (unsigned i = 0; i < outputs; ++i) {
    isl_map* alone = isl_map_project_out(map.copy(), isl_dim_out, i + 1, outputs - i - 1);
    isl::map single = own(isl_map_project_out(alone, isl_dim_out, 0, i));
    if (!checked(isl_map_is_single_valued(single.get()))) continue;
    isl::pw_multi_aff function = own(isl_pw_multi_aff_from_map(single.release()));
    isl::pw_aff output = coalesce(own(isl_pw_multi_aff_get_at(function.get(), 0)));
    exprs[i] = outputAsExpr(output, vars);
  }
  return exprs;
}

// Outputs without an expression become range variables tied down by the relation's
// constraints; the others are projected out of the relation (they are functions of the
// inputs, so that loses nothing) and become results.
IndexingMap importRelation(const isl::map& map) {
  IndexingMap out = skeleton(map);
  std::vector<std::optional<Expr>> known = outputsAsExprs(map, variablesOf(out, 0));
  isl_map* rest = map.copy();
  for (size_t i = known.size(); i-- > 0;)
    if (known[i]) rest = isl_map_project_out(rest, isl_dim_out, i, 1);
  for (const std::optional<Expr>& e : known) {
    if (e) {
      out.results.push_back(*e);
      continue;
    }
    out.results.push_back(Expr::rangeVar(out.rangeVars.size()));
    out.rangeVars.push_back({});
  }
  isl::set graph = own(isl_set_flatten(isl_map_wrap(rest)));
  importDomain(graph, variablesOf(out, out.rangeVars.size()), out);
  return out;
}

}  // namespace

std::optional<IndexingMap> importSingleValued(const isl::map& map) {
  if (checked(isl_map_is_empty(map.get()))) return importEmpty(map);
  if (!checked(isl_map_is_single_valued(map.get()))) return std::nullopt;
  isl::pw_multi_aff function = coalesce(own(isl_pw_multi_aff_from_map(map.copy())));
  if (checked(isl_pw_multi_aff_n_piece(function.get())) != 1) return std::nullopt;
  struct Piece {
    isl::set domain;
    isl::multi_aff results;
  } piece;
  auto take = [](isl_set* set, isl_multi_aff* results, void* user) {
    *static_cast<Piece*>(user) = {isl::manage(set), isl::manage(results)};
    return isl_stat_ok;
  };
  checked(isl_pw_multi_aff_foreach_piece(function.get(), take, &piece));

  IndexingMap out = skeleton(map);
  IslVariables vars = variablesOf(out, 0);
  int outputs = checked(isl_multi_aff_dim(piece.results.get(), isl_dim_out));
  for (int i = 0; i < outputs; ++i) {
    isl::aff result = own(isl_multi_aff_get_at(piece.results.get(), i));
    out.results.push_back(AffConverter(vars).floorOf(result.get()));
  }
  importDomain(piece.domain, vars, out);
  return out;
}

IndexingMap importIslMap(const isl::map& map) {
  isl::map coalesced = coalesce(map);
  if (auto single = importSingleValued(coalesced)) return *single;
  return importRelation(coalesced);
}

}  // namespace idxmap::isl_bridge

namespace idxmap {

IndexingMap fromIslMap(const isl::map& map) {
  return isl_bridge::withIslBudget([&] { return isl_bridge::importIslMap(map); });
}

}  // namespace idxmap
