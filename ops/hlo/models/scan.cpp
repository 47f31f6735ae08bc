// scan(inputs..., inits...), dimensions={d}, num_carries=N, to_apply=body: the body runs once
// per position i along d (backwards with is_reverse=true) on the inputs' slices at i and the
// carries (the inits first), and returns the outputs' slices at i and the next carries. The
// result is (outputs..., final carries...), or the one array when there is one result.
//
// The maps are XLA's (indexing_analysis.cc): element i of an output corresponds to element i
// of each input of its shape, and reads every scalar init. They say which input element an
// output element is built from at its step, not everything it depends on (every step before
// it, through the carries). Where XLA's map would not be a map of the operand (an input or a
// non-scalar init whose shape is not the output's: a carry result, a scalar result), the
// operand is read whole: sound, if coarser than a dependence analysis of the body.
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

class ScanModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    const Parts parts = partsOf(instruction);
    const Shape& first = arrayOperand(instruction, 0);
    const int64_t extent = first.extent(parts.dim);
    for (size_t i = 0; i < parts.inputs; ++i) {
      const Shape& input = arrayOperand(instruction, i);
      if (input.rank() <= parts.dim || input.extent(parts.dim) != extent)
        hlo::failAtOpcode(instruction, "input " + std::to_string(i) + " " + input.toString() +
                                           " does not have input 0's " + std::to_string(extent) +
                                           " elements along dimension " +
                                           std::to_string(parts.dim));
    }
    const hlo::Computation& body = bodyOf(instruction);
    const size_t operands = instruction.operands.size();
    // What the body returns per step: a tuple (outputs..., carries...), or one output.
    const std::vector<Shape> returned = body.root->shape.isTuple
                                            ? body.root->shape.tupleElements
                                            : std::vector<Shape>{body.root->shape};
    if (returned.size() < parts.carries)
      failAtInstruction(instruction, "to_apply returns " + body.root->shape.toString() +
                                         ", not the " + std::to_string(parts.carries) +
                                         " carries after its outputs");
    for (size_t k = 0; k < operands; ++k) {
      const hlo::Instruction* parameter = body.parameter(static_cast<int64_t>(k));
      Shape expected = k < parts.inputs ? sliceOf(instruction.operands[k]->shape, parts.dim)
                                        : instruction.operands[k]->shape;
      if (!parameter || hlo::incompatibility(parameter->shape, expected))
        failAtInstruction(instruction,
                          "to_apply's parameter " + std::to_string(k) + " must be " +
                              expected.toString() + (k < parts.inputs ? " (input " : " (init ") +
                              std::to_string(k) + (k < parts.inputs ? "'s slice)" : ")"));
    }
    std::vector<Shape> results;
    const size_t outputs = returned.size() - parts.carries;
    for (size_t k = 0; k < outputs; ++k) {
      const Shape& slice = returned[k];
      if (slice.isTuple || slice.rank() < parts.dim)
        failAtInstruction(instruction, "to_apply's output " + std::to_string(k) + " " +
                                           slice.toString() + " has no dimension " +
                                           std::to_string(parts.dim) + " to scan along");
      Shape output = arrayShape(slice.element_type, slice.shape);
      output.shape.insert(output.shape.begin() + parts.dim, extent);
      results.push_back(output);
    }
    for (size_t k = 0; k < parts.carries; ++k) {
      const Shape& init = instruction.operands[parts.inputs + k]->shape;
      if (hlo::incompatibility(returned[outputs + k], init))
        failAtInstruction(instruction, "to_apply's carry " + std::to_string(k) + " " +
                                           returned[outputs + k].toString() +
                                           " is not its init's " + init.toString());
      results.push_back(init);
    }
    return variadicResult(std::move(results));
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int outputId) const override {
    const Shape& result = resultShape(instruction, outputId);
    MapSets sets;
    for (const Instruction* operand : instruction.operands) {
      if (operand->shape.rank() == 0) {
        sets.push_back({toScalar(result)});
      } else if (operand->shape.shape == result.shape) {
        sets.push_back({identityOver(result)});
      } else {
        sets.push_back({wholeOperand(result, operand->shape)});
      }
    }
    return sets;
  }

  MapSets mapsToResults(const Instruction&, int) const override {
    throw Inexpressible("XLA's analysis has no scan maps from an operand to the results");
  }

 private:
  struct Parts {
    int64_t dim = 0;
    size_t inputs = 0, carries = 0;
  };

  static Parts partsOf(const Instruction& instruction) {
    Parts parts;
    const hlo::Attribute& carries = hlo::requireAttribute(instruction, "num_carries");
    const int64_t count = hlo::readInt(carries, "num_carries");
    const auto operands = static_cast<int64_t>(instruction.operands.size());
    if (count < 0 || count >= operands)
      hlo::failInAttribute(
          carries, "num_carries", 0,
          "must leave at least one of the " + std::to_string(operands) + " operands an input");
    parts.carries = static_cast<size_t>(count);
    parts.inputs = instruction.operands.size() - parts.carries;
    const hlo::Attribute& dimensions = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(dimensions, "dimensions");
    if (dims.size() != 1)
      hlo::failInAttribute(dimensions, "dimensions", 0,
                           "scan runs along one dimension, not " + dimsText(dims));
    expectDistinctDims(dimensions, "dimensions", dims, arrayOperand(instruction, 0).rank());
    parts.dim = dims[0];
    return parts;
  }

  static const hlo::Computation& bodyOf(const Instruction& instruction) {
    if (instruction.calledComputations.size() != 1)
      failAtInstruction(instruction, "scan calls one computation (to_apply=)");
    return *instruction.calledComputations[0];
  }

  static Shape sliceOf(Shape shape, int64_t dim) {
    shape.shape.erase(shape.shape.begin() + dim);
    shape.layout.reset();
    return shape;
  }

  // (d...)[s...] -> (s...): every element of `operand` from every index of `result`.
  static IndexingMap wholeOperand(const Shape& result, const Shape& operand) {
    IndexingMap map = domainOf(result);
    for (int64_t d = 0; d < operand.rank(); ++d)
      map.results.push_back(addRangeVar(map, {0, operand.extent(d) - 1}));
    return map;
  }
};

}  // namespace

const OpModel& scanModel() {
  static const ScanModel model;
  return model;
}

}  // namespace idxmap::ops
