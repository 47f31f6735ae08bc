// Typed readers for HLO attribute values as XLA prints them. The HLO reader keeps every
// value as written (ops/hlo/module.h); the op models read the forms they need through these
// functions, which throw ParseError located at the offending character of the value, with a
// message naming the attribute ("slice={[0:10:0]}: stride must be positive").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/hlo/module.h"

namespace idxmap::hlo {

// A diagnostic at `offset` bytes into the attribute's value.
[[noreturn]] void failInAttribute(const Attribute& attribute, std::string_view name, size_t offset,
                                  const std::string& message);
// A diagnostic about the instruction as a whole, located at its opcode.
[[noreturn]] void failAtOpcode(const Instruction& instruction, const std::string& message);

// The attribute, or a diagnostic at the opcode naming the missing attribute.
const Attribute& requireAttribute(const Instruction& instruction, std::string_view name);

// `42`, `-3`.
int64_t readInt(const Attribute& attribute, std::string_view name);
// `{1,0}`, `{}`; also a bare `3` (XLA prints one-element lists of some attributes so).
std::vector<int64_t> readIntList(const Attribute& attribute, std::string_view name);
// An optional int attribute of `instruction` (absent: `fallback`).
int64_t readIntOr(const Instruction& instruction, std::string_view name, int64_t fallback);
// An optional int-list attribute (absent: empty).
std::vector<int64_t> readIntListOr(const Instruction& instruction, std::string_view name);

// slice={[start:limit:stride], ...}; the stride defaults to 1.
struct SliceDim {
  int64_t start = 0, limit = 0, stride = 1;
};
std::vector<SliceDim> readSlice(const Attribute& attribute, std::string_view name);

// padding=low_high_interior x ... (negative low/high allowed; interior defaults to 0).
struct PadDim {
  int64_t low = 0, high = 0, interior = 0;
};
std::vector<PadDim> readPadding(const Attribute& attribute, std::string_view name);

// window={size=3x3 stride=2x1 pad=0_1x1_1 lhs_dilate=1x2 rhs_dilate=2x1 rhs_reversal=0x1}.
// Fields left out take XLA's defaults (stride, dilations 1; padding 0; no reversal).
struct WindowDim {
  int64_t size = 1, stride = 1, padLow = 0, padHigh = 0, lhsDilate = 1, rhsDilate = 1;
  bool reversal = false;
};
std::vector<WindowDim> readWindow(const Attribute& attribute, std::string_view name);
// The window of `instruction`, or `rank` default dimensions when it has none.
std::vector<WindowDim> readWindowOr(const Instruction& instruction, size_t rank);

// lhs_batch_dims= lhs_contracting_dims= rhs_batch_dims= rhs_contracting_dims= (each optional).
struct DotDimensions {
  std::vector<int64_t> lhsBatch, lhsContracting, rhsBatch, rhsContracting;
};
DotDimensions readDotDimensions(const Instruction& instruction);

// dim_labels=b01f_01io->b01f: the role of every dimension of input, kernel and output.
struct ConvolutionDimensions {
  int64_t inputBatch = -1, inputFeature = -1;
  int64_t kernelInputFeature = -1, kernelOutputFeature = -1;
  int64_t outputBatch = -1, outputFeature = -1;
  // Indexed by spatial dimension number (the digit in the label).
  std::vector<int64_t> inputSpatial, kernelSpatial, outputSpatial;
};
ConvolutionDimensions readDimLabels(const Attribute& attribute, std::string_view name);

// direction=EQ|NE|LT|LE|GT|GE (compare). Indexing ignores it; validation does not.
// The elements of a constant's literal as written, row-major: `{ {1, 2}, {3, 4} }` gives
// "1", "2", "3", "4" (braces, commas and blank space dropped; the caller reads each as its
// element type); a complex element `(1.5, -2)` is one.
std::vector<std::string_view> literalElements(std::string_view literal);

std::string readComparisonDirection(const Attribute& attribute, std::string_view name);

}  // namespace idxmap::hlo
