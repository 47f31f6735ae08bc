#include "verify/programs/function_terms.h"

#include <cmath>
#include <map>

#include "core/bridges/z3_bridge.h"
#include "ops/validate/mlir.h"
#include "verify/programs/candidate_internal.h"

namespace idxmap::program_terms {
namespace {

std::string typeText(const mlir_ir::Type& type) { return type.toString(); }

// Both modules' ops must keep their specs: an op that breaks one has no meaning to compare.
void expectValid(const mlir_ir::Module& module) {
  validation::Report report = validation::validateMlirModule(module);
  if (report.findings.empty()) return;
  const validation::Finding& finding = report.findings.front();
  throw IncomparablePrograms(finding.attributeLocation.value_or(finding.location), finding.message);
}

std::vector<ArgumentTerm> sharedArguments(z3::context& z, const ComparedFunction& first,
                                          const ComparedFunction& second, FloatModel floats) {
  FloatTerms model(z, floats);
  const auto& a = first.function->arguments;
  const auto& b = second.function->arguments;
  if (a.size() != b.size())
    throw IncomparablePrograms(second.function->location,
                               "@" + second.function->name + " takes " + std::to_string(b.size()) +
                                   " arguments, @" + first.function->name + " " +
                                   std::to_string(a.size()));
  std::vector<ArgumentTerm> arguments;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i].type == b[i].type))
      throw IncomparablePrograms(b[i].value.location, "argument " + std::to_string(i) + " is " +
                                                          typeText(b[i].type) + " here and " +
                                                          typeText(a[i].type) + " in @" +
                                                          first.function->name);
    if (!a[i].type.hasStaticShape() || a[i].type.elementType().kind == mlir_ir::ElementKind::Other)
      throw IncomparablePrograms(a[i].value.location,
                                 "argument " + a[i].value.toString() + " has type " +
                                     typeText(a[i].type) +
                                     ": only static shapes of integer and float elements compare");
    mlir_ir::ElementType element = a[i].type.elementType();
    z3::sort_vector domain(z);
    for (size_t d = 0; d < a[i].type.shape.size(); ++d) domain.push_back(z.int_sort());
    std::string name = "%" + a[i].value.name;
    z3::func_decl function =
        z.function(name.c_str(), domain, element.isFloat() ? model.sort(element) : z.int_sort());
    arguments.push_back({name, a[i].type.shape, element, function});
  }
  const auto& ra = first.function->resultTypes;
  const auto& rb = second.function->resultTypes;
  if (ra.size() != rb.size())
    throw IncomparablePrograms(second.function->location,
                               "@" + second.function->name + " returns " +
                                   std::to_string(rb.size()) + " values, @" + first.function->name +
                                   " " + std::to_string(ra.size()));
  for (size_t i = 0; i < ra.size(); ++i)
    if (!(ra[i] == rb[i]) || !ra[i].hasStaticShape())
      throw IncomparablePrograms(second.function->location,
                                 "result " + std::to_string(i) + " is " + typeText(rb[i]) +
                                     " here and " + typeText(ra[i]) + " in @" +
                                     first.function->name + " (static shapes must match)");
  return arguments;
}

// `solver`'s assertions decided by bit-blasting after Ackermann's reduction of the argument
// functions (Z3's qffpbv tactic): on IEEE terms this finds a difference in a fraction of a
// second where the default solver takes many. Unknown with `gaveUp` empty when the tactic
// does not apply (the caller asks the default solver), with the reason when time ran out.
z3::check_result checkBitBlasted(z3::context& z, z3::solver& solver, unsigned timeoutMs,
                                 std::optional<z3::model>& model, std::string& gaveUp) {
  try {
    z3::tactic tactic = z3::try_for(
        z3::tactic(z, "simplify") & z3::tactic(z, "ackermannize_bv") & z3::tactic(z, "qffpbv"),
        timeoutMs);
    z3::solver blasted = tactic.mk_solver();
    for (const z3::expr& assertion : solver.assertions()) blasted.add(assertion);
    z3::check_result result = blasted.check();
    if (result == z3::sat) model = blasted.get_model();
    if (result == z3::unknown && isZ3Timeout(blasted.reason_unknown()))
      gaveUp = blasted.reason_unknown();
    return result;
  } catch (const z3::exception& error) {
    if (isZ3Timeout(error.msg())) gaveUp = error.msg();
    return z3::unknown;
  }
}

}  // namespace

namespace {

// The comparison proper; an op the terms cannot model throws (UnsupportedProgram, or a library
// error from a rule evaluated lazily) and compareFunctionTerms says "unknown".
TermComparison compareTerms(z3::context& z, const ComparedFunction& first,
                            const ComparedFunction& second,
                            const std::vector<ArgumentTerm>& arguments,
                            const ComparisonOptions& options) {
  TermComparison out;
  TermBuilder a(z, *first.module, arguments, options.floats),
      b(z, *second.module, arguments, options.floats);
  std::vector<TensorRef> resultsA = a.call(*first.function);
  std::vector<TensorRef> resultsB = b.call(*second.function);
  if (resultsA.size() != first.function->resultTypes.size() || resultsB.size() != resultsA.size()) {
    out.reason = "a function returns other values than its signature says";
    return out;
  }
  for (size_t r = 0; r < resultsA.size(); ++r)
    if (resultsA[r]->shape != first.function->resultTypes[r].shape ||
        resultsB[r]->shape != resultsA[r]->shape) {
      out.reason = "result " + std::to_string(r) + " has another shape than the signature says";
      return out;
    }
  for (size_t r = 0; r < resultsA.size(); ++r) {
    const std::vector<int64_t>& shape = resultsA[r]->shape;
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) continue;  // no elements
    std::vector<z3::expr> element;
    z3::solver solver(z);
    z3::params params(z);
    params.set("timeout", options.timeoutMs);
    solver.set(params);
    for (size_t d = 0; d < shape.size(); ++d) {
      element.push_back(
          z.int_const(("result" + std::to_string(r) + "_d" + std::to_string(d)).c_str()));
      solver.add(element.back() >= 0 && element.back() < z.int_val(shape[d]));
    }
    z3::expr termA = a.value(resultsA[r], element), termB = b.value(resultsB[r], element);
    for (const TermBuilder* builder : {&a, &b})
      for (const z3::expr& precondition : builder->preconditions()) solver.add(precondition);
    // Preconditions no input meets would make any claim vacuous: say so instead.
    z3::check_result accepted = solver.check();
    if (accepted != z3::sat) {
      out.reason = accepted == z3::unsat ? "no argument values meet both functions' preconditions"
                                         : "the solver gave up on the preconditions (" +
                                               solver.reason_unknown() + ")";
      return out;
    }
    // Integer sums (a scatter-add's updates) are equal before they wrap whenever the terms
    // are the same sums in another order: decided in linear arithmetic, without the modulus.
    if (resultsA[r]->wraps || resultsB[r]->wraps) {
      solver.push();
      solver.add(a.at(resultsA[r], element) != b.at(resultsB[r], element));
      bool equalUnwrapped = solver.check() == z3::unsat;
      solver.pop();
      if (equalUnwrapped) continue;
    }
    solver.add(termA != termB);
    std::optional<z3::model> found;
    std::string gaveUp;
    z3::check_result differ = options.floats == FloatModel::kIeee
                                  ? checkBitBlasted(z, solver, options.timeoutMs, found, gaveUp)
                                  : z3::unknown;
    if (differ == z3::unknown && gaveUp.empty()) {
      differ = solver.check();
      if (differ == z3::sat) found = solver.get_model();
      if (differ == z3::unknown) gaveUp = solver.reason_unknown();
    }
    if (differ == z3::unknown) {
      out.reason = "result " + std::to_string(r) + ": the solver gave up (" + gaveUp + ")";
      return out;
    }
    if (differ == z3::sat) {
      z3::model model = *found;
      // Zeros are preferred by rounds of incremental checks, each as costly as the first on
      // IEEE terms: only where rounding is not modeled.
      if (options.floats == FloatModel::kReals)
        if (std::optional<z3::model> tidy = preferZeros(z, solver, arguments)) model = *tidy;
      out.outcome = TermComparison::Outcome::kDiffer;
      out.result = r;
      for (const z3::expr& entry : element)
        out.element.push_back(model.eval(entry, true).get_numeral_int64());
      writeCandidate(model, arguments, a, {termA, termB},
                     /*onlyFloatsRead=*/options.floats != FloatModel::kReals, out);
      break;
    }
  }
  if (out.outcome != TermComparison::Outcome::kDiffer)
    out.outcome = TermComparison::Outcome::kEqual;
  for (const TermBuilder* builder : {&a, &b}) {
    for (const std::string& assumption : builder->assumptions())
      if (std::find(out.assumptions.begin(), out.assumptions.end(), assumption) ==
          out.assumptions.end())
        out.assumptions.push_back(assumption);
    for (const std::string& op : builder->floatArithmetic())
      if (std::find(out.floatArithmetic.begin(), out.floatArithmetic.end(), op) ==
          out.floatArithmetic.end())
        out.floatArithmetic.push_back(op);
    out.floats = out.floats || builder->realsMayDiffer();
  }
  return out;
}

}  // namespace

TermComparison compareFunctionTerms(const ComparedFunction& first, const ComparedFunction& second,
                                    const ComparisonOptions& options) {
  expectValid(*first.module);
  if (second.module != first.module) expectValid(*second.module);
  auto attempt = [&](z3::context& z) {
    std::vector<ArgumentTerm> arguments = sharedArguments(z, first, second, options.floats);
    TermComparison unknown;
    try {
      return compareTerms(z, first, second, arguments, options);
    } catch (const UnsupportedProgram& error) {
      unknown.reason = error.location().toString() + ": " + error.message();
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& error) {
      unknown.reason = std::string("the terms cannot be built: ") + error.what();
    }
    return unknown;
  };
  // Exact IEEE queries are the costly ones: asked once, in a fresh context.
  if (options.floats == FloatModel::kIeee) {
    z3::context fresh;
    return attempt(fresh);
  }
  // Only a proof, or a timeout, is taken from the reused context (z3_bridge.h). With rounding
  // uninterpreted, a difference is no candidate (any rounding function may show it) and goes
  // unused: every answer is taken.
  const bool onlyEqualityCounts = options.floats == FloatModel::kIeeeOpaqueRounding;
  return proveInReusedZ3Context(attempt, [onlyEqualityCounts](const TermComparison& answer) {
    return onlyEqualityCounts || answer.outcome == TermComparison::Outcome::kEqual ||
           (answer.outcome == TermComparison::Outcome::kUnknown && isZ3Timeout(answer.reason));
  });
}

std::optional<std::vector<std::vector<double>>> evaluateTerms(
    const ComparedFunction& function, const std::vector<std::vector<double>>& arguments,
    FloatModel floats) {
  BorrowedZ3Context borrowed;
  z3::context& z = borrowed.get();
  std::vector<ArgumentTerm> shared = sharedArguments(z, function, function, floats);
  TermBuilder builder(z, *function.module, shared, floats);
  std::vector<TensorRef> results = builder.call(*function.function);
  std::vector<std::vector<z3::expr>> terms;
  for (const TensorRef& result : results) {
    terms.emplace_back();
    if (std::find(result->shape.begin(), result->shape.end(), 0) != result->shape.end()) continue;
    std::vector<int64_t> index(result->shape.size(), 0);
    do {
      terms.back().push_back(builder.value(result, numerals(z, index)));
    } while (nextIndex(result->shape, index));
  }
  z3::solver solver(z);
  for (size_t i = 0; i < shared.size(); ++i) {
    const ArgumentTerm& argument = shared[i];
    size_t k = 0;
    forEachElement(z, argument, [&](const z3::expr& element) {
      double value = arguments.at(i).at(k++);
      solver.add(element == (argument.element.isFloat()
                                 ? builder.floats().constant(value, argument.element)
                                 : z.int_val(static_cast<int64_t>(value))));
    });
  }
  for (const z3::expr& precondition : builder.preconditions()) solver.add(precondition);
  if (solver.check() != z3::sat) return std::nullopt;
  z3::model model = solver.get_model();
  std::vector<std::vector<double>> values;
  for (const std::vector<z3::expr>& result : terms) {
    values.emplace_back();
    for (const z3::expr& term : result)
      values.back().push_back(FloatTerms::valueOf(model.eval(term, true)));
  }
  return values;
}

}  // namespace idxmap::program_terms
