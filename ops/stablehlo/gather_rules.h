// The constraints gather and dynamic_gather share, as message functions over a GatherOp (a
// dynamic_gather is checked through asGather). Each returns the message when broken.
#pragma once

#include <optional>
#include <string>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::gather_scatter::gather_rules {

std::optional<std::string> rankAddsUp(const GatherOp& op);              // gather C1
std::optional<std::string> indexVectorDimInRange(const GatherOp& op);   // C2
std::optional<std::string> startIndexMapSize(const GatherOp& op);       // C3
std::optional<std::string> offsetDimsUniqueSorted(const GatherOp& op);  // C4
std::optional<std::string> offsetDimsInRange(const GatherOp& op);       // C5
std::optional<std::string> collapsedSorted(const GatherOp& op);         // C7
std::optional<std::string> collapsedInRange(const GatherOp& op);        // C8
std::optional<std::string> collapsedSizes(const GatherOp& op);          // C9
std::optional<std::string> startIndexMapInRange(const GatherOp& op);    // C19
std::optional<std::string> sliceSizesCount(const GatherOp& op);         // C20
std::optional<std::string> sliceSizesInRange(const GatherOp& op);       // C21
std::optional<std::string> resultShape(const GatherOp& op);             // C22
std::optional<std::string> resultElementType(const GatherOp& op);       // C23
std::optional<std::string> operandPerTensor(const GatherOp& op);        // I1's type
std::optional<std::string> startIndicesInteger(const GatherOp& op);     // I2's type

}  // namespace idxmap::gather_scatter::gather_rules
