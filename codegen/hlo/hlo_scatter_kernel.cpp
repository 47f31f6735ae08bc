// An HLO scatter of the entry computation (or a fusion that only wraps one) as a kernel: the
// scatter read into the StableHLO model (ops/hlo/models/gather_scatter.h), its index properties
// proved on the HLO values that feed its indices (verify/op_properties.h: an iota, a constant, a
// parameter known at run time only), then the gather/scatter emitter's kernel, with the stores
// those proofs allow, and its buffers in HLO's words (operand, indices, updates, the result).
#include "codegen/cuda/cuda_kernel.h"
#include "codegen/hlo/hlo_computation_internal.h"
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/hlo/hlo_scatter_update.h"
#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "codegen/prelude/element_code.h"
#include "ops/hlo/models/gather_scatter.h"
#include "ops/hlo/models/model.h"
#include "verify/op_properties.h"

namespace idxmap::codegen {
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
  // Scatter kernels read and write row-major buffers; sub-byte elements one to a byte or packed
  // as a layout's E(n) packs them, at their own width. Each buffer's packing, in the kernel's
  // order: the operands (inputs, indices, updates), then the results.
  std::vector<int> packings;
  auto packing = [&](const hlo::Instruction& of, const hlo::Shape& shape, const std::string& what) {
    if (!hlo_kernel_parts::layoutOf(of, shape).empty())
      throw unsupported(instruction, what +
                                         " has a layout that is not row-major; scatter "
                                         "kernels read row-major buffers");
    const int bits = shape.packedBits > 0 && shape.packedBits < 8 ? shape.packedBits : 0;
    const std::optional<ElementCode> element = elementCode(shape.element_type);
    if (bits && !(element && element->narrow() && element->bits == bits))
      throw unsupported(instruction, what + " is packed at " + std::to_string(bits) + " bits (E(" +
                                         std::to_string(bits) + ")), not its elements' width");
    packings.push_back(bits);
  };
  for (const hlo::Instruction* operand : instruction.operands)
    packing(*operand, operand->shape, "operand " + operand->name);
  if (instruction.shape.isTuple)
    for (size_t i = 0; i < instruction.shape.tupleElements.size(); ++i)
      packing(instruction, instruction.shape.tupleElements[i], "result " + std::to_string(i));
  else
    packing(instruction, instruction.shape, "its result");
  const size_t n = op.inputs.size();
  if (packings.at(n) != 0)
    throw unsupported(instruction, "its indices are packed; scatter kernels read whole ones");
  for (size_t i = 0; i < n; ++i)  // the result starts as a copy of its input's bytes
    if (packings.at(i) != packings.at(2 * n + 1 + i))
      throw unsupported(instruction, "input " + std::to_string(i) + " and result " +
                                         std::to_string(i) +
                                         " are packed differently; the result starts as a copy "
                                         "of the input's bytes");
  // An update computation the prelude has no function for, as functions of this kernel.
  UpdateFunctions update;
  if (op.update_computation == gather_scatter::UpdateComputation::kOther)
    update = scatterUpdateFunctions(scatter, symbol, cuda);
  std::optional<OpIndexProperties> properties = proveHloOpIndexProperties(scatter, {});
  Kernel kernel;
  try {
    kernel = scatterKernel(op, *properties, {"updates", "result", "scatter_indices"}, update.names);
  } catch (const ValidationError&) {
    throw;
  } catch (const Error& error) {
    throw unsupported(scatter, error.what());
  }
  for (size_t k = 0; k < kernel.buffers.size(); ++k) kernel.buffers[k].packedBits = packings.at(k);
  kernel.symbol = symbol;
  kernel.op = "scatter";
  if (kernel.coupled) kernel.notes.push_back(update.note());
  kernel.location = scatter.location.toString();
  if (!properties->indices.empty())
    kernel.notes.insert(kernel.notes.begin(), "index values: " + properties->indices);
  HloKernel out{symbol, instruction.opcode, instruction.location.toString(), {}, kernel.int32, {}};
  for (KernelBuffer buffer : kernel.buffers) {
    buffer.elementType = hloTypeName(buffer.elementType);
    out.buffers.push_back(std::move(buffer));
  }
  out.printed = cuda ? printCudaKernel(kernel) : printCppKernel(kernel);
  out.printed.text = update.text + out.printed.text;
  return out;
}

}  // namespace idxmap::codegen
