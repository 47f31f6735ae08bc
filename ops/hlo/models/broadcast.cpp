// broadcast(x), dimensions={...}: operand dimension i becomes result dimension
// dimensions[i]; the other result dimensions are new, and every index along them reads the
// same operand element.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class BroadcastModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    const Shape& declared = instruction.shape;
    if (static_cast<int64_t>(dims.size()) != operand.rank())
      hlo::failInAttribute(attribute, "dimensions", 0,
                           "has " + std::to_string(dims.size()) + " entries, expected one per " +
                               "operand dimension (" + std::to_string(operand.rank()) + ")");
    // Distinct, in any order: XLA checks the order only where asked to
    // (verify_broadcast_dimensions_order), and an unordered list still names one map.
    expectDistinctDims(attribute, "dimensions", dims, declared.rank());
    // New dimensions take their sizes from the declared shape; mapped ones from the operand.
    Shape shape = arrayShape(operand.element_type, {});
    for (size_t d = 0; d < declared.shape.size(); ++d)
      shape.appendDim(declared.extent(d), declared.isDynamic(d));
    for (size_t i = 0; i < dims.size(); ++i)
      shape.setDim(dims[i], operand.extent(i), hlo::isDynamicDim(operand, i));
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    std::vector<int64_t> dims = operandDims(instruction);
    IndexingMap map = domainOf(instruction.shape);
    for (int64_t dim : dims) map.results.push_back(Expr::dim(static_cast<unsigned>(dim)));
    return {{map}};
  }

  MapSets mapsToResults(const Instruction& instruction, int) const override {
    std::vector<int64_t> dims = operandDims(instruction);
    const Shape& result = instruction.shape;
    IndexingMap map = domainOf(instruction.operands[0]->shape);
    std::vector<Expr> results(result.shape.size());
    for (size_t i = 0; i < dims.size(); ++i) results[dims[i]] = Expr::dim(static_cast<unsigned>(i));
    for (size_t i = 0; i < results.size(); ++i) {
      if (!results[i].isNull()) continue;
      if (hlo::isDynamicDim(result, i)) throw Inexpressible("a new dynamic dimension");
      results[i] = addRangeVar(map, {0, result.extent(i) - 1});
    }
    return {{withResults(map, results)}};
  }

 private:
  static std::vector<int64_t> operandDims(const Instruction& instruction) {
    return hlo::readIntList(*instruction.attribute("dimensions"), "dimensions");
  }
};

}  // namespace

const OpModel& broadcastModel() {
  static const BroadcastModel model;
  return model;
}

}  // namespace idxmap::ops
