// Inside verify/programs: what a float element and each float op are as Z3 terms, under one of
// three models. One definition of each op's meaning, shared by every rule that computes on
// floats (element-wise ops, a scatter's update computation, converts, constants, iotas).
//
//  - kReals: a float is a Z3 real and every op exact (rounding not modeled). Two programs
//    equal here are "equal over the reals" only; a difference found here is a candidate the
//    interpreter must replay.
//  - kIeeeOpaqueRounding: a float is a Z3 IEEE float of the element type's own format (f16,
//    bf16, f32, f64), so -0, +0, infinities and NaN are values of their own; the ops that round
//    (add, multiply, divide, sqrt, converts) are uninterpreted functions of their operands, the
//    rest (moves, negate, abs, compare, minimum, maximum, clamp, select) exact. IEEE rounding is
//    one such function, so programs equal here are bit-identical, and deciding it needs no
//    bit-blasting of adders. Add and multiply take their operands in a canonical order (they
//    commute in IEEE arithmetic, NaN included); subtract is an add of the negation (IEEE 754
//    defines it so).
//  - kIeee: every op in Z3's IEEE theory, round to nearest even: exact, and costly to decide.
//
// NaN: Z3 has one NaN per format, so results that are both NaN count as equal (a NaN's payload
// is not a value StableHLO fixes). Integer-to-float converts of a value that is not a constant
// are uninterpreted in both IEEE models (Z3 4.8 gives no answer on reals that are not numerals).
#pragma once

#include <z3++.h>

#include <string>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::program_terms {

enum class FloatModel { kReals, kIeeeOpaqueRounding, kIeee };

class FloatTerms {
 public:
  FloatTerms(z3::context& ctx, FloatModel model) : ctx_(ctx), model_(model) {}
  FloatModel model() const { return model_; }
  bool ieee() const { return model_ != FloatModel::kReals; }

  z3::sort sort(const mlir_ir::ElementType& element) const;
  // `value` (already rounded to the element type, as the reader's constants are) as a term.
  z3::expr constant(double value, const mlir_ir::ElementType& element) const;

  z3::expr add(const z3::expr& a, const z3::expr& b, const mlir_ir::ElementType& element);
  z3::expr subtract(const z3::expr& a, const z3::expr& b, const mlir_ir::ElementType& element);
  z3::expr multiply(const z3::expr& a, const z3::expr& b, const mlir_ir::ElementType& element);
  z3::expr negate(const z3::expr& a) const;
  z3::expr abs(const z3::expr& a) const;
  // StableHLO's minimum / maximum: a NaN operand gives NaN, -0 is below +0.
  z3::expr minimum(const z3::expr& a, const z3::expr& b) const;
  z3::expr maximum(const z3::expr& a, const z3::expr& b) const;
  // EQ, NE, GE, GT, LE, LT as IEEE compares them (every compare with NaN is false but NE).
  z3::expr compare(const std::string& direction, const z3::expr& a, const z3::expr& b) const;
  // IEEE models only (kReals leaves them uninterpreted, as any other op): correctly rounded.
  z3::expr divide(const z3::expr& a, const z3::expr& b, const mlir_ir::ElementType& element);
  z3::expr sqrt(const z3::expr& a, const mlir_ir::ElementType& element);

  // An integer (its value, already wrapped to `from`) converted to the float type `to`.
  z3::expr fromInteger(const z3::expr& integer, const mlir_ir::ElementType& from,
                       const mlir_ir::ElementType& to);
  // A float of type `from` converted to the float type `to` (exact when it widens).
  z3::expr convert(const z3::expr& value, const mlir_ir::ElementType& from,
                   const mlir_ir::ElementType& to);

  // Whether a constant -0 was read as a real (where it is +0): the one float value reals do
  // not tell from another.
  bool readNegativeZero() const { return readNegativeZero_; }

  // A float numeral of any model as the double it is (a real numeral rounded to the nearest
  // double; an IEEE one exactly, its NaN the quiet NaN).
  static double valueOf(const z3::expr& numeral);

 private:
  using RoundedOp = Z3_ast (*)(Z3_context, Z3_ast, Z3_ast, Z3_ast);
  // add and multiply in an IEEE model: `exact` rounding to nearest even (kIeee), else one
  // uninterpreted function `name` of the operands in a canonical order (they commute in IEEE
  // arithmetic, NaN and zeros included).
  z3::expr commuting(const char* name, RoundedOp exact, const z3::expr& a, const z3::expr& b,
                     const mlir_ir::ElementType& element) const;
  // The uninterpreted function `name` of `operands` (kIeeeOpaqueRounding's rounding ops).
  z3::expr opaque(const std::string& name, const std::vector<z3::expr>& operands,
                  const mlir_ir::ElementType& element) const;
  z3::expr nearestEven() const;

  z3::context& ctx_;
  FloatModel model_;
  mutable bool readNegativeZero_ = false;
};

}  // namespace idxmap::program_terms
