// An HLO kernel's proofs, stage by stage (codegen/hlo/hlo_kernel.cpp): each stage's statements
// read back from its IR, its pending checks and the loops' proofs run, their certificates
// gathered for the header; a proof that fails is a ValidationError located at the instruction.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "codegen/hlo/hlo_stage_internal.h"
#include "codegen/validate/validation.h"
#include "ops/hlo/module.h"

namespace idxmap::codegen::hlo_stage {

class StageProofs {
 public:
  StageProofs(const hlo::Instruction& instruction, CWidth width)
      : instruction_(instruction), width_(width) {}

  // Throws a ValidationError naming `what` unless `result` is proven.
  void require(const ProofResult& result, const std::string& what) const;
  // The certificates of `validator`'s proofs, each once, in the order first given.
  void collect(const KernelValidator& validator);
  const std::vector<std::string>& certificates() const { return certificates_; }

  // The stage's statements as its IR reads back (after the test seam's edit): their stores,
  // whose offsets validate checks with the stage's other expressions, and every other expression
  // in them one that a check holds.
  void readBack(const StageEmitter& emitter, const std::vector<const ir::Node*>& statements);
  // Points run at once (threads, SIMD lanes, CUDA threads) store with plain stores: proven here
  // that no two points of the stage write one element of an output (isl, over the output dims).
  void requireDistinctWrites(const StageEmitter& emitter, KernelValidator& loops);
  // Runs the stage's checks (and its stores' from readBack), one validator per branch context.
  void validate(const StageEmitter& emitter);

 private:
  const hlo::Instruction& instruction_;
  CWidth width_;
  std::vector<std::string> certificates_;
  std::set<std::string> certificateSet_;
  std::vector<PendingCheck> storeChecks_;  // the stage's, read back from its IR
};

}  // namespace idxmap::codegen::hlo_stage
