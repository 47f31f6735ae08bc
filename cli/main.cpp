// idxmap: the command-line face of the library. Argument handling and formatting only; the
// work happens in the library's modules (cli/README.md).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>

#include "cli/analyze_command.h"
#include "cli/annotate_command.h"
#include "cli/compose_command.h"
#include "cli/draw_command.h"
#include "cli/emit_command.h"
#include "cli/exit_code.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/prove_equal_command.h"
#include "cli/run_command.h"
#include "cli/simplify_command.h"
#include "cli/verify_command.h"
#include "core/checked.h"
#include "core/text.h"

#ifndef IDXMAP_VERSION
#error "IDXMAP_VERSION is set by CMakeLists.txt"
#endif

namespace idxmap::cli {
namespace {

ExitCode run(int argc, char** argv) {
  CLI::App app("idxmap: simplify, compose and prove integer-set indexing maps", "idxmap");
  app.set_version_flag("--version", std::string("idxmap ") + IDXMAP_VERSION);
  app.require_subcommand(1);
  app.footer(R"(Exit status: 0 success (with --check: proven), 1 refuted (a counterexample is
printed), 2 invalid input or usage, 3 unknown (a proof timed out or was unsupported).

Examples:
  idxmap simplify examples/reshape_roundtrip.map
  idxmap simplify --check --json examples/spec004.map
  idxmap compose examples/compose/*.map
  idxmap verify examples/bad_gather.mlir
  idxmap annotate examples/jax_scatter_add.mlir
  idxmap run --engine maps examples/spec_example.mlir
  idxmap emit examples/gather.mlir -o gather_kernels.cpp
  idxmap analyze --decompose-batching examples/gather.mlir
  idxmap draw examples/gather.mlir -o gather.svg
  idxmap prove-equal examples/prove_equal/index_select.mlir examples/prove_equal/index_select_tcp.mlir
  idxmap simplify --help)");

  CommonOptions simplifyOptions;
  CLI::App* simplify = addSimplifyCommand(app, simplifyOptions);
  ComposeOptions composeOptions;
  CLI::App* compose = addComposeCommand(app, composeOptions);
  AnalyzeOptions analyzeOptions;
  CLI::App* analyze = addAnalyzeCommand(app, analyzeOptions);
  VerifyOptions verifyOptions;
  CLI::App* verify = addVerifyCommand(app, verifyOptions);
  AnnotateOptions annotateOptions;
  CLI::App* annotate = addAnnotateCommand(app, annotateOptions);
  RunOptions runOptions;
  CLI::App* runCommand = addRunCommand(app, runOptions);
  EmitOptions emitOptions;
  CLI::App* emit = addEmitCommand(app, emitOptions);
  DrawOptions drawOptions;
  CLI::App* drawCommand = addDrawCommand(app, drawOptions);
  ProveEqualOptions proveEqualOptions;
  CLI::App* proveEqual = addProveEqualCommand(app, proveEqualOptions);

  // CLI11 says only "A subcommand is required" for `idxmap frobnicate`: name it, and the
  // commands there are.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* command : app.get_subcommands({})) {
      known = known || command->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + command->get_name();
    }
    if (!known) {
      std::cerr << "idxmap: error: unknown command '" << argv[1] << "' (the commands: " << names
                << "; idxmap --help says more)\n";
      return kInvalidInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 exits 0 for --help and --version and uses its own codes for usage errors; the
    // contract (DESIGN.md) gives every usage error exit 2.
    return app.exit(e) == 0 ? kSuccess : kInvalidInput;
  }
  if (simplify->parsed()) return runSimplify(simplifyOptions, std::cout, std::cerr);
  if (compose->parsed()) return runCompose(composeOptions, std::cout, std::cerr);
  if (analyze->parsed()) return runAnalyze(analyzeOptions, std::cout, std::cerr);
  if (verify->parsed()) return runVerify(verifyOptions, std::cout, std::cerr);
  if (annotate->parsed()) return runAnnotate(annotateOptions, std::cout, std::cerr);
  if (runCommand->parsed()) return runRun(runOptions, std::cout, std::cerr);
  if (emit->parsed()) return runEmit(emitOptions, std::cout, std::cerr);
  if (drawCommand->parsed()) return runDraw(drawOptions, std::cout, std::cerr);
  if (proveEqual->parsed()) return runProveEqual(proveEqualOptions, std::cout, std::cerr);
  return kInvalidInput;  // unreachable: require_subcommand(1) rejects everything else
}

}  // namespace
}  // namespace idxmap::cli

int main(int argc, char** argv) {
  using idxmap::cli::kInvalidInput;
  // Every failure that reaches here is about the input or the environment; the message
  // goes to stderr and the process exits 2 instead of crashing (DESIGN.md).
  try {
    int status = idxmap::cli::run(argc, argv);
    std::cout.flush();
    return status;
  } catch (const idxmap::LocatedError& e) {
    std::cerr << e.what() << '\n';  // `file:line:col: error: ...`, the line and a caret if known
                                    // (MapError too)
  } catch (const idxmap::cli::InputError& e) {
    std::cerr << e.what() << '\n';  // `file: error: ...`
  } catch (const idxmap::Error& e) {
    std::cerr << "idxmap: error: " << e.what() << '\n';
  } catch (const std::bad_alloc&) {
    std::cerr << "idxmap: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "idxmap: error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "idxmap: error: unexpected failure\n";
  }
  return kInvalidInput;
}
