#include "ops/mlir/type_parser.h"

#include <cctype>

namespace idxmap::mlir_ir {
namespace {

// Above this a dimension is surely a typo or an attack; it also leaves room to multiply.
constexpr int64_t kMaxDim = int64_t{1} << 62;

bool allDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!isDigit(c)) return false;
  }
  return true;
}

// Integer and float type names the model does not enumerate (`i4`, `si32`, `f8E4M3FN`,
// `tf32`): still element types, read as Other.
bool isOtherScalarTypeName(std::string_view name) {
  if (name.substr(0, 2) == "si" || name.substr(0, 2) == "ui") return allDigits(name.substr(2));
  if (name.substr(0, 1) == "i") return allDigits(name.substr(1));
  if (name == "tf32") return true;
  return name.size() > 1 && name[0] == 'f' && isDigit(name[1]);
}

// Names whose type continues with `<...>` and that the model keeps as text.
bool isOpaqueTypeName(std::string_view name) {
  return name == "tuple" || name == "memref" || name == "vector" || name == "complex" ||
         name == "none";
}

void skipAngles(MlirCursor& cursor, std::string_view what) {
  if (cursor.peekRaw() == '<') cursor.balanced(what);
}

// The element type at the cursor: an enumerated name, another scalar name, `complex<...>`
// or a dialect type `!quant.uniform<...>`.
ElementType parseElementType(MlirCursor& cursor, const SourceText& source) {
  cursor.skipSpace();
  size_t begin = cursor.offset();
  if (cursor.peek() == '!') {
    cursor.suffixId('!', "a dialect type");
    skipAngles(cursor, "dialect type");
    return ElementType{ElementKind::Other,
                       std::string(source.text().substr(begin, cursor.offset() - begin))};
  }
  std::string_view name = cursor.bareId("an element type");
  if (auto known = ElementType::fromName(name)) return *known;
  if (name == "complex") {
    skipAngles(cursor, "complex type");
  } else if (!isOtherScalarTypeName(name)) {
    throw cursor.error(begin, "unknown element type '" + std::string(name) + "'");
  }
  return ElementType{ElementKind::Other,
                     std::string(source.text().substr(begin, cursor.offset() - begin))};
}

std::vector<int64_t> parseBoundList(MlirCursor& cursor, char closer) {
  std::vector<int64_t> bounds;
  if (cursor.accept(closer)) return bounds;
  do {
    if (cursor.accept('?')) {
      bounds.push_back(kDynamic);
      continue;
    }
    cursor.skipSpace();
    size_t at = cursor.offset();
    int64_t bound = cursor.integer("a bound or '?'");
    if (bound < 0 || bound > kMaxDim) throw cursor.error(at, "bound out of range");
    bounds.push_back(bound);
  } while (cursor.accept(','));
  cursor.expect(closer, "after the bounds");
  return bounds;
}

// `#stablehlo.bounds<...>` or `#stablehlo.type_extensions<bounds = [...]>` (spec 002);
// any other encoding is skipped.
std::vector<int64_t> parseEncoding(MlirCursor& cursor, int64_t rank) {
  cursor.skipSpace();
  size_t begin = cursor.offset();
  std::string name = cursor.suffixId('#', "a tensor encoding");
  std::vector<int64_t> bounds;
  if (name == "stablehlo.bounds") {
    cursor.expect('<', "after #stablehlo.bounds");
    bounds = parseBoundList(cursor, '>');
  } else if (name == "stablehlo.type_extensions") {
    cursor.expect('<', "after #stablehlo.type_extensions");
    if (!cursor.acceptWord("bounds")) throw cursor.expected("'bounds'");
    cursor.expect('=', "after 'bounds'");
    cursor.expect('[', "before the bounds");
    bounds = parseBoundList(cursor, ']');
    cursor.expect('>', "after the type extensions");
  } else {
    if (cursor.peekRaw() == '<') cursor.balanced("tensor encoding");
    return {};
  }
  if (static_cast<int64_t>(bounds.size()) != rank) {
    throw cursor.error(begin, "bounds has " + std::to_string(bounds.size()) +
                                  " entries for a tensor of rank " + std::to_string(rank));
  }
  return bounds;
}

Type parseTensorType(MlirCursor& cursor, const SourceText& source, size_t begin) {
  cursor.expect('<', "after 'tensor'");
  Type type;
  if (cursor.peek() == '*') {  // unranked: no dims to model
    cursor.reset(begin);
    cursor.bareId("tensor");
    type.opaque = "tensor" + std::string(cursor.balanced("unranked tensor type"));
    return type;
  }
  int64_t elements = 1;
  while (true) {
    cursor.skipSpace();
    size_t at = cursor.offset();
    if (cursor.peekRaw() == '?') {
      cursor.accept('?');
      type.shape.push_back(kDynamic);
    } else if (isDigit(cursor.peekRaw())) {
      int64_t dim = 0;
      // Digits only: `0x3xf32` is a zero dim, not hex.
      while (isDigit(cursor.peekRaw())) {
        int digit = cursor.peekRaw() - '0';
        if (__builtin_mul_overflow(dim, 10, &dim) || __builtin_add_overflow(dim, digit, &dim) ||
            dim > kMaxDim) {
          throw cursor.error(at, "dimension size too large (above 2^62)");
        }
        cursor.reset(cursor.offset() + 1);
      }
      type.shape.push_back(dim);
      if (__builtin_mul_overflow(elements, dim, &elements)) {
        throw cursor.error(at, "tensor type has more elements than fit in int64");
      }
    } else {
      break;
    }
    if (cursor.peekRaw() != 'x') throw cursor.expected("'x' after a dimension");
    cursor.reset(cursor.offset() + 1);
  }
  type.element_type = parseElementType(cursor, source).toString();
  if (cursor.accept(',')) type.bounds = parseEncoding(cursor, type.rank());
  cursor.expect('>', "to close the tensor type");
  return type;
}

}  // namespace

bool atType(MlirCursor& cursor) {
  if (cursor.peek() == '!') return true;
  std::string_view name = cursor.peekBareId();
  if (name.empty()) return false;
  return name == "tensor" || isOpaqueTypeName(name) || ElementType::fromName(name) ||
         isOtherScalarTypeName(name);
}

Type parseType(MlirCursor& cursor) {
  const SourceText& source = cursor.source();
  cursor.skipSpace();
  size_t begin = cursor.offset();
  std::string_view name = cursor.peekBareId();
  if (name == "tensor") {
    cursor.bareId("tensor");
    return parseTensorType(cursor, source, begin);
  }
  if (isOpaqueTypeName(name) && name != "complex") {
    cursor.bareId("a type");
    if (cursor.peekRaw() == '<') cursor.balanced("type");
    Type type;
    type.opaque = std::string(source.text().substr(begin, cursor.offset() - begin));
    return type;
  }
  if (name.empty() && cursor.peek() != '!') throw cursor.expected("a type");
  Type type;
  type.isTensor = false;
  type.element_type = parseElementType(cursor, source).toString();
  return type;
}

std::vector<Type> parseResultTypes(MlirCursor& cursor) {
  std::vector<Type> types;
  if (!cursor.accept('(')) {
    types.push_back(parseType(cursor));
    return types;
  }
  if (cursor.accept(')')) return types;
  do {
    types.push_back(parseType(cursor));
    if (cursor.peek() == '{') cursor.balanced("result attributes");
  } while (cursor.accept(','));
  cursor.expect(')', "to close the result types");
  return types;
}

}  // namespace idxmap::mlir_ir
