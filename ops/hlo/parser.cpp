// The HLO text reader. Follows XLA's HloParser where it decides something: names are unique
// per computation, an unmarked computation's root is its last instruction, an unmarked
// module's entry is its last computation, a module without an `HloModule` line is its
// computations, an operand may be an instruction written inline (`reshape(f32[2,3]
// parameter(0))`, no attributes), a broadcast of a scalar may leave out `dimensions={}`, and
// an instruction may only use instructions written before it. Shape sizes are checked here so
// that nothing downstream can be asked to allocate or index past what int64 holds.
#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/checked.h"
#include "ops/hlo/gemm_calls.h"
#include "ops/hlo/lexer.h"
#include "ops/hlo/module.h"
#include "ops/hlo/shape_parser.h"

namespace idxmap::hlo {
namespace {

// Attributes whose value names called computations.
const std::set<std::string, std::less<>> kComputationAttributes = {"calls",
                                                                   "to_apply",
                                                                   "condition",
                                                                   "body",
                                                                   "select",
                                                                   "scatter",
                                                                   "true_computation",
                                                                   "false_computation",
                                                                   "branch_computations",
                                                                   "called_computations"};

struct PendingCall {
  Instruction* instruction;
  std::string computationName;
  size_t offset;
};

class HloParser {
 public:
  HloParser(std::string_view text, std::string_view fileName, const ShapeInference& infer)
      : source_(text, fileName), cursor_(source_), infer_(infer) {
    module_.fileName = std::string(fileName);
  }

  Module parse() {
    if (cursor_.acceptWord("HloModule")) {
      module_.name = std::string(cursor_.name("a module name"));
      skipAttributes();  // entry_computation_layout=..., is_scheduled=true, ...
    } else {
      // XLA's tests write bare computations; the module is named after the file.
      module_.name = defaultModuleName(module_.fileName);
    }
    while (!cursor_.atEnd()) parseComputation();
    if (module_.computations.empty()) throw cursor_.errorHere("the module has no computations");
    if (!module_.entry) {
      module_.entry = module_.computations.back().get();
      module_.entry->isEntry = true;
    }
    resolveCalls();
    checkNoRecursion();
    return std::move(module_);
  }

 private:
  void skipAttributes() {
    while (cursor_.accept(',')) {
      std::string_view name = cursor_.name("an attribute name");
      cursor_.expect('=', "after attribute '" + std::string(name) + "'");
      cursor_.attributeValue(name);
    }
  }

  static std::string defaultModuleName(std::string_view fileName) {
    size_t slash = fileName.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? fileName : fileName.substr(slash + 1);
    size_t dot = base.find('.');
    base = base.substr(0, dot);
    return base.empty() || base[0] == '<' ? "module" : std::string(base);
  }

  void parseComputation() {
    cursor_.skipSpace();
    size_t entryAt = cursor_.offset();
    if (cursor_.peekName() == "HloModule")
      throw cursor_.error(entryAt,
                          "a second module starts here; a file of several modules is read one "
                          "module at a time with --split-input-file (modules separated by a "
                          "`// -----` line)");
    bool isEntry = cursor_.acceptWord("ENTRY");
    cursor_.skipSpace();
    size_t nameAt = cursor_.offset();
    auto computation = std::make_unique<Computation>();
    computation->name = std::string(cursor_.name("a computation name"));
    if (module_.find(computation->name))
      throw cursor_.error(nameAt, "computation '" + computation->name + "' is defined twice");
    // The older dump form writes a signature, `(p0: f32[10]) -> f32[10]`; the parameter
    // instructions say the same, so it is read and dropped.
    if (cursor_.peek() == '(') cursor_.balancedParens("in the computation signature");
    if (cursor_.accept('-')) {
      cursor_.expect('>', "in the computation signature");
      parseShape(cursor_);
    }
    cursor_.skipSpace();
    size_t openAt = cursor_.offset();
    cursor_.expect('{', "to open computation '" + computation->name + "'");
    names_.clear();
    inlinedNames_.clear();
    nextSuffix_.clear();
    while (!cursor_.accept('}')) {
      if (cursor_.atEnd())
        throw cursor_.error(openAt, "computation '" + computation->name + "' is not closed");
      parseInstruction(*computation);
    }
    skipAttributes();  // execution_thread="..."
    if (computation->instructions.empty())
      throw cursor_.error(nameAt, "computation '" + computation->name + "' has no instructions");
    // XLA: without a ROOT marker the last instruction is the root.
    if (!computation->root) {
      computation->root = computation->instructions.back().get();
      computation->root->isRoot = true;
    }
    if (isEntry) {
      if (module_.entry)
        throw cursor_.error(
            entryAt, "a second ENTRY computation ('" + module_.entry->name + "' is the first)");
      computation->isEntry = true;
      module_.entry = computation.get();
    }
    module_.computations.push_back(std::move(computation));
  }

  void parseInstruction(Computation& computation) {
    cursor_.skipSpace();
    size_t rootAt = cursor_.offset();
    bool isRoot = cursor_.acceptWord("ROOT");
    cursor_.skipSpace();
    size_t nameAt = cursor_.offset();
    auto instruction = std::make_unique<Instruction>();
    instruction->name = std::string(cursor_.name("an instruction name"));
    instruction->location = cursor_.location(nameAt);
    yieldNameToText(instruction->name);
    if (names_.count(instruction->name))
      throw cursor_.error(nameAt, "instruction '" + instruction->name + "' is defined twice in '" +
                                      computation.name + "'");
    cursor_.expect('=', "after instruction name '" + instruction->name + "'");
    cursor_.skipSpace();
    // `t = tuple(a, b)`: an opcode where the shape goes (a shape's element type is followed
    // by `[`, a tuple shape starts with `(`).
    const bool shapeLeftOut = infer_ && !atShape(cursor_) && !cursor_.peekName().empty();
    if (!shapeLeftOut) instruction->shape = parseShape(cursor_);
    parseOpcodeAndOperands(*instruction, computation);
    parseAttributes(*instruction);
    readGemmCall(*instruction);  // a cuBLAS call that computes a dot is that dot
    defaultScalarBroadcastDimensions(*instruction);
    if (shapeLeftOut) inferShape(*instruction);

    if (isRoot) {
      if (computation.root)
        throw cursor_.error(rootAt, "a second ROOT in '" + computation.name + "' ('" +
                                        computation.root->name + "' is the first)");
      instruction->isRoot = true;
      computation.root = instruction.get();
    }
    names_[instruction->name] = instruction.get();
    computation.instructions.push_back(std::move(instruction));
  }

  void parseOpcodeAndOperands(Instruction& instruction, Computation& computation) {
    cursor_.skipSpace();
    size_t opcodeAt = cursor_.offset();
    instruction.opcode = std::string(cursor_.name("an opcode"));
    instruction.opcodeLocation = cursor_.location(opcodeAt);
    parseArguments(instruction, computation);
  }

  // XLA reads `broadcast(scalar)` as `broadcast(scalar), dimensions={}`.
  static void defaultScalarBroadcastDimensions(Instruction& instruction) {
    if (instruction.opcode != "broadcast" || instruction.operands.size() != 1 ||
        instruction.attributes.count("dimensions"))
      return;
    const Shape& operand = instruction.operands[0]->shape;
    if (!operand.isTuple && operand.rank() == 0)
      instruction.attributes["dimensions"] = Attribute{"{}", instruction.opcodeLocation};
  }

  void parseArguments(Instruction& instruction, Computation& computation) {
    if (instruction.opcode == "constant") {
      std::string_view literal = cursor_.balancedParens("after 'constant'");
      size_t begin = literal.find_first_not_of(" \t\r\n");
      size_t end = literal.find_last_not_of(" \t\r\n");
      instruction.literal = begin == std::string_view::npos
                                ? ""
                                : std::string(literal.substr(begin, end - begin + 1));
      return;
    }
    if (instruction.opcode == "parameter") {
      cursor_.expect('(', "after 'parameter'");
      cursor_.skipSpace();
      size_t numberAt = cursor_.offset();
      instruction.parameterNumber = cursor_.integer("parameter number");
      cursor_.expect(')', "after the parameter number");
      if (Instruction* other = computation.parameter(instruction.parameterNumber))
        throw cursor_.error(numberAt, "parameter(" + std::to_string(instruction.parameterNumber) +
                                          ") is already '" + other->name + "'");
      return;
    }
    cursor_.expect('(', "before the operands of '" + instruction.name + "'");
    if (cursor_.accept(')')) return;
    do {
      parseOperand(instruction, computation);
    } while (cursor_.accept(','));
    cursor_.expect(')', "after the operands of '" + instruction.name + "'");
  }

  // `p0`, `%p0` or `f32[10]{0} %p0`: a written shape must be the operand's shape. With a
  // shape, `f32[10] negate(p0)` is an instruction written inline: it joins the computation
  // before the one that uses it, named after its opcode.
  void parseOperand(Instruction& instruction, Computation& computation) {
    std::optional<Shape> written;
    cursor_.skipSpace();
    size_t shapeAt = cursor_.offset();
    if (atShape(cursor_)) written = parseShape(cursor_);
    cursor_.skipSpace();
    size_t nameAt = cursor_.offset();
    std::string name(cursor_.name("an operand name"));
    if (written && cursor_.peek() == '(') {
      instruction.operands.push_back(&parseInlineInstruction(*written, nameAt, computation));
      return;
    }
    auto found = names_.find(name);
    if (found == names_.end())
      throw cursor_.error(nameAt, "unknown operand '" + name + "' in '" + instruction.name +
                                      "' (operands must be defined earlier in '" +
                                      computation.name + "')");
    Instruction* operand = found->second;
    if (written && !sameArrayType(*written, operand->shape))
      throw cursor_.error(shapeAt, "operand '" + name + "' has shape " + operand->shape.toString() +
                                       ", written here as " + written->toString());
    instruction.operands.push_back(operand);
  }

  Instruction& parseInlineInstruction(Shape shape, size_t opcodeAt, Computation& computation) {
    // Each level recurses through the operands: a bound keeps absurd input from exhausting
    // the stack. (An error ends the whole parse, so the count needs no unwinding.)
    if (++inlineDepth_ > kMaxInlineDepth)
      throw cursor_.error(opcodeAt, "operands written inline nest more than " +
                                        std::to_string(kMaxInlineDepth) + " deep");
    auto inlined = std::make_unique<Instruction>();
    inlined->shape = std::move(shape);
    inlined->location = cursor_.location(opcodeAt);
    // The opcode was read as the operand's name; read it again as an opcode.
    cursor_.rewind(opcodeAt);
    parseOpcodeAndOperands(*inlined, computation);
    defaultScalarBroadcastDimensions(*inlined);
    inlined->name = freshName(inlined->opcode);
    Instruction& added = *inlined;
    names_[inlined->name] = inlined.get();
    inlinedNames_.insert(inlined->name);
    computation.instructions.push_back(std::move(inlined));
    --inlineDepth_;
    return added;
  }

  // `negate.0`, `negate.1`, ...: the next suffix not taken (counted per opcode, so that many
  // inline instructions of one opcode do not search from 0 each time).
  std::string freshName(const std::string& base) {
    std::string name;
    int& next = nextSuffix_[base];
    while (names_.count(name = base + "." + std::to_string(next))) ++next;
    ++next;
    return name;
  }

  // A name the text gives an instruction wins over the one made up for an inline instruction
  // earlier, which is renamed.
  void yieldNameToText(const std::string& name) {
    auto found = names_.find(name);
    if (found == names_.end() || !inlinedNames_.count(name)) return;
    Instruction* inlined = found->second;
    inlined->name = freshName(inlined->opcode);  // while `name` is still taken
    names_.erase(name);
    inlinedNames_.erase(name);
    names_[inlined->name] = inlined;
    inlinedNames_.insert(inlined->name);
  }

  void parseAttributes(Instruction& instruction) {
    while (cursor_.accept(',')) {
      cursor_.skipSpace();
      size_t nameAt = cursor_.offset();
      std::string name(cursor_.name("an attribute name"));
      cursor_.expect('=', "after attribute '" + name + "'");
      cursor_.skipSpace();
      size_t valueAt = cursor_.offset();
      std::string value(cursor_.attributeValue(name));
      if (instruction.attributes.count(name))
        throw cursor_.error(nameAt, "attribute '" + name + "' is given twice");
      if (kComputationAttributes.count(name)) recordCalls(instruction, value, valueAt);
      instruction.attributes[name] = Attribute{std::move(value), cursor_.location(valueAt)};
    }
  }

  // `calls=f`, `to_apply=%max`, `branch_computations={%a, %b}`.
  void recordCalls(Instruction& instruction, std::string_view value, size_t valueAt) {
    size_t i = 0;
    while (i < value.size()) {
      while (i < value.size() &&
             (value[i] == '{' || value[i] == '}' || value[i] == ',' || value[i] == '%' ||
              std::isspace(static_cast<unsigned char>(value[i]))))
        ++i;
      size_t begin = i;
      while (i < value.size() && value[i] != ',' && value[i] != '}' &&
             !std::isspace(static_cast<unsigned char>(value[i])))
        ++i;
      if (i > begin)
        pending_.push_back(
            {&instruction, std::string(value.substr(begin, i - begin)), valueAt + begin});
    }
  }

  // The shape XLA would infer, from computations read so far (a callee written after its
  // caller cannot be read for it).
  void inferShape(Instruction& instruction) {
    std::vector<PendingCall> later;
    for (const PendingCall& call : pending_) {
      if (call.instruction != &instruction) {
        later.push_back(call);
        continue;
      }
      Computation* callee = module_.find(call.computationName);
      if (!callee)
        throw cursor_.error(call.offset, "computation '" + call.computationName +
                                             "' must come before '" + instruction.name +
                                             "', whose result shape is left out");
      instruction.calledComputations.push_back(callee);
    }
    pending_ = std::move(later);
    try {
      instruction.shape = infer_(instruction);
    } catch (const ParseError& error) {  // located by the models, without the text
      throw ParseError(error.location(), error.message(),
                       std::string(source_.line(error.location().line)));
    }
    instruction.shape.layout.reset();
  }

  void resolveCalls() {
    for (const PendingCall& call : pending_) {
      Computation* callee = module_.find(call.computationName);
      if (!callee)
        throw cursor_.error(call.offset, "unknown computation '" + call.computationName + "'");
      call.instruction->calledComputations.push_back(callee);
    }
  }

  // A computation that calls itself would send every analysis that follows calls (fusion)
  // into endless recursion; XLA's call graph is acyclic, so this one must be too.
  void checkNoRecursion() {
    enum class Mark { kNone, kActive, kDone };
    std::unordered_map<const Computation*, Mark> marks;
    std::unordered_map<const Computation*, const PendingCall*> firstCall;
    std::function<void(const Computation*)> visit = [&](const Computation* computation) {
      marks[computation] = Mark::kActive;
      for (const auto& instruction : computation->instructions) {
        for (const Computation* callee : instruction->calledComputations) {
          if (marks[callee] == Mark::kActive) {
            size_t offset = 0;
            for (const PendingCall& call : pending_)
              if (call.instruction == instruction.get() && call.computationName == callee->name)
                offset = call.offset;
            throw cursor_.error(offset, "computation '" + callee->name +
                                            "' calls itself (through '" + instruction->name + "')");
          }
          if (marks[callee] == Mark::kNone) visit(callee);
        }
      }
      marks[computation] = Mark::kDone;
    };
    for (const auto& computation : module_.computations)
      if (marks[computation.get()] == Mark::kNone) visit(computation.get());
  }

  SourceText source_;
  HloCursor cursor_;
  Module module_;
  std::unordered_map<std::string, Instruction*> names_;  // of the computation being read
  std::set<std::string> inlinedNames_;                   // names made up for inline ones
  std::unordered_map<std::string, int> nextSuffix_;      // freshName's next suffix per opcode
  static constexpr int kMaxInlineDepth = 256;
  int inlineDepth_ = 0;  // inline instructions being read, one inside the other
  std::vector<PendingCall> pending_;
  const ShapeInference& infer_;
};

}  // namespace

Module parseHloModule(std::string_view text, std::string_view fileName,
                      const ShapeInference& infer) {
  return HloParser(text, fileName, infer).parse();
}

}  // namespace idxmap::hlo
