#include "codegen/hlo/hlo_stage_proofs_internal.h"

#include <map>
#include <memory>

namespace idxmap::codegen::hlo_stage {

void StageProofs::readBack(const StageEmitter& emitter,
                           const std::vector<const ir::Node*>& statements) {
  std::string why;
  storeChecks_ = emitter.storesRead(statements, why);
  if (!why.empty()) require(ProofResult::unknown(why), "the stage's stores");
  why = emitter.uncheckedIn(statements);
  if (!why.empty()) require(ProofResult::unknown(why), "the stage's statement");
}

void StageProofs::requireDistinctWrites(const StageEmitter& emitter, KernelValidator& loops) {
  for (const StageEmitter::Write& write : emitter.writes())
    require(loops.checkDistinct("points run at once, each writing " + write.buffer, write.offset),
            "points run at once, each writing " + write.buffer);
}

void StageProofs::validate(const StageEmitter& emitter) {
  std::map<std::string, std::unique_ptr<KernelValidator>> validators;
  std::vector<PendingCheck> checks = emitter.checks();
  checks.insert(checks.end(), storeChecks_.begin(), storeChecks_.end());
  for (const PendingCheck& check : checks) {
    IndexingMap map = emitter.map();
    map.constraints = check.context;
    std::string key;
    for (const Constraint& c : check.context)
      key += std::to_string(reinterpret_cast<uintptr_t>(c.expr.node())) + ":" +
             std::to_string(c.range.lo) + ":" + std::to_string(c.range.hi) + ";";
    auto& validator = validators[key];
    if (!validator)
      validator = std::make_unique<KernelValidator>(map, IndexLowering(map, width_).declared());
    switch (check.kind) {
      case PendingCheck::Kind::kExpression:
        require(validator->checkExpression(check.role, check.text, check.meaning, Where::kGuarded,
                                           check.elements),
                check.role);
        break;
      case PendingCheck::Kind::kCondition:
        require(validator->checkCondition(check.role, check.text, check.condition),
                check.role + " condition");
        break;
      case PendingCheck::Kind::kCovered:
        require(validator->checkCovered(check.role, check.alternatives), check.role + " branches");
        break;
      case PendingCheck::Kind::kRuntimeValue:
        require(validator->checkRuntimeValue(check.runtimeVar, check.text, true, "", check.raw),
                check.role + "'s value");
        break;
    }
  }
  for (auto& [key, validator] : validators) {
    require(validator->checkBitWidths(), "int32_t arithmetic");
    collect(*validator);
  }
}

void StageProofs::collect(const KernelValidator& validator) {
  for (const std::string& certificate : validator.certificates())
    if (certificateSet_.insert(certificate).second) certificates_.push_back(certificate);
}

void StageProofs::require(const ProofResult& result, const std::string& what) const {
  if (result.isProven()) return;
  std::string detail = result.counterexample ? result.counterexample->explanation : result.reason;
  throw ValidationError(instruction_.opcode + " " + instruction_.name + " at " +
                            instruction_.location.toString() + ": " + what +
                            (result.isRefuted() ? " is refuted: " : " is not proven: ") + detail,
                        result);
}

}  // namespace idxmap::codegen::hlo_stage
