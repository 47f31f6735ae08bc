#include "ops/mlir/module.h"

#include <array>

#include "core/checked.h"
#include "core/text_source.h"
#include "ops/mlir/lexer.h"

namespace idxmap::mlir_ir {
namespace {

struct ElementInfo {
  ElementKind kind;
  std::string_view name;
  int bitWidth;
};

constexpr std::array<ElementInfo, 14> kElementTypes = {{
    {ElementKind::I1, "i1", 1},
    {ElementKind::I8, "i8", 8},
    {ElementKind::I16, "i16", 16},
    {ElementKind::I32, "i32", 32},
    {ElementKind::I64, "i64", 64},
    {ElementKind::UI8, "ui8", 8},
    {ElementKind::UI16, "ui16", 16},
    {ElementKind::UI32, "ui32", 32},
    {ElementKind::UI64, "ui64", 64},
    {ElementKind::F16, "f16", 16},
    {ElementKind::BF16, "bf16", 16},
    {ElementKind::F32, "f32", 32},
    {ElementKind::F64, "f64", 64},
    {ElementKind::Index, "index", 64},
}};

const ElementInfo* infoOf(ElementKind kind) {
  for (const ElementInfo& info : kElementTypes) {
    if (info.kind == kind) return &info;
  }
  return nullptr;
}

std::string dimsText(const std::vector<int64_t>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += values[i] == kDynamic ? "?" : std::to_string(values[i]);
  }
  return text;
}

const NamedAttribute* findNamed(const std::vector<NamedAttribute>& list, std::string_view name) {
  for (const NamedAttribute& named : list) {
    if (named.name == name) return &named;
  }
  return nullptr;
}

}  // namespace

std::optional<ElementType> ElementType::fromName(std::string_view name) {
  for (const ElementInfo& info : kElementTypes) {
    if (info.name == name) return ElementType{info.kind, ""};
  }
  return std::nullopt;
}

int ElementType::bitWidth() const {
  const ElementInfo* info = infoOf(kind);
  return info ? info->bitWidth : 0;
}

bool ElementType::isFloat() const {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 || kind == ElementKind::F32 ||
         kind == ElementKind::F64;
}

bool ElementType::isInteger() const { return kind != ElementKind::Other && !isFloat(); }

bool ElementType::isSigned() const {
  switch (kind) {
    case ElementKind::I8:
    case ElementKind::I16:
    case ElementKind::I32:
    case ElementKind::I64:
    case ElementKind::Index:
      return true;
    default:
      return false;
  }
}

std::string ElementType::toString() const {
  const ElementInfo* info = infoOf(kind);
  return info ? std::string(info->name) : text;
}

ElementType Type::elementType() const {
  if (std::optional<ElementType> known = ElementType::fromName(element_type)) return *known;
  return ElementType{ElementKind::Other, element_type};
}

std::optional<int64_t> Type::elementCount() const {
  if (!hasStaticShape()) return std::nullopt;
  try {
    return maxElementCount();  // a static shape's extents are its sizes
  } catch (const OverflowError&) {
    throw OverflowError("element count of " + toString() + " overflows int64");
  }
}

std::string Type::toString() const {
  if (isOpaque()) return opaque;
  if (!isTensor) return element_type;
  std::string text = "tensor<";
  for (int64_t dim : shape) text += (dim == kDynamic ? "?" : std::to_string(dim)) + "x";
  text += element_type;
  if (!bounds.empty()) text += ", #stablehlo.bounds<" + dimsText(bounds) + ">";
  return text + ">";
}

int64_t DenseElements::intAt(int64_t flatIndex) const {
  if (isSplat) return ints.empty() ? static_cast<int64_t>(floats.at(0)) : ints.at(0);
  if (ints.empty()) return static_cast<int64_t>(floats.at(flatIndex));
  return ints.at(flatIndex);
}

double DenseElements::floatAt(int64_t flatIndex) const {
  if (isSplat) return floats.empty() ? static_cast<double>(ints.at(0)) : floats.at(0);
  if (floats.empty()) return static_cast<double>(ints.at(flatIndex));
  return floats.at(flatIndex);
}

const Attribute* Attribute::field(std::string_view name) const {
  const NamedAttribute* named = findNamed(fields, name);
  return named ? &named->value : nullptr;
}

std::optional<int64_t> Attribute::asInt() const {
  if (kind == Kind::Integer || kind == Kind::Bool) return intValue;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Attribute::asInts() const {
  if (kind == Kind::IntArray) return ints;
  return std::nullopt;
}

std::string Value::toString() const {
  std::string text = "%" + name;
  if (resultNumber != 0) text += "#" + std::to_string(resultNumber);
  return text;
}

const Attribute* Operation::attribute(std::string_view attributeName) const {
  const NamedAttribute* named = namedAttribute(attributeName);
  return named ? &named->value : nullptr;
}

std::optional<std::string> Operation::namedWord(std::string_view name,
                                                const std::vector<std::string>& words) const {
  if (const Attribute* written = attribute(name)) {
    for (const std::string& word : words)
      if (written->text.find(" " + word + ">") != std::string::npos) return word;
    return std::nullopt;
  }
  for (const std::string& keyword : keywords)
    for (const std::string& word : words)
      if (keyword == word) return word;
  return "";
}

const NamedAttribute* Operation::namedAttribute(std::string_view attributeName) const {
  return findNamed(attributes, attributeName);
}

const Operation* Function::returnOp() const {
  if (body.blocks.empty() || body.blocks.back().operations.empty()) return nullptr;
  const Operation& last = body.blocks.back().operations.back();
  return last.name == "func.return" || last.name == "return" ? &last : nullptr;
}

const Operation* definingOp(const std::vector<Operation>& ops, const Value& value) {
  for (const Operation& op : ops) {
    for (const Value& result : op.results) {
      if (result == value) return &op;
    }
  }
  return nullptr;
}

const Operation* Function::definingOp(const Value& value) const {
  if (body.blocks.empty()) return nullptr;
  return mlir_ir::definingOp(body.blocks.front().operations, value);
}

const BlockArgument* Function::argument(const Value& value) const {
  for (const BlockArgument& argument : arguments) {
    if (argument.value == value) return &argument;
  }
  return nullptr;
}

const Function* Module::function(std::string_view name) const {
  for (const Function& function : functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

bool looksLikeMlir(std::string_view fileName, std::string_view text) {
  if (fileName.ends_with(".mlir")) return true;
  if (fileName.ends_with(".hlo")) return false;
  SourceText source(text, fileName);
  MlirCursor cursor(source);
  cursor.skipSpace();  // blank space and `//` comments
  std::string_view rest = text.substr(cursor.offset());
  for (std::string_view start : {"module", "func.func", "%", "\"", "#", "stablehlo."})
    if (rest.starts_with(start)) return true;
  return false;
}

}  // namespace idxmap::mlir_ir
