// The walk behind `idxmap verify` for MLIR: ops in text order, regions included, each
// checked op read by ops/stablehlo_import and validated by its model.
#include "ops/validate/mlir.h"

#include <functional>
#include <map>

#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::validation {
namespace {

using gather_scatter::Violation;
using mlir_ir::Attribute;
using mlir_ir::Operation;

// A constant's values are read only when they can be slice sizes (one per operand dim);
// a bigger constant is "unknown", never expanded.
constexpr int64_t kMaxSliceSizes = 1 << 16;

// Where the value an op reads is defined: the blocks around the op, innermost last.
class Scopes {
 public:
  void push(const std::vector<Operation>& ops) { scopes_.push_back(&ops); }
  const std::vector<Operation>& innermost() const { return *scopes_.back(); }
  void pop() { scopes_.pop_back(); }

  const Operation* definingOp(const mlir_ir::Value& value) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
      if (const Operation* op = mlir_ir::definingOp(**scope, value)) return op;
    return nullptr;
  }

 private:
  std::vector<const std::vector<Operation>*> scopes_;
};

// The integer values of `value` when a `stablehlo.constant` 1-d tensor defines it.
std::optional<std::vector<int64_t>> constantInts(const Scopes& scopes,
                                                 const mlir_ir::Value& value) {
  const Operation* definition = scopes.definingOp(value);
  if (!definition || definition->name != "stablehlo.constant") return std::nullopt;
  const Attribute* attribute = definition->attribute("value");
  if (!attribute || attribute->kind != Attribute::Kind::Dense || !attribute->dense ||
      !attribute->dense->floats.empty() || attribute->dense->type.rank() != 1)
    return std::nullopt;
  std::optional<int64_t> count = attribute->dense->type.elementCount();
  if (!count || *count > kMaxSliceSizes) return std::nullopt;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < *count; ++i) values.push_back(attribute->dense->intAt(i));
  return values;
}

// Where the value of what a violation concerns is written: a field of the dimension numbers
// (`dimsName`), an attribute of the op, or an operand.
std::optional<SourceLocation> attributeLocation(const Operation& op, const std::string& dimsName,
                                                const std::map<std::string, size_t>& operands,
                                                const std::string& name) {
  if (const Attribute* dims = dimsName.empty() ? nullptr : op.attribute(dimsName)) {
    if (const Attribute* field = dims->field(name)) return field->location;
  }
  if (const Attribute* attribute = op.attribute(name)) return attribute->location;
  auto operand = operands.find(name);
  if (operand != operands.end() && operand->second < op.operands.size())
    return op.operands[operand->second].location;
  return std::nullopt;
}

struct OpRules {
  std::string dimensionNumbers;  // the op's dimension-numbers attribute, if it has one
  std::function<std::vector<Violation>(const Operation&, const Scopes&)> validate;
  // The operand each operand-valued Violation::attribute names.
  std::function<std::map<std::string, size_t>(const Operation&)> operandIndices;
};

const std::map<std::string, OpRules, std::less<>>& checkedOps() {
  using namespace stablehlo_import;
  static const std::map<std::string, OpRules, std::less<>> table = {
      {"stablehlo.gather",
       {"dimension_numbers",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateGather(importGather(op));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{{"operand", 0}, {"start_indices", 1}};
        }}},
      {"stablehlo.dynamic_gather",
       {"dimension_numbers",
        [](const Operation& op, const Scopes& scopes) {
          std::optional<std::vector<int64_t>> sizes;
          if (op.operands.size() == 3) sizes = constantInts(scopes, op.operands[2]);
          return gather_scatter::validateDynamicGather(importDynamicGather(op, sizes));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{
              {"operand", 0}, {"start_indices", 1}, {"slice_sizes", 2}};
        }}},
      {"stablehlo.scatter",
       {"scatter_dimension_numbers",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateScatter(importScatter(op));
        },
        [](const Operation& op) {
          size_t inputs = (op.operands.size() - 1) / 2;
          return std::map<std::string, size_t>{
              {"inputs", 0}, {"scatter_indices", inputs}, {"updates", inputs + 1}};
        }}},
      // Spec 001's and spec 003's forms, by their own rules (ops/forms/tensor_gather.h,
      // ops/forms/tcp_gather.h); their labels name the rule rather than a spec number.
      {"tensor.gather",
       {"",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateTensorGather(gather_scatter::importTensorGather(op));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{{"source", 0}, {"indices", 1}};
        }}},
      {"tensor.scatter",
       {"",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateTensorScatter(gather_scatter::importTensorScatter(op));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{{"source", 0}, {"dest", 1}, {"indices", 2}};
        }}},
      {"tcp.gather",
       {"",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateTcpGather(gather_scatter::importTcpGather(op));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{{"input", 0}, {"indices", 1}};
        }}},
      {"tcp.gather_nd",
       {"",
        [](const Operation& op, const Scopes&) {
          return gather_scatter::validateTcpGatherNd(gather_scatter::importTcpGatherNd(op));
        },
        [](const Operation&) {
          return std::map<std::string, size_t>{{"input", 0}, {"indices", 1}};
        }}},
  };
  return table;
}

class Walker {
 public:
  Report run(const mlir_ir::Module& module) {
    walkOps(module.operations);
    for (const mlir_ir::Function& function : module.functions) walkRegion(function.body);
    return std::move(report_);
  }

 private:
  void walkRegion(const mlir_ir::Region& region, bool ofCheckedOp = false) {
    for (const mlir_ir::Block& block : region.blocks) walkOps(block.operations, ofCheckedOp);
  }

  // The body of a checked op's region (a scatter's update computation) is part of that op.
  void walkOps(const std::vector<Operation>& ops, bool ofCheckedOp = false) {
    scopes_.push(ops);
    for (const Operation& op : ops) {
      bool checked = check(op, ofCheckedOp);
      for (const mlir_ir::Region& region : op.regions) walkRegion(region, checked || ofCheckedOp);
    }
    scopes_.pop();
  }

  static bool isTerminator(std::string_view name) {
    return name.ends_with("return") || name.ends_with("yield");
  }

  bool check(const Operation& op, bool ofCheckedOp) {
    auto found = checkedOps().find(op.name);
    if (found == checkedOps().end()) {
      if (!ofCheckedOp && !isTerminator(op.name))
        report_.unchecked.push_back({op.location, op.name, ""});
      return false;
    }
    const OpRules& checked = found->second;
    ++report_.checkedOps;
    report_.ops.push_back(
        CheckedOp{op.location, op.name, report_.findings.size(), 0, &op, &scopes_.innermost()});
    size_t before = report_.findings.size();
    findings(op, checked);
    report_.ops.back().findingCount = report_.findings.size() - before;
    return true;
  }

  void findings(const Operation& op, const OpRules& checked) {
    std::vector<Violation> violations;
    try {
      violations = checked.validate(op, scopes_);
    } catch (const stablehlo_import::ImportError& error) {
      report_.findings.push_back({error.location(), op.name, "", error.message(), "", {}});
      ++report_.invalidOps;
      return;
    } catch (const ParseError& error) {  // the importers of the other gather forms
      report_.findings.push_back({error.location(), op.name, "", error.message(), "", {}});
      ++report_.invalidOps;
      return;
    }
    if (!violations.empty()) ++report_.invalidOps;
    std::map<std::string, size_t> operands = checked.operandIndices(op);
    for (Violation& violation : violations)
      report_.findings.push_back(
          {op.location, op.name, violation.label, std::move(violation.message), violation.attribute,
           attributeLocation(op, checked.dimensionNumbers, operands, violation.attribute)});
  }

  Scopes scopes_;
  Report report_;
};

}  // namespace

Report validateMlirModule(const mlir_ir::Module& module) { return Walker().run(module); }

std::vector<std::string> validatedMlirOps() {
  std::vector<std::string> names;
  for (const auto& [name, checked] : checkedOps()) names.push_back(name);
  return names;
}

}  // namespace idxmap::validation
