// The reads of an HLO stage that are not one map (codegen/hlo/hlo_stage_internal.h): gather's
// start indices, the branches of pad, concatenate and dynamic-update-slice, and reductions
// (reduce, reduce-window, dot) as loops over their range variables.
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/kernel/index_code.h"
#include "simplifier/simplify.h"

namespace idxmap::codegen::hlo_stage {

using hlo::Instruction;

std::string StageEmitter::gather(const Frame& frame, const Instruction& instruction,
                                 const std::vector<Expr>& index) {
  IndexingMap operand = operandMap(instruction, 0), indices = operandMap(instruction, 1);
  if (!coversShape(operand, instruction.shape) || !operand.rangeVars.empty())
    throw unsupported(instruction, "kernels do not compute it (its map reads conditionally)");
  const Instruction& startIndices = *instruction.operands[1];
  const ElementCode& type = codeOf(startIndices);
  if (type.kind != ElementCode::Kind::kInt)
    throw unsupported(instruction, "start indices must be integers");
  // Runtime variable k is entry k of the index vector (the indices map with its range
  // variable, the position in the vector, fixed to k), clamped into its range as XLA clamps.
  std::vector<Expr> runtime;
  for (size_t k = 0; k < operand.runtimeVars.size(); ++k) {
    IndexingMap entry = indices;
    std::vector<Expr> fixed(entry.rangeVars.size(), Expr::constant(static_cast<int64_t>(k)));
    for (Expr& result : entry.results) result = result.replaceVariables({}, fixed, {});
    std::string raw = value(frame, startIndices, through(entry, index));
    runtime.push_back(declareRuntime(raw, type, operand.runtimeVars[k].range));
  }
  return value(frame, *instruction.operands[0], through(operand, index, runtime));
}

std::string StageEmitter::branch(const Frame& frame, const Instruction& instruction,
                                 const std::vector<Expr>& index) {
  const std::string& op = instruction.opcode;
  std::string result = fresh("v");
  const ElementCode& type = codeOf(instruction);
  emit(ir::var(type.compute, result));
  // The operands that apply under conditions, in order; the fallback applies elsewhere.
  std::vector<size_t> conditional;
  std::optional<size_t> fallback;
  if (op == "pad") {
    conditional = {0};
    fallback = 1;
  } else if (op == "dynamic-update-slice") {
    conditional = {1};
    fallback = 0;
  } else {
    for (size_t i = 0; i < instruction.operands.size(); ++i) conditional.push_back(i);
  }
  std::vector<std::vector<Constraint>> alternatives;
  struct Taken {
    CExpr condition;  // null: where no earlier condition holds
    std::vector<ir::Node> body;
  };
  std::vector<Taken> branches;
  for (size_t n = 0; n < conditional.size(); ++n) {
    size_t i = conditional[n];
    IndexingMap map = operandMap(instruction, i);
    if (map.knownEmpty) continue;  // an operand with no elements is never read
    std::vector<Expr> runtime;
    if (op == "dynamic-update-slice") runtime = runtimeStarts(frame, instruction, 2, map);
    std::vector<Constraint> condition = conditionOf(map, index, runtime);
    alternatives.push_back(condition);
    // The last operand that has elements takes the else branch.
    bool last = !fallback;
    for (size_t later = n + 1; last && later < conditional.size(); ++later)
      last = operandMap(instruction, conditional[later]).knownEmpty;
    CExpr test;
    if (last)
      checks_.push_back(
          {PendingCheck::Kind::kCovered, op, "", {}, {}, {}, alternatives, context_, 0, ""});
    else
      test = conditionExpr(op + " operand " + std::to_string(i), condition);
    open();
    memo_.emplace_back();
    std::vector<Constraint> outer = context_;
    context_.insert(context_.end(), condition.begin(), condition.end());
    std::string v = value(frame, *instruction.operands[i], through(map, index, runtime));
    emit(ir::assign(result, ir::elementValue(v)));
    context_ = outer;
    memo_.pop_back();
    branches.push_back({test, close()});
  }
  if (fallback) {
    IndexingMap map = fallbackMap(instruction, *fallback);
    open();
    memo_.emplace_back();
    // Runs where no condition holds: checked over the whole branch, a superset.
    std::string v = value(frame, *instruction.operands[*fallback], through(map, index));
    emit(ir::assign(result, ir::elementValue(v)));
    memo_.pop_back();
    branches.push_back({nullptr, close()});
  } else if (branches.empty()) {
    throw unsupported(instruction, "no operand has elements");
  }
  // if (c0) {...} else if (c1) {...} else {...}: built from the last branch back.
  std::vector<ir::Node> otherwise;
  if (!branches.back().condition) {
    otherwise = std::move(branches.back().body);
    branches.pop_back();
  }
  if (branches.empty()) {
    emit(ir::block(std::move(otherwise), true));
    return result;
  }
  for (size_t b = branches.size(); b-- > 0;)
    otherwise = {
        ir::ifThen(branches[b].condition, std::move(branches[b].body), std::move(otherwise))};
  emit(std::move(otherwise.front()));
  return result;
}

// reduce / reduce-window of N inputs and N inits (XLA's variadic form when N > 1: an argmax's
// value and index): N accumulators start at the inits, and at every position the loops visit,
// in row-major order, become the reducer of (accumulators..., the inputs' elements there...).
// The reducer's N results are computed into locals before any accumulator changes, since each
// may read them all.
std::vector<std::string> StageEmitter::reduction(const Frame& frame, const Instruction& reduce,
                                                 const std::vector<Expr>& index) {
  const size_t n = reduce.operands.size() / 2;
  if (n == 0 || reduce.operands.size() != 2 * n || (n > 1) != reduce.shape.isTuple)
    throw unsupported(reduce, "expects N inputs, N inits and N results");
  const hlo::Computation* reducer = reduce.calledComputations.at(0);
  if (n > 1 && (reducer->root->opcode != "tuple" || reducer->root->operands.size() != n))
    throw unsupported(reduce, "its reducer must return a tuple of " + std::to_string(n));
  std::vector<std::string> accumulators;
  for (size_t k = 0; k < n; ++k) {
    accumulators.push_back(fresh("a"));
    emit(ir::var(codeOfResult(reduce, k).compute, accumulators.back(),
                 ir::elementValue(value(frame, *reduce.operands[n + k], {}))));
  }
  if (emptyReduction_) return accumulators;
  IndexingMap reads = operandMap(reduce, 0);
  ReducedLoops loops = openReducedLoops(reads, index, reduce.opcode);
  const std::vector<Expr>& reduced = loops.iterators;
  IndexingMap context = contextMap();
  std::vector<std::string> bound = accumulators;
  for (size_t k = 0; k < n; ++k) {
    IndexingMap input = k == 0 ? reads : operandMap(reduce, k);
    if (input.rangeVars.size() != reads.rangeVars.size() || input.constraints != reads.constraints)
      throw unsupported(reduce, "its inputs are not read at one position");
    std::vector<Expr> at;
    for (Expr result : input.results)
      at.push_back(provenSimplified(result.replaceVariables(index, reduced, {}), context));
    bound.push_back(value(frame, *reduce.operands[k], at));
  }
  Frame inner{reducer, bound, next_++};
  memo_.emplace_back();
  if (n == 1) {
    emit(ir::assign(accumulators[0], ir::elementValue(value(inner, *reducer->root, {}))));
  } else {
    std::vector<std::string> next;
    for (size_t k = 0; k < n; ++k)
      next.push_back(
          local(codeOfResult(reduce, k).compute, value(inner, *reducer->root->operands[k], {})));
    for (size_t k = 0; k < n; ++k) emit(ir::assign(accumulators[k], ir::elementValue(next[k])));
  }
  memo_.pop_back();
  closeReducedLoops(loops);
  return accumulators;
}

StageEmitter::ReducedLoops StageEmitter::openReducedLoops(const IndexingMap& reads,
                                                          const std::vector<Expr>& index,
                                                          const std::string& opcode) {
  ReducedLoops loops;
  for (size_t j = 0; j < reads.rangeVars.size(); ++j) {
    open();  // the loop's body (closeReducedLoops)
    loops.iterators.push_back(Expr::dim(static_cast<unsigned>(outputDims_ + j)));
  }
  memo_.emplace_back();  // values computed inside the loops stay there
  // The map's constraints, its range variables the loops' iterators.
  IndexingMap walked = reads;
  for (Constraint& c : walked.constraints)
    c.expr = c.expr.replaceVariables({}, loops.iterators, {});
  std::vector<Constraint> condition = conditionOf(walked, index, {});
  loops.outerContext = context_;
  if (!condition.empty()) {
    loops.guard = conditionExpr(opcode + " window", condition);
    open();
    context_.insert(context_.end(), condition.begin(), condition.end());
  }
  return loops;
}

void StageEmitter::closeReducedLoops(const ReducedLoops& loops) {
  if (loops.guard) {
    std::vector<ir::Node> guarded = close();
    emit(ir::ifThen(loops.guard, std::move(guarded)));
    context_ = loops.outerContext;
  }
  memo_.pop_back();
  // Innermost first: each loop's body is the innermost open block.
  for (size_t j = loops.iterators.size(); j-- > 0;) {
    const std::string d = "d" + std::to_string(outputDims_ + j);
    const Interval& range = map_.dims[outputDims_ + j].range;
    std::vector<ir::Node> body = close();
    emit(ir::forLoop(d, literal(range.lo),
                     binary(COp::kLessEqual, variable(d, width_), literal(range.hi)), 1,
                     std::move(body)));
  }
}

// XLA's dot and convolution (its evaluator's HandleDot, HandleConvolution): each operand
// converted to the result type first, the products summed, starting from 0, over the positions
// the op model's range variables walk in row-major order (a dot's contracting dims as
// lhs_contracting_dims lists them; a convolution's window positions, then the input features
// of the output feature's group), both operand maps sharing them. A convolution's window
// position in padding or a base dilation hole is skipped, as XLA skips it (the input map's
// constraints guard the product). Integers wrap (elementwise multiply and add); floats
// accumulate unrounded in float (f16 and bf16 too, rounded once at the end) or double; a
// product of two converted halves or floats is exact in the accumulator, so only the additions
// round, as the evaluator's do.
std::string StageEmitter::dotProduct(const Frame& frame, const Instruction& dot,
                                     const std::vector<Expr>& index) {
  const ElementCode& type = codeOf(dot);
  if (type.kind == ElementCode::Kind::kPred || type.kind == ElementCode::Kind::kComplex)
    throw unsupported(dot, "a " + dot.opcode + " of " + type.hloType + " values is not computed");
  const ElementCode sum = type.kind == ElementCode::Kind::kHalf ? *elementCode("f32") : type;
  IndexingMap lhs = operandMap(dot, 0), rhs = operandMap(dot, 1);
  if (lhs.rangeVars.size() != rhs.rangeVars.size() || !rhs.constraints.empty())
    throw unsupported(dot, dot.opcode == "convolution"
                               ? "batch groups are not computed (the input map reads every "
                                 "group, an over-approximation XLA's analysis shares)"
                               : "its operands do not share their contracting dims");
  std::string accumulator = fresh("a");
  emit(ir::var(sum.compute, accumulator, ir::elementValue(*literalElement(sum, "0"))));
  if (emptyReduction_) return accumulator;
  ReducedLoops loops = openReducedLoops(lhs, index, dot.opcode);
  const std::vector<Expr>& reduced = loops.iterators;
  IndexingMap context = contextMap();
  auto operand = [&](size_t k, const IndexingMap& map) {
    std::vector<Expr> at;
    for (Expr result : map.results)
      at.push_back(provenSimplified(result.replaceVariables(index, reduced, {}), context));
    const ElementCode& from = codeOf(*dot.operands[k]);
    std::string v = value(frame, *dot.operands[k], at);
    return from.hloType == type.hloType ? v : local(type.compute, convertElement(from, type, v));
  };
  std::string l = operand(0, lhs), r = operand(1, rhs);
  if (type.kind == ElementCode::Kind::kInt) {
    std::string product = *elementwiseValue("multiply", "", {type, type}, type, {l, r});
    emit(ir::assign(accumulator, ir::elementValue(*elementwiseValue(
                                     "add", "", {type, type}, type,
                                     {accumulator, local(type.compute, product)}))));
  } else {
    emit(ir::assign(accumulator,
                    ir::elementValue(accumulator + " + static_cast<" + sum.compute + ">(" + l +
                                     ") * static_cast<" + sum.compute + ">(" + r + ")")));
  }
  closeReducedLoops(loops);
  return type.kind == ElementCode::Kind::kHalf
             ? local(type.compute, convertElement(sum, type, accumulator))
             : accumulator;
}

}  // namespace idxmap::codegen::hlo_stage
