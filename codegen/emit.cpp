#include "codegen/emit.h"

#include <cctype>

#include "codegen/lower/gather_scatter_kernels.h"
#include "codegen/lower/update_functions.h"
#include "ops/gather_analysis/modeled_op.h"
#include "ops/validate/mlir.h"
#include "verify/op_properties.h"

namespace idxmap::codegen {
namespace {

using mlir_ir::Operation;

// The kernel of one valid op; throws Error when kernels do not compute it. A scatter's region
// that no prelude function computes becomes functions of the kernel's own (`update`).
Kernel kernelOf(const Operation& op, const std::vector<Operation>& block,
                const OpIndexProperties& properties, const std::string& symbol, bool cuda,
                UpdateFunctions& update) {
  std::optional<mlir_gather_analysis::ModeledOp> model = mlir_gather_analysis::modelOp(op, block);
  if (!model) throw Error("not a gather or scatter form");
  const TensorNames names{model->indexSpace, model->target, model->indices};
  if (model->scatter) {
    if (model->scatter->update_computation == gather_scatter::UpdateComputation::kOther &&
        op.regions.size() == 1)
      update = regionUpdateFunctions(op, symbol, cuda);
    return scatterKernel(*model->scatter, properties, names, update.names);
  }
  // A lowering that reads a prefix of the input still indexes the whole input buffer.
  return gatherKernel(*model->gather, properties, names, model->wholeTarget);
}

}  // namespace

std::string kernelSymbol(const std::string& opName, const SourceLocation& location) {
  std::string symbol = "idxmap_";
  for (char c : opName) symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return symbol + "_" + std::to_string(location.line) + "_" + std::to_string(location.column);
}

std::string EmittedModule::source() const {
  std::vector<PrintedKernel> printed;
  for (const EmittedKernel& kernel : kernels) printed.push_back(kernel.printed);
  return target.kind == EmitTarget::Kind::kCuda ? cudaFile(printed) : cppFile(printed);
}

std::string EmittedHloModule::source() const {
  std::vector<PrintedKernel> printed;
  for (const HloKernel& kernel : kernels) printed.push_back(kernel.printed);
  return target.kind == EmitTarget::Kind::kCuda ? cudaFile(printed) : cppFile(printed);
}

EmittedHloModule emitHloModule(const hlo::Module& module, const EmitTarget& target) {
  EmittedHloModule out;
  out.target = target;
  if (!module.entry) return out;
  for (const auto& instruction : module.entry->instructions) {
    const std::string& op = instruction->opcode;
    if (op == "parameter" || op == "constant" || op == "tuple" || op == "get-tuple-element")
      continue;
    try {
      out.kernels.push_back(hloKernel(*instruction, kernelSymbol(op, instruction->location),
                                      target.kind == EmitTarget::Kind::kCuda));
    } catch (const ValidationError& error) {
      out.problems.push_back({error.result().isRefuted() ? EmitProblem::Kind::kValidationRefuted
                                                         : EmitProblem::Kind::kValidationUnknown,
                              instruction->location, error.what()});
    } catch (const LocatedError& error) {
      out.problems.push_back({EmitProblem::Kind::kUnsupported, error.location(), error.message()});
    } catch (const Error& error) {
      out.problems.push_back({EmitProblem::Kind::kUnsupported, instruction->opcodeLocation,
                              op + " (" + instruction->name + "): " + error.what()});
    }
  }
  return out;
}

EmittedKernel emitLoweredGather(const gather_scatter::LoweredGather& lowered,
                                const TensorType& input, const std::vector<IndexFact>& facts,
                                const std::string& symbol, const EmitTarget& target) {
  const IndexOpForm::Names names{"result", "input", "indices"};
  OpIndexProperties properties = proveLoweredGatherProperties(lowered, names, facts);
  Kernel kernel = loweredGatherKernel(lowered, input.shape, properties,
                                      {names.indexSpace, names.target, names.indices});
  kernel.symbol = symbol;
  kernel.op = lowered.op_name;
  kernel.location = "(library call)";
  PrintedKernel printed = target.kind == EmitTarget::Kind::kCuda
                              ? printCudaKernel(kernel, target.cuda)
                              : printCppKernel(kernel);
  return {nullptr, std::move(kernel), std::move(printed)};
}

EmittedModule emitMlirModule(const mlir_ir::Module& module,
                             const std::vector<Assumption>& assumptions, const EmitTarget& target) {
  EmittedModule out;
  out.target = target;
  validation::Report report = validation::validateMlirModule(module);
  for (const validation::CheckedOp& checked : report.ops) {
    if (!checked.mlirOp) continue;
    const Operation& op = *checked.mlirOp;
    if (checked.findingCount > 0) {
      out.problems.push_back({EmitProblem::Kind::kInvalidOp, checked.location,
                              report.findings[checked.firstFinding].message});
      continue;
    }
    try {
      std::optional<OpIndexProperties> properties =
          proveOpIndexProperties(op, *checked.block, assumptions, &module);
      if (!properties) continue;  // an op without indices: nothing to emit
      const std::string symbol = kernelSymbol(op.name, checked.location);
      UpdateFunctions update;
      Kernel kernel = kernelOf(op, *checked.block, *properties, symbol,
                               target.kind == EmitTarget::Kind::kCuda, update);
      kernel.symbol = symbol;
      if (kernel.coupled) kernel.notes.push_back(update.note());
      kernel.op = op.name;
      kernel.location = checked.location.toString();
      if (!properties->indices.empty())
        kernel.notes.insert(kernel.notes.begin(), "index values: " + properties->indices);
      PrintedKernel printed = target.kind == EmitTarget::Kind::kCuda
                                  ? printCudaKernel(kernel, target.cuda)
                                  : printCppKernel(kernel);
      printed.text = update.text + printed.text;
      out.kernels.push_back({&op, std::move(kernel), std::move(printed)});
    } catch (const ValidationError& error) {
      out.problems.push_back({error.result().isRefuted() ? EmitProblem::Kind::kValidationRefuted
                                                         : EmitProblem::Kind::kValidationUnknown,
                              checked.location, error.what()});
    } catch (const LocatedError& error) {  // at an op inside the op (a scatter's region)
      out.problems.push_back(
          {EmitProblem::Kind::kUnsupported, error.location(), error.message(), checked.location});
    } catch (const Error& error) {
      out.problems.push_back(
          {EmitProblem::Kind::kUnsupported, checked.location, op.name + ": " + error.what()});
    }
  }
  return out;
}

}  // namespace idxmap::codegen
