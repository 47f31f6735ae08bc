#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "verify/programs/candidate_internal.h"

namespace idxmap::program_terms {

int64_t cappedElementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size > kMaxWrittenElements) return kMaxWrittenElements + 1;
    count *= size;
    if (count > kMaxWrittenElements) return kMaxWrittenElements + 1;
  }
  return count;
}

namespace {

// Float argument elements the terms read (the argument's function and the index, on the
// model): the rest of a float argument is no part of a difference.
using ElementsRead = std::set<std::pair<unsigned, std::vector<int64_t>>>;

void collectReads(const z3::expr& term, z3::model& model,
                  const std::vector<ArgumentTerm>& arguments, std::set<unsigned>& seen,
                  ElementsRead& reads) {
  if (!term.is_app() || !seen.insert(term.id()).second) return;
  for (const ArgumentTerm& argument : arguments) {
    if (!argument.element.isFloat() || !z3::eq(term.decl(), argument.function)) continue;
    std::vector<int64_t> index;
    for (unsigned i = 0; i < term.num_args(); ++i) {
      int64_t entry = 0;
      if (!model.eval(term.arg(i), true).is_numeral_i64(entry)) return;
      index.push_back(entry);
    }
    reads.insert({argument.function.id(), index});
  }
  for (unsigned i = 0; i < term.num_args(); ++i)
    collectReads(term.arg(i), model, arguments, seen, reads);
}

// The candidate's argument contents: every element of each argument as the model gives it.
// Integer values outside their type (elements no term reads) become 0. `floatsRead`: where
// given, float elements it does not hold are written as 0 (an IEEE model's other elements are
// whatever the solver left, NaN often, which says nothing).
void writeArguments(z3::model& model, const std::vector<ArgumentTerm>& arguments,
                    TermBuilder& builder, const ElementsRead* floatsRead, TermComparison& out) {
  z3::context& z = builder.ctx();
  for (const ArgumentTerm& argument : arguments) {
    std::vector<int64_t> ints;
    std::vector<double> reals;
    if (cappedElementCount(argument.shape) <= kMaxWrittenElements) {
      std::vector<int64_t> index(argument.shape.size(), 0);
      forEachElement(z, argument, [&](const z3::expr& element) {
        z3::expr value = model.eval(element, true);
        if (argument.element.isFloat()) {
          bool read = !floatsRead || floatsRead->count({argument.function.id(), index});
          reals.push_back(read ? FloatTerms::valueOf(value) : 0.0);
          nextIndex(argument.shape, index);
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
  if (value.is_fpa() && value.is_numeral()) {
    double number = FloatTerms::valueOf(value);
    if (std::isnan(number)) return "nan";
    if (std::isinf(number)) return number < 0 ? "-inf" : "inf";
    char text[32];  // the shortest text that reads back as the value, in its own format
    auto written = value.get_sort().fpa_sbits() <= 24
                       ? std::to_chars(text, text + sizeof text, static_cast<float>(number))
                       : std::to_chars(text, text + sizeof text, number);
    std::string out(text, written.ptr);
    return out.find_first_of(".en") == std::string::npos ? out + ".0" : out;
  }
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
    case Z3_OP_FPA_ADD:  // IEEE: the rounding mode, then the operands; kept as written
    case Z3_OP_FPA_SUB:
    case Z3_OP_FPA_MUL:
    case Z3_OP_FPA_DIV: {
      Z3_decl_kind kind = decl.decl_kind();
      const char* sign = kind == Z3_OP_FPA_ADD   ? " + "
                         : kind == Z3_OP_FPA_SUB ? " - "
                         : kind == Z3_OP_FPA_MUL ? " * "
                                                 : " / ";
      std::string text = describe(term.arg(1), model, argumentNames, depth + 1) + sign +
                         describe(term.arg(2), model, argumentNames, depth + 1);
      return depth ? "(" + text + ")" : text;
    }
    case Z3_OP_FPA_NEG:
      return "-" + describe(term.arg(0), model, argumentNames, depth + 1);
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

}  // namespace

void writeCandidate(z3::model& model, const std::vector<ArgumentTerm>& arguments,
                    TermBuilder& builder, const std::vector<z3::expr>& terms, bool onlyFloatsRead,
                    TermComparison& out) {
  ElementsRead reads;
  std::set<unsigned> seen;
  for (const z3::expr& term : terms) collectReads(term, model, arguments, seen, reads);
  writeArguments(model, arguments, builder, onlyFloatsRead ? &reads : nullptr, out);
  std::map<unsigned, std::string> argumentNames;
  for (const ArgumentTerm& argument : arguments)
    argumentNames[argument.function.id()] = argument.name;
  out.first = describe(terms.at(0), model, argumentNames);
  out.second = describe(terms.at(1), model, argumentNames);
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

}  // namespace idxmap::program_terms
