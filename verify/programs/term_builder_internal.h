// Inside verify/programs: a function's values as Z3 terms over its arguments. Every tensor is
// a rule from an index (Z3 integers) to the element there; arguments are uninterpreted
// functions of their index, so a term says which argument elements a result element is made
// of, for every content of the arguments at once. Integer elements are Z3 integers (wrapped
// to their type's width by the arithmetic that could leave it), float elements reals or IEEE
// floats as the builder's FloatModel says (verify/programs/float_terms.h).
//
// Definedness: an op whose spec gives no result for some index values (tcp.gather and
// tensor.gather out of range, tensor.scatter's repeated indices) adds a precondition. Each
// precondition holds at every position the program computes, so it is asserted for real
// positions only: a rule's requirement is guarded by "this index lies inside the tensor",
// which keeps the branches a concatenate or a slice never takes out of the query.
#pragma once

#include <z3++.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/checked.h"
#include "core/name_table.h"
#include "core/text.h"
#include "ops/mlir/module.h"
#include "verify/programs/float_terms.h"

namespace idxmap::program_terms {

// An op or construct the terms do not model: the comparison says "unknown" with this reason.
class UnsupportedProgram : public LocatedError {
 public:
  using LocatedError::LocatedError;
};

// A function input the two programs share, as an uninterpreted function of the index.
struct ArgumentTerm {
  std::string name;  // "%indices"
  std::vector<int64_t> shape;
  mlir_ir::ElementType element;
  z3::func_decl function;
};

// One tensor value as a term rule. `rule` is called only for positions inside `shape`.
//
// Integer add, subtract, multiply and negate wrap to their type, and wrapping commutes with
// them (wrap(wrap(a) + b) = wrap(a + b)), so they leave it to whoever observes the value: their
// rule gives a value congruent to the element modulo 2^width (`wraps`), moves and scatter
// accumulations pass it on, and everything that looks at a value (a compare, an index, a
// convert, the compared result) reads it through TermBuilder::value, which wraps. A sum of
// updates then stays linear, and two sums in another order are equal without modular
// reasoning.
struct TermTensor {
  std::vector<int64_t> shape;
  mlir_ir::ElementType element;
  std::function<z3::expr(const std::vector<z3::expr>&)> rule;
  bool wraps = false;
};
using TensorRef = std::shared_ptr<const TermTensor>;

class TermBuilder;

// What a rule sees: the op, its operands and the builder.
struct TermContext {
  const mlir_ir::Operation& op;
  const std::vector<TensorRef>& operands;
  const std::vector<mlir_ir::Operation>& block;  // the block holding `op`
  TermBuilder& builder;
};
using TermRule = std::vector<TensorRef> (*)(const TermContext&);
using TermRules = NameTable<TermRule>;

// Each family's rows (verify/programs/<family>_terms.cpp).
const std::vector<TermRules::Row>& movementTermRules();
const std::vector<TermRules::Row>& elementTermRules();
const std::vector<TermRules::Row>& gatherTermRules();

class TermBuilder {
 public:
  // The limits that keep a query small enough to answer: a scatter's updates are unrolled
  // (each one a case of the result element's term), a constant is written out, and an
  // undefined-out-of-range op's index values are all constrained when its index space is
  // at most this many elements (else only those the compared element reads).
  static constexpr int64_t kMaxUnrolled = 4096;

  TermBuilder(z3::context& ctx, const mlir_ir::Module& module,
              const std::vector<ArgumentTerm>& arguments, FloatModel floats = FloatModel::kReals);

  // The values `function` returns, its arguments bound to the shared argument terms.
  std::vector<TensorRef> call(const mlir_ir::Function& function);

  // The element of `tensor` at `index` (memoized), congruent to it when the tensor `wraps`.
  // Preconditions the rule adds hold where `index` lies inside the tensor.
  z3::expr at(const TensorRef& tensor, const std::vector<z3::expr>& index);
  // The element itself: at(), wrapped to the element type when the tensor `wraps`.
  z3::expr value(const TensorRef& tensor, const std::vector<z3::expr>& index);
  // A precondition of the op being built at the position being computed; `what` says it in
  // words ("tcp.gather at f.mlir:9:8: every index in range").
  void require(const z3::expr& condition, const std::string& what);
  // A precondition that holds unconditionally (an index space enumerated position by position).
  void requireAlways(const z3::expr& condition, const std::string& what);

  TensorRef make(std::vector<int64_t> shape, mlir_ir::ElementType element,
                 std::function<z3::expr(const std::vector<z3::expr>&)> rule, bool wraps = false);
  // Runs a region's single block on scalar (rank-0) values; returns what it returns.
  std::vector<TensorRef> runBlock(const mlir_ir::Block& block, const std::vector<TensorRef>& args);

  z3::context& ctx() { return ctx_; }
  z3::expr integer(int64_t value) { return ctx_.int_val(value); }
  // `value` wrapped into the range of the integer type `element` (two's complement).
  z3::expr wrap(const z3::expr& value, const mlir_ir::ElementType& element);
  // The range every value of an integer element type lies in.
  z3::expr inTypeRange(const z3::expr& value, const mlir_ir::ElementType& element);
  // 0 <= index[d] < shape[d] for every d.
  z3::expr inShape(const std::vector<int64_t>& shape, const std::vector<z3::expr>& index);
  // What float elements and float ops are (the same model as the arguments').
  FloatTerms& floats() { return floats_; }
  // A float op that computes (rather than moves) elements: said in the verdict, since what it
  // promises depends on the float model.
  void noteFloatArithmetic(const std::string& op) { floatArithmetic_.insert(op); }

  const std::vector<z3::expr>& preconditions() const { return preconditions_; }
  // The preconditions in words, each once, in the order first met.
  const std::vector<std::string>& assumptions() const { return assumptions_; }
  const std::set<std::string>& floatArithmetic() const { return floatArithmetic_; }
  // Whether reals may have told the float values apart otherwise than IEEE floats would: some
  // float op computed, or a constant -0 was read (the real 0). Floats that only move are
  // compared exactly as reals.
  bool realsMayDiffer() const { return !floatArithmetic_.empty() || floats_.readNegativeZero(); }

 private:
  std::vector<TensorRef> runOps(const std::vector<mlir_ir::Operation>& ops);
  TensorRef lookup(const mlir_ir::Value& value) const;

  z3::context& ctx_;
  const mlir_ir::Module& module_;
  std::vector<ArgumentTerm> arguments_;
  std::vector<std::map<std::string, TensorRef>> scopes_;
  // Every tensor made, kept alive: the memo is keyed by their addresses.
  std::vector<TensorRef> made_;
  std::map<std::pair<const TermTensor*, std::vector<unsigned>>, z3::expr> memo_;
  std::vector<z3::expr> guards_;  // the position being computed, innermost last
  std::vector<z3::expr> preconditions_;
  std::vector<std::string> assumptions_;
  FloatTerms floats_;
  std::set<std::string> floatArithmetic_;
  int depth_ = 0;  // calls being built, against runaway recursion
};

// A double as the exact rational it is (doubles are dyadic), so that two programs writing the
// same constant get the same real (verify/programs/float_terms.cpp).
z3::expr exactReal(z3::context& ctx, double value);
// `index` as Z3 numerals.
std::vector<z3::expr> numerals(z3::context& ctx, const std::vector<int64_t>& index);
// Row-major linear position of `index` in `shape`, and its inverse (Z3 integer terms).
z3::expr linearize(z3::context& ctx, const std::vector<int64_t>& shape,
                   const std::vector<z3::expr>& index);
std::vector<z3::expr> delinearize(z3::context& ctx, const std::vector<int64_t>& shape,
                                  const z3::expr& position);
// The op's located "unsupported" error.
[[noreturn]] void unsupported(const mlir_ir::Operation& op, const std::string& message);
// The static shape of result `index` as the op declares it (unsupported when not static).
std::vector<int64_t> declaredShape(const mlir_ir::Operation& op, size_t index = 0);
mlir_ir::ElementType declaredElement(const mlir_ir::Operation& op, size_t index = 0);
// The first of the attributes `names` (pretty spelling, then generic) as integers; unsupported
// when none is there or it is not a list of integers.
std::vector<int64_t> intsOf(const mlir_ir::Operation& op,
                            std::initializer_list<std::string_view> names);
int64_t intOf(const mlir_ir::Operation& op, std::initializer_list<std::string_view> names);
// Unsupported unless the op has exactly `count` operands.
void expectOperands(const TermContext& ctx, size_t count);

}  // namespace idxmap::program_terms
