#include "cli/emit_command.h"

#include "cli/input.h"
#include "cli/output.h"
#include "codegen/emit.h"
#include "core/bridges/isl_bridge.h"
#include "ops/hlo/models/model.h"
#include "verify/assumptions.h"

namespace idxmap::cli {
namespace {

using codegen::EmitProblem;

ExitCode exitFor(const std::vector<EmitProblem>& problems) {
  ExitCode code = kSuccess;
  for (const EmitProblem& problem : problems) {
    if (problem.kind == EmitProblem::Kind::kInvalidOp ||
        problem.kind == EmitProblem::Kind::kUnsupported)
      return kInvalidInput;
    if (problem.kind == EmitProblem::Kind::kValidationRefuted) code = kRefuted;
    if (problem.kind == EmitProblem::Kind::kValidationUnknown && code == kSuccess) code = kUnknown;
  }
  return code;
}

nlohmann::ordered_json kernelJson(const codegen::EmittedKernel& emitted) {
  const codegen::Kernel& kernel = emitted.kernel;
  nlohmann::ordered_json facts = nlohmann::ordered_json::array();
  for (const codegen::ReliedFact& fact : kernel.facts)
    facts.push_back({{"fact", fact.statement},
                     {"certificate", fact.proof.method},
                     {"assumptions", fact.proof.assumptions}});
  return {{"op", kernel.op},
          {"location", kernel.location},
          {"symbol", kernel.symbol},
          {"strategy", kernel.strategy == codegen::Strategy::kIndependent ? "parallel"
                       : kernel.strategy == codegen::Strategy::kSegmented ? "segmented"
                                                                          : "ordered"},
          {"clamps", kernel.clamp},
          {"bounds_test", kernel.guard},
          {"index_type", kernel.int32 ? "int32_t" : "int64_t"},
          {"facts", facts},
          {"notes", kernel.notes},
          {"validated", emitted.printed.certificates}};
}

nlohmann::ordered_json hloKernelJson(const codegen::HloKernel& kernel) {
  nlohmann::ordered_json buffers = nlohmann::ordered_json::array();
  for (const codegen::KernelBuffer& b : kernel.buffers)
    buffers.push_back({{"name", b.name},
                       {"element_type", b.elementType},
                       {"shape", b.shape},
                       {"written", b.written},
                       {"layout", b.layout}});
  return {{"op", kernel.op},
          {"location", kernel.location},
          {"symbol", kernel.symbol},
          {"buffers", buffers},
          {"index_type", kernel.int32 ? "int32_t" : "int64_t"},
          {"validated", kernel.printed.certificates}};
}

// What both inputs share once their kernels are emitted: the problems as diagnostics (with
// their source line and a caret), a note when there is nothing to emit, the file when every
// kernel was emitted, the JSON records.
template <class Emitted, class ToJson>
ExitCode report(const EmitOptions& options, const Emitted& emitted, const Source& source,
                const std::string& nothing, ToJson toJson, std::ostream& out,
                std::ostream& diagnostics) {
  for (const EmitProblem& problem : emitted.problems)
    diagnostics << LocatedError(problem.location, problem.message,
                                sourceLine(source, problem.location.line))
                       .what()
                << '\n';
  ExitCode code = exitFor(emitted.problems);
  if (emitted.kernels.empty() && emitted.problems.empty())
    diagnostics << source.name << ": note: " << nothing << "\n";
  if (code == kSuccess &&
      !writeOutput(options.output, options.json, emitted.source(), out, diagnostics))
    code = kInvalidInput;
  if (options.json) {
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (const auto& kernel : emitted.kernels) records.push_back(toJson(kernel));
    writeJson(out, records);
  }
  return code;
}

ExitCode runEmitHlo(const EmitOptions& options, const Source& source,
                    const codegen::EmitTarget& target, std::ostream& out,
                    std::ostream& diagnostics) {
  if (!options.assumptions.empty()) {
    diagnostics << "--assume: error: facts name MLIR values; an HLO module has none to assume "
                   "about\n";
    return kInvalidInput;
  }
  hlo::Module module = readHloModule(source.text, source.name);
  return report(options, codegen::emitHloModule(module, target), source,
                "the entry computation computes nothing to emit", hloKernelJson, out, diagnostics);
}

}  // namespace

CLI::App* addEmitCommand(CLI::App& app, EmitOptions& options) {
  CLI::App* command = app.add_subcommand(
      "emit",
      "Write every gather and scatter of a StableHLO MLIR file, or every op and fusion of an "
      "HLO module, as a C++ (or CUDA) kernel");
  command->add_option("input", options.input, "StableHLO MLIR or HLO text; - or none reads stdin")
      ->type_name("FILE|-");
  command
      ->add_option("-o,--output", options.output,
                   "The C++ (or .cu) file to write (default: stdout)")
      ->type_name("FILE");
  command
      ->add_option("--assume", options.assumptions,
                   "A fact about index values, as for idxmap verify: '%VALUE: FACT[, FACT]...' "
                   "(repeatable); kernels then rely on it")
      ->type_name("FACTS")
      ->allow_extra_args(false);
  command->add_option("--target", options.target, "What kernels are written in (default: cpp)")
      ->check(CLI::IsMember({"cpp", "cuda"}))
      ->type_name("cpp|cuda");
  command->add_flag("--deterministic", options.deterministic,
                    "--target cuda: no atomics; updates that may write one element are sorted "
                    "(by row or by target) and applied in row-major order (bit for bit the "
                    "same every run; always so for a packed target or an update function of "
                    "the kernel's own)");
  command->add_flag(
      "--json", options.json,
      "Print one record per kernel on stdout: {op, location, symbol, strategy, "
      "clamps, bounds_test, index_type, facts, notes, validated}; the C++ goes to -o");
  command->footer(
      R"(Kernels: stablehlo.gather, dynamic_gather (constant slice sizes) and scatter (update
computation add, multiply, minimum, maximum or replace; any other region of elementwise ops,
such as an argmax over a variadic scatter's inputs, becomes the kernel's own functions, each
new value computed from every input before any is stored), tensor.gather, tensor.scatter,
tcp.gather and tcp.gather_nd, with static shapes; element types f16, bf16, f32, f64, i1-i64,
ui8-ui64 and the sub-byte i2, i4, ui2, ui4 (one to a byte; not as index values).

HLO modules: one kernel per instruction of the entry computation (parameters, constants,
tuples and get-tuple-element aside): a fusion computes its fused computation, any other
instruction its own op. Computed: elementwise ops (arithmetic, compare, select, clamp,
convert, the math functions; XLA's integer and IEEE semantics, f16/bf16 rounded after every
operation), broadcast, iota, constant, transpose, reverse, slice, reshape, bitcast, copy,
concatenate, pad, dynamic-slice, dynamic-update-slice, gather (start indices clamped),
reduce-precision, reduce and reduce-window (one or several inputs, as JAX's argmax writes them;
the reducer applied in row-major order, padding and dilation holes skipped as XLA skips them),
dot and convolution (XLA's evaluator's conversions and accumulation order; not tuned against a
BLAS), and an entry computation's scatter (or a fusion that only wraps one): variadic, of any
update computation of elementwise ops, sub-byte values one to a byte or packed (E(n)). The root and
every reduction is a stage: a loop nest over its elements; everything else is computed in place
from composed maps. Buffers follow the layouts the module writes; index arithmetic is int32_t
where validation proves it fits. Any other op is an error located at it.

Each kernel is one extern "C" function taking its buffers and their element counts
(returning 1 when a count is not the one it was emitted for), plus SYMBOL_packed taking them
as arrays; idxmap_set_num_threads sets the OpenMP threads. The file needs no idxmap header:
  c++ -std=c++20 -O3 -fopenmp -c kernels.cpp

The code follows what idxmap verify proves (--assume facts included): no clamp when no start
index can be clamped, no bounds test when no update can be skipped, parallel plain stores when
scatter indices are unique, threads splitting the updates at runs of equal index vectors
when they are sorted (else row-major order, threads splitting a dim or an index's values that
a target coordinate is, or else the targets), int32_t
index arithmetic when every index expression fits. Before a kernel is written its loop nest,
every index expression as printed (C '/' and '%' included) and every guard are read back and
proven equal to the map with isl, and its int32_t arithmetic is checked again on bit-vectors
with Z3; the header lists the maps, the proofs and these checks.

--target cuda writes the same kernels as one .cu file: a __global__ kernel per op (per stage of
an HLO fusion, launched in order) with a thread per point, its point decoded from the thread's
number (validated like a loop nest), and three entries: SYMBOL_launch(device buffers, counts,
cudaStream_t), SYMBOL(host buffers, counts: copies in, launches, copies back) and
SYMBOL_packed; they return 0, 1 (a count not the emitted one), 2 (an index out of range,
checked forms) or 3 (a CUDA error). Stores follow the proofs: plain when no two updates write one element, a thread
per run of equal index vectors when the indices are sorted, else native atomics (atomicAdd for
f32, f64, f16, bf16, i32, i64; compare-and-swap only where CUDA has no atomic), or with
--deterministic (and always for a packed target or an update function of the kernel's own,
which have no atomic form) a stable sort and the updates of each element applied in row-major order: the
rows by their index value where that value is a target coordinate (and the window's dims are the
others), else every update by its target. Without nvcc the file compiles as host C++ (the CUDA part it uses is emulated):
  nvcc -std=c++20 --expt-relaxed-constexpr -O3 -arch=sm_90 -c kernels.cu
  c++ -std=c++20 -x c++ -c kernels.cu

Exit status: 0 every op emitted; 1 validation refuted a kernel (a bug of the emitter: the
diagnostic names the expression and a point); 2 invalid input, an invalid op, or an op
kernels do not compute; 3 validation could not decide. Nothing is written unless every op is
emitted.

Examples:
  idxmap emit examples/gather.mlir -o gather_kernels.cpp
  idxmap emit --assume '%rows: unique' examples/scatter_claims.mlir -o scatter.cpp
  idxmap emit --target cuda examples/gather.mlir -o gather_kernels.cu
  idxmap run --engine kernel examples/spec_example.mlir)");
  return command;
}

ExitCode runEmit(const EmitOptions& options, std::ostream& out, std::ostream& diagnostics) {
  std::vector<Assumption> assumptions = parseAssumptions(options.assumptions);
  setIslLimits({5'000'000, std::chrono::milliseconds(120'000)});
  codegen::EmitTarget target;
  if (options.target == "cuda") target.kind = codegen::EmitTarget::Kind::kCuda;
  target.cuda.deterministic = options.deterministic;
  if (options.deterministic && target.kind != codegen::EmitTarget::Kind::kCuda) {
    diagnostics << "--deterministic: error: only --target cuda has atomics to avoid; C++ "
                   "kernels are deterministic already\n";
    return kInvalidInput;
  }
  Source source = readSource(options.input);
  if (!isMlir(source)) return runEmitHlo(options, source, target, out, diagnostics);
  mlir_ir::Module module = mlir_ir::parseMlirModule(source.text, source.name);
  return report(options, codegen::emitMlirModule(module, assumptions, target), source,
                "no gather or scatter to emit", kernelJson, out, diagnostics);
}

}  // namespace idxmap::cli
