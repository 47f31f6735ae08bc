// Reading MLIR types into Type: `tensor<2x?xf32, #stablehlo.bounds<?, 8>>`, scalar
// element types, and (as opaque text) every other type. Used by the MLIR reader only.
#pragma once

#include <vector>

#include "ops/mlir/lexer.h"
#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {

// Whether a type starts at the cursor: `tensor<`, an element type name, `tuple<`,
// `!dialect...`, `none`, `memref<`, `vector<`, `complex<`, `index`.
bool atType(MlirCursor& cursor);
// One type. Throws ParseError on malformed types and on absurd sizes (a dim above 2^62,
// an element count past int64).
Type parseType(MlirCursor& cursor);
// `(T, ...)` or a single type T: the result list after `->`. An attribute dictionary
// after a type in the list (`-> (tensor<2xf32> {jax.result_info = ""})`) is skipped.
std::vector<Type> parseResultTypes(MlirCursor& cursor);

}  // namespace idxmap::mlir_ir
