// What `idxmap verify` finds in a module, whatever its text form: one Finding per broken rule
// of one op, located in the text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/text.h"

namespace idxmap::mlir_ir {
struct Operation;
}
namespace idxmap::hlo {
struct Instruction;
}

namespace idxmap::validation {

struct Finding {
  SourceLocation location;  // the op's: its name in MLIR, where the model points in HLO
  std::string op;           // "stablehlo.gather", "transpose"
  // The spec's label ("C6", "I1"); empty where the rule has none (HLO models) or the op's
  // model could not be built at all (a missing attribute, an operand that is not a tensor).
  std::string label;
  std::string message;    // "stablehlo.gather (C6): dimension 1 is in both ..."
  std::string attribute;  // the attribute or operand the rule concerns; empty when unknown
  std::optional<SourceLocation> attributeLocation;  // where its value is written
};

// One op with a model, whatever its findings: what `idxmap verify --json` reports per op, and
// where the provers (verify/) find the op again.
struct CheckedOp {
  SourceLocation location;
  std::string op;
  size_t firstFinding = 0;  // its findings: findings[firstFinding, firstFinding + findingCount)
  size_t findingCount = 0;
  // MLIR only: the op and the block that holds it (the scope index provenance follows its
  // operands in), both owned by the module, valid while it lives.
  const mlir_ir::Operation* mlirOp = nullptr;
  const std::vector<mlir_ir::Operation>* block = nullptr;
  // HLO only: the instruction, owned by the module.
  const hlo::Instruction* hloInstruction = nullptr;
};

// An op without a model, so neither valid nor invalid: verify names it instead of counting it.
struct UncheckedOp {
  SourceLocation location;
  std::string op;    // "all-gather", "stablehlo.sort"
  std::string name;  // HLO: the instruction's name; MLIR: empty
};

struct Report {
  std::vector<CheckedOp> ops;          // in the order they are written
  std::vector<Finding> findings;       // in the order the ops are written
  std::vector<UncheckedOp> unchecked;  // in the order they are written (not terminators, nor
                                       // the bodies of checked ops' regions)
  int64_t checkedOps = 0;              // ops with a model; the others are not checked
  int64_t invalidOps = 0;              // checked ops with at least one finding
};

}  // namespace idxmap::validation
