// reduce-window(inputs..., inits...), window={...}: result j at window position d combines
// the inputs over the window (one range variable per window dimension) through padding and
// base dilation (spec 004: the windowed indexing composed with pad's), with init j.
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/shared_maps.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ReduceWindowModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    size_t count = instruction.operands.size();
    if (count < 2 || count % 2 != 0)
      hlo::failAtOpcode(instruction, "expects inputs and as many init values, got " +
                                         std::to_string(count) + " operands");
    size_t n = count / 2;
    const Shape& first = arrayOperand(instruction, 0);
    for (size_t i = 0; i < n; ++i) {
      const Shape& input = arrayOperand(instruction, i);
      if (input.extents() != first.extents())
        hlo::failAtOpcode(instruction, "input " + std::to_string(i) + " " + input.toString() +
                                           " does not match input 0 " + first.toString());
      expectScalarOperand(instruction, n + i);
    }
    expectBoundedOperands(instruction, "reduce-window");
    expectReducer(instruction, elementTypes(instruction, n, 2 * n),
                  elementTypes(instruction, 0, n));
    std::vector<hlo::WindowDim> window = windowOf(instruction);
    std::vector<Shape> results;
    for (size_t i = 0; i < n; ++i) {
      Shape result = arrayShape(instruction.operands[n + i]->shape.element_type, {});
      for (size_t d = 0; d < window.size(); ++d)
        result.appendDim(windowOutputSize(first.extent(d), window[d]), hlo::isDynamicDim(first, d));
      results.push_back(result);
    }
    return variadicResult(std::move(results));
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    expectStaticOperands(instruction, "reduce-window");
    size_t n = instruction.operands.size() / 2;
    IndexingMap toInput =
        windowToOperand(instruction.operands[0]->shape.extents(), windowOf(instruction));
    MapSets sets(n, std::vector<IndexingMap>{toInput});
    for (size_t i = 0; i < n; ++i) sets.push_back({toScalar(resultShape(instruction, outputId))});
    return sets;
  }

 private:
  static std::vector<hlo::WindowDim> windowOf(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "window");
    std::vector<hlo::WindowDim> window = hlo::readWindow(attribute, "window");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (static_cast<int64_t>(window.size()) != rank)
      hlo::failInAttribute(attribute, "window", 0,
                           "has " + std::to_string(window.size()) + " dimensions, input has " +
                               std::to_string(rank));
    for (const hlo::WindowDim& w : window)
      if (w.reversal) hlo::failInAttribute(attribute, "window", 0, "reduce-window has no reversal");
    return window;
  }
};

}  // namespace

const OpModel& reduceWindowModel() {
  static const ReduceWindowModel model;
  return model;
}

}  // namespace idxmap::ops
