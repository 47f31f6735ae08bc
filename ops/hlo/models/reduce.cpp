// reduce(inputs..., inits...), dimensions={...}: result j at index d combines every input
// element whose kept dimensions equal d (the reduced dimensions become range variables, in
// increasing order) with init j. Variadic: N inputs, N inits, a tuple of N results.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ReduceModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    size_t n = inputCount(instruction);
    const Shape& first = arrayOperand(instruction, 0);
    for (size_t i = 1; i < n; ++i)
      if (!hlo::compatible(withType(arrayOperand(instruction, i), first.element_type), first))
        hlo::failAtOpcode(instruction, "input " + std::to_string(i) + " " +
                                           instruction.operands[i]->shape.toString() +
                                           " does not match input 0 " + first.toString());
    for (size_t i = n; i < 2 * n; ++i) expectScalarOperand(instruction, i);
    expectReducer(instruction, elementTypes(instruction, n, 2 * n),
                  elementTypes(instruction, 0, n));
    std::vector<bool> reduced = reducedDims(instruction);
    std::vector<Shape> results;
    for (size_t i = 0; i < n; ++i) {
      Shape result = arrayShape(instruction.operands[n + i]->shape.element_type, {});
      for (size_t d = 0; d < first.shape.size(); ++d) {
        if (reduced[d]) continue;
        result.appendDim(first.extent(d), hlo::isDynamicDim(first, d));
      }
      results.push_back(result);
    }
    return variadicResult(std::move(results));
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    size_t n = instruction.operands.size() / 2;
    const Shape& input = instruction.operands[0]->shape;
    const Shape& result = resultShape(instruction, outputId);
    std::vector<bool> reduced = reducedDims(instruction);
    IndexingMap map = domainOf(result);
    unsigned kept = 0;
    for (size_t d = 0; d < input.shape.size(); ++d) {
      if (!reduced[d]) {
        map.results.push_back(Expr::dim(kept++));
        continue;
      }
      Expr s = addRangeVar(map, {0, input.extent(d) - 1});
      map.results.push_back(s);
      if (hlo::isUnboundedDim(input, d)) throw Inexpressible("reduce over an unbounded dim");
      if (hlo::isDynamicDim(input, d)) {
        // Only the elements below the run-time size are combined.
        Expr size = addRuntimeVar(map, {0, input.extent(d)});
        addConstraint(map, size - s, {1, input.extent(d)});
      }
    }
    MapSets sets(2 * n, std::vector<IndexingMap>{map});
    for (size_t i = n; i < 2 * n; ++i) sets[i] = {toScalar(result)};
    return sets;
  }

  MapSets mapsToResults(const Instruction& instruction, int inputId) const override {
    size_t n = instruction.operands.size() / 2;
    MapSets sets;
    for (size_t j = 0; j < n; ++j) {
      const Shape& result = resultShape(instruction, static_cast<int>(j));
      if (static_cast<size_t>(inputId) >= n) {
        sets.push_back({fromScalar(result)});
        continue;
      }
      std::vector<bool> reduced = reducedDims(instruction);
      IndexingMap map = domainOf(instruction.operands[inputId]->shape);
      for (unsigned d = 0; d < reduced.size(); ++d)
        if (!reduced[d]) map.results.push_back(Expr::dim(d));
      sets.push_back({map});
    }
    return sets;
  }

 private:
  static size_t inputCount(const Instruction& instruction) {
    size_t count = instruction.operands.size();
    if (count < 2 || count % 2 != 0)
      hlo::failAtOpcode(instruction, "expects inputs and as many init values, got " +
                                         std::to_string(count) + " operands");
    return count / 2;
  }

  static Shape withType(Shape shape, const std::string& type) {
    shape.element_type = type;
    return shape;
  }

  // Per input dimension: whether it is reduced.
  static std::vector<bool> reducedDims(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    expectDistinctDims(attribute, "dimensions", dims, rank);
    std::vector<bool> reduced(rank, false);
    for (int64_t d : dims) reduced[d] = true;
    return reduced;
  }
};

}  // namespace

const OpModel& reduceModel() {
  static const ReduceModel model;
  return model;
}

}  // namespace idxmap::ops
