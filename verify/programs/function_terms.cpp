#include "verify/programs/function_terms.h"

#include <cmath>
#include <map>

#include "core/bridges/z3_bridge.h"
#include "ops/validate/mlir.h"
#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

// Arguments written out in a candidate, at most this many elements each.
constexpr int64_t kMaxWrittenElements = int64_t{1} << 16;

std::string typeText(const mlir_ir::Type& type) { return type.toString(); }

// Both modules' ops must keep their specs: an op that breaks one has no meaning to compare.
void expectValid(const mlir_ir::Module& module) {
  validation::Report report = validation::validateMlirModule(module);
  if (report.findings.empty()) return;
  const validation::Finding& finding = report.findings.front();
  throw IncomparablePrograms(finding.attributeLocation.value_or(finding.location), finding.message);
}

std::vector<ArgumentTerm> sharedArguments(z3::context& z, const ComparedFunction& first,
                                          const ComparedFunction& second) {
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
        z.function(name.c_str(), domain, element.isFloat() ? z.real_sort() : z.int_sort());
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

int64_t cappedElementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size > kMaxWrittenElements) return kMaxWrittenElements + 1;
    count *= size;
    if (count > kMaxWrittenElements) return kMaxWrittenElements + 1;
  }
  return count;
}

// Calls visit(the argument's term at one element) for every element of `argument`, row-major.
template <typename Visit>
void forEachElement(z3::context& z, const ArgumentTerm& argument, Visit&& visit) {
  if (cappedElementCount(argument.shape) == 0) return;
  std::vector<int64_t> index(argument.shape.size(), 0);
  do {
    z3::expr_vector args(z);
    for (int64_t entry : index) args.push_back(z.int_val(entry));
    visit(argument.function(args));
  } while (nextIndex(argument.shape, index));
}

double realValue(const z3::expr& value) {
  if (value.is_numeral()) {
    std::string text = value.get_decimal_string(17);
    if (!text.empty() && text.back() == '?') text.pop_back();
    return std::strtod(text.c_str(), nullptr);
  }
  return 0;
}

// The candidate's argument contents: every element of each argument as the model gives it.
// Integer values outside their type (elements no term reads) become 0.
void writeArguments(z3::model& model, const std::vector<ArgumentTerm>& arguments,
                    TermBuilder& builder, TermComparison& out) {
  z3::context& z = builder.ctx();
  for (const ArgumentTerm& argument : arguments) {
    std::vector<int64_t> ints;
    std::vector<double> reals;
    if (cappedElementCount(argument.shape) <= kMaxWrittenElements) {
      forEachElement(z, argument, [&](const z3::expr& element) {
        z3::expr value = model.eval(element, true);
        if (argument.element.isFloat()) {
          reals.push_back(realValue(value));
          return;
        }
        int64_t number = 0;
        bool fits =
            value.is_numeral_i64(number) &&
            model.eval(builder.inTypeRange(z.int_val(number), argument.element), true).is_true();
        ints.push_back(fits ? number : 0);
      });
    }
    out.integerArguments.push_back(std::move(ints));
    out.floatArguments.push_back(std::move(reals));
  }
}

// A term in words, on the model: argument reads as `%name[i, j]`, the branch the model takes
// of each case, arithmetic as written, anything else as its value.
std::string valueText(const z3::expr& value) {
  if (!value.is_numeral() || value.is_int()) return value.to_string();
  std::string text = value.get_decimal_string(6);
  return text.back() == '?' ? text.substr(0, text.size() - 1) + "..." : text;
}

// `depth` counts nested arithmetic and functions (a case's branch is no deeper than the case).
std::string describe(const z3::expr& term, z3::model& model,
                     const std::map<unsigned, std::string>& argumentNames, int depth = 0) {
  if (depth > 12) return valueText(model.eval(term, true));
  if (term.is_numeral()) return valueText(term);
  if (!term.is_app()) return valueText(model.eval(term, true));
  z3::func_decl decl = term.decl();
  auto named = argumentNames.find(decl.id());
  if (named != argumentNames.end()) {
    std::string text = named->second + "[";
    for (unsigned i = 0; i < term.num_args(); ++i)
      text += (i ? ", " : "") + model.eval(term.arg(i), true).to_string();
    return text + "]";
  }
  switch (decl.decl_kind()) {
    case Z3_OP_ITE:
      return describe(model.eval(term.arg(0), true).is_true() ? term.arg(1) : term.arg(2), model,
                      argumentNames, depth);
    case Z3_OP_TO_REAL:
      return describe(term.arg(0), model, argumentNames, depth);
    case Z3_OP_ADD: {  // a sum of sums (a scatter-add's updates) as one flat sum
      std::vector<z3::expr> pending{term}, summands;
      while (!pending.empty()) {
        z3::expr next = pending.back();
        pending.pop_back();
        while (next.is_app() && next.decl().decl_kind() == Z3_OP_ITE)
          next = model.eval(next.arg(0), true).is_true() ? next.arg(1) : next.arg(2);
        if (next.is_app() && next.decl().decl_kind() == Z3_OP_ADD) {
          for (unsigned i = next.num_args(); i-- > 0;) pending.push_back(next.arg(i));
        } else {
          summands.push_back(next);
        }
      }
      std::string text;
      for (size_t i = 0; i < summands.size(); ++i)
        text += (i ? " + " : "") + describe(summands[i], model, argumentNames, depth + 1);
      return depth ? "(" + text + ")" : text;
    }
    case Z3_OP_MUL: {
      std::string text;
      for (unsigned i = 0; i < term.num_args(); ++i)
        text += (i ? " * " : "") + describe(term.arg(i), model, argumentNames, depth + 1);
      return depth ? "(" + text + ")" : text;
    }
    case Z3_OP_UNINTERPRETED: {
      std::string text = decl.name().str() + "(";
      for (unsigned i = 0; i < term.num_args(); ++i)
        text += (i ? ", " : "") + describe(term.arg(i), model, argumentNames, depth + 1);
      return text + ")";
    }
    default:
      return valueText(model.eval(term, true));
  }
}

// A model with many integer argument elements 0, so that the elements that matter stand out
// in a counterexample: every element is assumed 0, and one assumption of each unsat core is
// dropped until the rest is satisfiable (not the fewest non-zero elements, but few). Nullopt
// when the arguments are too large, the solver gives up, or it takes more than kMaxRounds.
std::optional<z3::model> preferZeros(z3::context& z, z3::solver& solver,
                                     const std::vector<ArgumentTerm>& arguments) {
  constexpr int64_t kMaxAssumed = 1024;
  constexpr int kMaxRounds = 64;
  int64_t total = 0;
  for (const ArgumentTerm& argument : arguments)
    if (!argument.element.isFloat()) total += cappedElementCount(argument.shape);
  if (total == 0 || total > kMaxAssumed) return std::nullopt;
  solver.push();
  std::vector<z3::expr> assumed;
  for (const ArgumentTerm& argument : arguments) {
    if (argument.element.isFloat()) continue;
    forEachElement(z, argument, [&](const z3::expr& element) {
      z3::expr literal = z.bool_const(("zero_" + std::to_string(assumed.size())).c_str());
      solver.add(z3::implies(literal, element == 0));
      assumed.push_back(literal);
    });
  }
  std::optional<z3::model> model;
  for (int round = 0; round < kMaxRounds && !model; ++round) {
    z3::expr_vector active(z);
    for (const z3::expr& literal : assumed) active.push_back(literal);
    z3::check_result result = solver.check(active);
    if (result == z3::sat) model = solver.get_model();
    if (result != z3::unsat) break;
    z3::expr_vector core = solver.unsat_core();
    if (core.empty()) break;
    // One literal of the core at a time: a core is rarely minimal, and dropping all of it
    // would give up zeros the difference does not need.
    assumed.erase(std::remove_if(assumed.begin(), assumed.end(),
                                 [&](const z3::expr& e) { return z3::eq(e, core[0]); }),
                  assumed.end());
  }
  solver.pop();
  return model;
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
  TermBuilder a(z, *first.module, arguments), b(z, *second.module, arguments);
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
  std::map<unsigned, std::string> argumentNames;
  for (const ArgumentTerm& argument : arguments)
    argumentNames[argument.function.id()] = argument.name;
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
    z3::check_result differ = solver.check();
    if (differ == z3::unknown) {
      out.reason =
          "result " + std::to_string(r) + ": the solver gave up (" + solver.reason_unknown() + ")";
      return out;
    }
    if (differ == z3::sat) {
      z3::model model = solver.get_model();
      if (std::optional<z3::model> tidy = preferZeros(z, solver, arguments)) model = *tidy;
      out.outcome = TermComparison::Outcome::kDiffer;
      out.result = r;
      for (const z3::expr& entry : element)
        out.element.push_back(model.eval(entry, true).get_numeral_int64());
      writeArguments(model, arguments, a, out);
      out.first = describe(termA, model, argumentNames);
      out.second = describe(termB, model, argumentNames);
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
    for (const std::string& op : builder->realArithmetic())
      if (std::find(out.realArithmetic.begin(), out.realArithmetic.end(), op) ==
          out.realArithmetic.end())
        out.realArithmetic.push_back(op);
  }
  return out;
}

}  // namespace

TermComparison compareFunctionTerms(const ComparedFunction& first, const ComparedFunction& second,
                                    const ComparisonOptions& options) {
  expectValid(*first.module);
  if (second.module != first.module) expectValid(*second.module);
  auto attempt = [&](z3::context& z) {
    std::vector<ArgumentTerm> arguments = sharedArguments(z, first, second);
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
  // Only a proof, or a timeout, is taken from the reused context (z3_bridge.h).
  return proveInReusedZ3Context(attempt, [](const TermComparison& answer) {
    return answer.outcome == TermComparison::Outcome::kEqual ||
           (answer.outcome == TermComparison::Outcome::kUnknown && isZ3Timeout(answer.reason));
  });
}

std::optional<std::vector<std::vector<double>>> evaluateTerms(
    const ComparedFunction& function, const std::vector<std::vector<double>>& arguments) {
  BorrowedZ3Context borrowed;
  z3::context& z = borrowed.get();
  std::vector<ArgumentTerm> shared = sharedArguments(z, function, function);
  TermBuilder builder(z, *function.module, shared);
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
      solver.add(element == (argument.element.isFloat() ? exactReal(z, value)
                                                        : z.int_val(static_cast<int64_t>(value))));
    });
  }
  for (const z3::expr& precondition : builder.preconditions()) solver.add(precondition);
  if (solver.check() != z3::sat) return std::nullopt;
  z3::model model = solver.get_model();
  std::vector<std::vector<double>> values;
  for (const std::vector<z3::expr>& result : terms) {
    values.emplace_back();
    for (const z3::expr& term : result) values.back().push_back(realValue(model.eval(term, true)));
  }
  return values;
}

}  // namespace idxmap::program_terms
