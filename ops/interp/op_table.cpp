// The helpers of ops/interp/op_table.h: located failures, attribute readers, element
// types and tensor construction.
#include <charconv>
#include <cmath>

#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {

void fail(const OpContext& ctx, const std::string& message) {
  throw InterpretError(ctx.op.location, ctx.op.name + ": " + message);
}

TensorType typeOf(const Tensor& tensor) { return {tensor.shape, tensor.element_type}; }

std::optional<TensorType> staticOrNone(const std::optional<TensorType>& type) {
  if (type && type->isStatic()) return TensorType{type->shape, type->element_type};
  return std::nullopt;
}

void expectValid(const OpContext& ctx, const std::vector<gather_scatter::Violation>& violations) {
  if (violations.empty()) return;
  std::string text = violations[0].message;
  for (size_t i = 1; i < violations.size(); ++i) text += "; " + violations[i].message;
  throw InterpretError(ctx.op.location, text);
}

void expectOperandCount(const OpContext& ctx, size_t count) {
  if (ctx.operands.size() != count)
    fail(ctx, "takes " + std::to_string(count) + " operand(s), found " +
                  std::to_string(ctx.operands.size()));
}

const mlir_ir::Block& regionBlock(const OpContext& ctx, size_t index, const std::string& what) {
  if (index >= ctx.op.regions.size() || ctx.op.regions[index].blocks.empty())
    fail(ctx, "needs " + what + " (region " + std::to_string(index) + ")");
  if (ctx.op.regions[index].blocks.size() != 1) fail(ctx, what + " must be a single block");
  return ctx.op.regions[index].blocks[0];
}

bool predicateValue(const OpContext& ctx, const Tensor& tensor, const std::string& what) {
  if (tensor.element_type != "i1" || !tensor.shape.empty())
    fail(ctx, what + " must be tensor<i1>, found " + describeType(tensor));
  return tensor.ints.at(0) != 0;
}

const mlir_ir::Attribute* findAttribute(const OpContext& ctx,
                                        std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    if (const mlir_ir::Attribute* attribute = ctx.op.attribute(name)) return attribute;
  return nullptr;
}

namespace {

std::string nameList(std::initializer_list<std::string_view> names) {
  std::string text;
  for (std::string_view name : names)
    text += (text.empty() ? "`" : " or `") + std::string(name) + "`";
  return text;
}

}  // namespace

std::vector<int64_t> intsAttribute(const OpContext& ctx,
                                   std::initializer_list<std::string_view> names) {
  const mlir_ir::Attribute* attribute = findAttribute(ctx, names);
  if (!attribute) fail(ctx, "missing attribute " + nameList(names));
  if (std::optional<std::vector<int64_t>> ints = attribute->asInts()) return *ints;
  // `dense<[1, 0]> : tensor<2xi64>`, as older StableHLO writes integer lists.
  if (attribute->kind == mlir_ir::Attribute::Kind::Dense && attribute->dense &&
      attribute->dense->type.rank() <= 1 && attribute->dense->floats.empty()) {
    std::optional<int64_t> count = attribute->dense->type.elementCount();
    if (count && *count <= kMaxElements) {
      std::vector<int64_t> values;
      for (int64_t i = 0; i < *count; ++i) values.push_back(attribute->dense->intAt(i));
      return values;
    }
  }
  throw InterpretError(attribute->location,
                       ctx.op.name + ": " + nameList(names) + " must be a list of integers");
}

int64_t intAttribute(const OpContext& ctx, std::initializer_list<std::string_view> names) {
  const mlir_ir::Attribute* attribute = findAttribute(ctx, names);
  if (!attribute) fail(ctx, "missing attribute " + nameList(names));
  if (std::optional<int64_t> value = attribute->asInt()) return *value;
  throw InterpretError(attribute->location,
                       ctx.op.name + ": " + nameList(names) + " must be an integer");
}

const mlir_ir::Type& declaredResultType(const OpContext& ctx, size_t index) {
  if (index >= ctx.op.resultTypes.size())
    fail(ctx, "the result type is not written (the interpreter needs it to build the result)");
  return ctx.op.resultTypes[index];
}

std::vector<int64_t> staticResultShape(const OpContext& ctx, size_t index) {
  const mlir_ir::Type& type = declaredResultType(ctx, index);
  if (!type.isTensor || type.isOpaque() || !type.hasStaticShape())
    fail(ctx, "needs a static result type, found " + type.toString());
  return type.shape;
}

bool isSupportedElementType(const std::string& type) {
  static const char* const kTypes[] = {"i1",   "i2",  "i4",   "i8",  "i16",  "i32",
                                       "i64",  "ui2", "ui4",  "ui8", "ui16", "ui32",
                                       "ui64", "f16", "bf16", "f32", "f64",  "index"};
  for (const char* known : kTypes)
    if (type == known) return true;
  return false;
}

std::string elementTypeName(const OpContext& ctx, const mlir_ir::Type& type) {
  if (type.isOpaque()) fail(ctx, "type " + type.toString() + " is not supported");
  std::string name = type.elementType().toString();
  if (!isSupportedElementType(name))
    fail(ctx, "element type " + name + " is not supported (quantized and complex types are not)");
  return name;
}

bool isBooleanType(const std::string& type) { return type == "i1"; }

bool isUnsignedType(const std::string& type) { return type.rfind("ui", 0) == 0; }

int integerBitWidth(const std::string& type) {
  if (type == "index") return 64;
  size_t digits = type.find_first_of("0123456789");
  return digits == std::string::npos ? 64 : std::stoi(type.substr(digits));
}

int64_t wrapInteger(const std::string& type, int64_t value) {
  int width = integerBitWidth(type);
  if (width == 1) return value & 1;
  if (width >= 64) return value;
  uint64_t bits = static_cast<uint64_t>(value) & ((uint64_t{1} << width) - 1);
  if (isUnsignedType(type)) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>(bits ^ sign) - static_cast<int64_t>(sign);
}

bool integerLess(const std::string& type, int64_t a, int64_t b) {
  if (isUnsignedType(type) || isBooleanType(type))
    return static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
  return a < b;
}

int64_t checkedElementCount(const OpContext& ctx, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size < 0) fail(ctx, "negative dimension size " + std::to_string(size));
    if (size != 0 && count > kMaxElements / size)
      fail(ctx, "a result of more than " + std::to_string(kMaxElements) +
                    " elements is refused (the interpreter's limit)");
    count *= size;
  }
  if (count > kMaxElements)
    fail(ctx, "a result of more than " + std::to_string(kMaxElements) +
                  " elements is refused (the interpreter's limit)");
  return count;
}

Tensor makeTensor(const OpContext& ctx, const std::string& elementType,
                  const std::vector<int64_t>& shape) {
  int64_t count = checkedElementCount(ctx, shape);
  Tensor tensor{elementType, shape, {}, {}};
  if (tensor.isFloat())
    tensor.floats.assign(count, 0.0);
  else
    tensor.ints.assign(count, 0);
  return tensor;
}

int64_t scalarIndex(const OpContext& ctx, const Tensor& tensor, const std::string& what) {
  if (tensor.isFloat() || tensor.ints.size() != 1)
    fail(ctx, what + " must be a 0-d integer tensor, found " + describeType(tensor));
  return tensor.ints[0];
}

std::vector<int64_t> indexVector(const OpContext& ctx, const Tensor& tensor, int64_t length,
                                 const std::string& what) {
  if (tensor.isFloat() || tensor.shape.size() != 1 || tensor.shape[0] != length)
    fail(ctx, what + " must be a 1-d integer tensor of " + std::to_string(length) +
                  " elements, found " + describeType(tensor));
  return tensor.ints;
}

std::string formatIndex(const std::vector<int64_t>& index) {
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

std::string formatElement(const Tensor& tensor, int64_t position) {
  if (!tensor.isFloat()) {
    int64_t value = tensor.ints.at(position);
    if (isBooleanType(tensor.element_type)) return value ? "true" : "false";
    if (isUnsignedType(tensor.element_type)) return std::to_string(static_cast<uint64_t>(value));
    return std::to_string(value);
  }
  double value = tensor.floats.at(position);
  // NaN and the infinities as MLIR writes them, bits in hex, so that the text reads back.
  if (std::isnan(value) || std::isinf(value)) {
    const std::string& type = tensor.element_type;
    const bool negative = std::signbit(value), nan = std::isnan(value);
    const char* bits = type == "f16"    ? (nan ? "7E00" : "7C00")
                       : type == "bf16" ? (nan ? "7FC0" : "7F80")
                       : type == "f32"  ? (nan ? "7FC00000" : "7F800000")
                                        : (nan ? "7FF8000000000000" : "7FF0000000000000");
    std::string text = std::string("0x") + bits;
    if (negative) text[2] = 'F';  // the sign bit: 7 becomes F
    return text;
  }
  char buffer[64];
  // Narrow float values are exact floats, whose shortest form is the readable one.
  std::to_chars_result written =
      tensor.element_type == "f64"
          ? std::to_chars(buffer, buffer + sizeof buffer, value)
          : std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
  return std::string(buffer, written.ptr);
}

std::string describeType(const Tensor& tensor) {
  std::string text = "tensor<";
  for (int64_t size : tensor.shape) text += std::to_string(size) + "x";
  return text + tensor.element_type + ">";
}

Tensor tensorFromDense(const OpContext& ctx, const mlir_ir::DenseElements& dense) {
  return tensorOfDense(dense, ctx.op.location, ctx.op.name);
}

}  // namespace idxmap::mlir_interpreter
