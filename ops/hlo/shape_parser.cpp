// HLO shapes: `f32[10,<=20]{1,0}`, `(f32[2], s32[])`, with the checks that keep sizes inside
// what int64 index arithmetic can hold.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "ops/hlo/shape_parser.h"

namespace idxmap::hlo {
namespace {

// Past 2^62 a dimension cannot be an index range whose arithmetic (d + 1, 2 * d) stays
// inside int64, so such a shape is refused as absurd rather than carried around.
constexpr int64_t kMaxDimension = int64_t{1} << 62;
constexpr int kMaxTupleNesting = 64;

// `10`, `<=10` (bounded dynamic) or `?` (unbounded dynamic), spec 002.
void parseDimension(HloCursor& cursor, Shape& shape) {
  cursor.skipSpace();
  size_t dimAt = cursor.offset();
  if (cursor.accept('?')) {
    shape.appendDim(kDynamic, true);
    return;
  }
  bool bounded = false;
  if (cursor.accept('<')) {
    cursor.expect('=', "in a bounded dimension '<=N'");
    bounded = true;
  }
  cursor.skipSpace();
  int64_t size = cursor.integer(bounded ? "a dimension bound" : "a dimension size");
  if (size > kMaxDimension)
    throw cursor.error(
        dimAt, "dimension size " + std::to_string(size) + " is too large (the limit is 2^62)");
  shape.appendDim(size, bounded);
}

// A layout brace holds digits (or tiling after ':'); a computation body never does, which
// tells `-> f32[10] {` (a signature, then the body) from `f32[10] {0}`.
bool atLayout(HloCursor& cursor) {
  if (cursor.peek() != '{') return false;
  std::string_view text = cursor.source().text();
  size_t i = cursor.offset() + 1;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool layout = i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                                    text[i] == '}' || text[i] == ':');
  return layout;
}

// The n of an `E(n)` among a layout's attributes (`T(8,128)E(4)`) as written, when one is.
std::optional<std::string_view> packedBits(std::string_view value) {
  for (size_t at = value.find("E("); at != std::string_view::npos; at = value.find("E(", at + 1)) {
    if (at > 0 && std::isalpha(static_cast<unsigned char>(value[at - 1]))) continue;
    size_t end = value.find(')', at);
    if (end != std::string_view::npos) return value.substr(at + 2, end - at - 2);
  }
  return std::nullopt;
}

void parseLayout(HloCursor& cursor, Shape& shape) {
  cursor.skipSpace();
  size_t layoutAt = cursor.offset();
  cursor.expect('{', "to open the layout");
  std::vector<int64_t> minorToMajor;
  if (std::isdigit(static_cast<unsigned char>(cursor.peek()))) {
    do {
      minorToMajor.push_back(cursor.integer("a layout dimension"));
    } while (cursor.accept(','));
  }
  // Tiling, memory space and the like (`{1,0:T(8,128)S(1)}`) do not change indexing; an
  // element size (`E(4)`: sub-byte elements packed in bytes) changes what a buffer holds.
  if (cursor.accept(':')) {
    while (cursor.peek() != '}' && !cursor.atEnd()) {
      if (cursor.peek() == '(') {
        cursor.balancedParens("in the layout");
      } else {
        size_t valueAt = cursor.offset();
        std::string_view value = cursor.attributeValue("layout");
        if (std::optional<std::string_view> bits = packedBits(value)) {
          const bool digits = !bits->empty() && bits->size() <= 2 &&
                              bits->find_first_not_of("0123456789") == std::string_view::npos;
          shape.packedBits = digits ? std::stoi(std::string(*bits)) : 0;
          if (shape.packedBits < 1 || shape.packedBits > 64)
            throw cursor.error(valueAt + static_cast<size_t>(bits->data() - value.data()) - 2,
                               "layout element size E(" + std::string(*bits) +
                                   ") is not a width from 1 to 64 bits");
        }
      }
    }
  }
  cursor.expect('}', "to close the layout");
  std::vector<int64_t> sorted = minorToMajor;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = static_cast<int64_t>(sorted.size()) == shape.rank();
  for (size_t i = 0; permutation && i < sorted.size(); ++i)
    permutation = sorted[i] == static_cast<int64_t>(i);
  if (!permutation && !(minorToMajor.empty() && shape.rank() == 0))
    throw cursor.error(layoutAt, "layout is not a permutation of the " +
                                     std::to_string(shape.rank()) + " dimensions of " +
                                     shape.element_type + "[...]");
  shape.layout = std::move(minorToMajor);
}

void checkElementCount(const HloCursor& cursor, const Shape& shape, size_t shapeAt) {
  int64_t count = 1;
  for (int64_t dim : shape.extents())
    if (dim > 0 && __builtin_mul_overflow(count, dim, &count))
      throw cursor.error(shapeAt,
                         "shape " + shape.toString() + " has more elements than fit in 64 bits");
}

}  // namespace

// A shape starts with '(' (a tuple) or an element type followed right away by '['.
bool atShape(HloCursor& cursor) {
  if (cursor.peek() == '(') return true;
  std::string_view name = cursor.peekName();
  if (name.empty()) return false;
  size_t end = static_cast<size_t>(name.data() - cursor.source().text().data()) + name.size();
  return end < cursor.source().text().size() && cursor.source().text()[end] == '[';
}

Shape parseShape(HloCursor& cursor, int nesting) {
  cursor.skipSpace();
  size_t shapeAt = cursor.offset();
  Shape shape;
  if (cursor.accept('(')) {
    if (nesting >= kMaxTupleNesting)
      throw cursor.error(shapeAt, "tuple shapes nested deeper than " +
                                      std::to_string(kMaxTupleNesting) + " levels");
    shape.isTuple = true;
    if (cursor.accept(')')) return shape;
    do {
      shape.tupleElements.push_back(parseShape(cursor, nesting + 1));
    } while (cursor.accept(','));
    cursor.expect(')', "to close the tuple shape");
    return shape;
  }
  std::string_view type = cursor.name("a shape");
  if (!std::all_of(type.begin(), type.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) ||
               std::isdigit(static_cast<unsigned char>(c));
      }))
    throw cursor.error(shapeAt, "malformed element type '" + std::string(type) + "'");
  shape.element_type = std::string(type);
  cursor.expect('[', "after element type '" + shape.element_type + "'");
  if (!cursor.accept(']')) {
    do {
      parseDimension(cursor, shape);
    } while (cursor.accept(','));
    cursor.expect(']', "to close the dimensions of the shape");
  }
  if (atLayout(cursor)) parseLayout(cursor, shape);
  checkElementCount(cursor, shape, shapeAt);
  return shape;
}

bool sameArrayType(const Shape& a, const Shape& b) {
  if (a.isTuple != b.isTuple) return false;
  if (a.isTuple) {
    if (a.tupleElements.size() != b.tupleElements.size()) return false;
    for (size_t i = 0; i < a.tupleElements.size(); ++i)
      if (!sameArrayType(a.tupleElements[i], b.tupleElements[i])) return false;
    return true;
  }
  return a.element_type == b.element_type && a.shape == b.shape && a.extents() == b.extents();
}

}  // namespace idxmap::hlo
