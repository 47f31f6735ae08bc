// The reads of an HLO stage that are not one map (codegen/hlo_stage_internal.h): gather's
// start indices, the branches of pad, concatenate and dynamic-update-slice, and reductions
// (reduce, reduce-window) as loops over their range variables.
#include "codegen/hlo_kernel.h"
#include "codegen/hlo_stage_internal.h"
#include "codegen/index_code.h"
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
  line(type.compute + " " + result + ";");
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
  size_t printed = 0;
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
    std::string role = op + " operand " + std::to_string(i);
    if (last) {
      checks_.push_back({PendingCheck::Kind::kCovered, op, "", {}, {}, {}, alternatives, context_});
      line(printed ? "} else {" : "{");
    } else {
      std::string text = printCondition(role, condition);
      line(std::string(printed ? "} else if (" : "if (") + text + ") {");
    }
    ++printed;
    indent_ += 2;
    memo_.emplace_back();
    std::vector<Constraint> outer = context_;
    context_.insert(context_.end(), condition.begin(), condition.end());
    std::string v = value(frame, *instruction.operands[i], through(map, index, runtime));
    line(result + " = " + v + ";");
    context_ = outer;
    memo_.pop_back();
    indent_ -= 2;
  }
  if (fallback) {
    IndexingMap map = fallbackMap(instruction, *fallback);
    line(printed ? "} else {" : "{");
    indent_ += 2;
    memo_.emplace_back();
    // Runs where no condition holds: checked over the whole branch, a superset.
    std::string v = value(frame, *instruction.operands[*fallback], through(map, index));
    line(result + " = " + v + ";");
    memo_.pop_back();
    indent_ -= 2;
  } else if (printed == 0) {
    throw unsupported(instruction, "no operand has elements");
  }
  line("}");
  return result;
}

std::string StageEmitter::reduction(const Frame& frame, const Instruction& reduce,
                                    const std::vector<Expr>& index) {
  if (reduce.operands.size() != 2 || reduce.shape.isTuple)
    throw unsupported(reduce, "variadic reductions are not computed");
  const ElementCode& type = codeOf(reduce);
  const hlo::Computation* reducer = reduce.calledComputations.at(0);
  IndexingMap reads = operandMap(reduce, 0);
  std::string accumulator = fresh("a");
  line(type.compute + " " + accumulator + " = " + value(frame, *reduce.operands[1], {}) + ";");
  if (emptyReduction_) return accumulator;
  std::vector<Expr> reduced;
  for (size_t j = 0; j < reads.rangeVars.size(); ++j) {
    std::string d = "d" + std::to_string(outputDims_ + j);
    const Interval& range = map_.dims[outputDims_ + j].range;
    line("for (" + std::string(typeName(width_)) + " " + d + " = " + printCExpr(literal(range.lo)) +
         "; " + d + " <= " + printCExpr(literal(range.hi)) + "; ++" + d + ") {");
    indent_ += 2;
    reduced.push_back(Expr::dim(static_cast<unsigned>(outputDims_ + j)));
  }
  memo_.emplace_back();
  // A window position outside the operand (padding, a base dilation hole) is skipped, as XLA
  // skips it: the map's constraints, with its range variables as the loops' iterators, guard
  // the accumulation.
  IndexingMap walked = reads;
  for (Constraint& c : walked.constraints) c.expr = c.expr.replaceVariables({}, reduced, {});
  std::vector<Constraint> condition = conditionOf(walked, index, {});
  std::vector<Constraint> outer = context_;
  if (!condition.empty()) {
    line("if (" + printCondition(reduce.opcode + " window", condition) + ") {");
    indent_ += 2;
    context_.insert(context_.end(), condition.begin(), condition.end());
  }
  IndexingMap context = contextMap();
  std::vector<Expr> at;
  for (Expr result : reads.results)
    at.push_back(provenSimplified(result.replaceVariables(index, reduced, {}), context));
  std::string x = value(frame, *reduce.operands[0], at);
  Frame inner{reducer, {accumulator, x}, next_++};
  memo_.emplace_back();
  line(accumulator + " = " + value(inner, *reducer->root, {}) + ";");
  memo_.pop_back();
  memo_.pop_back();
  if (!condition.empty()) {
    indent_ -= 2;
    line("}");
    context_ = outer;
  }
  for (size_t j = 0; j < reads.rangeVars.size(); ++j) {
    indent_ -= 2;
    line("}");
  }
  return accumulator;
}

}  // namespace idxmap::codegen::hlo_stage
