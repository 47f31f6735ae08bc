// transpose(x), dimensions=p: result dimension i is operand dimension p[i].
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class TransposeModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    std::vector<int64_t> perm = permutation(instruction);
    Shape shape = arrayShape(operand.element_type, {});
    for (int64_t dim : perm) {
      shape.appendDim(operand.extent(dim), hlo::isDynamicDim(operand, dim));
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    std::vector<int64_t> perm = permutation(instruction);
    IndexingMap map = domainOf(instruction.shape);
    map.results.resize(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      map.results[perm[i]] = Expr::dim(static_cast<unsigned>(i));
    return {{map}};
  }

  MapSets mapsToResults(const Instruction& instruction, int) const override {
    IndexingMap map = domainOf(instruction.operands[0]->shape);
    for (int64_t dim : permutation(instruction))
      map.results.push_back(Expr::dim(static_cast<unsigned>(dim)));
    return {{map}};
  }

 private:
  static std::vector<int64_t> permutation(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> perm = hlo::readIntList(attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (static_cast<int64_t>(perm.size()) != rank)
      hlo::failInAttribute(attribute, "dimensions", 0,
                           "is not a permutation of [0, " + std::to_string(rank) + ")");
    std::vector<bool> seen(perm.size(), false);
    for (int64_t dim : perm) {
      if (dim < 0 || dim >= rank || seen[dim])
        hlo::failInAttribute(attribute, "dimensions", 0,
                             "is not a permutation of [0, " + std::to_string(rank) + ")");
      seen[dim] = true;
    }
    return perm;
  }
};

}  // namespace

const OpModel& transposeModel() {
  static const TransposeModel model;
  return model;
}

}  // namespace idxmap::ops
