// all-gather(x...), dimensions={g}, replica_groups=...: the replicas of a group concatenate their
// shards along g (each operand its own; several operands give a tuple of results). Result index i
// of dimension g reads the shard's element i mod n (n the operand's extent of g) on replica i
// floordiv n, as XLA's indexing analysis models it: the operand map (.., d_g mod n, ..) and a
// replica id map (..) -> (d_g floordiv n). Input to output is unknown (as in XLA): the result
// position of an element depends on which replica holds it, which the operand index alone does not
// say.
//
// all-gather-start(x) is the asynchronous form: its result is the pair (x, gathered), and the
// all-gather-done that takes it gives back the gathered element (not modeled: XLA's analysis
// has no map for it either). Result 0 of the start is its operand, result 1 the gathered value
// (XLA indexes the start from element 1 whatever the output asked). Several operands make each
// side a tuple, which has no index space here: their shapes are checked, their maps unknown.
#include <optional>

#include "ops/hlo/models/common.h"
#include "ops/hlo/models/replica_groups.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

bool isStart(const Instruction& instruction) { return instruction.opcode == "all-gather-start"; }

class AllGatherModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCountAtLeast(instruction, 1);
    if (!isStart(instruction)) return gatheredResults(instruction, instruction.shape);
    const Shape& declared = instruction.shape;
    if (!declared.isTuple || declared.tupleElements.size() != 2)
      failAtInstruction(instruction, "result " + declared.toString() +
                                         " must be the pair (operands, gathered results)");
    std::vector<Shape> operands;
    for (size_t k = 0; k < instruction.operands.size(); ++k) {
      operands.push_back(arrayOperand(instruction, k));
      operands.back().layout.reset();
    }
    return variadicResult({variadicResult(std::move(operands)),
                           gatheredResults(instruction, declared.tupleElements[1])});
  }

 protected:
  // Result k gathers operand k alone; the other operands it does not read. all-gather-start's
  // result 0 is its operand, result 1 gathers it.
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    if (isStart(instruction)) {
      if (instruction.operands.size() > 1)
        throw Inexpressible("all-gather-start of several operands: each side is a tuple");
      if (outputId == 0) return {{identityOver(resultShape(instruction, 0))}};
      outputId = 0;  // the gathered result of the one operand
    }
    const Shape& result = gatheredShape(instruction, outputId);
    MapSets sets;
    for (size_t k = 0; k < instruction.operands.size(); ++k) {
      if (static_cast<int>(k) != outputId) {
        sets.push_back({readsNothing(result, instruction.operands[k]->shape.shape.size())});
        continue;
      }
      IndexingMap map = domainOf(result);
      map.results = dimExprs(map);
      int64_t dim = gatherDim(instruction);
      map.results[dim] = map.results[dim].mod(shardSize(instruction, k, dim));
      sets.push_back({map});
    }
    return sets;
  }
  MapSets replicaIdMaps(const Instruction& instruction, int outputId) const override {
    if (isStart(instruction)) {
      if (outputId == 0 || instruction.operands.size() > 1) return MapSets(1);
      outputId = 0;
    }
    const Shape& result = gatheredShape(instruction, outputId);
    MapSets sets(instruction.operands.size());
    IndexingMap map = domainOf(result);
    int64_t dim = gatherDim(instruction);
    map.results = {dimExprs(map)[dim].floorDiv(shardSize(instruction, outputId, dim))};
    sets[outputId] = {map};
    return sets;
  }
  MapSets mapsToResults(const Instruction&, int) const override {
    throw Inexpressible("all-gather: a result position depends on the replica");
  }

 private:
  // The results of an all-gather, or the gathered side of an all-gather-start, against the
  // `declared` shape: operand k's result is element k of a tuple when there are several.
  static Shape gatheredResults(const Instruction& instruction, const Shape& declared) {
    const size_t n = instruction.operands.size();
    if (leftOut(declared)) {  // as XLA infers it: each operand times the group size
      std::vector<Shape> results;
      for (size_t k = 0; k < n; ++k) results.push_back(gathered(instruction, k, declared));
      return variadicResult(std::move(results));
    }
    if (n > 1 && (!declared.isTuple || declared.tupleElements.size() != n))
      failAtInstruction(instruction, "result " + declared.toString() + " must be a tuple of " +
                                         std::to_string(n) + " arrays, one per operand");
    std::vector<Shape> results;
    for (size_t k = 0; k < n; ++k)
      results.push_back(gathered(instruction, k, n > 1 ? declared.tupleElements[k] : declared));
    return variadicResult(std::move(results));
  }
  // A result shape the text leaves out (readHloModule infers it).
  static bool leftOut(const Shape& declared) {
    return !declared.isTuple && declared.element_type.empty();
  }
  // The shape result `outputId` gathers into (for all-gather-start, its element 1).
  static const Shape& gatheredShape(const Instruction& instruction, int outputId) {
    return isStart(instruction) ? instruction.shape.tupleElements[1]
                                : resultShape(instruction, outputId);
  }
  static int64_t gatherDim(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (dims.size() != 1 || dims[0] < 0 || dims[0] >= rank)
      hlo::failInAttribute(
          attribute, "dimensions", 0,
          "must name one dimension of the rank-" + std::to_string(rank) + " operand");
    return dims[0];
  }
  static int64_t shardSize(const Instruction& instruction, size_t operand, int64_t dim) {
    const Shape& shape = instruction.operands[operand]->shape;
    if (hlo::isDynamicDim(shape, dim)) throw Inexpressible("all-gather of a dynamic dimension");
    return shape.extent(dim);
  }
  // Operand k gathered into `declared` (its element of the result).
  static Shape gathered(const Instruction& instruction, size_t k, const Shape& declared) {
    const Shape& operand = arrayOperand(instruction, k);
    int64_t dim = gatherDim(instruction);
    const std::string which = instruction.operands.size() > 1 ? " " + std::to_string(k) : "";
    const bool inferred = leftOut(declared);  // as XLA infers it: the shard times the group
    const int64_t shard = operand.extent(dim);
    if (!inferred) {
      if (declared.isTuple || declared.rank() != operand.rank())
        failAtInstruction(instruction, "result" + which + " " + declared.toString() +
                                           " must be an array of the operand's rank " +
                                           std::to_string(operand.rank()));
      const int64_t whole = declared.extent(dim);
      if (shard <= 0 || whole % shard != 0)
        failAtInstruction(instruction, "dimension " + std::to_string(dim) + " of the result" +
                                           which + " (" + std::to_string(whole) +
                                           ") must be a multiple of the operand's (" +
                                           std::to_string(shard) + ")");
    }
    std::optional<int64_t> size = groupSize(instruction, /*uniform=*/true);
    int64_t all = 0;  // the elements the group gathers along dim
    if (size && __builtin_mul_overflow(shard, *size, &all))
      failAtInstruction(instruction, "replica_groups of " + std::to_string(*size) +
                                         " replicas gather more than 2^63 elements");
    if (inferred && !size)
      failAtInstruction(instruction,
                        "the result shape is left out, and replica_groups does not say how many "
                        "replicas gather: write it");
    const int64_t whole = inferred ? all : declared.extent(dim);
    if (size && whole != all)
      failAtInstruction(instruction, "replica_groups of " + std::to_string(*size) +
                                         " replicas gather " + std::to_string(all) +
                                         " elements along dimension " + std::to_string(dim) +
                                         ", the result" + which + " has " + std::to_string(whole));
    Shape shape = operand;
    shape.layout.reset();
    shape.setDim(static_cast<size_t>(dim), whole,
                 hlo::isDynamicDim(inferred ? operand : declared, dim));
    return shape;
  }
};

}  // namespace

const OpModel& allGatherModel() {
  static const AllGatherModel model;
  return model;
}

}  // namespace idxmap::ops
