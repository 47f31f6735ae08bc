#include "codegen/hlo/hlo_kernel.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <set>

#include "codegen/cpp/ir_printer.h"
#include "codegen/cuda/cuda_functions.h"
#include "codegen/cuda/cuda_threads.h"
#include "codegen/cuda/thread_check.h"
#include "codegen/hlo/hlo_computation_internal.h"
#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/hlo/hlo_stage_proofs_internal.h"
#include "codegen/ir/loops.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/validate/validation.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/models/model.h"

namespace idxmap::codegen {
namespace {

using hlo::Instruction;
using hlo_stage::KernelScope;
using hlo_stage::StageEmitter;
using hlo_stage::StageProofs;
using hlo_stage::unsupported;
using hlo_stage::ValueBuffer;
using namespace hlo_kernel_parts;

// How many results an instruction has: a variadic reduction's tuple elements, else one.
size_t resultCount(const Instruction& instruction) {
  return instruction.shape.isTuple ? instruction.shape.tupleElements.size() : 1;
}

// Whether an instruction of `computation` other than its tuple root reads `value`.
bool readInside(const hlo::Computation& computation, const Instruction& value) {
  for (const auto& instruction : computation.instructions) {
    if (instruction.get() == computation.root && instruction->opcode == "tuple") continue;
    if (std::count(instruction->operands.begin(), instruction->operands.end(), &value)) return true;
  }
  return false;
}

class HloKernelPrinter {
 public:
  // `widthNote`: why index arithmetic is in `width`, for the header.
  HloKernelPrinter(const Instruction& instruction, std::string symbol, CWidth width,
                   std::string widthNote, bool cuda, const StageEdit& edit)
      : instruction_(instruction),
        symbol_(std::move(symbol)),
        width_(width),
        widthNote_(std::move(widthNote)),
        cuda_(cuda),
        edit_(edit),
        proofs_(instruction, width) {}

  HloKernel print() {
    KernelComputation kernel = computationOf(instruction_);
    std::set<const Instruction*> seen;
    checkInstructions(*kernel.computation, seen);
    scope_.computation = kernel.computation;
    HloKernel out{symbol_, instruction_.opcode, instruction_.location.toString(), {}, {}, {}};
    for (size_t i = 0; i < instruction_.operands.size(); ++i) {
      const hlo::Shape& shape = instruction_.operands[i]->shape;
      std::optional<ElementCode> type = elementCode(shape.element_type);
      if (!type || shape.isTuple)
        throw unsupported(instruction_, "operand " + std::to_string(i) + " of type " +
                                            shape.toString() + " has no kernel storage");
      const int packed = packedBits(shape, *type, "operand " + std::to_string(i));
      scope_.parameters.push_back({identifier(i, "in"), *type, shape.shape, false,
                                   layoutOf(*instruction_.operands[i], shape), packed});
      out.buffers.push_back({identifier(i, "in"), shape.element_type, shape.shape, false,
                             scope_.parameters.back().layout, packed});
      header_ += "// " + identifier(i, "in") + " = " + instruction_.operands[i]->name + ": " +
                 shape.toString() + packedNote(packed) + "\n";
    }
    // The stages: every reduce and dot the roots reach, in text order, then the roots.
    const Instruction* root = kernel.computation->root;
    std::vector<const Instruction*> roots{root};
    if (root->opcode == "tuple") roots.assign(root->operands.begin(), root->operands.end());
    std::vector<ir::Node> stages;  // C++: the function's; CUDA: the launcher's
    size_t temporaries = 0, constants = 0;
    for (const auto& instruction : kernel.computation->instructions) {
      if (!seen.count(instruction.get())) continue;
      if (instruction->opcode == "constant" && instruction->shape.rank() > 0)
        scope_.constants[instruction.get()] =
            constantArray(*instruction, constants++, scope_.constantArrays);
      if (!hlo_stage::reducesInStage(instruction->opcode)) continue;
      // A root that nothing else reads is computed straight into its output.
      if (std::count(roots.begin(), roots.end(), instruction.get()) == 1 &&
          !readInside(*kernel.computation, *instruction))
        continue;
      std::vector<ValueBuffer> buffers;  // one per result
      for (size_t k = 0; k < resultCount(*instruction); ++k) {
        ValueBuffer buffer{identifier(temporaries++, "t"), hlo_stage::codeOfResult(*instruction, k),
                           hlo_stage::resultShape(*instruction), true};
        const std::string size = std::to_string(elementsOf(buffer.shape));
        if (cuda_) {  // a 256-byte aligned region of the caller's workspace
          stages.push_back(ir::region(buffer.type.compute, buffer.name, {workspaceBytes_}));
          workspaceBytes_ = "(" + workspaceBytes_ + " + (sizeof(" + buffer.type.compute + ") * " +
                            size + " + 255) / 256 * 256)";
          temporaries_.push_back(buffer);
        } else {
          stages.push_back(ir::buffer(buffer.type.compute, buffer.name, elementsOf(buffer.shape)));
        }
        buffers.push_back(buffer);
      }
      std::ranges::move(stage(*instruction, buffers), std::back_inserter(stages));
      if (instruction->shape.isTuple)
        scope_.materializedTuples[instruction.get()] = buffers;
      else
        scope_.materialized[instruction.get()] = buffers[0];
    }
    for (size_t k = 0; k < roots.size(); ++k) {
      const Instruction& root = *roots[k];
      // A variadic reduction as the kernel's root: its results are the outputs (one inside a
      // tuple root would make a nested tuple, which no buffer is).
      if (root.shape.isTuple && kernel.computation->root != &root)
        throw unsupported(root, "a tuple result inside a tuple result is not computed");
      std::vector<ValueBuffer> outputs;
      for (size_t j = 0; j < resultCount(root); ++j) {
        const size_t n = root.shape.isTuple ? j : k;
        const hlo::Shape& declared =
            instruction_.shape.isTuple && n < instruction_.shape.tupleElements.size()
                ? instruction_.shape.tupleElements[n]
                : instruction_.shape;
        const hlo::Shape& shape = root.shape.isTuple ? root.shape.tupleElements[j] : root.shape;
        ValueBuffer buffer{identifier(n, "out"), *elementCode(shape.element_type), shape.shape,
                           false, layoutOf(instruction_, declared)};
        const int packed = packedBits(declared, buffer.type, "result " + std::to_string(n));
        buffer.packedBits = packed;
        out.buffers.push_back(
            {buffer.name, shape.element_type, shape.shape, true, buffer.layout, packed});
        header_ += "// " + buffer.name + " = " + root.name +
                   (root.shape.isTuple ? "." + std::to_string(j) : "") + ": " + shape.toString() +
                   packedNote(packed) + "\n";
        outputs.push_back(buffer);
      }
      std::ranges::move(stage(root, outputs), std::back_inserter(stages));
    }
    std::vector<EntryBuffer> entry;
    for (const KernelBuffer& b : out.buffers) {
      const ElementCode type = *elementCode(b.elementType);
      if (b.packedBits)
        entry.push_back({b.name, "uint8_t", b.written, b.elements(),
                         packedBufferType(type, b.written), b.packedBits});
      else
        entry.push_back({b.name, type.storage, b.written, b.elements()});
    }
    std::string text =
        "// idxmap kernel: " + instruction_.opcode + " " + instruction_.name + " at " +
        out.location +
        (instruction_.opcode == "fusion" ? " (" + kernel.computation->name + ")" : "") + "\n" +
        header_ + "// " + widthNote_ +
        "\n// f16 / bf16 computed in float, rounded "
        "after every operation\n"
        "// proven (isl, Z3 where isl gives up): every simplified index expression is the op "
        "models' composed one\n";
    for (const std::string& certificate : proofs_.certificates())
      text += certificateComment(certificate);
    if (cuda_) {
      // The stages' temporaries are regions of a workspace (SYMBOL_workspace_bytes):
      // SYMBOL_launch_in allocates nothing, SYMBOL_launch allocates it around launch_in.
      text +=
          "// CUDA: each stage a launch, a thread per element (256 a block), in order on the "
          "stream; temporaries in the caller's workspace\n" +
          cudaKernels_ +
          printLaunchFunction({symbol_, entry, workspaceBytes_, false, std::move(stages)});
    } else {
      ir::Function function{symbol_, entry, "", width_, 0, scope_.constantArrays};
      for (ir::Node& node : stages) function.body.push_back(std::move(node));
      text += ir::printCppFunction(function);
    }
    out.printed = {text, proofs_.certificates()};
    return out;
  }

 private:
  // The bits a buffer's layout packs each element in (its E(n); 0: one element to its storage,
  // as an E(8) or wider says too): a sub-byte type packed at its own width is a packed buffer
  // (idxmap_packed); any other sub-byte packing is not one kernels read or write.
  int packedBits(const hlo::Shape& shape, const ElementCode& type, const std::string& what) const {
    if (shape.packedBits == 0 || shape.packedBits >= 8) return 0;
    if (type.narrow() && shape.packedBits == type.bits) return type.bits;
    throw unsupported(instruction_, what + " of type " + shape.toString() + " has layout E(" +
                                        std::to_string(shape.packedBits) +
                                        "), not its elements' width: kernels pack sub-byte "
                                        "integers at their own width only");
  }

  // A stage kernel's parameter for an operand (`written`: a result) of the instruction.
  static ir::Parameter parameterOf(const ValueBuffer& buffer, bool written) {
    const std::string constant = written ? "" : "const ";
    if (buffer.packedBits)
      return {constant + "uint8_t", buffer.name, true, packedBufferType(buffer.type, written)};
    return {constant + buffer.type.storage, buffer.name};
  }

  static std::string packedNote(int bits) {
    if (bits == 0) return "";
    return " packed " + std::to_string(8 / bits) + " to a byte (E(" + std::to_string(bits) +
           "), the first of each byte's elements in its high bits)";
  }

  // The stage computing `instruction`'s results into `outputs` (one per result): its loops and
  // statement (C++), or its launch (CUDA; its __global__ function goes to cudaKernels_).
  std::vector<ir::Node> stage(const Instruction& instruction,
                              const std::vector<ValueBuffer>& outputs) {
    StageEmitter emitter(scope_, instruction, outputs, width_);
    const ValueBuffer& output = outputs.at(0);  // all results have its shape
    const int64_t points = elementsOf(output.shape);
    std::string names = output.name;
    for (size_t k = 1; k < outputs.size(); ++k) names += ", " + outputs[k].name;
    std::string describe = names + " = " + instruction.name + " (" + instruction.opcode +
                           ") over " + instruction.shape.toString();
    if (emitter.map().dims.size() > output.shape.size()) {
      describe += ", reducing";
      for (size_t i = output.shape.size(); i < emitter.map().dims.size(); ++i)
        describe += " d" + std::to_string(i) + " in [" +
                    std::to_string(emitter.map().dims[i].range.lo) + ", " +
                    std::to_string(emitter.map().dims[i].range.hi) + "]";
      describe += " (constant bounds, row-major order)";
    }
    header_ += "// stage " + describe + "\n";
    if (points == 0) return {ir::comment(output.name + " has no elements")};
    std::vector<ir::Node> code;
    IndexingMap loopMap = IndexingMap::identity(output.shape);
    loopMap.results.clear();
    if (cuda_) {
      code = {cudaStage(emitter, outputs, loopMap)};
    } else {
      code = cppStage(emitter, points, loopMap, output.name);
    }
    for (const hlo_stage::StageRead& read : emitter.reads()) {
      IndexingMap map = emitter.map();
      map.results = read.index;
      std::string line = "//   " + names + " -> " + read.buffer + ": " + oneLine(map) + "\n";
      if (readLines_.insert(line).second) header_ += line;
    }
    proofs_.validate(emitter);
    return code;
  }

  // The stage as C++: isl's loop nest over its outputs' elements as IR, threads and SIMD lanes
  // on its loops (its points are independent: each writes its own elements), the loops read
  // back from the IR and proven to enumerate each point once.
  std::vector<ir::Node> cppStage(StageEmitter& emitter, int64_t points, const IndexingMap& loopMap,
                                 const std::string& output) {
    if (loopMap.dims.empty()) {
      std::vector<ir::Node> nodes{emitter.statement({})};
      if (edit_) edit_(nodes);
      std::vector<const ir::Node*> statements;
      for (const ir::Node& node : nodes) statements.push_back(&node);
      proofs_.readBack(emitter, statements);
      return nodes;
    }
    std::vector<ir::Node> nest =
        ir::fromLoopNest(buildLoopNest(loopMap, width_), [&](const std::vector<CExpr>& point) {
          std::vector<ir::Node> lets;  // the dims isl fixed to a value
          for (size_t i = 0; i < point.size(); ++i) {
            const std::string d = "d" + std::to_string(i);
            if (point[i]->op != COp::kVariable || point[i]->name != d)
              lets.push_back(ir::let(typeName(width_), d, ir::indexValue(point[i])));
          }
          return emitter.statement(std::move(lets));
        });
    ir::mapIndependentLoops(nest, true);
    // Threads pay off by the stage's own points (a reduction's statement visits several).
    const int64_t perStatement = emitter.pointsPerStatement();
    std::function<void(std::vector<ir::Node>&)> grain = [&](std::vector<ir::Node>& nodes) {
      for (ir::Node& node : nodes) {
        if (node.mapping.kind == ir::LoopMapping::Kind::kThreads)
          node.mapping.points =
              points > INT64_MAX / perStatement ? INT64_MAX : points * perStatement;
        if (!(node.kind == ir::Node::Kind::kBlock && node.scoped)) grain(node.body);
      }
    };
    grain(nest);
    if (edit_) edit_(nest);
    KernelValidator loops(loopMap, IndexLowering(loopMap, width_).declared());
    std::string why;
    std::vector<const ir::Node*> top;
    for (const ir::Node& node : nest) top.push_back(&node);
    ir::NestParts parts;
    const std::optional<LoopNest> read = ir::readLoopNest(top, loopMap, width_, why, &parts);
    proofs_.require(read ? loops.checkLoopNest(*read) : ProofResult::unknown(why),
                    "the loop nest of " + output);
    proofs_.readBack(emitter, parts.statements);
    proofs_.requireDistinctWrites(emitter, loops);
    proofs_.collect(loops);
    return nest;
  }

  // The stage as a __global__ function (a thread per element of its outputs, added to the
  // file's kernels) and its launch.
  ir::Node cudaStage(StageEmitter& emitter, const std::vector<ValueBuffer>& outputs,
                     const IndexingMap& loopMap) {
    const ValueBuffer& output = outputs.at(0);
    ThreadPoints threads(loopMap, width_);
    std::vector<ir::Node> nodes{threads.gridLoop({emitter.statement({})})};
    if (edit_) edit_(nodes);
    KernelValidator loops(loopMap, IndexLowering(loopMap, width_).declared());
    if (nodes.size() != 1)
      proofs_.require(ProofResult::unknown("it has another node"), "the stage's grid loop");
    const ir::Node& loop = nodes[0];
    proofs_.require(checkGridPoints(loops, loop, loopMap),
                    "the thread's point decoding of " + output.name);
    // The statement a thread runs at its point: what follows the dims it declares.
    std::vector<const ir::Node*> statements;
    for (const ir::Node& node : loop.body)
      if (!(node.kind == ir::Node::Kind::kLet && node.name.starts_with("d")))
        statements.push_back(&node);
    proofs_.readBack(emitter, statements);
    proofs_.requireDistinctWrites(emitter, loops);
    proofs_.collect(loops);
    const std::string kernel = symbol_ + "_" + output.name;
    ir::GlobalFunction function{kernel, {}, scope_.constantArrays};
    function.body.push_back(loop);
    std::vector<ir::Parameter>& buffers = function.parameters;  // in launch order
    for (const ValueBuffer& p : scope_.parameters) buffers.push_back(parameterOf(p, false));
    for (const ValueBuffer& t : temporaries_) buffers.push_back({t.type.compute, t.name});
    for (const auto& [root, b] : outputs_) buffers.push_back(parameterOf(b, true));
    for (const ValueBuffer& o : outputs)
      if (!o.holdsComputeType && !outputs_.count(o.name)) buffers.push_back(parameterOf(o, true));
    std::vector<std::string> arguments;
    for (const ir::Parameter& b : buffers) arguments.push_back(b.name);
    for (const ValueBuffer& o : outputs)
      if (!o.holdsComputeType) outputs_.emplace(o.name, o);
    cudaKernels_ += printGlobalFunction(function, {width_, 0, ""});
    return ir::launch(kernel, threads.points(), arguments);
  }

  const Instruction& instruction_;
  std::string symbol_;
  CWidth width_;
  std::string widthNote_;
  bool cuda_;
  KernelScope scope_;
  std::string header_;
  // CUDA: the stages' __global__ functions, the temporaries allocated so far and the outputs
  // written so far (each launch passes them all).
  std::string cudaKernels_;
  std::vector<ValueBuffer> temporaries_;
  // CUDA: the bytes of the temporaries' regions so far (a C expression of sizeof).
  std::string workspaceBytes_ = "size_t{0}";
  std::map<std::string, ValueBuffer> outputs_;
  std::set<std::string> readLines_;
  const StageEdit& edit_;
  StageProofs proofs_;
};

}  // namespace

HloKernel hloKernel(const hlo::Instruction& instruction, const std::string& symbol, bool cuda) {
  return hloKernel(instruction, symbol, cuda, nullptr);
}

HloKernel hloKernel(const hlo::Instruction& instruction, const std::string& symbol, bool cuda,
                    const StageEdit& edit) {
  if (instruction.opcode == "scatter" || wrappedScatter(instruction))
    return hloScatterKernel(instruction, symbol, cuda);
  // int32_t index arithmetic when every buffer has fewer than 2^31 elements and validation
  // proves no index expression, as printed in int32_t, leaves it; else int64_t.
  bool small = true;
  std::function<void(const hlo::Shape&)> fits = [&](const hlo::Shape& shape) {
    if (shape.isTuple)
      for (const hlo::Shape& element : shape.tupleElements) fits(element);
    else
      small &= shape.elementCount() < (int64_t{1} << 31);
  };
  fits(instruction.shape);
  for (const hlo::Instruction* operand : instruction.operands) fits(operand->shape);
  std::string why = "a buffer has 2^31 elements or more";
  if (small) {
    try {
      HloKernel kernel = HloKernelPrinter(instruction, symbol, CWidth::k32,
                                          "proven (isl): every index expression and offset, "
                                          "printed in int32_t, fits -> int32_t index arithmetic",
                                          cuda, edit)
                             .print();
      kernel.int32 = true;
      return kernel;
    } catch (const ValidationError& error) {
      if (!error.result().isRefuted()) throw;
      why = std::string("int32_t refuted: ") + error.what();
    }
  }
  return HloKernelPrinter(instruction, symbol, CWidth::k64, why + " -> int64_t index arithmetic",
                          cuda, edit)
      .print();
}

}  // namespace idxmap::codegen
