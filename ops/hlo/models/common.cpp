#include "ops/hlo/models/common.h"

#include <algorithm>
#include <functional>

#include "core/bridges/isl_bridge.h"
#include "ops/hlo/element_types.h"
#include "ops/hlo/shape_compat.h"
#include "simplifier/simplify.h"

namespace idxmap::ops {
namespace {

// Simplified entries; an op whose maps cannot be expressed gets unknown indexing throughout.
InstructionIndexing finish(size_t entryCount, PointDims pointDims,
                           const std::function<MapSets()>& build) {
  InstructionIndexing indexing;
  MapSets sets;
  try {
    sets = build();
  } catch (const Inexpressible& e) {
    indexing.entries.assign(entryCount, OperandIndexing::unknownIndexing(e.what()));
    return indexing;
  }
  for (const std::vector<IndexingMap>& maps : sets) {
    OperandIndexing entry;
    std::vector<IndexingMap> empty;
    for (const IndexingMap& map : maps) {
      IndexingMap simplified = simplify(map, pointDims);
      (simplified.knownEmpty ? empty : entry.maps).push_back(std::move(simplified));
    }
    // An entry that reads nothing at all still says so with one KNOWN EMPTY map, as XLA does.
    if (entry.maps.empty() && !empty.empty()) entry.maps.push_back(empty.front());
    indexing.entries.push_back(std::move(entry));
  }
  return indexing;
}

}  // namespace

void OpModelBase::validate(const Instruction& instruction) const {
  Shape inferred = inferShape(instruction);
  if (auto why = hlo::incompatibility(instruction.shape, inferred))
    failAtInstruction(instruction, "result shape " + instruction.shape.toString() + " " + *why +
                                       " (inferred " + inferred.toString() + ")");
}

InstructionIndexing OpModelBase::outputToInput(const Instruction& instruction, int outputId,
                                               PointDims pointDims) const {
  validate(instruction);
  if (outputId < 0 || outputId >= resultCount(instruction))
    hlo::failAtOpcode(instruction, "has no result " + std::to_string(outputId));
  InstructionIndexing indexing = finish(instruction.operands.size(), pointDims,
                                        [&] { return mapsToOperands(instruction, outputId); });
  MapSets replicas = replicaIdMaps(instruction, outputId);
  for (size_t k = 0; k < replicas.size() && k < indexing.entries.size(); ++k)
    for (const IndexingMap& map : replicas[k])
      if (!indexing.entries[k].unknown)
        indexing.entries[k].replicaIdMaps.push_back(simplify(map, pointDims));
  return indexing;
}

MapSets OpModelBase::replicaIdMaps(const Instruction&, int) const { return {}; }

InstructionIndexing OpModelBase::inputToOutput(const Instruction& instruction, int inputId,
                                               PointDims pointDims) const {
  validate(instruction);
  if (inputId < 0 || inputId >= static_cast<int>(instruction.operands.size()))
    hlo::failAtOpcode(instruction, "has no operand " + std::to_string(inputId));
  return finish(static_cast<size_t>(resultCount(instruction)), pointDims,
                [&] { return mapsToResults(instruction, inputId); });
}

MapSets OpModelBase::mapsToResults(const Instruction& instruction, int inputId) const {
  MapSets sets;
  for (int result = 0; result < resultCount(instruction); ++result) {
    std::vector<IndexingMap> inverses;
    MapSets forward = mapsToOperands(instruction, result);
    for (const IndexingMap& map : forward[inputId]) inverses.push_back(invert(simplify(map)));
    sets.push_back(std::move(inverses));
  }
  return sets;
}

const Shape& resultShape(const Instruction& instruction, int outputId) {
  return instruction.shape.isTuple ? instruction.shape.tupleElements.at(outputId)
                                   : instruction.shape;
}

int resultCount(const Instruction& instruction) {
  return instruction.shape.isTuple ? static_cast<int>(instruction.shape.tupleElements.size()) : 1;
}

IndexingMap domainOf(const Shape& shape) {
  if (shape.isTuple) throw Inexpressible("a tuple has no index space");
  IndexingMap map;
  for (size_t i = 0; i < shape.shape.size(); ++i) {
    if (hlo::isUnboundedDim(shape, i))
      throw Inexpressible("dimension " + std::to_string(i) + " of " + shape.toString() +
                          " has no bound");
    map.dims.push_back({{0, shape.extent(i) - 1}, ""});
  }
  for (size_t i = 0; i < shape.shape.size(); ++i) {
    if (!hlo::isDynamicDim(shape, i)) continue;
    int64_t bound = shape.extent(i);
    Expr size = addRuntimeVar(map, {0, bound});
    addConstraint(map, size - Expr::dim(static_cast<unsigned>(i)), {1, bound});
  }
  return map;
}

IndexingMap withResults(IndexingMap domain, std::vector<Expr> results) {
  domain.results = std::move(results);
  return domain;
}

Expr addRangeVar(IndexingMap& map, Interval range) {
  map.rangeVars.push_back({range, ""});
  return Expr::rangeVar(static_cast<unsigned>(map.rangeVars.size() - 1));
}

Expr addRuntimeVar(IndexingMap& map, Interval range) {
  map.runtimeVars.push_back({range, ""});
  return Expr::runtimeVar(static_cast<unsigned>(map.runtimeVars.size() - 1));
}

void addConstraint(IndexingMap& map, Expr expr, Interval range) {
  map.constraints.push_back({expr, range});
}

std::vector<Expr> dimExprs(const IndexingMap& map) {
  std::vector<Expr> dims;
  for (unsigned i = 0; i < map.dims.size(); ++i) dims.push_back(Expr::dim(i));
  return dims;
}

IndexingMap identityOver(const Shape& shape) {
  IndexingMap map = domainOf(shape);
  return withResults(map, dimExprs(map));
}

IndexingMap toScalar(const Shape& shape) { return domainOf(shape); }

IndexingMap fromScalar(const Shape& shape) {
  // The indices of `shape` become range variables; a dynamic dim keeps its constraint.
  IndexingMap domain = domainOf(shape);
  IndexingMap map;
  map.runtimeVars = domain.runtimeVars;
  std::vector<Expr> asRangeVars;
  for (const Variable& dim : domain.dims) asRangeVars.push_back(addRangeVar(map, dim.range));
  for (const Constraint& c : domain.constraints)
    addConstraint(map, c.expr.replaceVariables(asRangeVars, {}, {}), c.range);
  map.results = asRangeVars;
  return map;
}

IndexingMap readsNothing(const Shape& shape, size_t operandRank) {
  IndexingMap none = domainOf(shape);
  none.results.assign(operandRank, Expr::constant(0));
  none.markKnownEmpty();
  return none;
}

IndexingMap invert(const IndexingMap& map) {
  if (map.knownEmpty) {
    IndexingMap empty;
    empty.dims.resize(map.results.size());
    empty.results.assign(map.dims.size(), Expr::constant(0));
    empty.runtimeVars = map.runtimeVars;
    empty.markKnownEmpty();
    return empty;
  }
  try {
    return simplify(fromIslMap(toIslMap(map).reverse()));
  } catch (const Error& e) {
    throw Inexpressible(std::string("no exact inverse: ") + e.what());
  }
}

void failAtInstruction(const Instruction& instruction, const std::string& message) {
  throw ParseError(instruction.location, instruction.opcode + ": " + message, "");
}

void expectOperandCount(const Instruction& instruction, size_t count) {
  if (instruction.operands.size() != count)
    hlo::failAtOpcode(instruction, "expects " + std::to_string(count) + " operand" +
                                       (count == 1 ? "" : "s") + ", got " +
                                       std::to_string(instruction.operands.size()));
}

void expectOperandCountAtLeast(const Instruction& instruction, size_t count) {
  if (instruction.operands.size() < count)
    hlo::failAtOpcode(instruction, "expects at least " + std::to_string(count) + " operand" +
                                       (count == 1 ? "" : "s") + ", got " +
                                       std::to_string(instruction.operands.size()));
}

const Shape& arrayOperand(const Instruction& instruction, size_t index) {
  const Shape& shape = instruction.operands.at(index)->shape;
  if (shape.isTuple)
    hlo::failAtOpcode(instruction, "operand " + std::to_string(index) + " is a tuple " +
                                       shape.toString() + ", expected an array");
  return shape;
}

void expectScalarOperand(const Instruction& instruction, size_t index) {
  const Shape& shape = arrayOperand(instruction, index);
  if (shape.rank() != 0)
    hlo::failAtOpcode(instruction, "operand " + std::to_string(index) + " has shape " +
                                       shape.toString() + ", expected a scalar");
}

std::vector<std::string> elementTypes(const Instruction& instruction, size_t first, size_t last) {
  std::vector<std::string> types;
  for (size_t i = first; i < last; ++i)
    types.push_back(instruction.operands[i]->shape.element_type);
  return types;
}

void expectReducer(const Instruction& instruction, const std::vector<std::string>& accumulators,
                   const std::vector<std::string>& inputs) {
  if (instruction.calledComputations.size() != 1)
    failAtInstruction(instruction, instruction.opcode + " calls one computation (to_apply=)");
  const hlo::Computation& reducer = *instruction.calledComputations[0];
  const size_t n = accumulators.size();
  // XLA compares the types ignoring floating-point precision (a bf16 input may be reduced by
  // an f32 computation).
  auto scalar = [](const Shape& shape, const std::string& type) {
    const std::string& own = shape.element_type;
    return !shape.isTuple && shape.rank() == 0 &&
           (own == type || (hlo::isFloating(own) && hlo::isFloating(type)));
  };
  for (size_t k = 0; k < 2 * n; ++k) {
    const std::string& type = k < n ? accumulators[k] : inputs[k - n];
    const hlo::Instruction* parameter = reducer.parameter(static_cast<int64_t>(k));
    if (!parameter || !scalar(parameter->shape, type))
      failAtInstruction(instruction, "to_apply's parameter " + std::to_string(k) + " must be " +
                                         type + "[] (" + (k < n ? "accumulator " : "element ") +
                                         std::to_string(k < n ? k : k - n) + ")");
  }
  if (reducer.parameter(static_cast<int64_t>(2 * n)))
    failAtInstruction(instruction, "to_apply takes more than " + std::to_string(2 * n) +
                                       " parameters (an accumulator and an element each of " +
                                       std::to_string(n) + ")");
  const Shape& returned = reducer.root->shape;
  const bool one = n == 1 && !returned.isTuple;
  bool matches = one ? scalar(returned, accumulators[0])
                     : returned.isTuple && returned.tupleElements.size() == n;
  for (size_t k = 0; matches && !one && k < n; ++k)
    matches = scalar(returned.tupleElements[k], accumulators[k]);
  if (!matches) {
    std::string expected;
    for (const std::string& type : accumulators)
      expected += (expected.empty() ? "" : ", ") + type + "[]";
    failAtInstruction(instruction, "to_apply returns " + returned.toString() +
                                       ", expected its accumulators (" + expected + ")");
  }
}

void expectStartIndices(const Instruction& instruction, size_t first) {
  for (size_t i = first; i < instruction.operands.size(); ++i) {
    expectScalarOperand(instruction, i);
    const std::string& type = instruction.operands[i]->shape.element_type;
    if (!hlo::isIntegral(type))
      hlo::failAtOpcode(instruction, "start index operand " + std::to_string(i) +
                                         " has element type " + type + ", expected an integer");
    const std::string& firstType = instruction.operands[first]->shape.element_type;
    if (type != firstType)
      hlo::failAtOpcode(instruction, "start index operand " + std::to_string(i) + " is " + type +
                                         ", operand " + std::to_string(first) + " " + firstType +
                                         ": the start indices have one element type");
  }
}

void expectBoundedOperands(const Instruction& instruction, const std::string& what) {
  for (const Instruction* operand : instruction.operands)
    for (size_t d = 0; d < operand->shape.shape.size(); ++d)
      if (hlo::isUnboundedDim(operand->shape, d))
        hlo::failAtOpcode(instruction, what + " of unbounded dynamic shapes is not modeled");
}

void expectStaticOperands(const Instruction& instruction, const std::string& what) {
  for (const Instruction* operand : instruction.operands)
    if (hlo::hasDynamicDims(operand->shape))
      throw Inexpressible(what + " of a bounded dynamic shape is not modeled");
}

void expectDistinctDims(const hlo::Attribute& attribute, std::string_view name,
                        const std::vector<int64_t>& dims, int64_t rank) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), false);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      hlo::failInAttribute(attribute, name, 0,
                           "dimension " + std::to_string(dim) + " is out of range [0, " +
                               std::to_string(rank) + ")");
    if (seen[dim])
      hlo::failInAttribute(attribute, name, 0, "dimension " + std::to_string(dim) + " repeated");
    seen[dim] = true;
  }
}

std::string dimsText(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

Shape variadicResult(std::vector<Shape> results) {
  if (results.size() == 1) return std::move(results[0]);
  Shape tuple;
  tuple.isTuple = true;
  tuple.tupleElements = std::move(results);
  return tuple;
}

Shape arrayShape(const std::string& elementType, std::vector<int64_t> dims) {
  Shape shape;
  shape.element_type = elementType;
  shape.shape = std::move(dims);
  return shape;
}

}  // namespace idxmap::ops
