#include <algorithm>
#include <optional>
#include <set>

#include "core/tensor_type.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/size_classes_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using mlir_ir::Operation;

namespace {

// Ops whose operands of the result's rank have the result's shape (spec: "same shape" or
// "compatible shapes" constraints). A 0-d operand (select's predicate, clamp's bounds) is
// broadcast and joins nothing.
const std::set<std::string, std::less<>>& sameShapeOps() {
  static const std::set<std::string, std::less<>> kOps = {"stablehlo.abs",
                                                          "stablehlo.add",
                                                          "stablehlo.and",
                                                          "stablehlo.clamp",
                                                          "stablehlo.compare",
                                                          "stablehlo.convert",
                                                          "stablehlo.divide",
                                                          "stablehlo.exponential",
                                                          "stablehlo.floor",
                                                          "stablehlo.log",
                                                          "stablehlo.maximum",
                                                          "stablehlo.minimum",
                                                          "stablehlo.multiply",
                                                          "stablehlo.negate",
                                                          "stablehlo.not",
                                                          "stablehlo.or",
                                                          "stablehlo.power",
                                                          "stablehlo.remainder",
                                                          "stablehlo.reverse",
                                                          "stablehlo.round_nearest_even",
                                                          "stablehlo.select",
                                                          "stablehlo.shift_left",
                                                          "stablehlo.shift_right_arithmetic",
                                                          "stablehlo.shift_right_logical",
                                                          "stablehlo.sign",
                                                          "stablehlo.sort",
                                                          "stablehlo.sqrt",
                                                          "stablehlo.subtract",
                                                          "stablehlo.tanh",
                                                          "stablehlo.xor",
                                                          "stablehlo.bitcast_convert"};
  return kOps;
}

// The product of the static dims.
int64_t staticProduct(const mlir_ir::Type& type) {
  int64_t product = 1;
  for (int64_t size : type.shape)
    if (size != kDynamic && __builtin_mul_overflow(product, size, &product)) return -1;
  return product;
}

}  // namespace

SizeClasses::SizeClasses(const std::vector<Operation>& scope, const mlir_ir::Function* function) {
  if (function)
    for (const mlir_ir::BlockArgument& argument : function->arguments)
      types_[argument.value.toString()] = argument.type;
  for (const Operation& op : scope)
    for (size_t r = 0; r < op.results.size() && r < op.resultTypes.size(); ++r) {
      types_[op.results[r].toString()] = op.resultTypes[r];
      definitions_[op.results[r].toString()] = &op;
    }
  for (const Operation& op : scope) joinOp(op);
}

// Element `k` of a shape operand as shape-polymorphic exports build it: get_dimension_size
// results (converted, reshaped to one element, concatenated with each other or with
// constants). The dim whose size it is; nullopt for anything else.
std::optional<SizedDim> SizeClasses::shapeElement(const mlir_ir::Value& shape, int64_t k,
                                                  int depth) const {
  auto it = definitions_.find(shape.toString());
  if (it == definitions_.end() || depth > 8 || it->second->operands.empty()) return std::nullopt;
  const Operation& op = *it->second;
  if (op.name == "stablehlo.get_dimension_size" && k == 0) {
    const mlir_ir::Attribute* dim = firstAttribute(op, "dimension", "dim");
    std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
    if (!axis || *axis < 0) return std::nullopt;
    return SizedDim{op.operands[0].toString(), static_cast<size_t>(*axis)};
  }
  if (op.name == "stablehlo.convert" || op.name == "stablehlo.reshape")
    return shapeElement(op.operands[0], k, depth + 1);  // a 1-element reshape keeps element 0
  if (op.name == "stablehlo.concatenate") {
    int64_t offset = 0;
    for (const mlir_ir::Value& part : op.operands) {
      auto type = types_.find(part.toString());
      if (type == types_.end() || type->second.shape.size() != 1 || type->second.shape[0] < 0)
        return std::nullopt;
      if (k < offset + type->second.shape[0]) return shapeElement(part, k - offset, depth + 1);
      offset += type->second.shape[0];
    }
  }
  return std::nullopt;
}

SizedDim SizeClasses::find(const SizedDim& dim) const {
  auto it = parent_.find(dim);
  if (it == parent_.end() || it->second == dim) return dim;
  it->second = find(it->second);
  return it->second;
}

void SizeClasses::join(const SizedDim& a, const SizedDim& b) {
  parent_.emplace(a, a);
  parent_.emplace(b, b);
  SizedDim rootA = find(a), rootB = find(b);
  if (rootA == rootB) return;
  // The smaller name leads: a class is named the same whatever order its ops come in.
  if (rootB < rootA) std::swap(rootA, rootB);
  parent_[rootB] = rootA;
}

void SizeClasses::joinDims(const mlir_ir::Value& first, const mlir_ir::Type& firstType, size_t a,
                           const mlir_ir::Value& second, const mlir_ir::Type& secondType,
                           size_t b) {
  if (a < firstType.shape.size() && b < secondType.shape.size() && firstType.shape[a] == kDynamic &&
      secondType.shape[b] == kDynamic)
    join({first.toString(), a}, {second.toString(), b});
}

void SizeClasses::joinOp(const Operation& op) {
  if (op.results.empty() || op.resultTypes.empty()) return;
  const mlir_ir::Type& result = op.resultTypes.front();
  auto typeOf = [&](size_t i) -> std::optional<mlir_ir::Type> {
    auto it = types_.find(op.operands[i].toString());
    if (it != types_.end()) return it->second;
    if (i < op.operandTypes.size()) return op.operandTypes[i];
    return std::nullopt;
  };
  const std::vector<size_t> resultDims = dynamicDims(result.shape);
  if (resultDims.empty() && op.name != "stablehlo.concatenate") return;
  if (sameShapeOps().count(op.name)) {
    for (size_t r = 0; r < op.results.size() && r < op.resultTypes.size(); ++r)
      for (size_t d : resultDims)
        joinDims(op.results[r], op.resultTypes[r], d, op.results[0], result, d);
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (std::optional<mlir_ir::Type> type = typeOf(i);
          type && type->shape.size() == result.shape.size())
        for (size_t d : resultDims) joinDims(op.operands[i], *type, d, op.results[0], result, d);
    return;
  }
  if (op.operands.empty()) return;
  std::optional<mlir_ir::Type> source = typeOf(0);
  if (!source) return;
  if (op.name == "stablehlo.transpose") {
    const mlir_ir::Attribute* attribute = firstAttribute(op, "permutation", "dims");
    std::optional<std::vector<int64_t>> perm = attribute ? attribute->asInts() : std::nullopt;
    if (perm && perm->size() == result.shape.size())
      for (size_t k = 0; k < perm->size(); ++k)
        if ((*perm)[k] >= 0)
          joinDims(op.results[0], result, k, op.operands[0], *source,
                   static_cast<size_t>((*perm)[k]));
  } else if (op.name == "stablehlo.reshape" || op.name == "stablehlo.dynamic_reshape") {
    // One `?` on each side and the same static product: the `?` moves as a whole.
    const std::vector<size_t> sourceDims = dynamicDims(source->shape);
    if (resultDims.size() == 1 && sourceDims.size() == 1 &&
        staticProduct(result) == staticProduct(*source) && staticProduct(result) > 0)
      joinDims(op.results[0], result, resultDims[0], op.operands[0], *source, sourceDims[0]);
  } else if (op.name == "stablehlo.concatenate") {
    const mlir_ir::Attribute* dim = firstAttribute(op, "dimension", "dim");
    std::optional<int64_t> axis = dim ? dim->asInt() : std::nullopt;
    if (!axis || *axis < 0) return;
    const size_t along = static_cast<size_t>(*axis);
    Sum sum;
    sum.result = {op.results[0].toString(), along};
    bool summed = along < result.shape.size() && result.shape[along] == kDynamic;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      std::optional<mlir_ir::Type> type = typeOf(i);
      if (!type || type->shape.size() != result.shape.size()) {
        summed = false;
        continue;
      }
      for (size_t d : resultDims)
        if (d != along) joinDims(op.operands[i], *type, d, op.results[0], result, d);
      if (!summed) continue;
      if (type->shape[along] == kDynamic)
        sum.parts.emplace_back(op.operands[i].toString(), along);
      else
        sum.constant += type->shape[along];
    }
    if (summed) sums_.push_back(std::move(sum));
  } else if (op.name == "stablehlo.pad") {
    // A dim without padding keeps its size.
    const mlir_ir::Attribute* low = firstAttribute(op, "edge_padding_low", "low");
    const mlir_ir::Attribute* high = firstAttribute(op, "edge_padding_high", "high");
    const mlir_ir::Attribute* interior = firstAttribute(op, "interior_padding", "interior");
    std::optional<std::vector<int64_t>> l = low ? low->asInts() : std::nullopt;
    std::optional<std::vector<int64_t>> h = high ? high->asInts() : std::nullopt;
    std::optional<std::vector<int64_t>> in = interior ? interior->asInts() : std::nullopt;
    if (l && h && in && l->size() == result.shape.size() && h->size() == l->size() &&
        in->size() == l->size() && source->shape.size() == l->size())
      for (size_t d : resultDims) {
        if ((*l)[d] == 0 && (*h)[d] == 0 && (*in)[d] == 0)
          joinDims(op.operands[0], *source, d, op.results[0], result, d);
        else if (source->shape[d] == kDynamic && (*in)[d] >= 0)
          sums_.push_back({{op.results[0].toString(), d},
                           (*l)[d] + (*h)[d],
                           {{op.operands[0].toString(), d}},
                           (*in)[d]});
      }
  } else if (op.name == "stablehlo.dynamic_iota" || op.name == "stablehlo.dynamic_reshape") {
    // The shape operand's element d is the result's dim d.
    const size_t shapeOperand = op.name == "stablehlo.dynamic_iota" ? 0 : 1;
    if (shapeOperand < op.operands.size())
      for (size_t d : resultDims)
        if (std::optional<SizedDim> from =
                shapeElement(op.operands[shapeOperand], static_cast<int64_t>(d), 0))
          if (auto type = types_.find(from->first); type != types_.end() &&
                                                    from->second < type->second.shape.size() &&
                                                    type->second.shape[from->second] == kDynamic)
            join({op.results[0].toString(), d}, *from);
  } else if (op.name == "stablehlo.dynamic_broadcast_in_dim") {
    // known_nonexpanding_dimensions: the operand's dim is the result's.
    const mlir_ir::Attribute* dims = firstAttribute(op, "broadcast_dimensions", "dims");
    const mlir_ir::Attribute* kept = op.attribute("known_nonexpanding_dimensions");
    std::optional<std::vector<int64_t>> map = dims ? dims->asInts() : std::nullopt;
    std::optional<std::vector<int64_t>> nonexpanding = kept ? kept->asInts() : std::nullopt;
    if (map && nonexpanding)
      for (int64_t k : *nonexpanding)
        if (k >= 0 && static_cast<size_t>(k) < map->size() && (*map)[k] >= 0)
          joinDims(op.operands[0], *source, static_cast<size_t>(k), op.results[0], result,
                   static_cast<size_t>((*map)[k]));
  }
}

std::vector<SizeClasses::Sum> SizeClasses::sumsOf(const SizedDim& dim) const {
  std::vector<Sum> out;
  const SizedDim root = find(dim);
  for (const Sum& sum : sums_)
    if (find(sum.result) == root) out.push_back(sum);
  return out;
}

std::vector<SizedDim> SizeClasses::members(const SizedDim& dim) const {
  if (!parent_.count(dim)) return {dim};
  const SizedDim root = find(dim);
  std::vector<SizedDim> out;
  for (const auto& [member, parent] : parent_)
    if (find(member) == root) out.push_back(member);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace idxmap::index_provenance
