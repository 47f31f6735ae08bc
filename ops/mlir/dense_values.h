// Reading the numbers of MLIR literals by the element type they turn out to have: range
// checks, hex bit patterns of floats (`0x7FC00000` is NaN), f16/bf16 widening. Used by the
// MLIR reader only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ops/mlir/lexer.h"
#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {

// A decimal or `0x` hex integer (optionally negative) that must fit in `bitWidth` bits:
// signless (`isSigned`) widths take both signed and unsigned spellings, as MLIR does, and
// come back sign-extended; unsigned ones come back as the bit pattern (ui64 may wrap).
int64_t integerValue(const MlirCursor& cursor, std::string_view text, size_t offset, int bitWidth,
                     bool isSigned);
// The float that a bit pattern of `type`'s width stands for.
double floatFromBits(const MlirCursor& cursor, uint64_t bits, const ElementType& type,
                     size_t offset);

}  // namespace idxmap::mlir_ir
