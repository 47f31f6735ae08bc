#include "cli/prove_equal_command.h"

#include "cli/input.h"
#include "cli/output.h"
#include "verify/replay/prove_equal.h"

namespace idxmap::cli {
namespace {

// The function to compare: `name` when given, else @main, else the file's only function.
const mlir_ir::Function& chooseFunction(const mlir_ir::Module& module, const std::string& name,
                                        const std::string& fileName) {
  if (!name.empty()) {
    if (const mlir_ir::Function* function = module.function(name)) return *function;
    throw InputError(fileName + ": error: no function @" + name);
  }
  if (const mlir_ir::Function* main = module.function("main")) return *main;
  if (module.functions.size() == 1) return module.functions[0];
  throw InputError(fileName + ": error: " + std::to_string(module.functions.size()) +
                   " functions and no @main: name one with --function");
}

std::string argumentsPhrase(const mlir_ir::Function& function) {
  std::string names;
  for (const mlir_ir::BlockArgument& argument : function.arguments)
    if (!argument.type.elementType().isFloat())
      names += (names.empty() ? "%" : ", %") + argument.value.name;
  return names.empty() ? "its arguments" : names;
}

std::string locationPhrase(const std::vector<Source>& sources,
                           const program_equality::ComparedFunction& first,
                           const program_equality::ComparedFunction& second) {
  const std::string& a = first.function->name;
  const std::string& b = second.function->name;
  if (sources.size() == 2) return a == b ? "@" + a + " in both files" : "@" + a + " and @" + b;
  return "@" + a + " and @" + b + " in " + sources[0].name;
}

}  // namespace

CLI::App* addProveEqualCommand(CLI::App& app, ProveEqualOptions& options) {
  CLI::App* command = app.add_subcommand(
      "prove-equal", "Prove two MLIR functions compute the same results for every argument value");
  command->add_option("files", options.files, "One or two StableHLO MLIR files")
      ->type_name("FILE [FILE]")
      ->required()
      ->expected(1, 2);
  command
      ->add_option("--function", options.function,
                   "The function in the first file (default: @main, or its only function)")
      ->type_name("NAME");
  command
      ->add_option("--other", options.other,
                   "The function to compare it with, in the second file (or the first when "
                   "only one is given; default: the same name)")
      ->type_name("NAME");
  command->add_option("--timeout-ms", options.timeoutMs, "Solver time per result (default 20000)")
      ->type_name("MS")
      ->check(CLI::Range(1u, 3600000u));
  command->add_flag("--json", options.json,
                    "Print {verdict, method, reason, assumptions, real_arithmetic, "
                    "ieee_arithmetic, counterexample: {arguments, result, element, first, "
                    "second}}");
  command->footer(
      R"(Each result element of the two functions is traced back through gather, scatter (every
form: stablehlo, tensor, tcp), broadcast, reshape, expand_shape / collapse_shape, transpose,
slice, concatenate, pad, iota, constants, clamp, convert and element-wise ops to a Z3 term
over the arguments' elements; the arguments are shared by position and uninterpreted, so
"proven" holds for every content of the index tensors. Ops that define no result for some
index values (tcp.gather and tensor.gather out of range, tensor.scatter's repeated indices)
are compared where they are defined; the verdict lists each such assumption. Scatter
updates apply in row-major order; integer add is exact, so an integer scatter-add equal up to
the order of its updates is proven equal, and a replace scatter is compared as the sequence.
"proven" means bit-identical results for every argument value: float ops are decided in
Z3's IEEE-754 theory in each element type's own format (f16, bf16, f32, f64; round to nearest
even; -0, +0, infinities and NaN as IEEE says; any two NaNs count alike). First with every
rounding op (add, multiply, divide, sqrt, converts) uninterpreted -- equal under any rounding,
cheap to decide -- then exactly, so (a + b) + c against a + (b + c) is refuted with the values
that tell them apart. Where the exact query times out, programs equal as arithmetic on reals
get the verdict "equal-over-reals", never "proven". An integer converted to a float is
exact for constants and otherwise the same unknown function in both programs. A refutation
is replayed: both functions run in the interpreter with both engines on the printed values
and give different bits.
Exit status: 0 proven, 1 refuted, 2 invalid input (types differ, an op breaks its spec),
3 unknown (an op without a term model, a solver timeout, a candidate that did not replay),
4 equal over the reals only (the IEEE query was out of reach: not proven).

Examples:
  idxmap prove-equal examples/prove_equal/index_select.mlir examples/prove_equal/index_select_tcp.mlir
  idxmap prove-equal examples/prove_equal/tf_gather.mlir examples/prove_equal/tf_gather_wrong_axis.mlir
  idxmap prove-equal examples/prove_equal/batched.mlir examples/prove_equal/decomposed.mlir --function gather_fn
  idxmap prove-equal two_functions.mlir --function a --other b)");
  return command;
}

ExitCode runProveEqual(const ProveEqualOptions& options, std::ostream& out,
                       std::ostream& diagnostics) {
  std::vector<Source> sources;
  std::vector<mlir_ir::Module> modules;
  for (const std::string& file : options.files) {
    sources.push_back(readSource(file));
    modules.push_back(mlir_ir::parseMlirModule(sources.back().text, sources.back().name));
  }
  const mlir_ir::Module& secondModule = modules.back();
  const mlir_ir::Function& a = chooseFunction(modules[0], options.function, sources[0].name);
  std::string otherName = !options.other.empty() ? options.other : a.name;
  if (sources.size() == 1 && options.other.empty())
    throw InputError(sources[0].name + ": error: one file: name the second function with --other");
  const mlir_ir::Function& b = chooseFunction(secondModule, otherName, sources.back().name);
  program_equality::ComparedFunction first{&modules[0], &a}, second{&secondModule, &b};
  program_equality::EqualityVerdict verdict;
  try {
    verdict = program_equality::proveEqual(first, second, {options.timeoutMs});
  } catch (const program_terms::IncomparablePrograms& error) {
    const Source& source =
        error.location().file == sources.back().name ? sources.back() : sources[0];
    throw ParseError(error.location(), error.message(), sourceLine(source, error.location().line));
  }
  const ProofResult& proof = verdict.proof;
  if (options.json) {
    nlohmann::ordered_json record = {{"verdict", verdictName(proof.verdict)},
                                     {"method", proof.method},
                                     {"reason", proof.reason},
                                     {"assumptions", verdict.assumptions},
                                     {"real_arithmetic", verdict.realArithmetic},
                                     {"ieee_arithmetic", verdict.ieeeArithmetic}};
    if (proof.isRefuted()) {
      nlohmann::ordered_json arguments = nlohmann::ordered_json::array();
      for (const auto& argument : verdict.arguments)
        arguments.push_back({{"name", argument.name},
                             {"type", argument.type},
                             {"value", argument.value},
                             {"shown", argument.shown}});
      record["counterexample"] = {{"arguments", arguments},
                                  {"result", verdict.result},
                                  {"element", verdict.element},
                                  {"first", verdict.first},
                                  {"second", verdict.second},
                                  {"first_value", verdict.firstValue},
                                  {"second_value", verdict.secondValue},
                                  {"float_values", verdict.floatValues}};
    }
    writeJson(out, record);
  } else if (proof.isProven()) {
    out << "proven (" << proof.method << "): " << locationPhrase(sources, first, second)
        << " computes the same result for every value of " << argumentsPhrase(a) << '\n';
  } else if (proof.verdict == Verdict::EqualOverReals) {
    out << "equal over the reals, not proven: " << locationPhrase(sources, first, second)
        << " computes the same result for every value of " << argumentsPhrase(a)
        << " when float arithmetic is exact; IEEE rounding may still tell them apart\n"
        << "  " << proof.reason << '\n';
  } else if (proof.isRefuted()) {
    std::string shown, arbitrary;
    for (const auto& argument : verdict.arguments) {
      if (argument.shown)
        shown += (shown.empty() ? "" : ", ") + argument.name + " = " + argument.value;
      else
        arbitrary += (arbitrary.empty() ? "" : ", ") + argument.name;
    }
    out << "refuted: for " << (shown.empty() ? "arguments" : shown);
    if (!arbitrary.empty()) out << " (and " << arbitrary << " arbitrary)";
    out << ", " << proof.counterexample->explanation << '\n'
        << "  replayed: the interpreter (both engines) computes " << verdict.firstValue << " and "
        << verdict.secondValue << " there";
    if (!arbitrary.empty()) out << " (" << arbitrary << " holding " << verdict.floatValues << ")";
    out << '\n';
  } else {
    out << "unknown: " << proof.reason << '\n';
  }
  if (!options.json) {
    for (const std::string& assumption : verdict.assumptions)
      out << "  assuming " << assumption << '\n';
    auto floatLine = [&out](const std::vector<std::string>& ops, const char* how) {
      if (ops.empty()) return;
      out << "  float ";
      for (size_t i = 0; i < ops.size(); ++i) out << (i ? ", " : "") << ops[i];
      out << " compared " << how << '\n';
    };
    floatLine(verdict.realArithmetic, "as arithmetic on reals (rounding not modeled)");
    floatLine(verdict.ieeeArithmetic, "bit for bit in IEEE-754 formats (any two NaNs alike)");
  }
  (void)diagnostics;
  if (proof.verdict == Verdict::EqualOverReals) return kEqualOverReals;
  return proof.isProven() ? kSuccess : proof.isRefuted() ? kRefuted : kUnknown;
}

}  // namespace idxmap::cli
