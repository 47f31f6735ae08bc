// The prelude's index helpers, each defined once: what `idxmap_floordiv`, `idxmap_floormod`,
// `idxmap_ceildiv`, `idxmap_min`, `idxmap_max` and `idxmap_clamp` compute, step by step as the
// prelude's C does (codegen/prelude/prelude.cpp), over the operations every reader of a kernel
// has: C's truncating quotient and remainder, addition, comparison and choice. The validator's
// exact evaluator (128-bit integers) and the width proof (Z3 bit-vectors of the template's
// width) both instantiate it; isl's reading (isl_expressions.cpp, native floor, min and max) and
// the prelude's C are held to it by tests (tests/codegen/prelude/helpers_test.cpp).
//
// `Ops` provides, on its Value and Condition types: constant(int64_t), add, sub, quotient and
// remainder (C's, truncating toward zero), less (signed), notEqual, both (and), and
// select(condition, then, otherwise).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checked.h"

namespace idxmap::codegen {

// Whether `name` is one of the helpers below.
inline bool isIndexHelper(const std::string& name) {
  return name == "idxmap_floordiv" || name == "idxmap_floormod" || name == "idxmap_ceildiv" ||
         name == "idxmap_min" || name == "idxmap_max" || name == "idxmap_clamp";
}

template <class Ops>
typename Ops::Value helperValue(Ops& ops, const std::string& name,
                                const std::vector<typename Ops::Value>& args) {
  if (args.size() != (name == "idxmap_clamp" ? 3u : 2u))
    throw Error("`" + name + "` with " + std::to_string(args.size()) + " arguments");
  const typename Ops::Value &a = args[0], &b = args[1];
  const typename Ops::Value zero = ops.constant(0), one = ops.constant(1);
  if (name == "idxmap_floordiv" || name == "idxmap_ceildiv") {
    // q = a / b; floordiv: (a % b != 0 && a < 0) ? q - 1 : q; ceildiv: (... && a > 0) ? q + 1 : q
    const typename Ops::Value q = ops.quotient(a, b);
    const auto inexact = ops.notEqual(ops.remainder(a, b), zero);
    if (name == "idxmap_floordiv")
      return ops.select(ops.both(inexact, ops.less(a, zero)), ops.sub(q, one), q);
    return ops.select(ops.both(inexact, ops.less(zero, a)), ops.add(q, one), q);
  }
  if (name == "idxmap_floormod") {  // r = a % b; r < 0 ? r + b : r
    const typename Ops::Value r = ops.remainder(a, b);
    return ops.select(ops.less(r, zero), ops.add(r, b), r);
  }
  if (name == "idxmap_min") return ops.select(ops.less(b, a), b, a);  // b < a ? b : a
  if (name == "idxmap_max") return ops.select(ops.less(a, b), b, a);  // a < b ? b : a
  if (name == "idxmap_clamp") {  // v < lo ? lo : (hi < v ? hi : v)
    const typename Ops::Value& hi = args[2];
    return ops.select(ops.less(a, b), b, ops.select(ops.less(hi, a), hi, a));
  }
  throw Error("`" + name + "` is not an index helper of the prelude");
}

// Exact integers (wide enough that no step overflows for 64-bit arguments).
struct ExactHelperOps {
  using Value = __int128;
  static Value constant(int64_t v) { return v; }
  static Value add(Value a, Value b) { return a + b; }
  static Value sub(Value a, Value b) { return a - b; }
  static Value quotient(Value a, Value b) { return a / b; }
  static Value remainder(Value a, Value b) { return a % b; }
  static bool less(Value a, Value b) { return a < b; }
  static bool notEqual(Value a, Value b) { return a != b; }
  static bool both(bool a, bool b) { return a && b; }
  static Value select(bool c, Value a, Value b) { return c ? a : b; }
};

}  // namespace idxmap::codegen
