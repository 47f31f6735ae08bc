#include "ops/validate/hlo.h"

#include <string>

#include "ops/hlo/models/model.h"

namespace idxmap::validation {

Report validateHloModule(const hlo::Module& module) {
  Report report;
  for (const auto& computation : module.computations) {
    for (const auto& instruction : computation->instructions) {
      const OpModel* model = findOpModel(instruction->opcode);
      if (!model) {
        report.unchecked.push_back(
            {instruction->opcodeLocation, instruction->opcode, instruction->name});
        continue;
      }
      ++report.checkedOps;
      report.ops.push_back({instruction->opcodeLocation, instruction->opcode,
                            report.findings.size(), 0, nullptr, nullptr, instruction.get()});
      size_t before = report.findings.size();
      try {
        model->validate(*instruction);
      } catch (const ParseError& error) {
        // Messages read `opcode: ...` or, with a spec label, `gather (C6): ...`, like MLIR's
        // `stablehlo.gather (C6): ...`; attribute readers leave the opcode out.
        std::string message = error.message();
        if (message.rfind(instruction->opcode + ":", 0) != 0 &&
            message.rfind(instruction->opcode + " (", 0) != 0)
          message = instruction->opcode + ": " + message;
        report.findings.push_back({error.location(), instruction->opcode, "", message, "", {}});
        ++report.invalidOps;
      } catch (const Error& error) {  // a model that cannot locate what it rejects
        report.findings.push_back({instruction->opcodeLocation,
                                   instruction->opcode,
                                   "",
                                   instruction->opcode + ": " + error.what(),
                                   "",
                                   {}});
        ++report.invalidOps;
      }
      report.ops.back().findingCount = report.findings.size() - before;
    }
  }
  return report;
}

}  // namespace idxmap::validation
