// Opcode -> model: the one table that says which ops have indexing.
#include <vector>

#include "core/name_table.h"
#include "ops/hlo/models/common.h"
#include "ops/hlo/models/model.h"

namespace idxmap {
namespace {

using ModelRules = NameTable<const OpModel*>;

const ModelRules& registry() {
  static const ModelRules* table = [] {
    std::vector<ModelRules::Row> elementwise;
    for (std::string_view opcode : ops::elementwiseOpcodes())
      elementwise.push_back({opcode, &ops::elementwiseModel()});
    const ModelRules::Row rows[] = {
        {"broadcast", &ops::broadcastModel()},
        {"constant", &ops::constantModel()},
        {"iota", &ops::constantModel()},
        {"parameter", &ops::constantModel()},
        {"transpose", &ops::transposeModel()},
        {"reverse", &ops::reverseModel()},
        {"reduce", &ops::reduceModel()},
        {"scan", &ops::scanModel()},
        {"slice", &ops::sliceModel()},
        {"concatenate", &ops::concatenateModel()},
        {"gather", &ops::gatherModel()},
        {"scatter", &ops::scatterModel()},
        {"reshape", &ops::reshapeModel()},
        {"bitcast", &ops::bitcastModel()},
        {"bitcast-convert", &ops::bitcastConvertModel()},
        {"dot", &ops::dotModel()},
        {"scaled-dot", &ops::scaledDotModel()},
        {"pad", &ops::padModel()},
        {"reduce-window", &ops::reduceWindowModel()},
        {"convolution", &ops::convolutionModel()},
        {"dynamic-slice", &ops::dynamicSliceModel()},
        {"dynamic-update-slice", &ops::dynamicUpdateSliceModel()},
        {"get-dimension-size", &ops::getDimensionSizeModel()},
        {"set-dimension-size", &ops::setDimensionSizeModel()},
        {"copy", &ops::copyModel()},
        {"tuple", &ops::tupleModel()},
        {"get-tuple-element", &ops::getTupleElementModel()},
        {"all-gather", &ops::allGatherModel()},
        {"all-gather-start", &ops::allGatherModel()},
        {"all-reduce", &ops::allReduceModel()},
        {"all-reduce-start", &ops::allReduceModel()},
        {"all-reduce-done", &ops::allReduceModel()},
    };
    return new ModelRules({rows, elementwise});
  }();
  return *table;
}

}  // namespace

const OpModel* findOpModel(std::string_view opcode) {
  const OpModel* const* model = registry().find(opcode);
  return model ? *model : nullptr;
}

std::vector<std::string_view> modeledOpcodes() { return registry().names(); }

hlo::Module readHloModule(std::string_view text, std::string_view fileName) {
  return hlo::parseHloModule(text, fileName, [](const hlo::Instruction& instruction) {
    const OpModel* model = findOpModel(instruction.opcode);
    if (!model)
      throw ParseError(instruction.opcodeLocation,
                       "the result shape of '" + instruction.name + "' is left out, and idxmap " +
                           "has no model of '" + instruction.opcode + "' to infer it: write it",
                       "");
    return model->inferShape(instruction);
  });
}

}  // namespace idxmap
