// slice(x), slice={[start:limit:stride], ...}: result index i reads start + i * stride.
// Backwards, only operand elements on the stride are read: (d - start) mod stride == 0.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class SliceModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    expectBoundedOperands(instruction, "slicing");
    const Shape& operand = arrayOperand(instruction, 0);
    std::vector<hlo::SliceDim> dims = sliceDims(instruction);
    Shape shape = arrayShape(operand.element_type, {});
    for (size_t i = 0; i < dims.size(); ++i) {
      const int64_t size = ceilDiv(dims[i].limit - dims[i].start, dims[i].stride);
      // XLA: a bounded dim stays dynamic unless one element is taken.
      shape.appendDim(size, hlo::isDynamicDim(operand, i) && size != 1);
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "slicing");
    IndexingMap map = domainOf(instruction.shape);
    std::vector<hlo::SliceDim> dims = sliceDims(instruction);
    for (unsigned i = 0; i < dims.size(); ++i)
      map.results.push_back(Expr::dim(i) * dims[i].stride + dims[i].start);
    return {{map}};
  }

  MapSets mapsToResults(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "slicing");
    std::vector<hlo::SliceDim> dims = sliceDims(instruction);
    const Shape& result = instruction.shape;
    IndexingMap map = domainOf(instruction.operands[0]->shape);
    for (unsigned i = 0; i < dims.size(); ++i) {
      // The operand elements read: start, start + stride, ..., up to the last result index.
      int64_t last = dims[i].start + (result.extent(i) - 1) * dims[i].stride;
      map.dims[i].range = {dims[i].start, last};
      Expr offset = Expr::dim(i) - dims[i].start;
      map.results.push_back(offset.floorDiv(dims[i].stride));
      if (dims[i].stride > 1) addConstraint(map, offset.mod(dims[i].stride), {0, 0});
    }
    return {{map}};
  }

 private:
  static std::vector<hlo::SliceDim> sliceDims(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "slice");
    std::vector<hlo::SliceDim> dims = hlo::readSlice(attribute, "slice");
    const Shape& operand = instruction.operands[0]->shape;
    if (static_cast<int64_t>(dims.size()) != operand.rank())
      hlo::failInAttribute(attribute, "slice", 0,
                           "has " + std::to_string(dims.size()) + " dimensions, operand " +
                               operand.toString() + " has " + std::to_string(operand.rank()));
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i].start < 0 || dims[i].start > dims[i].limit || dims[i].limit > operand.extent(i))
        hlo::failInAttribute(attribute, "slice", 0,
                             "[" + std::to_string(dims[i].start) + ":" +
                                 std::to_string(dims[i].limit) +
                                 "] is out of bounds for dimension " + std::to_string(i) +
                                 " of size " + std::to_string(operand.extent(i)));
    }
    return dims;
  }
};

}  // namespace

const OpModel& sliceModel() {
  static const SliceModel model;
  return model;
}

}  // namespace idxmap::ops
