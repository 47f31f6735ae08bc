// bitcast(x): the same bytes read through another shape and layout. Its indexing is
// transpose-reshape-transpose (spec 004; XLA's BitcastIsTransposeReshapeTranspose): a logical
// index goes to its physical (major-to-minor) position under the layout, the physical shapes
// are reshaped into each other, and the operand's physical index goes back to logical.
#include <algorithm>
#include <numeric>

#include "ops/hlo/models/common.h"
#include "ops/hlo/models/shared_maps.h"
#include "ops/hlo/shape_compat.h"
#include "simplifier/simplify.h"

namespace idxmap::ops {
namespace {

// Minor-to-major; XLA's default is {rank-1, ..., 0}.
std::vector<int64_t> layoutOf(const Shape& shape) {
  if (shape.layout) return *shape.layout;
  std::vector<int64_t> layout(shape.shape.size());
  std::iota(layout.rbegin(), layout.rend(), 0);
  return layout;
}

// Physical position k (major to minor) holds logical dim majorToMinor[k].
std::vector<int64_t> majorToMinor(const Shape& shape) {
  std::vector<int64_t> layout = layoutOf(shape);
  return {layout.rbegin(), layout.rend()};
}

std::vector<int64_t> physicalDims(const Shape& shape) {
  std::vector<int64_t> dims;
  for (int64_t logical : majorToMinor(shape)) dims.push_back(shape.extent(logical));
  return dims;
}

IndexingMap logicalToPhysical(const Shape& shape) {
  IndexingMap map = IndexingMap::identity(shape.extents());
  map.results.clear();
  for (int64_t logical : majorToMinor(shape))
    map.results.push_back(Expr::dim(static_cast<unsigned>(logical)));
  return map;
}

IndexingMap physicalToLogical(const Shape& shape) {
  std::vector<int64_t> order = majorToMinor(shape);
  IndexingMap map = IndexingMap::identity(physicalDims(shape));
  for (size_t k = 0; k < order.size(); ++k)
    map.results[order[k]] = Expr::dim(static_cast<unsigned>(k));
  return map;
}

// From logical indices of `from` to logical indices of `to`.
IndexingMap bitcastMap(const Shape& from, const Shape& to) {
  IndexingMap physical =
      composeAndSimplify(logicalToPhysical(from), reshapeMap(physicalDims(from), physicalDims(to)));
  return composeAndSimplify(physical, physicalToLogical(to));
}

class BitcastModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    const Shape& declared = instruction.shape;
    if (declared.isTuple) failAtInstruction(instruction, "result must be an array");
    checkLayout(instruction, operand, "operand");
    checkLayout(instruction, declared, "result");
    if (hlo::hasDynamicDims(operand) || hlo::hasDynamicDims(declared))
      failAtInstruction(instruction, "bitcast of a dynamic shape");
    if (operand.element_type == declared.element_type &&
        operand.elementCount() != declared.elementCount())
      failAtInstruction(instruction, "result " + declared.toString() + " has " +
                                         std::to_string(declared.elementCount()) +
                                         " elements, operand " + operand.toString() + " has " +
                                         std::to_string(operand.elementCount()));
    return declared;  // a bitcast's shape is whatever it declares
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    requireSameElementCount(instruction);
    return {{bitcastMap(instruction.shape, instruction.operands[0]->shape)}};
  }
  MapSets mapsToResults(const Instruction& instruction, int) const override {
    requireSameElementCount(instruction);
    return {{bitcastMap(instruction.operands[0]->shape, instruction.shape)}};
  }

 private:
  static void checkLayout(const Instruction& instruction, const Shape& shape, const char* what) {
    if (!shape.layout) return;
    std::vector<int64_t> sorted = *shape.layout;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> dims(shape.shape.size());
    std::iota(dims.begin(), dims.end(), 0);
    if (sorted != dims)
      failAtInstruction(instruction, std::string(what) + " layout of " + shape.toString() +
                                         " is not a permutation of its dimensions");
  }

  // A bitcast between element types of different widths regroups elements: not modeled.
  static void requireSameElementCount(const Instruction& instruction) {
    if (instruction.shape.elementCount() != instruction.operands[0]->shape.elementCount())
      throw Inexpressible("bitcast changes the element count");
  }
};

}  // namespace

const OpModel& bitcastModel() {
  static const BitcastModel model;
  return model;
}

}  // namespace idxmap::ops
