// Dense literals: `dense<[[1, 2], [3, 4]]>`, `dense<0.5>` (splat), `dense<"0x0100...">` (hex,
// little-endian), `dense<>` (no elements). The literal is read first and its values are
// checked against the type afterwards, because pretty constants write the type last.
#include "ops/mlir/dense_values.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "ops/mlir/attribute_parser.h"

namespace idxmap::mlir_ir {
namespace {

__extension__ using Int128 = __int128;  // wide enough for any 64-bit magnitude and sign

// The magnitude of a digit string, or -1 when it exceeds 2^64 (more than any width needs).
Int128 magnitude(std::string_view digits, int base) {
  Int128 value = 0;
  for (char c : digits) {
    int digit = std::isdigit(static_cast<unsigned char>(c))
                    ? c - '0'
                    : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    value = value * base + digit;
    if (value > (Int128{1} << 64)) return -1;
  }
  return value;
}

double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  double value;
  if (exponent == 0) {
    value = std::ldexp(fraction, -24);
  } else if (exponent == 31) {
    value = fraction ? std::nan("") : INFINITY;
  } else {
    value = std::ldexp(fraction + 1024, exponent - 25);
  }
  return sign ? -value : value;
}

int byteWidth(const ElementType& type) { return type.bitWidth() <= 8 ? 1 : type.bitWidth() / 8; }

}  // namespace

int64_t integerValue(const MlirCursor& cursor, std::string_view text, size_t offset, int bitWidth,
                     bool isSigned) {
  bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  Int128 value = magnitude(hex ? text.substr(2) : text, hex ? 16 : 10);
  std::string width = (isSigned ? "i" : "ui") + std::to_string(bitWidth);
  if (value < 0) throw cursor.error(offset, "integer does not fit in " + width);
  if (negative) value = -value;
  Int128 low = isSigned ? -(Int128{1} << (bitWidth - 1)) : 0;
  Int128 high = (Int128{1} << bitWidth) - 1;
  if (bitWidth == 1) low = negative ? -1 : 0;  // i1: 0, 1 (and -1, all bits set)
  if (value < low || value > high) throw cursor.error(offset, "integer does not fit in " + width);
  if (bitWidth == 1) return value != 0;
  if (isSigned && value >= (Int128{1} << (bitWidth - 1))) value -= Int128{1} << bitWidth;
  return static_cast<int64_t>(static_cast<uint64_t>(value));  // ui64 keeps its bit pattern
}

double floatFromBits(const MlirCursor& cursor, uint64_t bits, const ElementType& type,
                     size_t offset) {
  int width = type.bitWidth();
  if (width < 64 && bits >> width != 0) {
    throw cursor.error(offset, "hex value does not fit in " + type.toString());
  }
  switch (type.kind) {
    case ElementKind::F16:
      return halfToDouble(static_cast<uint16_t>(bits));
    case ElementKind::BF16:
    case ElementKind::F32: {
      uint32_t word = type.kind == ElementKind::BF16 ? static_cast<uint32_t>(bits) << 16
                                                     : static_cast<uint32_t>(bits);
      float value;
      std::memcpy(&value, &word, sizeof value);
      return value;
    }
    case ElementKind::F64: {
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    default:
      throw cursor.error(offset, "hex float of type " + type.toString() + " is not supported");
  }
}

DenseLiteral MlirAttributeParser::parseDenseLiteral() {
  cursor_.skipSpace();
  DenseLiteral literal;
  literal.offset = cursor_.offset();
  cursor_.bareId("dense");
  cursor_.expect('<', "after 'dense'");
  if (cursor_.accept('>')) return literal;  // `dense<>`: no elements
  char c = cursor_.peek();
  if (c == '"') {
    size_t at = cursor_.offset();
    std::string hex = cursor_.stringLiteral("a hex string");
    if (hex.size() < 2 || hex.substr(0, 2) != "0x" || hex.size() % 2 != 0) {
      throw cursor_.error(at, "dense hex string must be \"0x\" and an even number of digits");
    }
    for (size_t i = 2; i < hex.size(); i += 2) {
      Int128 byte = magnitude(std::string_view{hex}.substr(i, 2), 16);
      if (!std::isxdigit(static_cast<unsigned char>(hex[i])) ||
          !std::isxdigit(static_cast<unsigned char>(hex[i + 1]))) {
        throw cursor_.error(at, "dense hex string holds a non-hex digit");
      }
      literal.hexBytes += static_cast<char>(static_cast<unsigned char>(byte));
    }
    literal.isHex = true;
  } else if (c == '[') {
    parseDenseList(literal, 0);
  } else {
    literal.isSplat = true;
    literal.values.push_back(parseDenseScalar());
  }
  cursor_.expect('>', "to close the dense literal");
  return literal;
}

// One `[...]` at nesting `level`; sibling lists must have the same shape.
void MlirAttributeParser::parseDenseList(DenseLiteral& literal, size_t level) {
  NestingGuard guard(cursor_, depth_);
  cursor_.skipSpace();
  size_t open = cursor_.offset();
  cursor_.expect('[', "to open a dense list");
  int64_t count = 0;
  bool holdsLists = false;
  if (cursor_.peek() != ']') {
    holdsLists = cursor_.peek() == '[';
    do {
      if (holdsLists != (cursor_.peek() == '[')) {
        throw cursor_.errorHere("dense list mixes lists and scalars");
      }
      if (holdsLists) {
        parseDenseList(literal, level + 1);
      } else {
        literal.values.push_back(parseDenseScalar());
      }
      ++count;
    } while (cursor_.accept(','));
  }
  cursor_.expect(']', "to close the dense list");
  // The first list at a level fixes that level's size; every later one must agree.
  if (literal.shape.size() <= level) {
    literal.shape.resize(level + 1, -1);
  }
  if (literal.shape[level] == -1) {
    literal.shape[level] = count;
  } else if (literal.shape[level] != count) {
    throw cursor_.error(open, "dense list has " + std::to_string(count) + " elements where its " +
                                  "siblings have " + std::to_string(literal.shape[level]));
  }
  if (!holdsLists && literal.shape.size() > level + 1) {
    throw cursor_.error(open, "dense lists nest to different depths");
  }
}

DenseScalar MlirAttributeParser::parseDenseScalar() {
  cursor_.skipSpace();
  DenseScalar scalar;
  scalar.offset = cursor_.offset();
  std::string_view word = cursor_.peekBareId();
  if (word == "true" || word == "false") {
    scalar.kind = DenseScalar::Kind::Bool;
    scalar.text = cursor_.bareId("a boolean");
    return scalar;
  }
  if (cursor_.accept('(')) {  // `(1.0, -2.0)`: a complex value
    scalar.kind = DenseScalar::Kind::Complex;
    scalar.text = cursor_.number("the real part of a complex value").text;
    cursor_.expect(',', "between a complex value's real and imaginary parts");
    scalar.imaginary = cursor_.number("the imaginary part of a complex value").text;
    cursor_.expect(')', "to close a complex value");
    return scalar;
  }
  NumberToken token = cursor_.number("a number");
  scalar.text = token.text;
  scalar.kind = token.isFloat ? DenseScalar::Kind::Float
                : token.isHex ? DenseScalar::Kind::HexBits
                              : DenseScalar::Kind::Integer;
  return scalar;
}

std::shared_ptr<const DenseElements> MlirAttributeParser::resolveDense(const DenseLiteral& literal,
                                                                       const Type& type,
                                                                       size_t typeOffset) {
  if (!type.isTensor || type.isOpaque()) {
    throw cursor_.error(typeOffset, "dense attribute needs a tensor type");
  }
  if (!type.hasStaticShape()) {
    throw cursor_.error(typeOffset, "dense attribute needs a static shape");
  }
  int64_t count = *type.elementCount();  // the type parser bounds it
  auto elements = std::make_shared<DenseElements>();
  elements->type = type;
  const ElementType element = type.elementType();
  bool isFloat = element.isFloat();

  if (literal.isHex) {
    if (element.kind == ElementKind::Other) {
      throw cursor_.error(literal.offset,
                          "hex dense of type " + element.toString() + " is not supported");
    }
    int width = byteWidth(element);
    int64_t bytes = static_cast<int64_t>(literal.hexBytes.size());
    elements->isSplat = bytes == width && count != 1;
    int64_t values = bytes / width;
    if (bytes % width != 0 || (!elements->isSplat && values != count)) {
      throw cursor_.error(literal.offset, "dense hex has " + std::to_string(bytes) + " bytes; " +
                                              type.toString() + " needs " + std::to_string(count) +
                                              " x " + std::to_string(width));
    }
    for (int64_t i = 0; i < values; ++i) {
      uint64_t bits = 0;
      for (int b = width - 1; b >= 0; --b) {
        bits = bits << 8 | static_cast<unsigned char>(literal.hexBytes[i * width + b]);
      }
      if (isFloat) {
        elements->floats.push_back(floatFromBits(cursor_, bits, element, literal.offset));
      } else if (element.bitWidth() == 1) {
        elements->ints.push_back(bits != 0);
      } else {
        int shift = 64 - element.bitWidth();  // sign-extend signless, keep unsigned
        int64_t value = element.isSigned() && shift > 0
                            ? static_cast<int64_t>(bits << shift) >> shift
                            : static_cast<int64_t>(bits);
        elements->ints.push_back(value);
      }
    }
    return elements;
  }

  int64_t written = static_cast<int64_t>(literal.values.size());
  elements->isSplat = literal.isSplat;
  if (!literal.isSplat && written != count) {
    throw cursor_.error(literal.offset, "dense literal has " + std::to_string(written) +
                                            " elements but " + type.toString() + " has " +
                                            std::to_string(count));
  }
  if (!literal.isSplat && count > 0 && literal.shape != type.shape) {
    throw cursor_.error(literal.offset,
                        "dense literal's nesting does not match the shape of " + type.toString());
  }
  bool isComplex = element.toString().rfind("complex<", 0) == 0;
  for (const DenseScalar& scalar : literal.values) {
    if ((scalar.kind == DenseScalar::Kind::Complex) != isComplex)
      throw cursor_.error(scalar.offset,
                          isComplex ? "expected a complex value `(re, im)` in a "
                                      "dense literal of " +
                                          element.toString()
                                    : "complex value in a dense literal of " + element.toString());
    if (!isComplex) continue;
    for (std::string_view part : {scalar.text, scalar.imaginary})
      elements->complexParts.push_back(std::strtod(std::string(part).c_str(), nullptr));
  }
  if (isComplex) return elements;
  // Other element types (quantized) keep floats if any value is one.
  bool storeFloats = isFloat;
  if (element.kind == ElementKind::Other) {
    for (const DenseScalar& scalar : literal.values) {
      storeFloats = storeFloats || scalar.kind == DenseScalar::Kind::Float;
    }
  }
  for (const DenseScalar& scalar : literal.values) {
    if (storeFloats) {
      if (scalar.kind == DenseScalar::Kind::Bool) {
        throw cursor_.error(scalar.offset, "boolean in a float dense literal");
      }
      if (scalar.kind == DenseScalar::Kind::HexBits && isFloat) {
        uint64_t bits =
            static_cast<uint64_t>(integerValue(cursor_, scalar.text, scalar.offset, 64, false));
        elements->floats.push_back(floatFromBits(cursor_, bits, element, scalar.offset));
      } else {
        elements->floats.push_back(std::strtod(std::string(scalar.text).c_str(), nullptr));
      }
      continue;
    }
    if (scalar.kind == DenseScalar::Kind::Float) {
      throw cursor_.error(scalar.offset, "float in a dense literal of " + element.toString());
    }
    if (scalar.kind == DenseScalar::Kind::Bool) {
      elements->ints.push_back(scalar.text == "true");
      continue;
    }
    int width = element.kind == ElementKind::Other ? 64 : element.bitWidth();
    bool isSigned = element.kind == ElementKind::Other || element.isSigned() || width == 1;
    elements->ints.push_back(integerValue(cursor_, scalar.text, scalar.offset, width, isSigned));
  }
  return elements;
}

}  // namespace idxmap::mlir_ir
