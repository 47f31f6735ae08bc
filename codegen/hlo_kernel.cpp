#include "codegen/hlo_kernel.h"

#include <algorithm>
#include <memory>
#include <set>

#include "codegen/hlo_stage_internal.h"
#include "codegen/loop_nest.h"
#include "codegen/validation.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/models/model.h"

namespace idxmap::codegen {
namespace {

using hlo::Instruction;
using hlo_stage::KernelScope;
using hlo_stage::PendingCheck;
using hlo_stage::StageEmitter;
using hlo_stage::unsupported;
using hlo_stage::ValueBuffer;

int64_t elementsOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t size : shape) n *= size;
  return n;
}

// The computation a kernel computes: a fusion's own, or one op reading parameters that stand
// for its operands.
struct KernelComputation {
  const hlo::Computation* computation = nullptr;
  std::unique_ptr<hlo::Computation> owned;
};

KernelComputation computationOf(const Instruction& instruction) {
  if (instruction.opcode == "fusion") {
    if (instruction.calledComputations.size() != 1)
      throw unsupported(instruction, "a fusion calls one computation");
    const hlo::Computation* fused = instruction.calledComputations[0];
    // Each parameter is read through the buffer of the operand it stands for.
    for (const auto& parameter : fused->instructions) {
      if (parameter->opcode != "parameter") continue;
      size_t number = static_cast<size_t>(parameter->parameterNumber);
      if (number >= instruction.operands.size() ||
          parameter->shape.shape != instruction.operands[number]->shape.shape ||
          parameter->shape.element_type != instruction.operands[number]->shape.element_type ||
          parameter->shape.isTuple != instruction.operands[number]->shape.isTuple)
        throw UnsupportedHlo(parameter->location,
                             "parameter " + parameter->name + " " + parameter->shape.toString() +
                                 " does not match the fusion's operand " + std::to_string(number));
    }
    return {fused, nullptr};
  }
  auto owned = std::make_unique<hlo::Computation>();
  owned->name = instruction.name;
  auto copy = std::make_unique<Instruction>(instruction);
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    auto parameter = std::make_unique<Instruction>();
    parameter->name = instruction.operands[i]->name;
    parameter->shape = instruction.operands[i]->shape;
    parameter->opcode = "parameter";
    parameter->parameterNumber = static_cast<int64_t>(i);
    parameter->location = parameter->opcodeLocation = instruction.operands[i]->location;
    copy->operands[i] = parameter.get();
    owned->instructions.push_back(std::move(parameter));
  }
  copy->isRoot = true;
  owned->root = copy.get();
  owned->instructions.push_back(std::move(copy));
  const hlo::Computation* computation = owned.get();
  return {computation, std::move(owned)};
}

// Every instruction the root reaches, reducers' included, checked by its op model (a
// ParseError names the attribute), with a static shape and an element type kernels compute.
void checkInstructions(const hlo::Computation& computation, std::set<const Instruction*>& seen) {
  std::vector<const Instruction*> work{computation.root};
  while (!work.empty()) {
    const Instruction* instruction = work.back();
    work.pop_back();
    if (!seen.insert(instruction).second) continue;
    for (const Instruction* operand : instruction->operands) work.push_back(operand);
    if (instruction->opcode == "parameter") continue;
    if (instruction->opcode == "tuple") {
      if (instruction != computation.root)
        throw unsupported(*instruction, "a tuple is computed only as a fusion's root");
      continue;
    }
    const OpModel* model = findOpModel(instruction->opcode);
    if (!model) throw unsupported(*instruction, "no op model, so no kernel");
    model->validate(*instruction);
    if (!instruction->shape.isStatic())
      throw unsupported(*instruction,
                        "kernels need static shapes, not " + instruction->shape.toString());
    if (instruction->shape.isTuple)
      throw unsupported(*instruction, "results of tuple shape " + instruction->shape.toString() +
                                          " (variadic ops) are not computed");
    if (!elementCode(instruction->shape.element_type))
      throw unsupported(*instruction, "element type " + instruction->shape.element_type +
                                          " has no kernel arithmetic");
    if (instruction->opcode == "reduce" || instruction->opcode == "reduce-window")
      for (const hlo::Computation* reducer : instruction->calledComputations)
        checkInstructions(*reducer, seen);
  }
}

// A buffer's layout as XLA writes it (minor-to-major), empty when it is row-major (the
// default, or a shape of at most one dim or no elements); a layout that is not a permutation
// of the dims is refused where it is written.
std::vector<int64_t> layoutOf(const Instruction& instruction, const hlo::Shape& shape) {
  if (!shape.layout) return {};
  const std::vector<int64_t>& layout = *shape.layout;
  std::vector<int64_t> sorted = layout;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted.size() != shape.shape.size() || sorted[i] != static_cast<int64_t>(i))
      throw unsupported(instruction, "layout of " + shape.toString() + " is not a permutation");
  bool rowMajor = true;
  for (size_t i = 0; i < layout.size(); ++i)
    rowMajor &= layout[i] == static_cast<int64_t>(layout.size() - 1 - i);
  return rowMajor ? std::vector<int64_t>{} : layout;
}

std::string identifier(size_t index, const std::string& prefix) {
  return prefix + std::to_string(index);
}

// An array constant as a static array of computed values.
ValueBuffer constantArray(const Instruction& constant, size_t number, std::string& definitions) {
  ElementCode type = *elementCode(constant.shape.element_type);
  std::vector<std::string> values;
  for (std::string_view token : hlo::literalElements(constant.literal)) {
    std::optional<std::string> value = literalElement(type, token);
    if (!value)
      throw unsupported(constant, "cannot read `" + std::string(token) + "` as " + type.hloType);
    values.push_back(*value);
  }
  if (static_cast<int64_t>(values.size()) != elementsOf(constant.shape.shape))
    throw unsupported(constant, "its literal has " + std::to_string(values.size()) +
                                    " values for " + constant.shape.toString());
  std::string name = identifier(number, "c");
  definitions += "  static const " + type.compute + " " + name + "[] = {";
  for (size_t i = 0; i < values.size(); ++i) definitions += (i ? ", " : "") + values[i];
  definitions += "};\n";
  return {name, type, constant.shape.shape, true};
}

class HloKernelPrinter {
 public:
  // `widthNote`: why index arithmetic is in `width`, for the header.
  HloKernelPrinter(const Instruction& instruction, std::string symbol, CWidth width,
                   std::string widthNote)
      : instruction_(instruction),
        symbol_(std::move(symbol)),
        width_(width),
        widthNote_(std::move(widthNote)) {}

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
      scope_.parameters.push_back({identifier(i, "in"), *type, shape.shape, false,
                                   layoutOf(*instruction_.operands[i], shape)});
      out.buffers.push_back({identifier(i, "in"), shape.element_type, shape.shape, false,
                             scope_.parameters.back().layout});
      header_ += "// " + identifier(i, "in") + " = " + instruction_.operands[i]->name + ": " +
                 shape.toString() + "\n";
    }
    // The stages: every reduce the roots reach, in text order, then the roots.
    const Instruction* root = kernel.computation->root;
    std::vector<const Instruction*> roots{root};
    if (root->opcode == "tuple") roots.assign(root->operands.begin(), root->operands.end());
    std::string body;
    size_t temporaries = 0, constants = 0;
    for (const auto& instruction : kernel.computation->instructions) {
      if (!seen.count(instruction.get())) continue;
      if (instruction->opcode == "constant" && instruction->shape.rank() > 0)
        scope_.constants[instruction.get()] =
            constantArray(*instruction, constants++, scope_.constantArrays);
      if (instruction->opcode != "reduce" && instruction->opcode != "reduce-window") continue;
      ValueBuffer buffer{identifier(temporaries++, "t"),
                         *elementCode(instruction->shape.element_type), instruction->shape.shape,
                         true};
      body += "  std::vector<" + buffer.type.compute + "> " + buffer.name + "(" +
              std::to_string(elementsOf(buffer.shape)) + ");\n";
      body += stage(*instruction, buffer);
      scope_.materialized[instruction.get()] = buffer;
    }
    for (size_t k = 0; k < roots.size(); ++k) {
      const hlo::Shape& shape = roots[k]->shape;
      const hlo::Shape& declared =
          instruction_.shape.isTuple && k < instruction_.shape.tupleElements.size()
              ? instruction_.shape.tupleElements[k]
              : instruction_.shape;
      ValueBuffer buffer{identifier(k, "out"), *elementCode(shape.element_type), shape.shape, false,
                         layoutOf(instruction_, declared)};
      out.buffers.push_back({buffer.name, shape.element_type, shape.shape, true, buffer.layout});
      header_ += "// " + buffer.name + " = " + roots[k]->name + ": " + shape.toString() + "\n";
      body += stage(*roots[k], buffer);
    }
    std::vector<EntryBuffer> entry;
    for (const KernelBuffer& b : out.buffers)
      entry.push_back({b.name, elementCode(b.elementType)->storage, b.written, b.elements()});
    std::string text =
        "// idxmap kernel: " + instruction_.opcode + " " + instruction_.name + " at " +
        out.location +
        (instruction_.opcode == "fusion" ? " (" + kernel.computation->name + ")" : "") + "\n" +
        header_ + "// " + widthNote_ +
        "\n// f16 / bf16 computed in float, rounded "
        "after every operation\n";
    for (const std::string& certificate : certificates_) text += certificateComment(certificate);
    text += entrySignature(symbol_, entry) + " {\n" + sizeChecks(entry) + scope_.constantArrays +
            body + "  return 0;\n}\n" + packedEntry(symbol_, entry);
    out.printed = {text, certificates_};
    return out;
  }

 private:
  std::string stage(const Instruction& instruction, const ValueBuffer& output) {
    StageEmitter emitter(scope_, instruction, output, width_);
    const int64_t points = elementsOf(output.shape);
    std::string describe = output.name + " = " + instruction.name + " (" + instruction.opcode +
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
    if (points == 0) return "  // " + output.name + " has no elements\n";
    std::string code;
    IndexingMap loopMap = IndexingMap::identity(output.shape);
    loopMap.results.clear();
    if (output.shape.empty()) {
      code = emitter.statement({}, 2);
    } else {
      LoopNest nest = buildLoopNest(loopMap, width_);
      KernelValidator loops(loopMap, IndexLowering(loopMap, width_).declared());
      require(loops.checkLoopNest(nest), "the loop nest of " + output.name);
      collect(loops);
      std::string threaded = std::to_string(points > INT64_MAX / emitter.pointsPerStatement()
                                                ? INT64_MAX
                                                : points * emitter.pointsPerStatement()) +
                             " >= IDXMAP_PARALLEL_GRAIN";
      auto statement = [&](const std::vector<CExpr>& point, int indent) {
        std::vector<std::string> declarations;
        for (size_t i = 0; i < point.size(); ++i) {
          std::string name = "d" + std::to_string(i);
          if (point[i]->op != COp::kVariable || point[i]->name != name)
            declarations.push_back("const " + std::string(typeName(width_)) + " " + name + " = " +
                                   printCExpr(point[i]) + ";");
        }
        return emitter.statement(declarations, indent);
      };
      code = printLoopNest(nest, 2, statement, independentPragmas(threaded));
    }
    for (const hlo_stage::StageRead& read : emitter.reads()) {
      IndexingMap map = emitter.map();
      map.results = read.index;
      std::string line = "//   " + output.name + " -> " + read.buffer + ": " + oneLine(map) + "\n";
      if (readLines_.insert(line).second) header_ += line;
    }
    validate(emitter);
    return code;
  }

  // Runs the stage's checks, one validator per branch context.
  void validate(const StageEmitter& emitter) {
    std::map<std::string, std::unique_ptr<KernelValidator>> validators;
    for (const PendingCheck& check : emitter.checks()) {
      IndexingMap map = emitter.map();
      map.constraints = check.context;
      std::string key;
      for (const Constraint& c : check.context)
        key += std::to_string(reinterpret_cast<uintptr_t>(c.expr.node())) + ":" +
               std::to_string(c.range.lo) + ":" + std::to_string(c.range.hi) + ";";
      auto& validator = validators[key];
      if (!validator)
        validator = std::make_unique<KernelValidator>(map, IndexLowering(map, width_).declared());
      switch (check.kind) {
        case PendingCheck::Kind::kExpression:
          require(validator->checkExpression(check.role, check.text, check.meaning, Where::kGuarded,
                                             check.elements),
                  check.role);
          break;
        case PendingCheck::Kind::kCondition:
          require(validator->checkCondition(check.role, check.text, check.condition),
                  check.role + " condition");
          break;
        case PendingCheck::Kind::kCovered:
          require(validator->checkCovered(check.role, check.alternatives),
                  check.role + " branches");
          break;
      }
    }
    for (auto& [key, validator] : validators) {
      require(validator->checkBitWidths(), "int32_t arithmetic");
      collect(*validator);
    }
  }

  void collect(const KernelValidator& validator) {
    for (const std::string& certificate : validator.certificates())
      if (certificateSet_.insert(certificate).second) certificates_.push_back(certificate);
  }

  void require(const ProofResult& result, const std::string& what) {
    if (result.isProven()) return;
    std::string detail = result.counterexample ? result.counterexample->explanation : result.reason;
    throw ValidationError(instruction_.opcode + " " + instruction_.name + " at " +
                              instruction_.location.toString() + ": " + what +
                              (result.isRefuted() ? " is refuted: " : " is not proven: ") + detail,
                          result);
  }

  const Instruction& instruction_;
  std::string symbol_;
  CWidth width_;
  std::string widthNote_;
  KernelScope scope_;
  std::string header_;
  std::set<std::string> readLines_;
  std::vector<std::string> certificates_;
  std::set<std::string> certificateSet_;
};

}  // namespace

HloKernel hloKernel(const hlo::Instruction& instruction, const std::string& symbol) {
  // int32_t index arithmetic when every buffer has fewer than 2^31 elements and validation
  // proves no index expression, as printed in int32_t, leaves it; else int64_t.
  bool small = true;
  auto fits = [&](const hlo::Shape& shape) {
    if (shape.isTuple)
      for (const hlo::Shape& element : shape.tupleElements)
        small &= element.elementCount() < (int64_t{1} << 31);
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
                                          "printed in int32_t, fits -> int32_t index arithmetic")
                             .print();
      kernel.int32 = true;
      return kernel;
    } catch (const ValidationError& error) {
      if (!error.result().isRefuted()) throw;
      why = std::string("int32_t refuted: ") + error.what();
    }
  }
  return HloKernelPrinter(instruction, symbol, CWidth::k64, why + " -> int64_t index arithmetic")
      .print();
}

}  // namespace idxmap::codegen
