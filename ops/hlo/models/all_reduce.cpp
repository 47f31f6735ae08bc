// all-reduce, all-reduce-start and all-reduce-done, as XLA models them on one device: the
// reduction across replicas does not move an index, so result k reads operand k where it
// writes. Several operands give a tuple of results (element k from operand k; the others are
// not read for it: KNOWN EMPTY maps, as for `tuple`); all-reduce-done gives back its
// operand's shape, array or tuple, and result k reads element k of it.
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/replica_groups.h"

namespace idxmap::ops {
namespace {

bool isDone(const Instruction& instruction) { return instruction.opcode == "all-reduce-done"; }

class AllReduceModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    if (isDone(instruction)) {
      expectOperandCount(instruction, 1);
      Shape shape = instruction.operands[0]->shape;
      shape.layout.reset();
      return shape;
    }
    expectOperandCountAtLeast(instruction, 1);
    groupSize(instruction, /*uniform=*/false);  // a replica in two groups is an error
    std::vector<Shape> results;
    for (size_t k = 0; k < instruction.operands.size(); ++k) {
      Shape operand = arrayOperand(instruction, k);
      operand.layout.reset();
      results.push_back(std::move(operand));
    }
    return variadicResult(std::move(results));
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    const Shape& result = resultShape(instruction, outputId);
    if (isDone(instruction) || instruction.operands.size() == 1) return {{identityOver(result)}};
    MapSets sets;
    for (size_t k = 0; k < instruction.operands.size(); ++k)
      sets.push_back({static_cast<int>(k) == outputId
                          ? identityOver(result)
                          : readsNothing(result, instruction.operands[k]->shape.shape.size())});
    return sets;
  }
  MapSets mapsToResults(const Instruction& instruction, int inputId) const override {
    if (isDone(instruction)) {  // element k of the operand is result k
      const Shape& shape = instruction.shape;
      if (!shape.isTuple) return {{identityOver(shape)}};
      MapSets sets;
      for (const Shape& element : shape.tupleElements) sets.push_back({identityOver(element)});
      return sets;
    }
    const Shape& operand = instruction.operands[inputId]->shape;
    if (instruction.operands.size() == 1) return {{identityOver(operand)}};
    MapSets sets;
    for (size_t k = 0; k < instruction.operands.size(); ++k)
      sets.push_back({static_cast<int>(k) == inputId
                          ? identityOver(operand)
                          : readsNothing(operand, instruction.operands[k]->shape.shape.size())});
    return sets;
  }
};

}  // namespace

const OpModel& allReduceModel() {
  static const AllReduceModel model;
  return model;
}

}  // namespace idxmap::ops
