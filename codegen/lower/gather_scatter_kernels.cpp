#include "codegen/lower/gather_scatter_kernels.h"

#include <algorithm>

#include "codegen/kernel/index_code.h"
#include "codegen/prelude/element_code.h"
#include "codegen/prelude/prelude.h"
#include "simplifier/simplify.h"
#include "verify/equivalence.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;

// The indices map with its range variable (the index vector position) fixed to `entry`: where
// runtime variable `entry` is loaded from.
IndexingMap entryMap(const IndexingMap& indicesMap, size_t entry) {
  IndexingMap out = indicesMap;
  std::vector<Expr> fixed(out.rangeVars.size(), Expr::constant(static_cast<int64_t>(entry)));
  for (Expr& result : out.results) result = result.replaceVariables({}, fixed, {});
  out.rangeVars.clear();
  return out;
}

// The map with its dims as results: the index space's own offsets.
IndexingMap identityResults(const IndexingMap& map) {
  IndexingMap out = map;
  out.results.clear();
  for (size_t i = 0; i < map.dims.size(); ++i)
    out.results.push_back(Expr::dim(static_cast<unsigned>(i)));
  return out;
}

const char* const kNoClamp = "start indices never clamped -> no clamp emitted";

bool proven(const IndexProperty& property) { return property.result.isProven(); }

// The loads of every runtime variable from buffer `indices` through `indicesMap`.
std::vector<Access> runtimeLoads(const IndexingMap& map, const IndexingMap& indicesMap,
                                 const std::vector<int64_t>& indicesShape, size_t indices) {
  std::vector<Access> loads;
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) {
    IndexingMap entry = entryMap(indicesMap, k);
    entry.runtimeVars = map.runtimeVars;  // the same variables, for the offset's context
    loads.push_back({indices, rowMajorOffset(entry, indicesShape)});
  }
  return loads;
}

// Why a proof-driven choice was not made: refuted (with what shows it), or not proven.
std::string whyNot(const ProofResult& result, const std::string& refuted,
                   const std::string& unknown) {
  if (result.isRefuted())
    return refuted + " (refuted by " + result.method + ": " +
           (result.counterexample ? result.counterexample->explanation : result.reason) + ")";
  return unknown + " (" + result.reason + ")";
}

void decideWidth(Kernel& kernel, const OpIndexProperties& properties) {
  kernel.int32 = proven(properties.int32Safe);
  if (kernel.int32)
    kernel.facts.push_back(
        {"every index expression and offset fits in int32 -> int32 index "
         "arithmetic",
         properties.int32Safe.result});
  else
    kernel.notes.push_back(whyNot(properties.int32Safe.result, "an index expression leaves int32",
                                  "int32 safety is not proven") +
                           " -> int64 index arithmetic");
}

// Whether sorted indices confine collisions to runs along d0: the index vectors are read at
// d0 alone, and every target coordinate that depends on them is one runtime variable (plus a
// constant) with no dim, each variable appearing somewhere. Then two updates that write one
// element read equal vectors, and sorted order puts every point between them in the same run.
bool segmentable(const Kernel& kernel) {
  const IndexingMap& map = kernel.map;
  if (map.dims.empty() || map.runtimeVars.empty()) return false;
  for (const Access& load : kernel.loads)
    for (unsigned d = 1; d < map.dims.size(); ++d)
      if (load.offset.uses(ExprKind::Dim, d)) return false;
  std::vector<bool> appears(map.runtimeVars.size(), false);
  for (Expr result : map.results) {
    bool usesRuntime = false;
    for (unsigned k = 0; k < map.runtimeVars.size(); ++k)
      usesRuntime |= result.uses(ExprKind::RuntimeVar, k);
    if (!usesRuntime) continue;
    Expr variable = result;
    if (variable.kind() == ExprKind::Add && variable.rhs().isConstant()) variable = variable.lhs();
    if (variable.kind() != ExprKind::RuntimeVar) return false;
    appears[variable.variableIndex()] = true;
  }
  return std::find(appears.begin(), appears.end(), false) == appears.end();
}

// The first variable of `kind` (a dim or runtime variable, with more than one value) that a
// result coordinate of `map` is, plus a constant for a runtime variable: points that differ in
// it never write one element. Returns (the coordinate, the variable).
std::optional<std::pair<size_t, unsigned>> owningVariable(const IndexingMap& map, ExprKind kind) {
  const std::vector<Variable>& variables = kind == ExprKind::Dim ? map.dims : map.runtimeVars;
  for (unsigned v = 0; v < variables.size(); ++v) {
    if (variables[v].range.hi <= variables[v].range.lo) continue;
    for (size_t j = 0; j < map.results.size(); ++j) {
      Expr e = map.results[j];
      if (kind == ExprKind::RuntimeVar && e.kind() == ExprKind::Add && e.rhs().isConstant())
        e = e.lhs();
      if (e.kind() == kind && e.variableIndex() == v) return std::pair{j, v};
    }
  }
  return std::nullopt;
}

// What threads of an ordered scatter split: a dim that a result coordinate is, unless it is
// the last (contiguous) one, where threads' shares would be short pieces of the same rows;
// then a runtime variable that a coordinate is (threads own ranges of its values); then
// that last dim; else the target's elements.
std::string chooseSplit(Kernel& kernel) {
  std::optional<std::pair<size_t, unsigned>> dim = owningVariable(kernel.map, ExprKind::Dim),
                                             runtime =
                                                 owningVariable(kernel.map, ExprKind::RuntimeVar);
  const bool lastDim = dim && dim->second + 1 == kernel.map.dims.size();
  auto by = [&](Kernel::SplitBy splitBy, std::pair<size_t, unsigned> at, const std::string& name) {
    kernel.splitBy = splitBy;
    kernel.splitIndex = at.second;
    return "result coordinate " + std::to_string(at.first) + " is " + name +
           (splitBy == Kernel::SplitBy::kRuntimeVar ? " (plus a constant)" : "") +
           " in the map, so updates that differ in it never write one element: threads split " +
           name + "'s range";
  };
  if (dim && !lastDim) return by(Kernel::SplitBy::kDim, *dim, "d" + std::to_string(dim->second));
  if (runtime)
    return by(Kernel::SplitBy::kRuntimeVar, *runtime, "rt" + std::to_string(runtime->second));
  if (dim) return by(Kernel::SplitBy::kDim, *dim, "d" + std::to_string(dim->second));
  return "threads split the target's elements";
}

}  // namespace

ReliedFact simplificationFact(const IndexingMap& own, const IndexingMap& simplified,
                              const std::string& name) {
  ProofResult proof = proveEquivalent(own, simplified);
  if (!proof.isProven())
    throw Error("the simplified map " + name + " " + oneLine(simplified) +
                " is not proven equal to the op's own " + oneLine(own) + " (" +
                (proof.isRefuted() ? "refuted by " + proof.method : proof.reason) +
                "): no kernel is written");
  return {"the kernel's map " + name + " is the op's own (simplified)", std::move(proof)};
}

namespace {

void requireStatic(const std::vector<const TensorType*>& types, const std::string& op) {
  for (const TensorType* type : types)
    if (!type->isStatic()) throw Error(op + ": kernels need static shapes");
}

// Index values are loaded as their storage's integer: a sub-byte type's byte holds bits that
// are not its value, so such indices are refused rather than read wrong.
void requireWholeIndices(const TensorType& indices, const std::string& op) {
  const std::optional<ElementCode> type = elementCode(hloTypeName(indices.element_type));
  if (type && type->narrow())
    throw Error(op + ": kernels do not read " + indices.element_type +
                " index values (a sub-byte type; its byte's other bits are not its value)");
}

}  // namespace

Kernel gatherKernel(const GatherOp& op, const OpIndexProperties& properties,
                    const TensorNames& names, const std::vector<int64_t>& operandShape) {
  requireStatic({&op.operand, &op.start_indices}, "gather");
  requireWholeIndices(op.start_indices, "gather");
  const IndexingMap own = gather_scatter::gatherOutputToOperandMap(op);
  IndexingMap map = simplify(own);
  IndexingMap indicesMap = gather_scatter::gatherOutputToStartIndicesMap(op);
  std::vector<int64_t> resultShape = gather_scatter::inferGatherResultShape(
      op.dimension_numbers, op.start_indices.shape, op.slice_sizes);
  Kernel kernel;
  kernel.maps = {{names.indexSpace + " -> " + names.target, map},
                 {names.indexSpace + " -> " + names.indices, indicesMap}};
  kernel.map = map;
  kernel.facts.push_back(simplificationFact(own, map, names.indexSpace + " -> " + names.target));
  const std::vector<int64_t>& operand = operandShape.empty() ? op.operand.shape : operandShape;
  kernel.buffers = {{names.target, op.operand.element_type, operand, false},
                    {names.indices, op.start_indices.element_type, op.start_indices.shape, false},
                    {names.indexSpace, op.operand.element_type, resultShape, true}};
  kernel.loads = runtimeLoads(map, indicesMap, op.start_indices.shape, 1);
  kernel.transfers = {{{2, rowMajorOffset(identityResults(map), resultShape)},
                       {0, rowMajorOffset(map, operand)},
                       ""}};
  kernel.strategy = Strategy::kIndependent;
  kernel.clamp = !proven(properties.inBounds);
  if (kernel.clamp)
    kernel.notes.push_back(whyNot(properties.inBounds.result, "a start index is clamped",
                                  "clamping is not ruled out") +
                           " -> clamps emitted");
  else
    kernel.facts.push_back({kNoClamp, properties.inBounds.result});
  decideWidth(kernel, properties);
  return kernel;
}

Kernel loweredGatherKernel(const gather_scatter::LoweredGather& lowered,
                           const std::vector<int64_t>& inputShape,
                           const OpIndexProperties& properties, const TensorNames& names) {
  Kernel kernel =
      gatherKernel(lowered.op, properties, names,
                   lowered.operand_prefix.empty() ? std::vector<int64_t>{} : inputShape);
  if (lowered.wrap_negative_indices) {
    kernel.wrapNegative = lowered.index_bounds;
    kernel.notes.push_back("negative index values wrap: v in [-size, -1] reads v + size");
  }
  for (ReliedFact& fact : kernel.facts)  // the form has no clamp to omit
    if (fact.statement == kNoClamp) fact.statement = "index values in range -> no check emitted";
  if (kernel.clamp) {  // the form defines no clamp: an out-of-range value is an error
    kernel.clamp = false;
    kernel.check = true;
    std::erase_if(kernel.notes,
                  [](const std::string& note) { return note.ends_with(" -> clamps emitted"); });
    kernel.notes.push_back(whyNot(properties.inBounds.result, "an index value is out of range",
                                  "in-range index values are not proven") +
                           " -> each is checked; out of range the entry returns 2");
  }
  return kernel;
}

Kernel scatterKernel(const ScatterOp& op, const OpIndexProperties& properties,
                     const TensorNames& names, const std::vector<std::string>& updateFunctions) {
  std::vector<const TensorType*> types{&op.scatter_indices};
  for (const TensorType& t : op.inputs) types.push_back(&t);
  for (const TensorType& t : op.updates) types.push_back(&t);
  requireStatic(types, "scatter");
  requireWholeIndices(op.scatter_indices, "scatter");
  const IndexingMap own = gather_scatter::scatterUpdateToResultMap(op);
  IndexingMap map = simplify(own);
  IndexingMap indicesMap = gather_scatter::scatterUpdateToIndicesMap(op);
  Kernel kernel;
  kernel.maps = {{names.indexSpace + " -> " + names.target, map},
                 {names.indexSpace + " -> " + names.indices, indicesMap}};
  kernel.map = map;
  kernel.facts.push_back(simplificationFact(own, map, names.indexSpace + " -> " + names.target));
  const size_t n = op.inputs.size();
  auto suffix = [&](size_t i) { return n == 1 ? std::string() : std::to_string(i); };
  // Parameters: inputs, indices, updates, results (the op's operand order, then results).
  for (size_t i = 0; i < n; ++i)
    kernel.buffers.push_back(
        {"input" + suffix(i), op.inputs[i].element_type, op.inputs[i].shape, false});
  kernel.buffers.push_back(
      {names.indices, op.scatter_indices.element_type, op.scatter_indices.shape, false});
  for (size_t i = 0; i < n; ++i)
    kernel.buffers.push_back(
        {names.indexSpace + suffix(i), op.updates[i].element_type, op.updates[i].shape, false});
  for (size_t i = 0; i < n; ++i)
    kernel.buffers.push_back(
        {names.target + suffix(i), op.inputs[i].element_type, op.inputs[i].shape, true});
  kernel.loads = runtimeLoads(map, indicesMap, op.scatter_indices.shape, n);
  kernel.coupled = op.update_computation == gather_scatter::UpdateComputation::kOther &&
                   updateFunctions.size() == n;
  for (size_t i = 0; i < n; ++i) {
    size_t input = i, updates = n + 1 + i, result = 2 * n + 1 + i;
    std::optional<std::string> combine =
        kernel.coupled ? updateFunctions[i]
                       : combineFunction(op.update_computation, op.inputs[i].element_type);
    if (!combine)
      throw Error(op.update_computation == gather_scatter::UpdateComputation::kOther
                      ? "scatter: the update computation region is not add, multiply, minimum, "
                        "maximum or replace; kernels compute only those"
                      : "scatter: element type " + op.inputs[i].element_type +
                            " has no kernel arithmetic");
    kernel.initialCopies.push_back({result, input});
    kernel.transfers.push_back(
        {{result, rowMajorOffset(map, op.inputs[i].shape)},
         {updates, rowMajorOffset(identityResults(map), op.updates[i].shape)},
         *combine});
  }
  kernel.guard = !proven(properties.inBounds);
  if (kernel.guard)
    kernel.notes.push_back(
        whyNot(properties.inBounds.result, "an update is skipped", "skipping is not ruled out") +
        " -> bounds test emitted");
  else
    kernel.facts.push_back({"no update is skipped -> no bounds test", properties.inBounds.result});
  if (properties.unique && proven(*properties.unique)) {
    kernel.strategy = Strategy::kIndependent;
    kernel.facts.push_back({"no two applied updates write one element -> parallel plain stores",
                            properties.unique->result});
    kernel.distinctTargets = kernel.facts.size() - 1;
  } else if (proven(properties.sorted) && segmentable(kernel)) {
    kernel.strategy = Strategy::kSegmented;
    kernel.facts.push_back(
        {"indices sorted: updates that write one element lie in one run of equal index "
         "vectors along d0 -> threads split d0 at run boundaries, row-major order within",
         properties.sorted.result});
  } else {
    kernel.strategy = Strategy::kOrdered;
    kernel.notes.push_back("unique not proven -> updates applied in row-major order; " +
                           chooseSplit(kernel));
  }
  decideWidth(kernel, properties);
  return kernel;
}

}  // namespace idxmap::codegen
