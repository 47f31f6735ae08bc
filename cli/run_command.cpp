#include "cli/run_command.h"

#include "cli/input.h"
#include "cli/output.h"
#include "cli/units.h"
#include "codegen/run/kernel_engine.h"
#include "ops/interp/interpreter.h"

namespace idxmap::cli {
namespace {

std::string plural(size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// The interpreter's op names, comma-separated in lines of at most 90 columns.
std::string wrappedOpList() {
  std::string text, line = " ";
  for (const std::string& name : mlir_interpreter::supportedOpNames()) {
    if (line.size() + name.size() + 2 > 90) {
      text += line + "\n";
      line = " ";
    }
    line += " " + name + ",";
  }
  line.pop_back();  // the last comma
  return text + line;
}

// --inputs / --args: the values of @main's arguments, or none when neither is given.
std::optional<std::vector<mlir_interpreter::Tensor>> argumentValues(const RunOptions& options) {
  if (options.valuesFile.empty() && options.args.empty()) return std::nullopt;
  Source values;
  if (!options.valuesFile.empty())
    values = readSource(options.valuesFile);
  else if (options.args.front() == '@')
    values = readSource(options.args.substr(1));
  else
    values = {"<--args>", options.args, ""};
  std::vector<mlir_interpreter::Tensor> tensors;
  for (const mlir_ir::Attribute& value : mlir_ir::parseMlirValueList(values.text, values.name)) {
    try {
      tensors.push_back(mlir_interpreter::tensorOfDense(*value.dense, value.location, "value"));
    } catch (const mlir_interpreter::InterpretError& error) {
      throw ParseError(error.location(), error.message(),
                       sourceLine(values, error.location().line));
    }
  }
  return tensors;
}

}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& options) {
  CLI::App* command =
      app.add_subcommand("run", "Evaluate a StableHLO MLIR file and execute its check.* ops");
  command->add_option("inputs", options.inputs, "StableHLO MLIR text; - or none reads stdin")
      ->type_name("FILE|-");
  command->add_flag("--split-input-file", options.splitInputFile,
                    "Run each section of a file between `// -----` lines on its own (an error "
                    "in one does not stop the rest)");
  command
      ->add_option("--engine", options.engine,
                   "How gather, dynamic_gather and scatter are computed: reference (the spec's "
                   "formulas, default), maps (walking their indexing maps), kernel (the C++ "
                   "kernels idxmap emit writes, compiled and run) or cuda (its CUDA kernels, "
                   "compiled with nvcc for this machine's GPU); every other op is computed "
                   "the same way by all four")
      ->type_name("reference|maps|kernel|cuda")
      ->check(CLI::IsMember({"reference", "maps", "kernel", "cuda"}));
  command->add_flag("--deterministic", options.deterministic,
                    "--engine cuda: scatter without atomics (sorted by target, applied in "
                    "row-major order)");
  command
      ->add_option("--threads", options.threads,
                   "--engine kernel: the kernels' OpenMP threads (default: OpenMP's)")
      ->type_name("N")
      ->check(CLI::Range(0, 1024));
  CLI::Option* values =
      command
          ->add_option("--inputs", options.valuesFile,
                       "Values for @main's arguments: a file holding `[dense<1> : tensor<2xi32>, "
                       "...]`, one per argument (StableHLO's --args syntax); @main's results "
                       "are printed")
          ->type_name("FILE");
  command
      ->add_option("--args", options.args,
                   "The same values written inline, or @FILE, as stablehlo-translate "
                   "--interpret --args takes them")
      ->type_name("[VALUES]|@FILE")
      ->excludes(values);
  command
      ->add_option("--max-iterations", options.maxIterations,
                   "Stop a stablehlo.while after this many iterations with an error at the op "
                   "(default 1048576: a loop that runs longer is taken for one that never ends)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command->add_flag("--print-results", options.printResults,
                    "Print what @main returns (with --inputs or --args it always is)");
  command->add_flag("--json", options.json,
                    "Print {\"checks\", \"passed\", \"failed\": [{location, op, message}]}, "
                    "and \"results\": [{type, value}] when they are printed");
  command->footer(R"(Runs func.func @main, or every function without arguments when there is no
@main; @main's arguments take the values --inputs gives. Each failed check prints `file:line:col: OP failed: element [i, j] is X, expected Y`;
a summary follows (`2 checks passed`, `1 of 3 checks failed`).
Checks: check.expect_eq_const and check.expect_eq (exact), check.expect_almost_eq_const and
check.expect_almost_eq (|actual - expected| <= tolerance, default 1e-4; written as an
attribute or after the types, `: tensor<2xf32>, tolerance = 0.1` or `{tolerance = 0.1 : f64}`),
check.expect_close
(ULP distance within [min_ulp_difference, max_ulp_difference], default [0, 1]), also as
stablehlo.custom_call @check.*.
Several files, or with --split-input-file the `// -----` sections of one, run one after
another: outputs separated by `// -----` (--json: one {file, line, exit, output} record
each); the exit status is the worst.
Exit status: 0 every check passed, 1 a check failed, 2 invalid input (malformed MLIR, an
unsupported op, a declared type the computed value does not have).

Examples:
  idxmap run examples/spec_example.mlir
      3 checks passed
  idxmap run --engine maps examples/spec_example.mlir
  idxmap run --engine kernel examples/spec_example.mlir
  idxmap run --engine cuda examples/spec_example.mlir      (a GPU and nvcc: $IDXMAP_NVCC)
      (kernels compiled with $IDXMAP_CXX or c++, cached in $IDXMAP_CACHE_DIR, else
      ~/.cache/idxmap)
  idxmap run --json - < test.mlir
  idxmap run --inputs args.txt model.mlir
      (args.txt: [dense<1> : tensor<2xi32>, dense<[3, 4]> : tensor<2xi32>])
      tensor<2xi32> {
        [4, 5]
      }

Ops it evaluates:
)" + wrappedOpList());
  return command;
}

namespace {

ExitCode runSource(const RunOptions& options,
                   const std::optional<std::vector<mlir_interpreter::Tensor>>& arguments,
                   const Source& source, std::ostream& out, std::ostream& diagnostics) {
  mlir_ir::Module module = mlir_ir::parseMlirModule(source.text, source.name);
  mlir_interpreter::Engine engine = options.engine == "maps" ? mlir_interpreter::Engine::kMaps
                                                             : mlir_interpreter::Engine::kReference;
  std::unique_ptr<codegen::KernelEngine> kernels;
  std::unique_ptr<mlir_interpreter::Interpreter> interpreter;
  std::vector<mlir_interpreter::Tensor> results;
  try {
    if (options.engine == "kernel")
      kernels =
          std::make_unique<codegen::KernelEngine>(module, codegen::JitOptions{}, options.threads);
    if (options.engine == "cuda") {
      codegen::EmitTarget target{codegen::EmitTarget::Kind::kCuda, {options.deterministic}};
      kernels = std::make_unique<codegen::KernelEngine>(module, codegen::cudaJitOptions(), 0,
                                                        std::vector<Assumption>{}, target);
    }
    interpreter = std::make_unique<mlir_interpreter::Interpreter>(module, engine, kernels.get());
    interpreter->setMaxWhileIterations(options.maxIterations);
    for (const mlir_ir::Function* function :
         mlir_interpreter::entryFunctions(module, arguments.has_value())) {
      if (arguments && arguments->size() != function->arguments.size())
        throw mlir_interpreter::InterpretError(
            function->location, "@main takes " + std::to_string(function->arguments.size()) +
                                    " argument(s), given " + plural(arguments->size(), "value"));
      std::vector<mlir_interpreter::Tensor> returned =
          interpreter->call(*function, arguments.value_or(std::vector<mlir_interpreter::Tensor>{}));
      if (function->name == "main") results = std::move(returned);
    }
  } catch (const mlir_interpreter::InterpretError& error) {
    // The caret under the op, as the reader's own diagnostics show it.
    throw ParseError(error.location(), error.message(), sourceLine(source, error.location().line));
  }

  bool printResults = options.printResults || arguments.has_value();
  nlohmann::ordered_json printed = nlohmann::ordered_json::array();
  if (printResults) {
    for (const mlir_interpreter::Tensor& result : results) {
      if (options.json)
        printed.push_back({{"type", mlir_interpreter::describeType(result)},
                           {"value", mlir_interpreter::formatElements(result)}});
      else
        out << mlir_interpreter::formatTensor(result) << '\n';
    }
  }
  const std::vector<mlir_interpreter::CheckOutcome>& checks = interpreter->checks();
  size_t failed = 0;
  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
  for (const mlir_interpreter::CheckOutcome& check : checks) {
    if (!check.failure) continue;
    ++failed;
    if (options.json)
      failures.push_back(
          {{"location", check.location.toString()}, {"op", check.op}, {"message", *check.failure}});
    else
      out << check.location.toString() << ": " << check.op << " failed: " << *check.failure << '\n';
  }
  if (options.json) {
    nlohmann::ordered_json record = {
        {"checks", checks.size()}, {"passed", checks.size() - failed}, {"failed", failures}};
    if (printResults) record["results"] = printed;
    writeJson(out, record);
  } else if (failed == 0) {
    if (!checks.empty() || !printResults) out << plural(checks.size(), "check") << " passed\n";
  } else {
    out << failed << " of " << plural(checks.size(), "check") << " failed\n";
  }
  if (checks.empty() && !printResults)
    diagnostics << source.label() << ": note: no check ops ran\n";
  return failed == 0 ? kSuccess : kRefuted;
}

}  // namespace

ExitCode runRun(const RunOptions& options, std::ostream& out, std::ostream& diagnostics) {
  std::optional<std::vector<mlir_interpreter::Tensor>> arguments = argumentValues(options);
  return forEachUnit(options.inputs, options.splitInputFile, options.json, out, diagnostics,
                     [&](const Source& source, std::ostream& unitOut, std::ostream& unitDiag) {
                       return runSource(options, arguments, source, unitOut, unitDiag);
                     });
}

}  // namespace idxmap::cli
