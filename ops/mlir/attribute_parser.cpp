#include "ops/mlir/attribute_parser.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "ops/mlir/dense_values.h"
#include "ops/mlir/type_parser.h"

namespace idxmap::mlir_ir {
namespace {

// Opaque attribute forms `name<...>` whose content the model does not read.
bool isOpaqueAttributeName(std::string_view name) {
  return name == "affine_map" || name == "affine_set" || name == "dense_resource" ||
         name == "sparse" || name == "opaque" || name == "strided" || name == "distinct";
}

Attribute makeType(Type type, SourceLocation location) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::Type;
  attribute.type = std::move(type);
  attribute.location = std::move(location);
  return attribute;
}

}  // namespace

Attribute MlirAttributeParser::parseAttribute(TypeSuffix suffix) {
  NestingGuard guard(cursor_, depth_);
  cursor_.skipSpace();
  size_t begin = cursor_.offset();
  SourceLocation location = cursor_.location(begin);
  char c = cursor_.peek();
  Attribute attribute;
  attribute.location = location;
  if (cursor_.atNumber()) return parseNumber(suffix);
  if (c == '[') return parseList();
  if (c == '{') {
    attribute.kind = Attribute::Kind::Dictionary;
    attribute.fields = parseDictionary();
    return attribute;
  }
  if (c == '#') return parseHashAttribute();
  if (c == '<') {  // an op's own attribute syntax (dot_general's `algorithm = <...>`): as written
    cursor_.balanced("attribute");
    attribute.kind = Attribute::Kind::Opaque;
    attribute.text = std::string(cursor_.source().text().substr(begin, cursor_.offset() - begin));
    return attribute;
  }
  if (c == '"') {
    attribute.kind = Attribute::Kind::String;
    attribute.text = cursor_.stringLiteral("a string");
    if (suffix == TypeSuffix::Consume && cursor_.accept(':')) attribute.type = parseType(cursor_);
    return attribute;
  }
  if (c == '@') {
    attribute.kind = Attribute::Kind::SymbolRef;
    attribute.text = cursor_.suffixId('@', "a symbol");
    return attribute;
  }
  std::string_view word = cursor_.peekBareId();
  if (word == "true" || word == "false") {
    cursor_.bareId("a boolean");
    attribute.kind = Attribute::Kind::Bool;
    attribute.intValue = word == "true";
    return attribute;
  }
  if (word == "unit") {
    cursor_.bareId("unit");
    return attribute;
  }
  if (word == "dense") {
    DenseLiteral literal = parseDenseLiteral();
    cursor_.expect(':', "and the type of the dense attribute");
    cursor_.skipSpace();
    size_t typeOffset = cursor_.offset();
    Type type = parseType(cursor_);
    attribute.kind = Attribute::Kind::Dense;
    attribute.dense = resolveDense(literal, type, typeOffset);
    attribute.type = std::move(type);
    return attribute;
  }
  if (word == "array") return parseDenseArray();
  if (isOpaqueAttributeName(word)) {
    cursor_.bareId("an attribute");
    if (cursor_.peekRaw() == '<' || cursor_.peekRaw() == '[') cursor_.balanced("attribute");
    attribute.kind = Attribute::Kind::Opaque;
    attribute.text = std::string(cursor_.source().text().substr(begin, cursor_.offset() - begin));
    return attribute;
  }
  if (atType(cursor_)) return makeType(parseType(cursor_), location);
  if (!word.empty()) {  // an enum keyword such as `LT`
    cursor_.bareId("an attribute");
    attribute.kind = Attribute::Kind::Opaque;
    attribute.text = std::string(word);
    return attribute;
  }
  throw cursor_.expected("an attribute value");
}

Attribute MlirAttributeParser::parseNumber(TypeSuffix suffix) {
  NumberToken token = cursor_.number("a number");
  Attribute attribute;
  attribute.location = cursor_.location(token.offset);
  if (token.isFloat) {
    attribute.kind = Attribute::Kind::Float;
    attribute.floatValue = std::strtod(std::string(token.text).c_str(), nullptr);
  } else {
    attribute.kind = Attribute::Kind::Integer;
    attribute.intValue = integerValue(cursor_, token.text, token.offset, 64, true);
  }
  if (suffix == TypeSuffix::Consume && cursor_.accept(':')) {
    attribute.type = parseType(cursor_);
    if (attribute.kind == Attribute::Kind::Integer && attribute.type->elementType().isFloat()) {
      attribute.kind = Attribute::Kind::Float;  // `1 : f32`
      attribute.floatValue = static_cast<double>(attribute.intValue);
    }
  }
  return attribute;
}

// `[...]`: an IntArray when every element is an integer (dimension lists), else an Array.
Attribute MlirAttributeParser::parseList() {
  Attribute attribute;
  attribute.location = cursor_.location(cursor_.offset());
  cursor_.expect('[', "to open a list");
  if (!cursor_.accept(']')) {
    do {
      attribute.elements.push_back(parseAttribute(TypeSuffix::Consume));
    } while (cursor_.accept(','));
    cursor_.expect(']', "to close the list");
  }
  bool allIntegers = true;
  for (const Attribute& element : attribute.elements) {
    allIntegers = allIntegers && element.kind == Attribute::Kind::Integer;
  }
  if (!allIntegers) {
    attribute.kind = Attribute::Kind::Array;
    return attribute;
  }
  attribute.kind = Attribute::Kind::IntArray;
  for (const Attribute& element : attribute.elements) attribute.ints.push_back(element.intValue);
  attribute.elements.clear();
  return attribute;
}

// `array<i64: 1, 2>`, `array<i1: true, false>`, `array<i64>`, `array<f32: 1.5>`.
Attribute MlirAttributeParser::parseDenseArray() {
  Attribute attribute;
  attribute.location = cursor_.location(cursor_.offset());
  cursor_.bareId("array");
  cursor_.expect('<', "after 'array'");
  Type element = parseType(cursor_);
  if (element.isTensor || element.isOpaque()) {
    throw cursor_.error(cursor_.offset(), "array<...> needs a scalar element type");
  }
  std::vector<Attribute> values;
  if (cursor_.accept(':')) {
    do {
      values.push_back(parseAttribute(TypeSuffix::Leave));
    } while (cursor_.accept(','));
  }
  cursor_.expect('>', "to close the array");
  attribute.type = element;
  if (element.elementType().isFloat()) {
    attribute.kind = Attribute::Kind::Array;
    for (Attribute& value : values) {
      if (value.kind == Attribute::Kind::Integer) {
        value.kind = Attribute::Kind::Float;
        value.floatValue = static_cast<double>(value.intValue);
      }
      if (value.kind != Attribute::Kind::Float) {
        throw cursor_.error(cursor_.offset(), "array of floats holds a non-number");
      }
    }
    attribute.elements = std::move(values);
    return attribute;
  }
  attribute.kind = Attribute::Kind::IntArray;
  for (const Attribute& value : values) {
    if (value.kind != Attribute::Kind::Integer && value.kind != Attribute::Kind::Bool) {
      throw cursor_.error(cursor_.offset(), "array of integers holds a non-integer");
    }
    attribute.ints.push_back(value.intValue);
  }
  return attribute;
}

// `#stablehlo.gather<name = value, ...>` and the like become Structured; other `#...`
// attributes (`#stablehlo<comparison_direction LT>`, aliases) are kept as text.
Attribute MlirAttributeParser::parseHashAttribute() {
  cursor_.skipSpace();
  size_t begin = cursor_.offset();
  Attribute attribute;
  attribute.location = cursor_.location(begin);
  std::string name = cursor_.suffixId('#', "an attribute");
  bool isDimensionNumbers = name == "stablehlo.gather" || name == "stablehlo.scatter";
  if (cursor_.peekRaw() == '<') {
    size_t angle = cursor_.offset();
    attribute.kind = Attribute::Kind::Structured;
    attribute.text = name;
    std::vector<size_t> fieldOffsets;
    if (isDimensionNumbers) {
      if (!tryParseStructuredFields(attribute, fieldOffsets)) {
        throw cursor_.expected("'=' after a field name");
      }
      checkDimensionNumbers(attribute, fieldOffsets);
      return attribute;
    }
    try {
      if (tryParseStructuredFields(attribute, fieldOffsets)) return attribute;
    } catch (const ParseError&) {
      // Not `name = value` fields: keep the text below.
    }
    attribute.fields.clear();
    cursor_.reset(angle);
    cursor_.balanced("attribute");
  }
  attribute.kind = Attribute::Kind::Opaque;
  attribute.text = std::string(cursor_.source().text().substr(begin, cursor_.offset() - begin));
  return attribute;
}

// StableHLO's parser rejects these, so the reader does too: a consumer of
// `#stablehlo.gather<...>` / `#stablehlo.scatter<...>` may rely on each field being known,
// written once, and an integer list (index_vector_dim: an integer).
void MlirAttributeParser::checkDimensionNumbers(const Attribute& attribute,
                                                const std::vector<size_t>& fieldOffsets) {
  static const std::vector<std::string_view> kGatherFields = {
      "offset_dims",           "collapsed_slice_dims",
      "operand_batching_dims", "start_indices_batching_dims",
      "start_index_map",       "index_vector_dim"};
  static const std::vector<std::string_view> kScatterFields = {
      "update_window_dims",           "inserted_window_dims",
      "input_batching_dims",          "scatter_indices_batching_dims",
      "scatter_dims_to_operand_dims", "index_vector_dim"};
  const auto& known = attribute.text == "stablehlo.gather" ? kGatherFields : kScatterFields;
  for (size_t i = 0; i < attribute.fields.size(); ++i) {
    const NamedAttribute& field = attribute.fields[i];
    auto fail = [&](const std::string& message) {
      return cursor_.error(fieldOffsets.at(i), message + " in #" + attribute.text);
    };
    if (std::find(known.begin(), known.end(), field.name) == known.end()) {
      throw fail("unknown field `" + field.name + "`");
    }
    for (size_t j = 0; j < i; ++j) {
      if (attribute.fields[j].name == field.name) {
        throw fail("duplicated `" + field.name + "` entry");
      }
    }
    bool isIndexVectorDim = field.name == "index_vector_dim";
    if (isIndexVectorDim ? field.value.kind != Attribute::Kind::Integer
                         : field.value.kind != Attribute::Kind::IntArray) {
      throw fail("`" + field.name + "` must be " +
                 (isIndexVectorDim ? "an integer" : "a list of integers"));
    }
  }
}

// `<name = value, ...>`; false (cursor unspecified) when a field is not `name = value`.
bool MlirAttributeParser::tryParseStructuredFields(Attribute& attribute,
                                                   std::vector<size_t>& fieldOffsets) {
  cursor_.expect('<', "to open the attribute's fields");
  if (cursor_.accept('>')) return true;
  do {
    if (cursor_.peek() == '>') break;  // a trailing comma, as StableHLO's tests write
    cursor_.skipSpace();
    size_t at = cursor_.offset();
    if (!cursor_.atBareId()) return false;
    std::string fieldName(cursor_.bareId("a field name"));
    fieldOffsets.push_back(at);
    if (!cursor_.accept('=')) return false;
    attribute.fields.push_back(
        {fieldName, parseAttribute(TypeSuffix::Consume), cursor_.location(at)});
  } while (cursor_.accept(','));
  cursor_.expect('>', "to close the attribute's fields");
  return true;
}

std::vector<NamedAttribute> MlirAttributeParser::parseDictionary() {
  NestingGuard guard(cursor_, depth_);
  std::vector<NamedAttribute> entries;
  cursor_.expect('{', "to open an attribute dictionary");
  if (cursor_.accept('}')) return entries;
  do {
    cursor_.skipSpace();
    size_t at = cursor_.offset();
    std::string name = cursor_.peek() == '"' ? cursor_.stringLiteral("an attribute name")
                                             : std::string(cursor_.bareId("an attribute name"));
    Attribute value;  // Unit unless `= value`
    value.location = cursor_.location(at);
    if (cursor_.accept('=')) value = parseAttribute(TypeSuffix::Consume);
    entries.push_back({std::move(name), std::move(value), cursor_.location(at)});
  } while (cursor_.accept(','));
  cursor_.expect('}', "to close the attribute dictionary");
  return entries;
}

}  // namespace idxmap::mlir_ir
