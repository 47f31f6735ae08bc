// convolution(input, kernel), window={...}, dim_labels=..., feature_group_count=,
// batch_group_count=, as XLA's indexing analysis models it (ComputeOutputToInputConvolution-
// OpIndexing): range variables are the kernel's spatial offsets s_0.., then the input feature
// within a group, then (with batch groups) the batch group. The input's spatial dims go through
// the window (stride, padding, dilations); a feature group picks its slice of input features.
// As in XLA, the batch group is a free range variable: an over-approximation (each output
// feature reads only its own group), kept so that the maps agree with XLA's.
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/shared_maps.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

struct Convolution {
  hlo::ConvolutionDimensions labels;
  std::vector<hlo::WindowDim> window;
  int64_t featureGroups, batchGroups;
};

class ConvolutionModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 2);
    const Shape& input = arrayOperand(instruction, 0);
    const Shape& kernel = arrayOperand(instruction, 1);
    expectBoundedOperands(instruction, "convolution");
    Convolution conv = read(instruction);
    const hlo::ConvolutionDimensions& l = conv.labels;
    int64_t inputFeatures = input.extent(l.inputFeature);
    int64_t kernelInputFeatures = kernel.extent(l.kernelInputFeature);
    int64_t kernelOutputFeatures = kernel.extent(l.kernelOutputFeature);
    if (inputFeatures != checkedMul(kernelInputFeatures, conv.featureGroups))
      hlo::failAtOpcode(instruction, "input features (" + std::to_string(inputFeatures) +
                                         ") must be kernel input features (" +
                                         std::to_string(kernelInputFeatures) +
                                         ") times feature_group_count (" +
                                         std::to_string(conv.featureGroups) + ")");
    if (conv.featureGroups > 1 && conv.batchGroups > 1)
      hlo::failAtOpcode(instruction, "feature_group_count (" + std::to_string(conv.featureGroups) +
                                         ") and batch_group_count (" +
                                         std::to_string(conv.batchGroups) +
                                         ") cannot both be greater than 1");
    if (kernelOutputFeatures % conv.featureGroups != 0 ||
        kernelOutputFeatures % conv.batchGroups != 0)
      hlo::failAtOpcode(instruction, "kernel output features (" +
                                         std::to_string(kernelOutputFeatures) +
                                         ") must be divisible by the group counts");
    if (input.extent(l.inputBatch) % conv.batchGroups != 0)
      hlo::failAtOpcode(instruction, "input batch (" + std::to_string(input.extent(l.inputBatch)) +
                                         ") must be divisible by batch_group_count (" +
                                         std::to_string(conv.batchGroups) + ")");
    Shape shape =
        arrayShape(instruction.shape.element_type, std::vector<int64_t>(input.shape.size(), 0));
    shape.shape[l.outputBatch] = input.extent(l.inputBatch) / conv.batchGroups;
    shape.shape[l.outputFeature] = kernelOutputFeatures;
    for (size_t i = 0; i < l.inputSpatial.size(); ++i) {
      if (kernel.extent(l.kernelSpatial[i]) != conv.window[i].size)
        hlo::failAtOpcode(instruction, "window size " + std::to_string(conv.window[i].size) +
                                           " of spatial dimension " + std::to_string(i) +
                                           " differs from the kernel's " +
                                           std::to_string(kernel.extent(l.kernelSpatial[i])));
      shape.shape[l.outputSpatial[i]] =
          windowOutputSize(input.extent(l.inputSpatial[i]), conv.window[i]);
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    expectStaticOperands(instruction, "convolution");
    const Shape& input = instruction.operands[0]->shape;
    const Shape& kernel = instruction.operands[1]->shape;
    const Shape& output = instruction.shape;
    Convolution conv = read(instruction);
    const hlo::ConvolutionDimensions& l = conv.labels;
    size_t spatialRank = l.inputSpatial.size();

    // The spatial window over the input's spatial dims, its dims renamed to the output's.
    std::vector<int64_t> inputSpatialSizes;
    for (int64_t d : l.inputSpatial) inputSpatialSizes.push_back(input.extent(d));
    IndexingMap spatial = windowToOperand(inputSpatialSizes, conv.window);
    std::vector<Expr> toOutputDims;
    for (int64_t d : l.outputSpatial) toOutputDims.push_back(Expr::dim(static_cast<unsigned>(d)));

    IndexingMap domain = domainOf(output);
    for (const Variable& s : spatial.rangeVars) addRangeVar(domain, s.range);
    int64_t groupSize = kernel.extent(l.kernelInputFeature);
    Expr feature = addRangeVar(domain, {0, groupSize - 1});

    IndexingMap kernelMap = domain;
    kernelMap.results.assign(kernel.shape.size(), Expr());
    for (size_t i = 0; i < spatialRank; ++i) {
      Expr s = Expr::rangeVar(static_cast<unsigned>(i));
      kernelMap.results[l.kernelSpatial[i]] =
          conv.window[i].reversal ? (-s) + (conv.window[i].size - 1) : s;
    }
    kernelMap.results[l.kernelInputFeature] = feature;
    kernelMap.results[l.kernelOutputFeature] = Expr::dim(static_cast<unsigned>(l.outputFeature));

    IndexingMap inputMap = domain;
    inputMap.results.assign(input.shape.size(), Expr());
    for (size_t i = 0; i < spatialRank; ++i)
      inputMap.results[l.inputSpatial[i]] =
          spatial.results[i].replaceVariables(toOutputDims, {}, {});
    for (const Constraint& c : spatial.constraints)
      addConstraint(inputMap, c.expr.replaceVariables(toOutputDims, {}, {}), c.range);
    Expr outputFeature = Expr::dim(static_cast<unsigned>(l.outputFeature));
    int64_t featuresPerGroup = output.extent(l.outputFeature) / conv.featureGroups;
    inputMap.results[l.inputFeature] =
        conv.featureGroups > 1 ? outputFeature.floorDiv(featuresPerGroup) * groupSize + feature
                               : feature;
    Expr outputBatch = Expr::dim(static_cast<unsigned>(l.outputBatch));
    if (conv.batchGroups > 1) {
      Expr group = addRangeVar(inputMap, {0, conv.batchGroups - 1});
      inputMap.results[l.inputBatch] = group * output.extent(l.outputBatch) + outputBatch;
    } else {
      inputMap.results[l.inputBatch] = outputBatch;
    }
    return {{inputMap}, {kernelMap}};
  }

 private:
  static Convolution read(const Instruction& instruction) {
    const hlo::Attribute& labelsAttribute = hlo::requireAttribute(instruction, "dim_labels");
    Convolution conv;
    conv.labels = hlo::readDimLabels(labelsAttribute, "dim_labels");
    size_t rank = conv.labels.inputSpatial.size() + 2;
    for (size_t operand = 0; operand < 2; ++operand)
      if (static_cast<size_t>(instruction.operands[operand]->shape.rank()) != rank)
        hlo::failInAttribute(labelsAttribute, "dim_labels", 0,
                             "labels " + std::to_string(rank) + " dimensions, operand " +
                                 std::to_string(operand) + " has rank " +
                                 std::to_string(instruction.operands[operand]->shape.rank()));
    conv.window = hlo::readWindowOr(instruction, conv.labels.inputSpatial.size());
    conv.featureGroups = hlo::readIntOr(instruction, "feature_group_count", 1);
    conv.batchGroups = hlo::readIntOr(instruction, "batch_group_count", 1);
    for (const char* name : {"feature_group_count", "batch_group_count"}) {
      int64_t value =
          std::string(name) == "feature_group_count" ? conv.featureGroups : conv.batchGroups;
      if (value < 1)
        hlo::failInAttribute(*instruction.attribute(name), name, 0, "must be positive");
    }
    return conv;
  }
};

}  // namespace

const OpModel& convolutionModel() {
  static const ConvolutionModel model;
  return model;
}

}  // namespace idxmap::ops
