#include "codegen/validate/width_proof.h"

#include <z3++.h>

#include "codegen/kernel/helpers.h"
#include "codegen/kernel/loop_nest.h"
#include "core/bridges/z3_bridge.h"

namespace idxmap::codegen {
namespace {

unsigned bits(CWidth width) { return width == CWidth::k32 ? 32 : 64; }

// Thrown for a node outside what the translation encodes (a comparison, an unknown call).
struct Unencodable {
  std::string what;
};

// A printed expression as C computes it: each node a bit-vector of its width; `safe` collects
// that no node overflows (the exact result, computed twice as wide, fits the node's width),
// and that no variable or narrowing cast loses bits.
class CTranslator {
 public:
  CTranslator(z3::context& ctx, const Z3Variables& vars) : ctx_(ctx), vars_(vars), safe_(ctx) {
    safe_ = ctx.bool_val(true);
  }

  z3::expr translate(const CExpr& e) {
    const unsigned w = bits(widthOf(e));
    auto operand = [&](size_t i) { return widen(translate(e->operands.at(i)), w); };
    switch (e->op) {
      case COp::kLiteral:
        return ctx_.bv_val(e->value, w);
      case COp::kVariable:  // declared in w bits: its value must fit them
        return checked(variable(e->name), w);
      case COp::kAdd:
        return checked(z3::sext(operand(0), w) + z3::sext(operand(1), w), w);
      case COp::kSub:
        return checked(z3::sext(operand(0), w) - z3::sext(operand(1), w), w);
      case COp::kMul:
        return checked(z3::sext(operand(0), w) * z3::sext(operand(1), w), w);
      case COp::kNeg:
        return checked(-z3::sext(operand(0), w), w);
      case COp::kDiv:  // bvsdiv and bvsrem truncate, as C does; the divisor is positive
        return operand(0) / operand(1);
      case COp::kRem:
        return z3::srem(operand(0), operand(1));
      case COp::kCall:
        return call(e->name, e->operands, w);
      case COp::kCast: {  // a narrowing cast must keep the value
        z3::expr v = translate(e->operands.at(0));
        return v.get_sort().bv_size() > w ? checked(v, w) : widen(v, w);
      }
      default:
        throw Unencodable{"a condition in an index expression"};
    }
  }
  const z3::expr& safe() const { return safe_; }

 private:
  // The prelude's helpers, by their one definition (kernel/helpers.h), on bit-vectors of the
  // template's width: bvsdiv and bvsrem truncate as C does.
  struct BitVectorOps {
    z3::context& ctx;
    unsigned w;
    using Value = z3::expr;
    z3::expr constant(int64_t v) const { return ctx.bv_val(v, w); }
    static z3::expr add(const z3::expr& a, const z3::expr& b) { return a + b; }
    static z3::expr sub(const z3::expr& a, const z3::expr& b) { return a - b; }
    static z3::expr quotient(const z3::expr& a, const z3::expr& b) { return a / b; }
    static z3::expr remainder(const z3::expr& a, const z3::expr& b) { return z3::srem(a, b); }
    static z3::expr less(const z3::expr& a, const z3::expr& b) { return a < b; }
    static z3::expr notEqual(const z3::expr& a, const z3::expr& b) { return a != b; }
    static z3::expr both(const z3::expr& a, const z3::expr& b) { return a && b; }
    static z3::expr select(const z3::expr& c, const z3::expr& a, const z3::expr& b) {
      return z3::ite(c, a, b);
    }
  };

  z3::expr call(const std::string& name, const std::vector<CExpr>& args, unsigned w) {
    if (!isIndexHelper(name)) throw Unencodable{"a call to " + name};
    std::vector<z3::expr> values;
    for (const CExpr& arg : args) values.push_back(widen(translate(arg), w));
    BitVectorOps ops{ctx_, w};
    return helperValue(ops, name, values);
  }

  // A value of fewer bits sign-extended (C's conversion to the wider type), of more bits
  // truncated (a cast to int32_t).
  static z3::expr widen(const z3::expr& v, unsigned w) {
    unsigned have = v.get_sort().bv_size();
    if (have == w) return v;
    return have < w ? z3::sext(v, w - have) : v.extract(w - 1, 0);
  }

  // `wide`: a value of more than w bits (an operation on operands sign-extended to 2w bits,
  // exact; a 64-bit variable or value); it must fit in w.
  z3::expr checked(const z3::expr& wide, unsigned w) {
    const unsigned have = wide.get_sort().bv_size();
    if (have == w) return wide;
    z3::expr narrow = wide.extract(w - 1, 0);
    safe_ = safe_ && wide == z3::sext(narrow, have - w);
    return narrow;
  }

  const z3::expr& variable(const std::string& name) {
    const std::vector<z3::expr>* from = nullptr;
    std::string index;
    if (name.rfind("rt", 0) == 0) {
      from = &vars_.runtimeVars;
      index = name.substr(2);
    } else if (name.rfind('d', 0) == 0) {
      from = &vars_.dims;
      index = name.substr(1);
    }
    if (!from || index.empty() || index.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(index) >= from->size())
      throw Unencodable{"the variable " + name};
    return (*from)[std::stoul(index)];
  }

  z3::context& ctx_;
  const Z3Variables& vars_;
  z3::expr safe_;
};

// The points where the kernel may evaluate an expression, on 64-bit vectors: every variable in
// its range, and each of the map's constraints on dims alone (`withRuntime` false) or all of
// them. A point where computing a constraint overflows 64 bits stays in: a superset of the
// points is what makes a proof over it sound.
z3::expr domain(z3::context& ctx, const IndexingMap& map, const Z3Variables& vars,
                bool withRuntime) {
  z3::expr in = ctx.bool_val(true);
  auto within = [&](const z3::expr& v, const Interval& range) {
    return v >= ctx.bv_val(range.lo, 64) && v <= ctx.bv_val(range.hi, 64);
  };
  if (!withRuntime) {
    for (size_t i = 0; i < map.dims.size(); ++i) in = in && within(vars.dims[i], map.dims[i].range);
    for (size_t k = 0; k < map.runtimeVars.size(); ++k)
      in = in && within(vars.runtimeVars[k], map.runtimeVars[k].range);
  }
  for (const Constraint& c : map.constraints) {
    if (usesOnlyDims(c.expr) == withRuntime) continue;
    z3::expr exact = ctx.bool_val(true);
    z3::expr value = toZ3BitVector(c.expr, vars, ctx, exact);
    in = in && (!exact || within(value, c.range));
  }
  return in;
}

std::string pointText(const z3::model& model, const IndexingMap& map, const Z3Variables& vars) {
  std::string out;
  auto add = [&](const std::string& name, const z3::expr& v) {
    uint64_t bitsOf = 0;  // a bit-vector numeral reads unsigned: two's complement back
    model.eval(v, true).is_numeral_u64(bitsOf);
    out += (out.empty() ? "" : ", ") + name + " = " + std::to_string(static_cast<int64_t>(bitsOf));
  };
  for (size_t i = 0; i < map.dims.size(); ++i) add("d" + std::to_string(i), vars.dims[i]);
  for (size_t k = 0; k < map.runtimeVars.size(); ++k)
    add("rt" + std::to_string(k), vars.runtimeVars[k]);
  return out;
}

ProofResult proveNoOverflowIn(z3::context& ctx, const std::vector<WidthQuestion>& questions,
                              const IndexingMap& map) {
  try {
    Z3Variables vars = makeZ3Variables(ctx, map, "", /*bitVector=*/true);
    std::vector<z3::expr> safe;
    z3::expr box = ctx.bool_val(true), guarded = ctx.bool_val(true);
    for (const WidthQuestion& question : questions) {
      CTranslator c(ctx, vars);
      c.translate(question.code);
      (question.guarded ? guarded : box) = (question.guarded ? guarded : box) && c.safe();
      safe.push_back(c.safe());
    }
    z3::solver solver(ctx, "QF_BV");
    z3::params limits(ctx);
    limits.set("timeout", 10000u);
    solver.set(limits);
    solver.add(domain(ctx, map, vars, false) &&
               (!box || (domain(ctx, map, vars, true) && !guarded)));
    switch (solver.check()) {
      case z3::unsat:
        return ProofResult::proven("z3");
      case z3::sat: {
        z3::model model = solver.get_model();
        std::string failing;
        for (size_t i = 0; i < questions.size(); ++i)
          if (model.eval(safe[i], true).is_false())
            failing += (failing.empty() ? "" : ", ") + questions[i].role;
        return ProofResult::refuted("z3", "at " + pointText(model, map, vars) +
                                              " an operation overflows its width in " + failing);
      }
      default:
        return ProofResult::unknown("Z3: " + solver.reason_unknown());
    }
  } catch (const Unencodable& e) {
    return ProofResult::unknown("Z3 does not encode " + e.what);
  } catch (const z3::exception& e) {
    return ProofResult::unknown(std::string("Z3: ") + e.msg());
  }
}

}  // namespace

ProofResult proveNoOverflowWithZ3(const std::vector<WidthQuestion>& questions,
                                  const IndexingMap& map) {
  if (questions.empty()) return ProofResult::proven("z3");
  auto attempt = [&](z3::context& ctx) { return proveNoOverflowIn(ctx, questions, map); };
  return proveInReusedZ3Context(attempt, provenOrTimedOut);
}

}  // namespace idxmap::codegen
