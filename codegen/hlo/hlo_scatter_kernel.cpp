// An HLO scatter of the entry computation (or a fusion that only wraps one) as a kernel: the
// scatter read into the StableHLO model (ops/hlo/models/gather_scatter.h), its index properties
// proved on the HLO values that feed its indices (verify/op_properties.h: an iota, a constant, a
// parameter known at run time only), then the gather/scatter emitter's kernel, with the stores
// those proofs allow, and its buffers in HLO's words (operand, indices, updates, the result).
#include "codegen/cuda/cuda_kernel.h"
#include "codegen/hlo/hlo_computation_internal.h"
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "ops/hlo/models/gather_scatter.h"
#include "ops/hlo/models/model.h"
#include "verify/op_properties.h"

namespace idxmap::codegen {
namespace {

// StableHLO's element type names back in HLO's (i32 -> s32, ui8 -> u8, i1 -> pred).
std::string hloElementType(const std::string& stablehlo) {
  if (stablehlo == "i1") return "pred";
  if (stablehlo.rfind("ui", 0) == 0) return "u" + stablehlo.substr(2);
  if (stablehlo.rfind("i", 0) == 0) return "s" + stablehlo.substr(1);
  return stablehlo;
}

}  // namespace

const hlo::Instruction* wrappedScatter(const hlo::Instruction& fusion) {
  if (fusion.opcode != "fusion" || fusion.calledComputations.size() != 1) return nullptr;
  const hlo::Instruction* root = fusion.calledComputations[0]->root;
  if (root->opcode != "scatter" || root->operands.size() != fusion.operands.size()) return nullptr;
  for (size_t i = 0; i < root->operands.size(); ++i)
    if (root->operands[i]->opcode != "parameter" ||
        root->operands[i]->parameterNumber != static_cast<int64_t>(i))
      return nullptr;
  return root;
}

HloKernel hloScatterKernel(const hlo::Instruction& instruction, const std::string& symbol,
                           bool cuda) {
  using hlo_stage::unsupported;
  const hlo::Instruction* wrapped = wrappedScatter(instruction);
  const hlo::Instruction& scatter = wrapped ? *wrapped : instruction;
  findOpModel(scatter.opcode)->validate(scatter);
  gather_scatter::ScatterOp op = ops::hloScatterOp(scatter);
  // Scatter kernels read and write row-major buffers of whole elements.
  auto requirePlain = [&](const hlo::Instruction& of, const hlo::Shape& shape,
                          const std::string& what) {
    if (!hlo_kernel_parts::layoutOf(of, shape).empty())
      throw unsupported(instruction, what +
                                         " has a layout that is not row-major; scatter "
                                         "kernels read row-major buffers");
    if (shape.packedBits > 0 && shape.packedBits < 8)
      throw unsupported(instruction, what + " is packed (E(" + std::to_string(shape.packedBits) +
                                         ")); scatter kernels hold one element to its storage");
  };
  for (const hlo::Instruction* operand : instruction.operands)
    requirePlain(*operand, operand->shape, "operand " + operand->name);
  if (instruction.shape.isTuple)
    for (size_t i = 0; i < instruction.shape.tupleElements.size(); ++i)
      requirePlain(instruction, instruction.shape.tupleElements[i], "result " + std::to_string(i));
  else
    requirePlain(instruction, instruction.shape, "its result");
  std::optional<OpIndexProperties> properties = proveHloOpIndexProperties(scatter, {});
  Kernel kernel;
  try {
    kernel = scatterKernel(op, *properties, {"updates", "result", "scatter_indices"});
  } catch (const ValidationError&) {
    throw;
  } catch (const Error& error) {
    throw unsupported(scatter, error.what());
  }
  kernel.symbol = symbol;
  kernel.op = "scatter";
  kernel.location = scatter.location.toString();
  if (!properties->indices.empty())
    kernel.notes.insert(kernel.notes.begin(), "index values: " + properties->indices);
  HloKernel out{symbol, instruction.opcode, instruction.location.toString(), {}, kernel.int32, {}};
  for (KernelBuffer buffer : kernel.buffers) {
    buffer.elementType = hloElementType(buffer.elementType);
    out.buffers.push_back(std::move(buffer));
  }
  out.printed = cuda ? printCudaKernel(kernel) : printCppKernel(kernel);
  return out;
}

}  // namespace idxmap::codegen
