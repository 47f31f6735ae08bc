// Op models: one per HLO opcode, behind one interface. Each validates its attributes
// against the operand shapes (a diagnostic names the attribute and what is wrong), infers
// the result shape, and builds output->operand and operand->output maps (simplified).
#pragma once

#include <string_view>
#include <vector>

#include "core/indexing_map.h"
#include "ops/hlo/module.h"
#include "simplifier/simplify.h"

namespace idxmap {

// The indexing of one operand (or one result): a set of distinct maps, or unknown.
struct OperandIndexing {
  std::vector<IndexingMap> maps;
  bool unknown = false;  // no model, or the model cannot express it: "unknown indexing"
  // Collectives (all-gather): from the same index, the replica whose copy of the operand is
  // read (XLA's "replica id" map). Empty for every local read.
  std::vector<IndexingMap> replicaIdMaps;
  std::string why;  // for unknown indexing a model gave: what it cannot express

  static OperandIndexing unknownIndexing(std::string why = "") {
    return {.maps = {}, .unknown = true, .replicaIdMaps = {}, .why = std::move(why)};
  }
};

// Output->input: one entry per operand. Input->output: one entry per result (a
// non-tuple instruction has one result).
struct InstructionIndexing {
  std::vector<OperandIndexing> entries;
};

class OpModel {
 public:
  virtual ~OpModel() = default;
  // Throws ParseError located at the offending attribute (or the opcode) when the
  // instruction breaks the op's rules, e.g. "transpose: dimensions={1,1} is not a
  // permutation of [0, 2)".
  virtual void validate(const hlo::Instruction& instruction) const = 0;
  virtual hlo::Shape inferShape(const hlo::Instruction& instruction) const = 0;
  // The maps, simplified with `pointDims` (kPreserve: what XLA prints for a map it builds
  // without simplifying).
  virtual InstructionIndexing outputToInput(const hlo::Instruction& instruction, int outputId,
                                            PointDims pointDims) const = 0;
  virtual InstructionIndexing inputToOutput(const hlo::Instruction& instruction, int inputId,
                                            PointDims pointDims) const = 0;
};

// The model for an opcode, or nullptr when there is none.
const OpModel* findOpModel(std::string_view opcode);

// Every opcode with a model (for --help and tests).
std::vector<std::string_view> modeledOpcodes();

// An HLO module as XLA reads it: an instruction may leave out a result shape that its op
// model infers (`t = tuple(a, b)`, `s = add(x, y)`).
hlo::Module readHloModule(std::string_view text, std::string_view fileName = "<stdin>");

}  // namespace idxmap
