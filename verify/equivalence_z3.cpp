// Equivalence with Z3. Writing x for the inputs (dims, runtime variables) and s for a map's
// range variables, map A relates x to y when  exists s: domA(x, s) and y = resA(x, s).
// A is not contained in B when
//   exists x, sa: domA(x, sa) and forall sb: not (domB(x, sb) and resA(x, sa) = resB(x, sb))
// and the maps are equal when neither direction has a witness. Without range variables the
// question is quantifier-free, and so it is when the range variables have few points (the
// quantifier is written out); otherwise Z3 may answer "unknown", reported as such.
#include "verify/equivalence_z3.h"

#include <z3++.h>

#include <chrono>
#include <optional>

#include "core/bridges/z3_bridge.h"
#include "verify/point_difference.h"

namespace idxmap {
namespace {

struct Side {
  Z3Variables vars;
  z3::expr domain;
  z3::expr_vector results;
};

Side encode(const IndexingMap& map, const Z3Variables& inputs, const std::string& prefix,
            z3::context& ctx) {
  Z3Variables vars = makeZ3Variables(ctx, map, prefix);
  vars.dims = inputs.dims;
  vars.runtimeVars = inputs.runtimeVars;
  z3::expr domain = domainToZ3(map, vars, ctx);
  z3::expr_vector results(ctx);
  for (Expr r : map.results) results.push_back(toZ3(r, vars, ctx));
  return {vars, domain, results};
}

z3::expr sameResults(const Side& a, const Side& b, z3::context& ctx) {
  z3::expr all = ctx.bool_val(true);
  for (unsigned i = 0; i < a.results.size(); ++i) all = all && a.results[i] == b.results[i];
  return all;
}

// Universal quantifiers over at most this many range-variable points are written out as
// a conjunction: quantifier-free queries are the ones Z3 decides reliably.
constexpr int64_t kMaxExpandedPoints = 256;

// The points of the ranges when there are few enough to enumerate.
std::optional<std::vector<std::vector<int64_t>>> fewPoints(const std::vector<Variable>& vars) {
  int64_t count = 1;
  for (const Variable& v : vars) {
    int64_t size;
    if (!v.range.isBounded() || __builtin_sub_overflow(v.range.hi, v.range.lo, &size) ||
        __builtin_add_overflow(size, 1, &size) || __builtin_mul_overflow(count, size, &count) ||
        count > kMaxExpandedPoints)
      return std::nullopt;
  }
  std::vector<std::vector<int64_t>> points(1);
  for (const Variable& v : vars) {
    std::vector<std::vector<int64_t>> extended;
    for (const auto& p : points)
      for (int64_t x = v.range.lo; x <= v.range.hi; ++x) {
        extended.push_back(p);
        extended.back().push_back(x);
      }
    points = std::move(extended);
  }
  return points;
}

// Some x where `from` relates x to an output that `to` does not give.
z3::expr notContained(const Side& from, const IndexingMap& toMap, const Side& to,
                      z3::context& ctx) {
  z3::expr matched = to.domain && sameResults(from, to, ctx);
  if (to.vars.rangeVars.empty()) return from.domain && !matched;
  z3::expr_vector bound(ctx);
  for (const z3::expr& s : to.vars.rangeVars) bound.push_back(s);
  if (auto points = fewPoints(toMap.rangeVars)) {
    z3::expr unmatchedEverywhere = ctx.bool_val(true);
    for (const auto& point : *points) {
      z3::expr_vector values(ctx);
      for (int64_t x : point) values.push_back(ctx.int_val(x));
      unmatchedEverywhere = unmatchedEverywhere && !matched.substitute(bound, values);
    }
    return from.domain && unmatchedEverywhere;
  }
  return from.domain && z3::forall(bound, !matched);
}

struct Witness {
  std::vector<int64_t> dims, runtimeVars;
};

// Solves `query`; a model's input values when sat.
z3::check_result solve(const z3::expr& query, const Z3Variables& inputs, unsigned timeoutMs,
                       z3::context& ctx, Witness& witness, std::string& why) {
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", timeoutMs);
  solver.set(params);
  solver.add(query);
  z3::check_result result = solver.check();
  if (result == z3::unknown) why = solver.reason_unknown();
  if (result != z3::sat) return result;
  z3::model model = solver.get_model();
  auto read = [&](const std::vector<z3::expr>& vars, std::vector<int64_t>& into) {
    for (const z3::expr& v : vars) {
      int64_t value;
      if (!model.eval(v, true).is_numeral_i64(value))
        throw Error("z3's counterexample does not fit in 64 bits");
      into.push_back(value);
    }
  };
  read(inputs.dims, witness.dims);
  read(inputs.runtimeVars, witness.runtimeVars);
  return result;
}

ProofResult proveEquivalentIn(z3::context& ctx, const IndexingMap& a, const IndexingMap& b,
                              const EquivalenceOptions& options) {
  try {
    Z3Variables inputs = makeZ3Variables(ctx, a, "");
    Side first = encode(a, inputs, "first_", ctx);
    Side second = encode(b, inputs, "second_", ctx);
    std::vector<z3::expr> queries;
    if (a.rangeVars.empty() && b.rangeVars.empty()) {
      // Quantifier-free: same domain, and the same results on it.
      queries.push_back(first.domain != second.domain ||
                        (first.domain && !sameResults(first, second, ctx)));
    } else {
      queries.push_back(notContained(first, b, second, ctx));
      queries.push_back(notContained(second, a, first, ctx));
    }
    std::string undecided;
    // The timeout covers all queries together.
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(options.z3TimeoutMs);
    for (const z3::expr& query : queries) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return ProofResult::unknown("z3 could not decide (timeout)");
      Witness witness;
      std::string why;
      z3::check_result result =
          solve(query, inputs, static_cast<unsigned>(left.count()), ctx, witness, why);
      if (result == z3::unknown) {
        undecided = "z3 could not decide (" + why + ")";
        continue;
      }
      if (result == z3::unsat) continue;
      // A counterexample is reported only once evaluation confirms it.
      ProofResult atPoint = comparePoint(a, b, witness.dims, witness.runtimeVars);
      if (atPoint.isRefuted())
        return ProofResult::refuted("z3", std::move(*atPoint.counterexample));
      undecided = atPoint.isProven()
                      ? "z3 reported a counterexample that evaluation does not confirm"
                      : atPoint.reason;
    }
    if (!undecided.empty()) return ProofResult::unknown(undecided);
    return ProofResult::proven("z3");
  } catch (const z3::exception& e) {
    return ProofResult::unknown(std::string("z3 failed: ") + e.msg());
  } catch (const Error& e) {
    return ProofResult::unknown(e.what());
  }
}

}  // namespace

ProofResult proveEquivalentWithZ3(const IndexingMap& a, const IndexingMap& b,
                                  const EquivalenceOptions& options) {
  auto attempt = [&](z3::context& ctx) { return proveEquivalentIn(ctx, a, b, options); };
  return proveInReusedZ3Context(attempt, provenOrTimedOut);
}

}  // namespace idxmap
