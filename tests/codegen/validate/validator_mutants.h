// Mutants of what a kernel prints, and an oracle for whether a mutant changes what the kernel
// does, for the validator's mutation score (validator_mutation_test.cpp, issue 32, item 3).
//
// A mutant is one small change to a printed expression, condition or loop bound, of the kinds
// emitters get wrong: a literal off by one, one variable for another (a swapped index), + for -,
// a term dropped (a missing stride or offset), C's truncating / or % for a floor helper, a clamp
// or a cast dropped, < for <=, a conjunct of a skip test dropped. Whether it changes behaviour
// is decided by brute force, with no isl: the mutant is evaluated as C evaluates it (128-bit,
// a node that leaves its type is undefined behaviour, a change too) at every point where the
// kernel runs it and compared with the op's own meaning there (Expr::evaluate, core's floor
// semantics); a mutated loop nest is run and its points compared with the domain's.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"
#include "codegen/kernel/loop_nest.h"

namespace idxmap::codegen::mutants {

// C's value of `e` with the named variables at `values`: nullopt where an operation leaves its
// type (undefined behaviour) or divides by zero. A cast to int32_t wraps, as C++20 defines.
inline std::optional<__int128> evaluate(const CExpr& e, const std::vector<std::string>& names,
                                        const std::vector<int64_t>& values) {
  if (e->op == COp::kAnd) {  // C's && does not evaluate its right side after a false left
    std::optional<__int128> lhs = evaluate(e->operands[0], names, values);
    if (!lhs || !*lhs) return lhs;
    std::optional<__int128> rhs = evaluate(e->operands[1], names, values);
    if (!rhs) return std::nullopt;
    return *rhs != 0;
  }
  std::vector<__int128> a;
  for (const CExpr& operand : e->operands) {
    std::optional<__int128> v = evaluate(operand, names, values);
    if (!v) return std::nullopt;
    a.push_back(*v);
  }
  auto fits = [&](__int128 v) -> std::optional<__int128> {
    const bool narrow = widthOf(e) == CWidth::k32 && e->op != COp::kLiteral;
    const __int128 lo = narrow ? std::numeric_limits<int32_t>::min()
                               : std::numeric_limits<int64_t>::min(),
                   hi = narrow ? std::numeric_limits<int32_t>::max()
                               : std::numeric_limits<int64_t>::max();
    if (v < lo || v > hi) return std::nullopt;
    return v;
  };
  switch (e->op) {
    case COp::kLiteral:
      return e->value;
    case COp::kVariable:
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == e->name) return values[i];
      return std::nullopt;
    case COp::kAdd:
      return fits(a[0] + a[1]);
    case COp::kSub:
      return fits(a[0] - a[1]);
    case COp::kMul:
      return fits(a[0] * a[1]);
    case COp::kNeg:
      return fits(-a[0]);
    case COp::kDiv:
      if (a[1] == 0) return std::nullopt;
      return fits(a[0] / a[1]);
    case COp::kRem:
      if (a[1] == 0) return std::nullopt;
      return fits(a[0] % a[1]);
    case COp::kCast:
      return e->width == CWidth::k32 ? static_cast<__int128>(static_cast<int32_t>(a[0])) : a[0];
    case COp::kCall: {
      const std::string& f = e->name;
      if (f == "idxmap_min") return a[0] < a[1] ? a[0] : a[1];
      if (f == "idxmap_max") return a[0] < a[1] ? a[1] : a[0];
      if (f == "idxmap_clamp") return a[0] < a[1] ? a[1] : (a[2] < a[0] ? a[2] : a[0]);
      if (a[1] <= 0) return std::nullopt;  // the helpers take a positive divisor
      __int128 q = a[0] / a[1] - ((a[0] % a[1] != 0) && (a[0] < 0));
      if (f == "idxmap_floordiv") return q;
      if (f == "idxmap_floormod") return a[0] - q * a[1];
      if (f == "idxmap_ceildiv") return q + (a[0] % a[1] != 0);
      return std::nullopt;
    }
    case COp::kLessEqual:
      return a[0] <= a[1];
    case COp::kGreaterEqual:
      return a[0] >= a[1];
    case COp::kLess:
      return a[0] < a[1];
    case COp::kEqual:
      return a[0] == a[1];
    case COp::kAnd:
      return a[0] && a[1];
  }
  return std::nullopt;
}

// Every single change of `e` (see the file comment); `variables` are what a swapped variable
// may become.
inline void forEachMutant(const CExpr& e, const std::vector<DeclaredVariable>& variables,
                          const std::function<void(const CExpr&)>& emit) {
  auto node = [](CExprNode n) { return std::make_shared<const CExprNode>(std::move(n)); };
  const std::vector<CExpr>& o = e->operands;
  switch (e->op) {
    case COp::kLiteral:
      emit(literal(e->value + 1));
      emit(literal(e->value - 1));
      break;
    case COp::kVariable:
      for (const DeclaredVariable& v : variables)
        if (v.name != e->name) emit(variable(v.name, v.width));
      break;
    case COp::kAdd:
    case COp::kSub:
      emit(binary(e->op == COp::kAdd ? COp::kSub : COp::kAdd, o[0], o[1]));
      emit(o[0]);
      emit(o[1]);
      break;
    case COp::kCall:
      if (e->name == "idxmap_floordiv") emit(binary(COp::kDiv, o[0], o[1]));
      if (e->name == "idxmap_floormod") emit(binary(COp::kRem, o[0], o[1]));
      if (e->name == "idxmap_clamp") emit(o[0]);
      if (e->name == "idxmap_min" || e->name == "idxmap_max")
        emit(call(e->name == "idxmap_min" ? "idxmap_max" : "idxmap_min", e->width, o));
      break;
    case COp::kCast:
      emit(o[0]);
      break;
    case COp::kLessEqual:
      emit(binary(COp::kLess, o[0], o[1]));
      break;
    case COp::kLess:
      emit(binary(COp::kLessEqual, o[0], o[1]));
      break;
    case COp::kGreaterEqual:
      emit(binary(COp::kEqual, o[0], o[1]));
      break;
    case COp::kAnd:
      emit(o[0]);
      emit(o[1]);
      break;
    default:
      break;
  }
  for (size_t i = 0; i < o.size(); ++i)
    forEachMutant(o[i], variables, [&](const CExpr& inner) {
      CExprNode copy = *e;
      copy.operands[i] = inner;
      emit(node(std::move(copy)));
    });
}

// The points a loop nest runs its statements at (the statement's point expressions
// evaluated), in order; nullopt where a bound or point is undefined or a loop runs more than
// `limit` iterations (a mutated test that never fails).
inline std::optional<std::vector<std::vector<int64_t>>> runLoopNest(const LoopNest& nest,
                                                                    int64_t limit) {
  std::vector<std::string> names;
  for (size_t i = 0; i < nest.dims; ++i) names.push_back("d" + std::to_string(i));
  std::vector<int64_t> values(nest.dims, 0);
  std::vector<std::vector<int64_t>> points;
  bool defined = true;
  auto value = [&](const CExpr& e) -> int64_t {
    std::optional<__int128> v = evaluate(e, names, values);
    if (!v) defined = false;
    return v ? static_cast<int64_t>(*v) : 0;
  };
  std::function<void(const LoopNode&)> run = [&](const LoopNode& node) {
    if (!defined) return;
    switch (node.kind) {
      case LoopNode::Kind::kFor: {
        size_t i = std::stoul(node.iterator.substr(1));
        int64_t iterations = 0;
        for (values[i] = value(node.lower); defined && value(node.condition);
             values[i] += node.step) {
          if (++iterations > limit) {
            defined = false;
            return;
          }
          for (const LoopNode& child : node.body) run(child);
        }
        values[i] = 0;
        return;
      }
      case LoopNode::Kind::kIf:
        for (const LoopNode& child : value(node.condition) ? node.body : node.orElse) run(child);
        return;
      case LoopNode::Kind::kBlock:
        for (const LoopNode& child : node.body) run(child);
        return;
      case LoopNode::Kind::kStatement: {
        std::vector<int64_t> point;
        for (const CExpr& coordinate : node.point) point.push_back(value(coordinate));
        points.push_back(point);
        return;
      }
    }
  };
  run(nest.root);
  if (!defined) return std::nullopt;
  return points;
}

// Every nest with one bound or guard of `nest` changed.
inline void forEachLoopMutant(const LoopNest& nest, const std::vector<DeclaredVariable>& variables,
                              const std::function<void(const LoopNest&)>& emit) {
  std::function<void(LoopNode&, LoopNest&)> walk = [&](LoopNode& node, LoopNest& copy) {
    auto each = [&](CExpr& slot) {
      const CExpr original = slot;
      forEachMutant(original, variables, [&](const CExpr& m) {
        slot = m;
        emit(copy);
      });
      slot = original;
    };
    if (node.kind == LoopNode::Kind::kFor) each(node.lower);
    if (node.kind == LoopNode::Kind::kFor || node.kind == LoopNode::Kind::kIf) each(node.condition);
    for (LoopNode& child : node.body) walk(child, copy);
    for (LoopNode& child : node.orElse) walk(child, copy);
  };
  LoopNest copy = nest;
  walk(copy.root, copy);
}

}  // namespace idxmap::codegen::mutants
