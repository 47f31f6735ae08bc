// The API's programs (include/idxmap/idxmap.h): reading, each op's maps, index properties,
// kernels and prove-equal, each as the CLI command of the same purpose does it.
#include <chrono>

#include "api/api_internal.h"
#include "codegen/emit.h"
#include "core/bridges/isl_bridge.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/models/common.h"
#include "ops/mlir/module.h"
#include "ops/validate/hlo.h"
#include "ops/validate/mlir.h"
#include "verify/op_properties.h"
#include "verify/replay/argument_witness.h"
#include "verify/replay/prove_equal.h"

namespace idxmap {
namespace {

// The isl budgets of the CLI's verify and emit commands, for one call: the caller's own
// limits (thread-local) come back afterwards.
class CommandIslLimits {
 public:
  CommandIslLimits() : saved_(islLimits()) {
    setIslLimits({5'000'000, std::chrono::milliseconds(120'000)});
  }
  ~CommandIslLimits() { setIslLimits(saved_); }
  CommandIslLimits(const CommandIslLimits&) = delete;
  CommandIslLimits& operator=(const CommandIslLimits&) = delete;

 private:
  IslLimits saved_;
};

// The first finding of a validation report, as an ApiError; nothing when there is none.
void throwFirstFinding(const validation::Report& report, const Program::Parsed& source) {
  if (report.findings.empty()) return;
  const validation::Finding& finding = report.findings.front();
  throw api::errorAt(finding.location, finding.message, source);
}

std::vector<OpMaps> hloOpMaps(const Program::Parsed& source) {
  const hlo::Module& module = *source.hlo;
  if (module.entry == nullptr)
    throw LocatedError({source.file, 1, 1}, "the HLO module has no ENTRY computation");
  std::vector<OpMaps> ops;
  for (const auto& instruction : module.entry->instructions) {
    if (ops::resultCount(*instruction) == 0) continue;
    InstructionIndexing indexing = computeOutputToInputIndexing(*instruction);
    OpMaps op{instruction->opcode, instruction->name, instruction->opcodeLocation.toString(), {}};
    for (size_t k = 0; k < indexing.entries.size(); ++k) {
      const OperandIndexing& entry = indexing.entries[k];
      std::string to = "operand " + std::to_string(k);
      if (entry.unknown) op.maps.push_back({"result", to, std::nullopt, "", true});
      for (const IndexingMap& map : entry.maps)
        op.maps.push_back({"result", to, map, printIsl(map), false});
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::vector<OpMaps> mlirOpMaps(const Program::Parsed& source) {
  std::vector<OpMaps> ops;
  for (const mlir_gather_analysis::AnalyzedOp& analyzed :
       mlir_gather_analysis::analyzeGathers(*source.mlir)) {
    if (analyzed.importError) throw api::errorAt(analyzed.location, *analyzed.importError, source);
    if (!analyzed.violations.empty())
      throw api::errorAt(analyzed.location, analyzed.violations.front().message, source);
    OpMaps op{analyzed.name, "", analyzed.location.toString(), {}};
    for (const mlir_gather_analysis::OpMap& map : analyzed.maps)
      op.maps.push_back({map.from, map.to, map.map, map.isl, false});
    ops.push_back(std::move(op));
  }
  return ops;
}

// A verdict as the API gives it: a witness only once replayed.
ProofResult shown(ProofResult result) {
  if (result.witness && !result.witness->replayed) result.witness.reset();
  return result;
}

OpProperties publicProperties(const validation::CheckedOp& checked,
                              const OpIndexProperties& proven) {
  return {checked.op,
          checked.location.toString(),
          proven.unique ? std::optional<ProofResult>(shown(proven.unique->result)) : std::nullopt,
          shown(proven.sorted.result),
          shown(proven.inBounds.result),
          shown(proven.int32Safe.result),
          proven.indices};
}

// Every problem, each located with its line; the first one's location is the error's.
ApiError emitError(const std::vector<codegen::EmitProblem>& problems,
                   const Program::Parsed& source) {
  std::string all;
  for (const codegen::EmitProblem& problem : problems)
    all += api::errorAt(problem.location, problem.message, source).what() + std::string("\n");
  const codegen::EmitProblem& first = problems.front();
  return ApiError(all, first.message, first.location.file, first.location.line,
                  first.location.column);
}

// The assumptions as --assume reads them; HLO programs take none.
std::vector<Assumption> factsAbout(const Program::Parsed& source,
                                   const std::vector<std::string>& assumptions) {
  std::vector<Assumption> facts = parseAssumptions(assumptions);
  if (source.hlo && !facts.empty())
    throw LocatedError({source.file, 1, 1}, "assumptions apply to MLIR programs only");
  return facts;
}

void requireMlir(const Program& program, const char* what) {
  if (program.isHlo())
    throw LocatedError({program.file(), 1, 1}, std::string(what) + " takes MLIR, not HLO");
}

// The verdict, its counterexample's explanation led by the arguments' values (as the CLI
// prints it), and what it assumed or computed on reals among its assumptions.
ProofResult withArguments(const program_equality::EqualityVerdict& verdict) {
  ProofResult proof = verdict.proof;
  if (proof.counterexample) {
    std::string shown, arbitrary;
    auto append = [](std::string& list, const std::string& item) {
      list += (list.empty() ? "" : ", ") + item;
    };
    for (const auto& argument : verdict.arguments) {
      if (argument.shown)
        append(shown, argument.name + " = " + argument.value);
      else
        append(arbitrary, argument.name);
    }
    std::string explanation = "for " + (shown.empty() ? std::string("arguments") : shown);
    if (!arbitrary.empty()) explanation += " (and " + arbitrary + " arbitrary)";
    explanation += ", " + proof.counterexample->explanation + "; the interpreter computes " +
                   verdict.firstValue + " and " + verdict.secondValue + " there";
    proof.counterexample->explanation = explanation;
  }
  proof.assumptions.insert(proof.assumptions.end(), verdict.assumptions.begin(),
                           verdict.assumptions.end());
  for (const std::string& op : verdict.realArithmetic)
    proof.assumptions.push_back(op + " computed on reals (rounding not modeled)");
  return proof;
}

}  // namespace

bool Program::isHlo() const { return parsed_->hlo.has_value(); }
const std::string& Program::file() const { return parsed_->file; }

Program readProgram(std::string_view text, std::string_view file) {
  return api::guarded([&] {
    auto parsed = std::make_shared<Program::Parsed>();
    parsed->file = file;
    parsed->text = text;
    if (!mlir_ir::looksLikeMlir(file, text))
      parsed->hlo = readHloModule(parsed->text, parsed->file);
    else
      parsed->mlir = mlir_ir::parseMlirModule(parsed->text, parsed->file);
    return Program(std::move(parsed));
  });
}

std::vector<OpMaps> opMaps(const Program& program) {
  const Program::Parsed& source = program.parsed();
  return api::guarded([&] { return source.hlo ? hloOpMaps(source) : mlirOpMaps(source); }, &source);
}

std::vector<OpProperties> proveIndexProperties(const Program& program,
                                               const std::vector<std::string>& assumptions) {
  const Program::Parsed& source = program.parsed();
  return api::guarded(
      [&] {
        std::vector<Assumption> facts = factsAbout(source, assumptions);
        CommandIslLimits limits;
        validation::Report report = source.hlo ? validation::validateHloModule(*source.hlo)
                                               : validation::validateMlirModule(*source.mlir);
        throwFirstFinding(report, source);
        std::vector<OpProperties> all;
        for (const validation::CheckedOp& checked : report.ops) {
          std::optional<OpIndexProperties> proven =
              checked.mlirOp
                  ? proveOpIndexProperties(*checked.mlirOp, *checked.block, facts, &*source.mlir)
              : checked.hloInstruction ? proveHloOpIndexProperties(*checked.hloInstruction, facts)
                                       : std::nullopt;
          if (proven && checked.mlirOp)  // witnesses only once the interpreter replayed them
            argument_witness::replayWitnesses(*source.mlir, *checked.block, *checked.mlirOp, facts,
                                              *proven);
          if (proven) all.push_back(publicProperties(checked, *proven));
        }
        return all;
      },
      &source);
}

std::string emitKernels(const Program& program, KernelLanguage language,
                        const std::vector<std::string>& assumptions) {
  const Program::Parsed& source = program.parsed();
  return api::guarded(
      [&] {
        std::vector<Assumption> facts = factsAbout(source, assumptions);
        CommandIslLimits limits;
        codegen::EmitTarget target;
        if (language == KernelLanguage::kCuda) target.kind = codegen::EmitTarget::Kind::kCuda;
        // The file when every op got its kernel, as the CLI writes it; the problems otherwise.
        auto file = [&](const auto& emitted) {
          if (!emitted.problems.empty()) throw emitError(emitted.problems, source);
          return emitted.source();
        };
        return source.hlo ? file(codegen::emitHloModule(*source.hlo, target))
                          : file(codegen::emitMlirModule(*source.mlir, facts, target));
      },
      &source);
}

ProofResult proveProgramsEqual(const Program& first, const Program& second,
                               const std::string& function, const std::string& other,
                               unsigned timeoutMs) {
  const Program::Parsed& a = first.parsed();
  const Program::Parsed& b = second.parsed();
  return api::guarded(
      [&] {
        requireMlir(first, "proveProgramsEqual");
        requireMlir(second, "proveProgramsEqual");
        const std::string& otherName = other.empty() ? function : other;
        const mlir_ir::Function* f = a.mlir->function(function);
        const mlir_ir::Function* g = b.mlir->function(otherName);
        if (f == nullptr) throw LocatedError({a.file, 1, 1}, "no function @" + function);
        if (g == nullptr) throw LocatedError({b.file, 1, 1}, "no function @" + otherName);
        return withArguments(
            program_equality::proveEqual({&*a.mlir, f}, {&*b.mlir, g}, {timeoutMs}));
      },
      &a, &b);
}

}  // namespace idxmap
