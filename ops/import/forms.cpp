#include "ops/import/forms.h"

#include <numeric>

namespace idxmap::gather_scatter {
namespace {

[[noreturn]] void fail(const mlir_ir::Operation& op, const std::string& message) {
  throw ParseError(op.location, op.name + ": " + message, "");
}

void expectName(const mlir_ir::Operation& op, const char* name) {
  if (op.name != name) fail(op, std::string("expected a ") + name + " op");
}

TensorType tensorTypeOf(const mlir_ir::Operation& op, const mlir_ir::Type& type,
                        const std::string& what) {
  if (!type.isTensor || type.isOpaque())
    fail(op, what + " must have a ranked tensor type, not " + type.toString());
  return {type.shape, type.element_type};
}

// The op's operand types (exactly `count`, named by `names`) and its one result type.
std::vector<TensorType> operandTypes(const mlir_ir::Operation& op,
                                     const std::vector<std::string>& names) {
  if (op.operands.size() != names.size())
    fail(op, "expected " + std::to_string(names.size()) + " operands, found " +
                 std::to_string(op.operands.size()));
  if (op.operandTypes.size() != names.size())
    fail(op, "the types of its operands are needed (" + std::to_string(names.size()) + "), found " +
                 std::to_string(op.operandTypes.size()));
  std::vector<TensorType> types;
  for (size_t i = 0; i < names.size(); ++i)
    types.push_back(tensorTypeOf(op, op.operandTypes[i], names[i]));
  return types;
}

std::optional<TensorType> resultType(const mlir_ir::Operation& op) {
  if (op.resultTypes.empty()) return std::nullopt;
  if (op.resultTypes.size() != 1)
    fail(op, "expected one result type, found " + std::to_string(op.resultTypes.size()));
  return tensorTypeOf(op, op.resultTypes[0], "the result");
}

std::vector<int64_t> intsOf(const mlir_ir::Operation& op, const mlir_ir::NamedAttribute& named) {
  std::optional<std::vector<int64_t>> values = named.value.asInts();
  if (!values)
    throw ParseError(named.value.location,
                     op.name + ": `" + named.name + "` must be a list of integers", "");
  return *values;
}

// The first attribute among `names` that is present, or nullptr.
const mlir_ir::NamedAttribute* firstOf(const mlir_ir::Operation& op,
                                       std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const mlir_ir::NamedAttribute* named = op.namedAttribute(name)) return named;
  return nullptr;
}

}  // namespace

TensorGatherOp importTensorGather(const mlir_ir::Operation& op) {
  expectName(op, "tensor.gather");
  std::vector<TensorType> types = operandTypes(op, {"the source", "the indices"});
  TensorGatherOp gather{types[0], types[1], {}, op.attribute("unique") != nullptr, resultType(op)};
  if (const auto* dims = firstOf(op, {"gather_dims", "gather_along_dimensions",
                                      "gather_along_dimension", "coordinates"})) {
    gather.gather_dims = intsOf(op, *dims);
  } else {
    gather.gather_dims.resize(gather.source.shape.size());
    std::iota(gather.gather_dims.begin(), gather.gather_dims.end(), 0);
  }
  return gather;
}

TensorScatterOp importTensorScatter(const mlir_ir::Operation& op) {
  expectName(op, "tensor.scatter");
  std::vector<TensorType> types = operandTypes(op, {"the source", "the dest", "the indices"});
  const auto* dims = firstOf(op, {"scatter_dims", "coordinates"});
  if (!dims) fail(op, "needs `scatter_dims`");
  return {types[0],      types[1], types[2], intsOf(op, *dims), op.attribute("unique") != nullptr,
          resultType(op)};
}

TcpGatherOp importTcpGather(const mlir_ir::Operation& op) {
  expectName(op, "tcp.gather");
  std::vector<TensorType> types = operandTypes(op, {"the input", "the indices"});
  const mlir_ir::NamedAttribute* dim = op.namedAttribute("dim");
  if (!dim) fail(op, "needs a `dim` attribute");
  std::optional<int64_t> value = dim->value.asInt();
  if (!value) throw ParseError(dim->value.location, op.name + ": `dim` must be an integer", "");
  return {types[0], types[1], *value, resultType(op)};
}

TcpGatherNdOp importTcpGatherNd(const mlir_ir::Operation& op) {
  expectName(op, "tcp.gather_nd");
  std::vector<TensorType> types = operandTypes(op, {"the input", "the indices"});
  return {types[0], types[1], resultType(op)};
}

}  // namespace idxmap::gather_scatter
