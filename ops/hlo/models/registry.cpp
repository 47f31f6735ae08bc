// Opcode -> model: the one table that says which ops have indexing.
#include <algorithm>
#include <map>

#include "ops/hlo/models/common.h"
#include "ops/hlo/models/model.h"

namespace idxmap {
namespace {

using ModelFactory = const OpModel& (*)();

const std::map<std::string_view, const OpModel*, std::less<>>& registry() {
  static const auto* table = [] {
    auto* t = new std::map<std::string_view, const OpModel*, std::less<>>;
    const std::pair<std::string_view, ModelFactory> rules[] = {
        {"broadcast", ops::broadcastModel},
        {"constant", ops::constantModel},
        {"iota", ops::constantModel},
        {"parameter", ops::constantModel},
        {"transpose", ops::transposeModel},
        {"reverse", ops::reverseModel},
        {"reduce", ops::reduceModel},
        {"slice", ops::sliceModel},
        {"concatenate", ops::concatenateModel},
        {"reshape", ops::reshapeModel},
        {"bitcast", ops::bitcastModel},
        {"bitcast-convert", ops::bitcastConvertModel},
        {"dot", ops::dotModel},
        {"scaled-dot", ops::scaledDotModel},
        {"pad", ops::padModel},
        {"reduce-window", ops::reduceWindowModel},
        {"convolution", ops::convolutionModel},
        {"dynamic-slice", ops::dynamicSliceModel},
        {"dynamic-update-slice", ops::dynamicUpdateSliceModel},
        {"get-dimension-size", ops::getDimensionSizeModel},
        {"set-dimension-size", ops::setDimensionSizeModel},
        {"copy", ops::copyModel},
        {"tuple", ops::tupleModel},
        {"get-tuple-element", ops::getTupleElementModel},
    };
    for (const auto& [opcode, model] : rules) (*t)[opcode] = &model();
    for (std::string_view opcode : ops::elementwiseOpcodes())
      (*t)[opcode] = &ops::elementwiseModel();
    return t;
  }();
  return *table;
}

}  // namespace

const OpModel* findOpModel(std::string_view opcode) {
  auto it = registry().find(opcode);
  return it == registry().end() ? nullptr : it->second;
}

std::vector<std::string_view> modeledOpcodes() {
  std::vector<std::string_view> opcodes;
  for (const auto& [opcode, model] : registry()) opcodes.push_back(opcode);
  return opcodes;
}

}  // namespace idxmap
