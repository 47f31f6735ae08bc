#include "verify/replay/prove_equal.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/bridges/z3_bridge.h"
#include "ops/interp/op_table.h"

namespace idxmap::program_equality {
namespace {

using mlir_interpreter::Engine;
using mlir_interpreter::Tensor;
using program_terms::TermComparison;

// Float arguments tried in turn until the difference shows: the solver's values, then
// distinct values (each element names itself), then random quarters from fixed seeds.
constexpr int kRandomFloatTries = 3;

std::vector<std::vector<Tensor>> argumentCandidates(const ComparedFunction& function,
                                                    const TermComparison& candidate) {
  const auto& parameters = function.function->arguments;
  std::vector<std::vector<Tensor>> tries(2 + kRandomFloatTries);
  for (size_t i = 0; i < parameters.size(); ++i) {
    const mlir_ir::Type& type = parameters[i].type;
    Tensor base = gather_scatter::zeros(type.elementType().toString(), type.shape);
    if (!base.isFloat()) {
      if (candidate.integerArguments[i].size() != base.ints.size())
        throw Error("argument " + parameters[i].value.toString() + " is too large to write out");
      for (size_t k = 0; k < base.ints.size(); ++k)
        base.ints[k] =
            mlir_interpreter::wrapInteger(base.element_type, candidate.integerArguments[i][k]);
    }
    for (size_t t = 0; t < tries.size(); ++t) {
      Tensor value = base;
      std::mt19937 rng(static_cast<unsigned>(t * 7919 + i));
      // The solver's values when it wrote them out (arguments of up to 2^16 elements).
      const std::vector<double>& solved = candidate.floatArguments[i];
      for (size_t k = 0; k < value.floats.size(); ++k) {
        double v =
            t == 0 && solved.size() == value.floats.size() ? solved[k]
            : t <= 1                                       ? static_cast<double>(k + 1)
                     : static_cast<double>(std::uniform_int_distribution<int>(-400, 400)(rng)) / 4;
        value.floats[k] = gather_scatter::roundToElementType(value.element_type, v);
      }
      tries[t].push_back(std::move(value));
    }
  }
  return tries;
}

// Bit for bit: -0 and +0 differ; any two NaNs count as the same (their payload is not a value
// StableHLO fixes, nor one Z3's IEEE theory has).
bool sameElement(const Tensor& a, const Tensor& b, int64_t position) {
  if (a.isFloat()) {
    double x = a.floats.at(position), y = b.floats.at(position);
    return (x == y && std::signbit(x) == std::signbit(y)) || (std::isnan(x) && std::isnan(y));
  }
  return a.ints.at(position) == b.ints.at(position);
}

std::string plural(size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

std::vector<Tensor> runFunction(const ComparedFunction& function,
                                const std::vector<Tensor>& arguments, Engine engine) {
  mlir_interpreter::Interpreter interpreter(*function.module, engine);
  return interpreter.call(*function.function, arguments);
}

namespace {

// The candidate `terms` found, replayed: `verdict` refuted when the interpreter, with each
// engine, computes different values at the element in the two functions on one of the argument
// tries; otherwise false and `failure` says why. Float arguments are shown when their values
// are what tells the functions apart (`floatsMatter`: IEEE rounding), else "arbitrary".
bool replay(const ComparedFunction& first, const ComparedFunction& second,
            const TermComparison& terms, bool floatsMatter, EqualityVerdict& verdict,
            std::string& failure) {
  failure = "no argument values tried showed it";
  std::vector<std::vector<Tensor>> tries;
  try {
    tries = argumentCandidates(first, terms);
  } catch (const Error& error) {
    failure = std::string("the solver's counterexample cannot be replayed: ") + error.what();
    return false;
  }
  const char* floatValues[] = {"the solver's values", "distinct values (element k holds k + 1)",
                               "random values"};
  for (size_t t = 0; t < tries.size(); ++t) {
    const std::vector<Tensor>& arguments = tries[t];
    bool differs = true;
    std::string firstValue, secondValue;
    try {
      for (Engine engine : {Engine::kReference, Engine::kMaps}) {
        std::vector<Tensor> a = runFunction(first, arguments, engine);
        std::vector<Tensor> b = runFunction(second, arguments, engine);
        const Tensor &x = a.at(terms.result), &y = b.at(terms.result);
        int64_t position = linearPosition(x.shape, terms.element);
        differs = differs && !sameElement(x, y, position);
        firstValue = mlir_interpreter::formatElement(x, position);
        secondValue = mlir_interpreter::formatElement(y, position);
      }
    } catch (const LocatedError& error) {
      failure = error.location().toString() + ": " + error.message();
      continue;
    }
    if (!differs) continue;
    verdict.result = terms.result;
    verdict.element = terms.element;
    verdict.first = terms.first;
    verdict.second = terms.second;
    verdict.firstValue = firstValue;
    verdict.secondValue = secondValue;
    bool solved = true;  // every float argument had the solver's values to replay
    for (size_t i = 0; i < arguments.size(); ++i)
      solved = solved && (!arguments[i].isFloat() ||
                          terms.floatArguments[i].size() == arguments[i].floats.size());
    verdict.floatValues = floatValues[t == 0 && !solved ? 1 : std::min<size_t>(t, 2)];
    for (size_t i = 0; i < arguments.size(); ++i)
      verdict.arguments.push_back({"%" + first.function->arguments[i].value.name,
                                   mlir_interpreter::describeType(arguments[i]),
                                   mlir_interpreter::formatElements(arguments[i]),
                                   !arguments[i].isFloat() || floatsMatter});
    Counterexample counterexample;
    std::string name = first.function->resultTypes.size() == 1
                           ? "result"
                           : "result #" + std::to_string(terms.result);
    counterexample.elements.push_back({name, terms.element});
    // `reads %x[...]` when each side is one argument element, `is ...` for anything computed.
    auto isRead = [](const std::string& text) {
      return !text.empty() && text[0] == '%' && text.back() == ']' &&
             std::count(text.begin(), text.end(), '[') == 1;
    };
    counterexample.explanation =
        name + mlir_interpreter::formatIndex(terms.element) +
        (isRead(terms.first) && isRead(terms.second) ? " reads " : " is ") + terms.first +
        " in the first and " + terms.second + " in the second";
    verdict.proof = ProofResult::refuted("z3", counterexample);
    return true;
  }
  failure = "the solver found result element " + mlir_interpreter::formatIndex(terms.element) +
            " can differ, but the interpreter did not confirm it on " +
            plural(tries.size(), "set") + " of argument values (" + failure + ")";
  return false;
}

}  // namespace

EqualityVerdict proveEqual(const ComparedFunction& first, const ComparedFunction& second,
                           const ComparisonOptions& options) {
  using Outcome = TermComparison::Outcome;
  ComparisonOptions reals = options;
  reals.floats = program_terms::FloatModel::kReals;
  TermComparison terms = program_terms::compareFunctionTerms(first, second, reals);
  EqualityVerdict verdict;
  verdict.assumptions = terms.assumptions;
  if (terms.outcome == Outcome::kUnknown) {
    verdict.proof = ProofResult::unknown(terms.reason);
    return verdict;
  }
  std::string failure;
  if (terms.outcome == Outcome::kDiffer &&
      replay(first, second, terms, /*floatsMatter=*/false, verdict, failure))
    return verdict;
  if (!terms.floats) {  // no float computed: the terms are exact as they are
    verdict.proof = terms.outcome == Outcome::kEqual ? ProofResult::proven("z3")
                                                     : ProofResult::unknown(failure);
    return verdict;
  }
  // Floats: bit-exact answers from IEEE floats, rounding uninterpreted first (equal there is
  // equal under any rounding, and cheap), then every op exact (a difference, or equality that
  // needs the arithmetic). A real that cannot tell -0 from +0 never decides.
  std::string ieeeFailure;
  for (program_terms::FloatModel model :
       {program_terms::FloatModel::kIeeeOpaqueRounding, program_terms::FloatModel::kIeee}) {
    ComparisonOptions ieee = options;
    ieee.floats = model;
    TermComparison exact = program_terms::compareFunctionTerms(first, second, ieee);
    if (exact.outcome == Outcome::kEqual) {
      verdict.assumptions = exact.assumptions;
      verdict.ieeeArithmetic = exact.floatArithmetic;
      // Floats that only move are compared as what they are, which needs no word on rounding.
      verdict.proof = ProofResult::proven(exact.floatArithmetic.empty() ? "z3"
                                          : model == program_terms::FloatModel::kIeee
                                              ? "z3, IEEE-754"
                                              : "z3, IEEE-754 under any rounding");
      return verdict;
    }
    if (model != program_terms::FloatModel::kIeee) continue;
    if (exact.outcome == Outcome::kDiffer) {
      if (replay(first, second, exact, /*floatsMatter=*/true, verdict, ieeeFailure)) {
        verdict.ieeeArithmetic = exact.floatArithmetic;
        return verdict;
      }
    } else {
      ieeeFailure = exact.reason;
    }
  }
  if (terms.outcome == Outcome::kEqual) {  // equal on reals; IEEE rounding may tell them apart
    verdict.realArithmetic = terms.floatArithmetic;
    verdict.proof.verdict = Verdict::EqualOverReals;
    verdict.proof.method = "z3";
    verdict.proof.reason = "not decided bit for bit: " +
                           (isZ3Timeout(ieeeFailure) ? "the IEEE-754 query ran out of time (" +
                                                           std::to_string(options.timeoutMs) +
                                                           " ms; --timeout-ms raises the limit)"
                                                     : "the IEEE-754 query: " + ieeeFailure);
    return verdict;
  }
  verdict.proof = ProofResult::unknown(failure + "; IEEE-754 arithmetic: " + ieeeFailure);
  return verdict;
}

}  // namespace idxmap::program_equality
