// KernelValidator::checkLoopNest, checkOwnership and checkDistinct (codegen/validate/validation.h):
// a loop nest, as printed and read back, enumerates exactly the map's domain (or a thread's share
// of it), each point once; threads that walk every point apply exactly those they own; points
// that run at once write distinct elements (isl).
#include <isl/map.h>
#include <isl/set.h>

#include <functional>

#include "codegen/kernel/isl_expressions.h"
#include "codegen/validate/validation.h"
#include "codegen/validate/validation_state_internal.h"
#include "core/bridges/isl_bridge.h"
#include "core/text.h"

namespace idxmap::codegen {

using isl_bridge::own;

ProofResult KernelValidator::checkLoopNest(const LoopNest& nest,
                                           const std::optional<ThreadShare>& share) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      // Statement points over the iterators' space (the dims' names): a loop frees its
      // iterator and bounds it; an iterator no loop binds is 0 (it is not in scope). A share's
      // bounds are parameters: what is proven holds for each of their values.
      IslExpressions iterators(
          nest.dims, 0,
          share ? std::vector<std::string>{share->first, share->last} : std::vector<std::string>{});
      std::vector<DeclaredVariable> declared;
      for (const std::string& name : iterators.names()) declared.push_back({name, nest.width});
      isl::set start = iterators.universe(), inShare = iterators.universe();
      if (share) {
        declared.push_back({share->first, CWidth::k64});
        declared.push_back({share->last, CWidth::k64});
        isl::pw_aff first = iterators.fromCExpr(variable(share->first, CWidth::k64)),
                    last = iterators.fromCExpr(variable(share->last, CWidth::k64)),
                    at = iterators.fromCExpr(variable(share->iterator, nest.width));
        start = start.intersect(iterators.valueIn(first, {share->range.lo, share->range.hi + 1}))
                    .intersect(iterators.valueIn(last, {share->range.lo, share->range.hi + 1}))
                    .intersect(own(isl_pw_aff_le_set(first.copy(), last.copy())));
        inShare = start.intersect(own(isl_pw_aff_ge_set(at.copy(), first.copy())))
                      .intersect(own(isl_pw_aff_lt_set(at.copy(), last.copy())));
      }
      for (size_t i = 0; i < nest.dims; ++i) start = start.intersect(iterators.inRange(i, {0, 0}));
      std::vector<isl::set> statements;
      bool runsTwice = false;
      std::function<void(const LoopNode&, isl::set)> walk = [&](const LoopNode& node, isl::set at) {
        auto readBack = [&](const CExpr& e) { return parseCExpr(printCExpr(e), declared); };
        switch (node.kind) {
          case LoopNode::Kind::kFor: {
            size_t i = iterators.position(node.iterator);
            at = own(isl_set_drop_constraints_involving_dims(at.release(), isl_dim_set,
                                                             static_cast<unsigned>(i), 1));
            CExpr lower = readBack(node.lower);
            isl::pw_aff iterator = iterators.fromCExpr(variable(node.iterator, nest.width));
            at = at.intersect(
                own(isl_pw_aff_ge_set(iterator.copy(), iterators.fromCExpr(lower).release())));
            if (node.step != 1) {  // iterator = lower + k * step for some k >= 0
              isl::pw_aff distance =
                  own(isl_pw_aff_sub(iterator.copy(), iterators.fromCExpr(lower).release()));
              isl::pw_aff phase = own(isl_pw_aff_mod_val(
                  distance.release(), isl_bridge::toIslVal(node.step).release()));
              at = at.intersect(iterators.valueIn(phase, {0, 0}));
            }
            at = at.intersect(iterators.fromCondition(readBack(node.condition)));
            for (const LoopNode& child : node.body) walk(child, at);
            return;
          }
          case LoopNode::Kind::kIf: {
            isl::set condition = iterators.fromCondition(readBack(node.condition));
            for (const LoopNode& child : node.body) walk(child, at.intersect(condition));
            isl::set otherwise = own(isl_set_subtract(at.copy(), condition.release()));
            for (const LoopNode& child : node.orElse) walk(child, otherwise);
            return;
          }
          case LoopNode::Kind::kBlock:
            for (const LoopNode& child : node.body) walk(child, at);
            return;
          case LoopNode::Kind::kStatement: {
            // The statement's point is a function of the iterators: apply it.
            isl_map* image = isl_map_from_domain(at.copy());
            for (const CExpr& coordinate : node.point)
              image = isl_map_flat_range_product(
                  image,
                  isl_map_intersect_domain(
                      isl_map_from_pw_aff(iterators.fromCExpr(readBack(coordinate)).release()),
                      at.copy()));
            isl::map owned = own(image);
            if (!isl_bridge::checked(isl_map_is_injective(owned.get()))) {
              runsTwice = true;  // refuted below, once the walk is done
              return;
            }
            statements.push_back(own(isl_map_range(owned.release())));
            return;
          }
        }
      };
      walk(nest.root, start);
      if (runsTwice)
        return ProofResult::refuted("isl", "a statement of the loop nest runs twice at one point");
      IndexingMap dimsOnly;
      dimsOnly.dims = map().dims;
      dimsOnly.constraints = nest.dimConstraints;
      isl::set expected = iterators.universe();
      for (size_t i = 0; i < nest.dims; ++i)
        expected = expected.intersect(iterators.inRange(i, dimsOnly.dims[i].range));
      for (const Constraint& c : nest.dimConstraints)
        expected = expected.intersect(iterators.valueIn(iterators.fromExpr(c.expr), c.range));
      if (share) expected = expected.intersect(inShare);
      isl::set enumerated = own(isl_set_empty(isl_set_get_space(expected.get())));
      for (size_t a = 0; a < statements.size(); ++a) {
        for (size_t b = 0; b < a; ++b)
          if (!statements[a].intersect(statements[b]).is_empty())
            return ProofResult::refuted("isl", "two statements of the loop nest share a point");
        enumerated = enumerated.unite(statements[a]);
      }
      if (!enumerated.is_equal(expected))
        return ProofResult::refuted("isl", std::string("the loop nest does not enumerate the ") +
                                               (share ? "share of " : "") + "map's domain");
      if (!share) {
        const std::string certificate =
            "the loop nest enumerates the domain exactly, each point once";
        // Said once for a kernel whose several nests (CUDA's keys and apply) each do.
        if (std::find(certificates_.begin(), certificates_.end(), certificate) ==
            certificates_.end())
          certificates_.push_back(certificate);
      } else {
        const std::string top = std::to_string(share->range.hi + 1);
        certificates_.push_back("each thread's share: for every " + share->first +
                                " <= " + share->last + " in [" + std::to_string(share->range.lo) +
                                ", " + top + "], the nest over " + share->iterator + " in [" +
                                share->first + ", " + share->last +
                                ") enumerates exactly the domain's points there, each once");
      }
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(std::string("loop nest: ") + error.what());
  }
}

ProofResult KernelValidator::checkOwnership(const std::string& role, const std::string& condition,
                                            Expr owner, Interval shares, const std::string& first,
                                            const std::string& last) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      const IndexingMap& m = state_->map;
      // The validator's variables, with the share bounds as parameters.
      IslExpressions e(m.dims.size(), m.runtimeVars.size(), {first, last});
      isl::set domain = e.universe();
      size_t position = 0;
      for (const std::vector<Variable>* vars : {&m.dims, &m.runtimeVars})
        for (const Variable& v : *vars) domain = domain.intersect(e.inRange(position++, v.range));
      for (const Constraint& c : m.constraints)
        domain = domain.intersect(e.valueIn(e.fromExpr(c.expr), c.range));
      const isl::pw_aff owned = e.fromExpr(owner);
      if (!own(isl_set_subtract(domain.copy(), e.valueIn(owned, shares).release())).is_empty())
        return ProofResult::refuted("isl", role + ": " + printExpr(owner, &m) + " leaves [" +
                                               std::to_string(shares.lo) + ", " +
                                               std::to_string(shares.hi) +
                                               "] where the statement runs: no thread "
                                               "would apply that point");
      std::vector<DeclaredVariable> declared = state_->declared;
      declared.push_back({first, CWidth::k64});
      declared.push_back({last, CWidth::k64});
      const isl::pw_aff from = e.fromCExpr(variable(first, CWidth::k64)),
                        to = e.fromCExpr(variable(last, CWidth::k64));
      isl::set context = domain.intersect(e.valueIn(from, {shares.lo, shares.hi + 1}))
                             .intersect(e.valueIn(to, {shares.lo, shares.hi + 1}))
                             .intersect(own(isl_pw_aff_le_set(from.copy(), to.copy())));
      isl::set holds = context.intersect(e.fromCondition(parseCExpr(condition, declared)));
      isl::set expected = context.intersect(own(isl_pw_aff_ge_set(owned.copy(), from.copy())))
                              .intersect(own(isl_pw_aff_lt_set(owned.copy(), to.copy())));
      if (!holds.is_equal(expected))
        return ProofResult::refuted("isl", role + ": `" + condition + "` is not " + first +
                                               " <= " + printExpr(owner, &m) + " < " + last);
      certificates_.push_back(role + ": `" + condition + "` holds exactly where " + first +
                              " <= " + printExpr(owner, &m) + " < " + last + ", for every " +
                              first + " <= " + last + " in [" + std::to_string(shares.lo) + ", " +
                              std::to_string(shares.hi + 1) + "], and every point has an owner");
      return ProofResult::proven("isl");
    });
  } catch (const CExprParseError& error) {
    return ProofResult::refuted("read-back", role + ": " + error.what());
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

ProofResult KernelValidator::checkDistinct(const std::string& role, Expr offset) {
  try {
    return isl_bridge::withIslBudget([&]() -> ProofResult {
      const IndexingMap& m = state_->map;
      if (!usesOnlyDims(offset))
        return ProofResult::unknown(
            role + ": " + printExpr(offset, &m) +
            " reads index values; their distinctness is verify/'s to prove");
      IslExpressions e(m.dims.size(), 0);
      isl::set domain = e.universe();
      for (size_t i = 0; i < m.dims.size(); ++i)
        domain = domain.intersect(e.inRange(i, m.dims[i].range));
      for (const Constraint& c : dimConstraints(m))
        domain = domain.intersect(e.valueIn(e.fromExpr(c.expr), c.range));
      // Pairs p -> q of distinct points that `offset` sends to one element.
      isl::map sends = own(isl_map_intersect_domain(
          isl_map_from_pw_aff(e.fromExpr(offset).release()), domain.copy()));
      isl::map pairs = own(isl_map_subtract(
          isl_map_apply_range(sends.copy(), isl_map_reverse(sends.copy())),
          isl_map_identity(isl_space_map_from_set(isl_set_get_space(domain.get())))));
      if (!isl_bridge::checked(isl_map_is_empty(pairs.get()))) {
        isl::point point = own(isl_set_sample_point(isl_map_wrap(pairs.copy())));
        std::vector<int64_t> p, q;
        for (size_t i = 0; i < 2 * m.dims.size(); ++i)
          (i < m.dims.size() ? p : q)
              .push_back(isl_bridge::toInt64(own(
                  isl_point_get_coordinate_val(point.get(), isl_dim_set, static_cast<int>(i)))));
        const int64_t at = offset.evaluate(p, {}, {}), again = offset.evaluate(q, {}, {});
        if (at != again)
          return ProofResult::unknown(role +
                                      ": isl found two points with one element, "
                                      "evaluation did not confirm");
        auto list = [](const std::vector<int64_t>& values) {
          std::string out = "(";
          for (size_t i = 0; i < values.size(); ++i)
            out += (i ? ", " : "") + std::to_string(values[i]);
          return out + ")";
        };
        Counterexample counterexample;
        counterexample.dims = p;
        counterexample.explanation = role + ": points (" + printExpr(offset, &m) + " = " +
                                     std::to_string(at) + ") at d = " + list(p) + " and " +
                                     list(q) + " write one element";
        return ProofResult::refuted("isl", std::move(counterexample));
      }
      certificates_.push_back(role + ": " + printExpr(offset, &m) +
                              " sends distinct points of the domain to distinct elements");
      return ProofResult::proven("isl");
    });
  } catch (const isl_bridge::IslError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  } catch (const OverflowError& error) {
    return ProofResult::unknown(role + ": " + error.what());
  }
}

}  // namespace idxmap::codegen
