// dynamic-slice(x, i0, i1, ...), dynamic_slice_sizes={...}: result index d reads x at d + rt,
// where rt_k is start index k clamped into [0, x.dim_k - size_k] (XLA's and StableHLO's
// clamping), so the runtime variable's range is exactly that interval. The start indices are
// scalars read once per result element.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class DynamicSliceModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCountAtLeast(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    expectOperandCount(instruction, 1 + operand.shape.size());
    expectStartIndices(instruction, 1);
    expectBoundedOperands(instruction, "slicing");
    std::vector<int64_t> sizes = sliceSizes(instruction);
    return arrayShape(operand.element_type, sizes);
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "slicing");
    const Shape& operand = instruction.operands[0]->shape;
    std::vector<int64_t> sizes = sliceSizes(instruction);
    IndexingMap map = domainOf(instruction.shape);
    for (size_t k = 0; k < sizes.size(); ++k) {
      Expr start = addRuntimeVar(map, {0, operand.extent(k) - sizes[k]});
      map.results.push_back(Expr::dim(static_cast<unsigned>(k)) + start);
    }
    MapSets sets{{map}};
    for (size_t i = 1; i < instruction.operands.size(); ++i)
      sets.push_back({toScalar(instruction.shape)});
    return sets;
  }

 private:
  static std::vector<int64_t> sliceSizes(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dynamic_slice_sizes");
    std::vector<int64_t> sizes = hlo::readIntList(attribute, "dynamic_slice_sizes");
    const Shape& operand = instruction.operands[0]->shape;
    if (sizes.size() != operand.shape.size())
      hlo::failInAttribute(attribute, "dynamic_slice_sizes", 0,
                           "has " + std::to_string(sizes.size()) + " sizes, operand " +
                               operand.toString() + " has rank " + std::to_string(operand.rank()));
    for (size_t k = 0; k < sizes.size(); ++k)
      if (sizes[k] < 0 || sizes[k] > operand.extent(k))
        hlo::failInAttribute(attribute, "dynamic_slice_sizes", 0,
                             "size " + std::to_string(sizes[k]) + " of dimension " +
                                 std::to_string(k) + " is outside [0, " +
                                 std::to_string(operand.extent(k)) + "]");
    return sizes;
  }
};

}  // namespace

const OpModel& dynamicSliceModel() {
  static const DynamicSliceModel model;
  return model;
}

}  // namespace idxmap::ops
