// concatenate(x0, x1, ...), dimensions={k}: operand i fills result indices
// [offset_i, offset_i + size_i) along k, where offset_i is the sum of the sizes before it. One
// map per operand; their domains are disjoint and together cover the result.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ConcatenateModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCountAtLeast(instruction, 1);
    expectBoundedOperands(instruction, "concatenation");
    int64_t dim = concatDim(instruction);
    const Shape& first = arrayOperand(instruction, 0);
    Shape shape = arrayShape(first.element_type, first.extents());
    shape.shape[dim] = 0;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Shape& operand = arrayOperand(instruction, i);
      if (operand.rank() != first.rank())
        hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " " + operand.toString() +
                                           " does not have operand 0's rank " +
                                           std::to_string(first.rank()));
      if (operand.element_type != first.element_type)
        hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " has element type " +
                                           operand.element_type + ", operand 0 " +
                                           first.element_type);
      for (int64_t d = 0; d < operand.rank(); ++d) {
        // A dim is dynamic where any operand's is (XLA); its extent is the bound.
        if (hlo::isDynamicDim(operand, d)) shape.setDim(d, shape.extent(d), true);
        if (d != dim && operand.extent(d) != first.extent(d))
          hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " " + operand.toString() +
                                             " differs from operand 0 " + first.toString() +
                                             " in dimension " + std::to_string(d));
      }
      shape.setDim(dim, checkedAdd(shape.extent(dim), operand.extent(dim)),
                   hlo::isDynamicDim(shape, dim));
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "concatenation");
    int64_t dim = concatDim(instruction);
    MapSets sets;
    int64_t offset = 0;
    for (const hlo::Instruction* operand : instruction.operands) {
      IndexingMap map = domainOf(instruction.shape);
      int64_t size = operand->shape.extent(dim);
      map.dims[dim].range = {offset, offset + size - 1};
      map.results = dimExprs(map);
      map.results[dim] = map.results[dim] - offset;
      sets.push_back({map});
      offset += size;
    }
    return sets;
  }

  MapSets mapsToResults(const Instruction& instruction, int inputId) const override {
    int64_t dim = concatDim(instruction);
    int64_t offset = 0;
    for (int i = 0; i < inputId; ++i) offset += instruction.operands[i]->shape.extent(dim);
    IndexingMap map = domainOf(instruction.operands[inputId]->shape);
    map.results = dimExprs(map);
    map.results[dim] = map.results[dim] + offset;
    return {{map}};
  }

 private:
  static int64_t concatDim(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (dims.size() != 1)
      hlo::failInAttribute(attribute, "dimensions", 0, "must name exactly one dimension");
    expectDistinctDims(attribute, "dimensions", dims, rank);
    return dims[0];
  }
};

}  // namespace

const OpModel& concatenateModel() {
  static const ConcatenateModel model;
  return model;
}

}  // namespace idxmap::ops
