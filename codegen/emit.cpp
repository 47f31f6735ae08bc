#include "codegen/emit.h"

#include <cctype>

#include "codegen/gather_scatter_kernels.h"
#include "ops/forms/tcp_gather.h"
#include "ops/forms/tensor_gather.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"
#include "ops/validate/mlir.h"
#include "verify/op_properties.h"

namespace idxmap::codegen {
namespace {

using mlir_ir::Operation;

const TensorNames kGatherNames{"result", "operand", "start_indices"};
const TensorNames kScatterNames{"updates", "result", "scatter_indices"};

// The kernel of one valid op; throws Error when kernels do not compute it.
Kernel kernelOf(const Operation& op, const std::vector<Operation>& block,
                const OpIndexProperties& properties) {
  using namespace gather_scatter;
  const std::string& name = op.name;
  if (name == "stablehlo.gather")
    return gatherKernel(stablehlo_import::importGather(op), properties, kGatherNames);
  if (name == "stablehlo.dynamic_gather") {
    DynamicGatherOp dynamic = stablehlo_import::importDynamicGather(
        op, mlir_gather_analysis::constantSliceSizes(block, op));
    if (dynamic.slice_sizes.empty())
      throw Error("stablehlo.dynamic_gather: the slice sizes are not a constant");
    return gatherKernel(asGather(dynamic), properties, kGatherNames);
  }
  if (name == "stablehlo.scatter")
    return scatterKernel(stablehlo_import::importScatter(op), properties, kScatterNames);
  if (name == "tensor.gather")
    return gatherKernel(lowerTensorGather(importTensorGather(op)).op, properties,
                        {"result", "source", "indices"});
  if (name == "tensor.scatter")
    return scatterKernel(lowerTensorScatter(importTensorScatter(op)).op, properties,
                         {"source", "result", "indices"});
  if (name == "tcp.gather" || name == "tcp.gather_nd") {
    TensorType input;
    LoweredGather lowered;
    if (name == "tcp.gather") {
      TcpGatherOp form = importTcpGather(op);
      input = form.input;
      lowered = lowerTcpGather(form);
    } else {
      TcpGatherNdOp form = importTcpGatherNd(op);
      input = form.input;
      lowered = lowerTcpGatherNd(form);
    }
    // A lowering that reads a prefix of the input still indexes the whole input buffer.
    return gatherKernel(lowered.op, properties, {"result", "input", "indices"},
                        lowered.operand_prefix.empty() ? std::vector<int64_t>{} : input.shape);
  }
  throw Error(name + ": not a gather or scatter form");
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
  return cppFile(printed);
}

std::string EmittedHloModule::source() const {
  std::vector<PrintedKernel> printed;
  for (const HloKernel& kernel : kernels) printed.push_back(kernel.printed);
  return cppFile(printed);
}

EmittedHloModule emitHloModule(const hlo::Module& module) {
  EmittedHloModule out;
  if (!module.entry) return out;
  for (const auto& instruction : module.entry->instructions) {
    const std::string& op = instruction->opcode;
    if (op == "parameter" || op == "constant" || op == "tuple" || op == "get-tuple-element")
      continue;
    try {
      out.kernels.push_back(hloKernel(*instruction, kernelSymbol(op, instruction->location)));
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
                                const std::string& symbol) {
  const IndexOpForm::Names names{"result", "input", "indices"};
  OpIndexProperties properties = proveLoweredGatherProperties(lowered, names, facts);
  Kernel kernel = loweredGatherKernel(lowered, input.shape, properties,
                                      {names.indexSpace, names.target, names.indices});
  kernel.symbol = symbol;
  kernel.op = lowered.op_name;
  kernel.location = "(library call)";
  PrintedKernel printed = printCppKernel(kernel);
  return {nullptr, std::move(kernel), std::move(printed)};
}

EmittedModule emitMlirModule(const mlir_ir::Module& module,
                             const std::vector<Assumption>& assumptions) {
  EmittedModule out;
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
          proveOpIndexProperties(op, *checked.block, assumptions);
      if (!properties) continue;  // an op without indices: nothing to emit
      Kernel kernel = kernelOf(op, *checked.block, *properties);
      kernel.symbol = kernelSymbol(op.name, checked.location);
      kernel.op = op.name;
      kernel.location = checked.location.toString();
      if (!properties->indices.empty())
        kernel.notes.insert(kernel.notes.begin(), "index values: " + properties->indices);
      PrintedKernel printed = printCppKernel(kernel);
      out.kernels.push_back({&op, std::move(kernel), std::move(printed)});
    } catch (const ValidationError& error) {
      out.problems.push_back({error.result().isRefuted() ? EmitProblem::Kind::kValidationRefuted
                                                         : EmitProblem::Kind::kValidationUnknown,
                              checked.location, error.what()});
    } catch (const Error& error) {
      out.problems.push_back(
          {EmitProblem::Kind::kUnsupported, checked.location, op.name + ": " + error.what()});
    }
  }
  return out;
}

}  // namespace idxmap::codegen
