#include "verify/replay/argument_witness.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "ops/gather_analysis/modeled_op.h"
#include "ops/interp/interpreter.h"
#include "ops/provenance/index_values.h"
#include "verify/index_points.h"
#include "verify/index_properties.h"

namespace idxmap::argument_witness {
namespace {

using gather_scatter::Tensor;

// Arguments of at most this many elements are shown whole.
constexpr int64_t kShownElements = 16;
// A replay builds every argument: past this many elements in all (32 MiB of 64-bit values), a
// witness is not worth its memory and time, and none is shown.
constexpr int64_t kMaxReplayElements = int64_t{1} << 22;

// Whether the function's arguments have static shapes and at most kMaxReplayElements elements.
bool replayable(const mlir_ir::Function& function) {
  int64_t total = 0;
  for (const mlir_ir::BlockArgument& argument : function.arguments) {
    std::optional<int64_t> count =
        argument.type.hasStaticShape() ? argument.type.elementCount() : std::optional<int64_t>();
    if (!count || *count > kMaxReplayElements - total) return false;
    total += *count;
  }
  return true;
}

// The type of `value` in `function`'s entry block (an argument's, or its defining op's).
std::optional<mlir_ir::Type> typeOf(const mlir_ir::Function& function,
                                    const mlir_ir::Value& value) {
  if (const mlir_ir::BlockArgument* argument = function.argument(value)) return argument->type;
  const mlir_ir::Operation* op = function.definingOp(value);
  if (!op || value.resultNumber < 0 ||
      static_cast<size_t>(value.resultNumber) >= op->resultTypes.size())
    return std::nullopt;
  return op->resultTypes[static_cast<size_t>(value.resultNumber)];
}

// Every value name `op` reads, in its regions too.
void readNames(const mlir_ir::Operation& op, std::set<std::string>& names) {
  for (const mlir_ir::Value& operand : op.operands) names.insert(operand.name);
  for (const mlir_ir::Region& region : op.regions)
    for (const mlir_ir::Block& block : region.blocks)
      for (const mlir_ir::Operation& inner : block.operations) readNames(inner, names);
}

// `function` cut down to what `value` (read by `op`, of `type`) depends on: the ops of its
// entry block before `op` that it reads through, then a return of it. The interpreter then runs
// a few ops per witness, not the whole program.
mlir_ir::Function sliceFor(const mlir_ir::Function& function, const mlir_ir::Operation& op,
                           const mlir_ir::Value& value, const mlir_ir::Type& type) {
  const std::vector<mlir_ir::Operation>& ops = function.body.blocks.front().operations;
  size_t end = 0;
  while (end < ops.size() && &ops[end] != &op) ++end;
  std::set<std::string> needed = {value.name};
  std::vector<bool> kept(end, false);
  for (size_t i = end; i-- > 0;) {
    for (const mlir_ir::Value& result : ops[i].results)
      kept[i] = kept[i] || needed.count(result.name);
    if (kept[i]) readNames(ops[i], needed);
  }
  mlir_ir::Function sliced;
  sliced.name = function.name;
  sliced.arguments = function.arguments;
  sliced.resultTypes = {type};
  mlir_ir::Block block;
  block.arguments = function.body.blocks.front().arguments;
  for (size_t i = 0; i < end; ++i)
    if (kept[i]) block.operations.push_back(ops[i]);
  mlir_ir::Operation returned;
  returned.name = "func.return";
  returned.operands = {value};
  returned.operandTypes = {type};
  returned.location = op.location;
  block.operations.push_back(std::move(returned));
  sliced.body.blocks.push_back(std::move(block));
  return sliced;
}

// The op's properties at the witness's arguments: its index tensor computed by the interpreter
// from them (only the slice it depends on), decided by the static provers on the op's model
// (exact on known values, each refutation replayed by evaluation). nullopt for an op that is
// not StableHLO's (a form's properties are not its lowered op's) or whose indices are not
// integers.
std::optional<IndexProperties> decidedAt(const mlir_ir::Module& module,
                                         const mlir_ir::Function& function,
                                         const mlir_ir::Operation& op,
                                         const std::vector<Tensor>& arguments) {
  if (op.name.rfind("stablehlo.", 0) != 0) return std::nullopt;
  std::optional<mlir_gather_analysis::ModeledOp> model =
      mlir_gather_analysis::modelOp(op, function.body.blocks.front().operations);
  if (!model) return std::nullopt;
  const mlir_ir::Value& value = op.operands.at(model->indicesOperand);
  std::optional<mlir_ir::Type> type = typeOf(function, value);
  if (!type) return std::nullopt;
  mlir_interpreter::Interpreter interpreter(module, gather_scatter::Engine::kReference);
  const Tensor indices = interpreter.call(sliceFor(function, op, value, *type), arguments).at(0);
  std::optional<mlir_ir::ElementType> element =
      mlir_ir::ElementType::fromName(indices.element_type);
  if (!element || !element->isInteger()) return std::nullopt;
  const index_provenance::IndexValues values = index_provenance::tensorValues(
      indices.shape, indices.ints, *element, "the interpreter's run");
  if (!values.allKnown()) return std::nullopt;
  return model->gather ? proveGatherIndexProperties(*model->gather, values)
                       : proveScatterIndexProperties(*model->scatter, values);
}

// The function's arguments as the witness sets them: its elements, every other element of
// their tensor the witness's fill (else the tensor's first listed value), every other argument
// 0. nullopt when an element names no argument or lies outside it, or the arguments have `?`
// dims or more than kMaxReplayElements elements in all.
std::optional<std::vector<Tensor>> argumentsOf(const mlir_ir::Function& function,
                                               const ArgumentWitness& witness) {
  if (!replayable(function)) return std::nullopt;
  std::vector<Tensor> arguments;
  for (const mlir_ir::BlockArgument& argument : function.arguments) {
    Tensor tensor =
        gather_scatter::zeros(argument.type.elementType().toString(), argument.type.shape);
    auto first = std::find_if(witness.elements.begin(), witness.elements.end(),
                              [&](const auto& e) { return e.tensor == "%" + argument.value.name; });
    if (first != witness.elements.end() && !tensor.isFloat())
      std::fill(tensor.ints.begin(), tensor.ints.end(), witness.fill.value_or(first->value));
    arguments.push_back(std::move(tensor));
  }
  for (const ArgumentWitness::Element& element : witness.elements) {
    auto at = std::find_if(
        function.arguments.begin(), function.arguments.end(),
        [&](const auto& argument) { return "%" + argument.value.name == element.tensor; });
    if (at == function.arguments.end()) return std::nullopt;
    Tensor& tensor = arguments[static_cast<size_t>(at - function.arguments.begin())];
    bool inside = !tensor.isFloat() && element.index.size() == tensor.shape.size();
    for (size_t d = 0; inside && d < element.index.size(); ++d)
      inside = element.index[d] >= 0 && element.index[d] < tensor.shape[d];
    if (!inside) return std::nullopt;
    tensor.ints[static_cast<size_t>(gather_scatter::linearPosition(tensor.shape, element.index))] =
        element.value;
  }
  return arguments;
}

// Whether the witness's arguments keep every fact the user asserted: each must be a range of an
// argument that every element keeps. A fact the verdict does not list may still hold back
// values (`unique` about %a where the indices pair %a's elements with others'), and what
// `unique`, `sorted` or `permutation` ask of an argument depends on the op that reads it, so
// those, and facts about values inside the function, give no witness.
bool keepsAssumptions(const std::vector<Assumption>& assumptions, const mlir_ir::Function& function,
                      const std::vector<Tensor>& arguments) {
  for (const Assumption& assumption : assumptions) {
    auto at =
        std::find_if(function.arguments.begin(), function.arguments.end(),
                     [&](const auto& argument) { return argument.value.name == assumption.value; });
    if (at == function.arguments.end()) return false;
    const Tensor& tensor = arguments[static_cast<size_t>(at - function.arguments.begin())];
    for (const IndexFact& fact : assumption.facts) {
      if (fact.kind != IndexFact::Kind::InRange) return false;
      for (int64_t value : tensor.ints)
        if (value < fact.lo || value > fact.hi) return false;
    }
  }
  return true;
}

// The witness's values in words: a small tensor whole ("%idx = [8, 0, 0, 0]"), a larger one by
// its listed elements ("%idx[1] = 9 and every other element of %idx 0"); "every other
// argument 0" where there are others.
std::string describe(const ArgumentWitness& witness, const mlir_ir::Function& function,
                     const std::vector<Tensor>& arguments) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    const std::string name = "%" + function.arguments[i].value.name;
    std::string listed;
    std::optional<int64_t> first;
    for (const ArgumentWitness::Element& element : witness.elements)
      if (element.tensor == name) {
        listed += (listed.empty() ? "" : ", ") + name + index_points::text(element.index) + " = " +
                  std::to_string(element.value);
        if (!first) first = element.value;
      }
    if (!first) continue;
    const Tensor& tensor = arguments[i];
    if (tensor.elementCount() <= kShownElements)
      parts.push_back(name + " = " + mlir_interpreter::formatElements(tensor));
    else
      parts.push_back(listed + " and every other element of " + name + " " +
                      std::to_string(witness.fill.value_or(*first)));
  }
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  if (function.arguments.size() > parts.size()) out += " (every other argument 0)";
  return out;
}

}  // namespace

void replayWitnesses(const mlir_ir::Module& module, const std::vector<mlir_ir::Operation>& block,
                     const mlir_ir::Operation& op, const std::vector<Assumption>& assumptions,
                     OpIndexProperties& properties) {
  const mlir_ir::Function* function = nullptr;
  for (const mlir_ir::Function& candidate : module.functions)
    if (!candidate.body.blocks.empty() && &candidate.body.blocks.front().operations == &block)
      function = &candidate;
  using Pick = std::optional<ProofResult> (*)(const IndexProperties&);
  std::vector<std::pair<IndexProperty*, Pick>> asked = {
      {&properties.sorted, [](const IndexProperties& p) { return std::optional(p.sorted); }},
      {&properties.inBounds, [](const IndexProperties& p) { return std::optional(p.inBounds); }}};
  if (properties.unique)
    asked.emplace_back(&*properties.unique, [](const IndexProperties& p) { return p.unique; });
  for (auto& [property, pick] : asked) {
    std::optional<ArgumentWitness>& witness = property->result.witness;
    if (!witness) continue;
    if (!function) {
      witness.reset();
      continue;
    }
    std::optional<ProofResult> there;
    std::optional<std::vector<Tensor>> arguments;
    try {
      arguments = argumentsOf(*function, *witness);
      if (arguments && keepsAssumptions(assumptions, *function, *arguments)) {
        if (std::optional<IndexProperties> decided = decidedAt(module, *function, op, *arguments))
          there = pick(*decided);
      }
    } catch (const Error&) {
      // The run or the decision failed (an op the interpreter does not compute, isl's budget):
      // nothing is shown, the condition stands.
    }
    if (!there || !there->isRefuted() || !there->counterexample) {
      witness.reset();
      continue;
    }
    witness->replayed = true;
    witness->explanation =
        describe(*witness, *function, *arguments) + ": " + there->counterexample->explanation;
  }
}

}  // namespace idxmap::argument_witness
