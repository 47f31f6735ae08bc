// The op models, one function per family; ops/hlo/models/registry.cpp maps opcodes to them.
#pragma once

#include <string_view>
#include <vector>

#include "ops/hlo/models/model.h"

namespace idxmap::ops {

const OpModel& elementwiseModel();  // n-ary elementwise ops and map
std::vector<std::string_view> elementwiseOpcodes();
const OpModel& broadcastModel();
const OpModel& constantModel();  // constant, iota, parameter: no operands
const OpModel& transposeModel();
const OpModel& reverseModel();
const OpModel& reduceModel();
const OpModel& sliceModel();
const OpModel& reshapeModel();
const OpModel& bitcastModel();
const OpModel& bitcastConvertModel();
const OpModel& concatenateModel();
const OpModel& dotModel();
const OpModel& scaledDotModel();
const OpModel& padModel();
const OpModel& reduceWindowModel();
const OpModel& convolutionModel();
const OpModel& dynamicSliceModel();
const OpModel& dynamicUpdateSliceModel();
const OpModel& copyModel();
const OpModel& tupleModel();
const OpModel& getTupleElementModel();
const OpModel& getDimensionSizeModel();
const OpModel& setDimensionSizeModel();

}  // namespace idxmap::ops
