#include "codegen/hlo/hlo_stage_internal.h"

#include "codegen/hlo/hlo_kernel.h"
#include "codegen/kernel/index_code.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/attributes.h"
#include "simplifier/simplify.h"

namespace idxmap::codegen::hlo_stage {

using hlo::Instruction;

UnsupportedHlo unsupported(const Instruction& at, const std::string& message) {
  return UnsupportedHlo(at.opcodeLocation, at.opcode + " (" + at.name + "): " + message);
}

const ElementCode& codeOf(const Instruction& instruction) {
  static thread_local std::map<std::string, ElementCode> cache;
  auto found = cache.find(instruction.shape.element_type);
  if (found != cache.end()) return found->second;
  std::optional<ElementCode> code = elementCode(instruction.shape.element_type);
  if (!code || instruction.shape.isTuple)
    throw unsupported(instruction,
                      "element type " + instruction.shape.toString() + " has no kernel arithmetic");
  return cache.emplace(instruction.shape.element_type, *code).first->second;
}

const ElementCode& codeOfResult(const Instruction& instruction, size_t k) {
  if (!instruction.shape.isTuple) return codeOf(instruction);
  static thread_local std::map<std::string, ElementCode> cache;
  const hlo::Shape& element = instruction.shape.tupleElements.at(k);
  auto found = cache.find(element.element_type);
  if (found != cache.end()) return found->second;
  std::optional<ElementCode> code = elementCode(element.element_type);
  if (!code || element.isTuple)
    throw unsupported(instruction, "result " + std::to_string(k) + " of type " +
                                       element.toString() + " has no kernel arithmetic");
  return cache.emplace(element.element_type, *code).first->second;
}

const std::vector<int64_t>& resultShape(const Instruction& instruction) {
  return instruction.shape.isTuple ? instruction.shape.tupleElements.at(0).shape
                                   : instruction.shape.shape;
}

// The op model's only map to `operand`; a model without one (unknown indexing) or with
// several is outside what a kernel computes.
IndexingMap operandMap(const Instruction& instruction, size_t operand) {
  InstructionIndexing indexing =
      computeOutputToInputIndexing(instruction, 0, RuntimeVariables::kPositional);
  const OperandIndexing& entry = indexing.entries.at(operand);
  if (entry.unknown || entry.maps.size() != 1)
    throw unsupported(instruction,
                      "operand " + std::to_string(operand) + " has no single indexing map");
  return entry.maps[0];
}

// The map to an operand read where no other branch applies (pad's padding value,
// dynamic-update-slice's operand outside the window): the model may split it into pieces by
// where they apply, but they must all read the same index.
IndexingMap fallbackMap(const Instruction& instruction, size_t operand) {
  InstructionIndexing indexing =
      computeOutputToInputIndexing(instruction, 0, RuntimeVariables::kPositional);
  const OperandIndexing& entry = indexing.entries.at(operand);
  if (entry.unknown || entry.maps.empty())
    throw unsupported(instruction, "operand " + std::to_string(operand) + " has no indexing map");
  for (const IndexingMap& map : entry.maps)
    if (map.results != entry.maps[0].results || !map.rangeVars.empty())
      throw unsupported(instruction, "operand " + std::to_string(operand) +
                                         " is read at different indices in different pieces");
  return entry.maps[0];
}

bool reducesInStage(const std::string& opcode) {
  return opcode == "reduce" || opcode == "reduce-window" || opcode == "dot" ||
         opcode == "convolution";
}

bool coversShape(const IndexingMap& map, const hlo::Shape& shape) {
  if (!map.constraints.empty() || map.knownEmpty) return false;
  for (size_t i = 0; i < map.dims.size(); ++i)
    if (map.dims[i].range.lo != 0 || map.dims[i].range.hi != shape.shape.at(i) - 1) return false;
  return true;
}

namespace {

std::string key(const Instruction& instruction, const std::vector<Expr>& index) {
  std::string out = std::to_string(reinterpret_cast<uintptr_t>(&instruction));
  for (Expr e : index) out += "," + std::to_string(reinterpret_cast<uintptr_t>(e.node()));
  return out;
}

// Opcodes whose element is the operand's element at the mapped index.
bool movesData(const std::string& opcode) {
  return opcode == "broadcast" || opcode == "transpose" || opcode == "reshape" ||
         opcode == "bitcast" || opcode == "copy" || opcode == "slice" || opcode == "reverse" ||
         opcode == "dynamic-slice";
}

}  // namespace

Expr bufferOffset(IndexingMap at, const ValueBuffer& buffer) {
  if (buffer.layout.empty()) return rowMajorOffset(at, buffer.shape);
  // Row-major over the dims from major to minor.
  std::vector<Expr> index;
  std::vector<int64_t> shape;
  for (auto d = buffer.layout.rbegin(); d != buffer.layout.rend(); ++d) {
    index.push_back(at.results.at(static_cast<size_t>(*d)));
    shape.push_back(buffer.shape.at(static_cast<size_t>(*d)));
  }
  at.results = index;
  return rowMajorOffset(at, shape);
}

StageEmitter::StageEmitter(KernelScope& scope, const Instruction& stage,
                           std::vector<ValueBuffer> outputs, CWidth width)
    : scope_(scope),
      stage_(stage),
      outputs_(std::move(outputs)),
      map_(IndexingMap::identity(resultShape(stage))),
      outputDims_(resultShape(stage).size()),
      width_(width),
      lowering_(map_, width) {
  map_.results.clear();
  if (reducesInStage(stage.opcode)) {
    IndexingMap reads = operandMap(stage, 0);
    // A window or reduced dim with no position (a zero-size dim, or only padding and dilation
    // holes) leaves the init value: no loops, so that no check ranges over an empty set.
    bool empty = reads.knownEmpty;
    for (const Variable& v : reads.rangeVars) empty |= v.range.isEmpty();
    if (!empty)
      for (const Variable& v : reads.rangeVars) map_.dims.push_back(v);
    emptyReduction_ = empty;
  }
}

int64_t StageEmitter::pointsPerStatement() const {
  int64_t points = 1;
  for (size_t i = outputDims_; i < map_.dims.size(); ++i)
    points *= map_.dims[i].range.hi - map_.dims[i].range.lo + 1;
  return points;
}

std::string StageEmitter::fresh(const std::string& prefix) {
  return prefix + std::to_string(next_++);
}

IndexingMap StageEmitter::contextMap() const {
  IndexingMap context = map_;
  context.constraints = context_;
  return context;
}

std::vector<Expr> StageEmitter::through(const IndexingMap& map, const std::vector<Expr>& index,
                                        const std::vector<Expr>& runtime) const {
  IndexingMap context = contextMap();
  std::vector<Expr> out;
  for (Expr result : map.results)
    out.push_back(provenSimplified(result.replaceVariables(index, {}, runtime), context));
  return out;
}

std::vector<Constraint> StageEmitter::conditionOf(const IndexingMap& map,
                                                  const std::vector<Expr>& index,
                                                  const std::vector<Expr>& runtime) const {
  IndexingMap context = contextMap();
  std::vector<Constraint> out;
  for (size_t i = 0; i < map.dims.size(); ++i) {
    Expr at = provenSimplified(index.at(i), context);
    // A loop iterator already inside the range needs no test.
    if (at.kind() == ExprKind::Dim &&
        map_.dims[at.variableIndex()].range.lo >= map.dims[i].range.lo &&
        map_.dims[at.variableIndex()].range.hi <= map.dims[i].range.hi)
      continue;
    out.push_back({at, map.dims[i].range});
  }
  for (const Constraint& c : map.constraints)
    out.push_back(
        {provenSimplified(c.expr.replaceVariables(index, {}, runtime), context), c.range});
  return out;
}

ir::Node StageEmitter::statement(std::vector<ir::Node> pointLets) {
  blocks_.assign(1, {});
  memo_.assign(1, {});
  context_.clear();
  std::vector<Expr> index;
  for (size_t i = 0; i < outputDims_; ++i) index.push_back(Expr::dim(static_cast<unsigned>(i)));
  Frame frame{scope_.computation, {}, 0};
  const bool products = stage_.opcode == "dot" || stage_.opcode == "convolution";
  std::vector<std::string> values = products ? std::vector{dotProduct(frame, stage_, index)}
                                    : reducesInStage(stage_.opcode)
                                        ? reduction(frame, stage_, index)
                                        : std::vector{compute(frame, stage_, index)};
  IndexingMap at = contextMap();
  at.results = index;
  writes_.clear();
  for (size_t k = 0; k < outputs_.size(); ++k) {
    const ValueBuffer& output = outputs_[k];
    int64_t elements = 1;
    for (int64_t size : output.shape) elements *= size;
    writes_.push_back({output.name, bufferOffset(at, output), elements});
    const std::string& v = values.at(k);
    // Its offset is proven as the IR reads back after the stage is built (storesRead).
    emit(ir::store(output.name, lowering_.lower(writes_.back().offset),
                   ir::elementValue(output.holdsComputeType ? v : storeElement(output.type, v))));
  }
  for (ir::Node& node : close()) pointLets.push_back(std::move(node));
  return ir::block(std::move(pointLets), true);
}

std::string StageEmitter::value(const Frame& frame, const Instruction& instruction,
                                const std::vector<Expr>& index) {
  std::string k = std::to_string(frame.id) + ":" + key(instruction, index);
  for (auto scope = memo_.rbegin(); scope != memo_.rend(); ++scope)
    if (auto found = scope->find(k); found != scope->end()) return found->second;
  std::string v;
  if (instruction.opcode == "parameter") {
    size_t number = static_cast<size_t>(instruction.parameterNumber);
    v = frame.bound.empty() ? load(scope_.parameters.at(number), index) : frame.bound.at(number);
  } else if (auto m = scope_.materialized.find(&instruction); m != scope_.materialized.end()) {
    v = load(m->second, index);
  } else {
    v = compute(frame, instruction, index);
  }
  memo_.back()[k] = v;
  return v;
}

std::vector<Expr> StageEmitter::runtimeStarts(const Frame& frame, const Instruction& instruction,
                                              size_t firstOperand, const IndexingMap& map) {
  std::vector<Expr> runtime;
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    const Instruction& start = *instruction.operands.at(firstOperand + k);
    const ElementCode& type = codeOf(start);
    if (type.kind != ElementCode::Kind::kInt)
      throw unsupported(instruction, "start indices must be integers");
    std::string raw = value(frame, start, {});
    runtime.push_back(declareRuntime(raw, type, map.runtimeVars[k].range));
  }
  return runtime;
}

std::string StageEmitter::compute(const Frame& frame, const Instruction& instruction,
                                  const std::vector<Expr>& index) {
  const std::string& op = instruction.opcode;
  if (op == "get-tuple-element") {  // of a variadic reduction, read from its stage's buffers
    const Instruction& tuple = *instruction.operands.at(0);
    const size_t k = static_cast<size_t>(hlo::readIntOr(instruction, "index", 0));
    auto stage = scope_.materializedTuples.find(&tuple);
    if (stage == scope_.materializedTuples.end() || k >= stage->second.size())
      throw unsupported(instruction, "reads a tuple that no stage computed");
    return load(stage->second[k], index);
  }
  const ElementCode& type = codeOf(instruction);
  if (op == "parameter") return value(frame, instruction, index);
  if (op == "constant") {
    if (instruction.shape.rank() == 0) {
      std::optional<std::string> literalValue = literalElement(type, instruction.literal);
      if (!literalValue)
        throw unsupported(instruction, "cannot read the literal `" + instruction.literal + "` as " +
                                           type.hloType);
      return local(type.compute, *literalValue);
    }
    return load(scope_.constants.at(&instruction), index);
  }
  if (op == "iota") {
    const hlo::Attribute* dimension = instruction.attribute("iota_dimension");
    size_t d = dimension ? std::stoul(dimension->value) : 0;
    std::string position = printIndex("iota", index.at(d));
    ElementCode s64 = *elementCode("s64");
    return local(type.compute, convertElement(s64, type, "static_cast<int64_t>(" + position + ")"));
  }
  if (op == "pad" || op == "concatenate" || op == "dynamic-update-slice")
    return branch(frame, instruction, index);
  if (reducesInStage(op))
    throw unsupported(instruction, "a reduction is computed in a stage of its own");
  if (op == "gather") return gather(frame, instruction, index);
  if (movesData(op)) {
    IndexingMap map = operandMap(instruction, 0);
    if (!coversShape(map, instruction.shape) || !map.rangeVars.empty())
      throw unsupported(instruction, "its map reads conditionally");
    std::vector<Expr> runtime;
    if (op == "dynamic-slice") runtime = runtimeStarts(frame, instruction, 1, map);
    return value(frame, *instruction.operands[0], through(map, index, runtime));
  }
  if (op == "reduce-precision") {  // on the operand's own bits (f16 and bf16: their 16)
    const std::string function = type.hloType == "f16"    ? "idxmap_reduce_precision_f16"
                                 : type.hloType == "bf16" ? "idxmap_reduce_precision_bf16"
                                 : type.kind == ElementCode::Kind::kFloat
                                     ? "idxmap_reduce_precision"
                                     : "";
    if (function.empty())
      throw unsupported(instruction, "reduce-precision takes floats, not " + type.hloType);
    const int64_t exponent = hlo::readIntOr(instruction, "exponent_bits", 0),
                  mantissa = hlo::readIntOr(instruction, "mantissa_bits", -1);
    if (exponent < 1 || mantissa < 0)
      throw unsupported(instruction, "needs exponent_bits >= 1 and mantissa_bits >= 0");
    IndexingMap map = operandMap(instruction, 0);
    std::string x = value(frame, *instruction.operands[0], through(map, index));
    return local(type.compute, function + "(" + x + ", " + std::to_string(exponent) + ", " +
                                   std::to_string(mantissa) + ")");
  }
  std::vector<std::string> operands;
  std::vector<ElementCode> types;
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    IndexingMap map = operandMap(instruction, i);
    if (!map.rangeVars.empty())
      throw unsupported(
          instruction,
          "kernels do not compute it (its map reads a range of operand " + std::to_string(i) +
              "; only the ranges of reduce, reduce-window, dot and convolution become loops)");
    if (!coversShape(map, instruction.shape) || !map.runtimeVars.empty())
      throw unsupported(instruction, "kernels do not compute it (its map reads operand " +
                                         std::to_string(i) + " conditionally)");
    operands.push_back(value(frame, *instruction.operands[i], through(map, index)));
    types.push_back(codeOf(*instruction.operands[i]));
  }
  std::string direction;
  if (const hlo::Attribute* d = instruction.attribute("direction")) direction = d->value;
  if (const hlo::Attribute* t = instruction.attribute("type"); t && t->value == "TOTALORDER")
    throw unsupported(instruction, "type=TOTALORDER comparisons are not computed");
  std::optional<std::string> result = elementwiseValue(op, direction, types, type, operands);
  // A collective's model maps its result to its operand, but its values are other replicas'.
  if (!result && (op.starts_with("all-") || op == "reduce-scatter" ||
                  op.starts_with("collective-") || op == "ragged-all-to-all"))
    throw unsupported(instruction, "kernels do not compute collectives (`" + op +
                                       "` combines the values of other replicas)");
  if (!result)
    throw unsupported(instruction, "kernels do not compute `" + op + "` on " +
                                       (types.empty() ? type.hloType : types[0].hloType));
  return local(type.compute, *result);
}

}  // namespace idxmap::codegen::hlo_stage
