// Where `idxmap annotate` writes a claim (`unique_indices`, `indices_are_sorted`) into the text
// of a gather or scatter, leaving every other byte as it was: the attribute's `false` turned to
// `true` where the op writes it, else the attribute added at the end of the op's attribute
// dictionary (MLIR: `, unique_indices = true` before the dictionary's `}`) or after its
// operands (HLO: `scatter(...), unique_indices=true, ...`). Nothing is guessed: where the text
// is not laid out so, no edit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"

namespace idxmap::cli {

// `length` bytes at `offset` replaced by `text`.
struct TextEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
};

// The byte offset of a 1-based line and column; nullopt past the text.
std::optional<size_t> offsetOf(std::string_view text, const SourceLocation& location);

// The edit that makes the MLIR op claim `attribute`; nullopt when the op already claims it or
// the text has no attribute dictionary after the op's name to write it into.
std::optional<TextEdit> mlirClaimEdit(std::string_view text, const mlir_ir::Operation& op,
                                      const std::string& attribute);
// The same for an HLO instruction (its operand list on the opcode's line).
std::optional<TextEdit> hloClaimEdit(std::string_view text, const hlo::Instruction& instruction,
                                     const std::string& attribute);

// The text with the edits made (they must not overlap).
std::string withEdits(std::string text, std::vector<TextEdit> edits);

}  // namespace idxmap::cli
