#include "verify/op_properties.h"

#include <isl/map.h>

#include <functional>

#include "core/bridges/isl_bridge.h"
#include "ops/forms/tcp_gather.h"
#include "ops/forms/tensor_gather.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/hlo/analysis/known_offsets.h"
#include "ops/hlo/models/gather_scatter.h"
#include "ops/import/forms.h"
#include "ops/import/stablehlo.h"
#include "ops/provenance/index_values.h"
#include "verify/index_properties.h"

namespace idxmap {
namespace {

using gather_scatter::GatherOp;
using gather_scatter::ScatterOp;
using index_provenance::IndexValues;
using mlir_ir::Operation;

// What the op can claim of each property, and how the other gather forms name their tensors.
struct Claims {
  std::optional<IndexProperty> unique;  // result left unknown until proven
  IndexProperty sorted;
  IndexProperty inBounds;
  IndexOpForm form;
};

const char* kUnique = "`unique`";
const char* kInRange = "in-range indices";

Claims stablehloClaims(std::optional<bool> uniqueIndices, bool indicesAreSorted) {
  Claims claims;
  if (uniqueIndices) claims.unique = IndexProperty{"unique_indices", *uniqueIndices, {}};
  claims.sorted = {"indices_are_sorted", indicesAreSorted, {}};
  claims.inBounds = {"", std::nullopt, {}};
  return claims;
}

// A form where out-of-range indices are undefined behavior: in range is required, sorted has
// no attribute.
Claims formClaims(IndexOpForm::Names names, std::optional<bool> unique) {
  Claims claims;
  if (unique) claims.unique = IndexProperty{kUnique, *unique, {}};
  claims.sorted = {"", std::nullopt, {}};
  claims.inBounds = {kInRange, true, {}};
  claims.form.names = std::move(names);
  claims.form.outOfRangeIsUndefined = true;
  claims.form.uniqueAsked = unique.has_value();
  return claims;
}

// The assumptions about the value named `name` (without its '%').
std::vector<Assumption> about(const std::string& name, const std::vector<Assumption>& assumptions) {
  std::vector<Assumption> facts;
  for (const Assumption& assumption : assumptions)
    if (assumption.value == name) facts.push_back(assumption);
  return facts;
}

OpIndexProperties withResults(Claims claims, const IndexProperties& proven, std::string indices) {
  OpIndexProperties out;
  if (claims.unique && proven.unique) {
    out.unique = std::move(claims.unique);
    out.unique->result = *proven.unique;
  }
  out.sorted = std::move(claims.sorted);
  out.sorted.result = proven.sorted;
  out.inBounds = std::move(claims.inBounds);
  out.inBounds.result = proven.inBounds;
  out.indices = std::move(indices);
  return out;
}

OpIndexProperties allUnknown(Claims claims, const std::string& reason) {
  ProofResult unknown = ProofResult::unknown(reason);
  IndexProperties none{claims.unique ? std::optional(unknown) : std::nullopt, unknown, unknown};
  OpIndexProperties out = withResults(std::move(claims), none, "");
  out.int32Safe.result = unknown;
  return out;
}

// The kernel's 32-bit safety, from its maps: those of a static op (a `?` dim may be any size).
void addInt32Safety(OpIndexProperties& out, bool isStatic,
                    const std::function<std::vector<KernelMap>()>& maps) {
  if (!isStatic) {
    out.int32Safe.result = ProofResult::unknown(
        "the op has `?` dims: 32-bit index arithmetic is decided for static shapes only");
    return;
  }
  Int32Safety safety = proveInt32Safety(maps());
  out.int32Safe = {"", std::nullopt, safety.verdict};
  out.int32Expressions = std::move(safety.expressions);
}

// Gather: result -> operand, result -> start_indices, and the result's own offsets.
std::vector<KernelMap> kernelMaps(const GatherOp& op, const IndexOpForm::Names& names) {
  std::vector<int64_t> result = gather_scatter::inferGatherResultShape(
      op.dimension_numbers, op.start_indices.shape, op.slice_sizes);
  return {{names.indexSpace + " -> " + names.target, gather_scatter::gatherOutputToOperandMap(op),
           op.operand.shape},
          {names.indexSpace + " -> " + names.indices,
           gather_scatter::gatherOutputToStartIndicesMap(op), op.start_indices.shape},
          {names.indexSpace, IndexingMap::identity(result), result}};
}

std::vector<KernelMap> kernelMaps(const ScatterOp& op, const IndexOpForm::Names& names) {
  return {
      {names.indexSpace + " -> " + names.target, gather_scatter::scatterUpdateToResultMap(op),
       op.inputs.at(0).shape},
      {names.indexSpace + " -> " + names.indices, gather_scatter::scatterUpdateToIndicesMap(op),
       op.scatter_indices.shape},
      {names.indexSpace, IndexingMap::identity(op.updates.at(0).shape), op.updates.at(0).shape}};
}

// Where an op's index values come from, and what the user asserts about them.
using ValuesOf = std::function<IndexValues()>;

OpIndexProperties gatherProperties(const GatherOp& gather, const ValuesOf& valuesOf,
                                   const std::vector<Assumption>& facts, Claims claims,
                                   const std::vector<VectorBlock>& blocks = {}) {
  try {
    IndexValues values = valuesOf();
    if (values.shape != gather.start_indices.shape)
      return allUnknown(std::move(claims), "the indices' shape differs from the lowered op's");
    IndexProperties proven = proveGatherIndexProperties(gather, values, claims.form, facts, blocks);
    IndexOpForm::Names names =
        claims.form.names.value_or(IndexOpForm::Names{"result", "operand", "start_indices"});
    OpIndexProperties out = withResults(std::move(claims), proven, values.provenance);
    addInt32Safety(out, gather_scatter::hasStaticShapes(gather),
                   [&] { return kernelMaps(gather, names); });
    return out;
  } catch (const Error& error) {  // index provenance gave up
    return allUnknown(std::move(claims), error.what());
  }
}

OpIndexProperties scatterProperties(const ScatterOp& scatter, const ValuesOf& valuesOf,
                                    const std::vector<Assumption>& facts, Claims claims,
                                    const std::vector<VectorBlock>& blocks = {}) {
  try {
    IndexValues values = valuesOf();
    if (values.shape != scatter.scatter_indices.shape)
      return allUnknown(std::move(claims), "the indices' shape differs from the lowered op's");
    IndexProperties proven =
        proveScatterIndexProperties(scatter, values, claims.form, facts, blocks);
    IndexOpForm::Names names =
        claims.form.names.value_or(IndexOpForm::Names{"updates", "result", "scatter_indices"});
    OpIndexProperties out = withResults(std::move(claims), proven, values.provenance);
    addInt32Safety(out, gather_scatter::hasStaticShapes(scatter),
                   [&] { return kernelMaps(scatter, names); });
    return out;
  } catch (const Error& error) {
    return allUnknown(std::move(claims), error.what());
  }
}

std::string withoutPercent(const std::string& name) {
  return !name.empty() && name.front() == '%' ? name.substr(1) : name;
}

// The user's assumed values as leaves of the value analysis, in the range assumed (the whole
// of int64 when none is).
index_provenance::ValueContext assumedContext(const std::vector<Assumption>& assumptions) {
  index_provenance::ValueContext context;
  for (const Assumption& assumption : assumptions)
    context.assumed.emplace_back(
        assumption.value,
        entryRange(assumption.facts, std::nullopt).value_or(std::pair(INT64_MIN, INT64_MAX)));
  return context;
}

class Prover {
 public:
  Prover(const Operation& op, const std::vector<Operation>& block,
         const std::vector<Assumption>& assumptions, const mlir_ir::Module* module)
      : op_(op), block_(block), assumptions_(assumptions) {
    context_ = assumedContext(assumptions);
    context_.module = module;
    context_.user = &op;
  }

  OpIndexProperties gather(const GatherOp& gather, size_t indicesOperand, Claims claims) {
    claims.form.tensors = tensorNames(1, indicesOperand, 0);
    IndexValues values = valuesOf(indicesOperand);
    std::vector<Assumption> facts = factsFor(values, indicesOperand);
    return gatherProperties(
        gather, [&] { return values; }, facts, std::move(claims));
  }

  OpIndexProperties scatter(const ScatterOp& scatter, size_t indicesOperand, Claims claims) {
    claims.form.tensors = tensorNames(indicesOperand, indicesOperand, indicesOperand);
    IndexValues values = valuesOf(indicesOperand);
    std::vector<Assumption> facts = factsFor(values, indicesOperand);
    return scatterProperties(
        scatter, [&] { return values; }, facts, std::move(claims));
  }

  std::optional<OpIndexProperties> prove() {
    using namespace gather_scatter;
    const std::string& name = op_.name;
    if (name == "stablehlo.gather") {
      GatherOp gather = stablehlo_import::importGather(op_);
      return this->gather(gather, 1, stablehloClaims(std::nullopt, gather.indices_are_sorted));
    }
    if (name == "stablehlo.dynamic_gather") {
      DynamicGatherOp dynamic = stablehlo_import::importDynamicGather(
          op_, mlir_gather_analysis::constantSliceSizes(block_, op_));
      Claims claims = stablehloClaims(std::nullopt, dynamic.indices_are_sorted);
      if (dynamic.slice_sizes.empty())
        return allUnknown(std::move(claims), "the slice sizes are not a constant");
      return gather(asGather(dynamic), 1, std::move(claims));
    }
    if (name == "stablehlo.scatter") {
      ScatterOp scatter = stablehlo_import::importScatter(op_);
      return this->scatter(scatter, scatter.inputs.size(),
                           stablehloClaims(scatter.unique_indices, scatter.indices_are_sorted));
    }
    if (name == "tensor.gather") {
      TensorGatherOp form = importTensorGather(op_);
      Claims claims = formClaims({"result", "source", "indices"}, form.unique);
      if (!allStatic({&form.source, &form.indices}))
        return allUnknown(std::move(claims), "the op has dynamic shapes");
      return gather(lowerTensorGather(form).op, 1, std::move(claims));
    }
    if (name == "tensor.scatter") {
      TensorScatterOp form = importTensorScatter(op_);
      Claims claims = formClaims({"source", "result", "indices"}, true);
      if (!allStatic({&form.source, &form.dest, &form.indices}))
        return allUnknown(std::move(claims), "the op has dynamic shapes");
      return scatter(lowerTensorScatter(form).op, 2, std::move(claims));
    }
    if (name == "tcp.gather" || name == "tcp.gather_nd") {
      Claims claims = formClaims({"result", "input", "indices"}, std::nullopt);
      if (name == "tcp.gather") {
        TcpGatherOp form = importTcpGather(op_);
        if (!allStatic({&form.input, &form.indices}))
          return allUnknown(std::move(claims), "the op has dynamic shapes");
        return gather(lowerTcpGather(form).op, 1, std::move(claims));
      }
      TcpGatherNdOp form = importTcpGatherNd(op_);
      if (!allStatic({&form.input, &form.indices}))
        return allUnknown(std::move(claims), "the op has dynamic shapes");
      return gather(lowerTcpGatherNd(form).op, 1, std::move(claims));
    }
    return std::nullopt;
  }

 private:
  // Represented values take every fact about the leaves they come from (the provers match
  // them by name); values that are not take the facts about the indices themselves.
  std::vector<Assumption> factsFor(const IndexValues& values, size_t indicesOperand) const {
    if (values.represented()) return assumptions_;
    return about(op_.operands.at(indicesOperand).toString().substr(1), assumptions_);
  }

  // The op's operands: `targets` targets, the indices at `indicesOperand`, then `updates`
  // updates (StableHLO's operand order).
  IndexOpForm::TensorNames tensorNames(size_t targets, size_t indicesOperand,
                                       size_t updates) const {
    IndexOpForm::TensorNames names;
    for (size_t i = 0; i < targets && i < op_.operands.size(); ++i)
      names.targets.push_back(op_.operands[i].toString());
    names.indices = op_.operands.at(indicesOperand).toString();
    for (size_t i = indicesOperand + 1; i <= indicesOperand + updates && i < op_.operands.size();
         ++i)
      names.updates.push_back(op_.operands[i].toString());
    return names;
  }

  // In an op with `?` dims, index tensors are followed with their sizes as parameters: the
  // provers decide for every size (verify/symbolic_sizes_internal.h).
  IndexValues valuesOf(size_t operand) const {
    index_provenance::ValueContext context = context_;
    context.followDynamicShapes =
        std::any_of(op_.operandTypes.begin(), op_.operandTypes.end(),
                    [](const mlir_ir::Type& type) { return !type.isStatic(); });
    return index_provenance::indexValues(block_, op_.operands.at(operand),
                                         op_.operandTypes.at(operand), context);
  }

  const Operation& op_;
  const std::vector<Operation>& block_;
  const std::vector<Assumption>& assumptions_;
  index_provenance::ValueContext context_;
};

// Index values known at run time only: no value at any point.
IndexValues runtimeValues(const std::vector<int64_t>& shape, std::string provenance) {
  std::string points;
  for (size_t d = 0; d < shape.size(); ++d) points += (d ? ", p" : "p") + std::to_string(d);
  IndexValues values;
  values.shape = shape;
  values.known = isl_bridge::own(
      isl_map_read_from_str(islContext().get(), ("{ [" + points + "] -> [v] : 1 = 0 }").c_str()));
  values.provenance = std::move(provenance);
  return values;
}

// An HLO op's index values, read through the instructions that compute them (as StableHLO
// ops: ops/hlo/analysis/known_offsets), with the facts that apply: every assumption about a
// leaf where the values are represented, else those about the indices themselves.
std::pair<IndexValues, std::vector<Assumption>> hloValues(
    const hlo::Instruction& indices, const std::vector<Assumption>& assumptions) {
  IndexValues values = hloProgramValues(indices, assumedContext(assumptions));
  std::vector<Assumption> facts =
      values.represented() ? assumptions : about(withoutPercent(indices.name), assumptions);
  return {std::move(values), std::move(facts)};
}

}  // namespace

std::optional<OpIndexProperties> proveHloOpIndexProperties(
    const hlo::Instruction& instruction, const std::vector<Assumption>& assumptions) {
  if (instruction.opcode == "gather") {
    GatherOp gather = ops::hloGatherOp(instruction);
    const auto read = hloValues(*instruction.operands.at(1), assumptions);
    return gatherProperties(
        gather, [&] { return read.first; }, read.second,
        stablehloClaims(std::nullopt, gather.indices_are_sorted));
  }
  if (instruction.opcode == "scatter") {
    ScatterOp scatter = ops::hloScatterOp(instruction);
    const auto read = hloValues(*instruction.operands.at(scatter.inputs.size()), assumptions);
    return scatterProperties(
        scatter, [&] { return read.first; }, read.second,
        stablehloClaims(scatter.unique_indices, scatter.indices_are_sorted));
  }
  return std::nullopt;
}

OpIndexProperties proveLoweredGatherProperties(const gather_scatter::LoweredGather& lowered,
                                               const IndexOpForm::Names& names,
                                               const std::vector<IndexFact>& facts) {
  const GatherOp& gather = lowered.op;
  Assumption known{names.indices, facts, names.indices + ":"};
  for (size_t i = 0; i < facts.size(); ++i) known.text += (i ? ", " : " ") + facts[i].text;
  std::optional<bool> unique;
  if (lowered.require_unique_indices) unique = true;
  return gatherProperties(
      gather,
      [&] {
        return runtimeValues(gather.start_indices.shape, lowered.op_name + "'s " + names.indices);
      },
      facts.empty() ? std::vector<Assumption>{} : std::vector<Assumption>{known},
      formClaims(names, unique));
}

std::optional<OpIndexProperties> proveOpIndexProperties(const Operation& op,
                                                        const std::vector<Operation>& block,
                                                        const std::vector<Assumption>& assumptions,
                                                        const mlir_ir::Module* module) {
  return Prover(op, block, assumptions, module).prove();
}

}  // namespace idxmap
