// The kernel IR as C++ (OpenMP for threads and SIMD lanes). CUDA device code is C++ too: the
// CUDA printer prints a thread's statements through printStatements, with its own way of
// reporting a bad index.
#pragma once

#include <string>
#include <vector>

#include "codegen/ir/kernel_ir.h"

namespace idxmap::codegen::ir {

std::string printValue(const Value& value);

struct StatementStyle {
  CWidth width = CWidth::k64;  // loops' and dims' index type
  int64_t points = 0;          // the function's: threads only from IDXMAP_PARALLEL_GRAIN on
  std::string badIndex;        // the statement kBadIndex prints
};

// `nodes` as C++ statements, `indent` spaces deep.
std::string printStatements(const std::vector<Node>& nodes, int indent,
                            const StatementStyle& style);

// The entry point: its header comment, signature, size checks, body, `return 0;`, and the
// `_packed` entry that takes its buffers as arrays.
std::string printCppFunction(const Function& function);

}  // namespace idxmap::codegen::ir
