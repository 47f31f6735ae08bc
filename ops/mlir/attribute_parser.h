// Reading MLIR attributes: scalars, arrays, `array<i64: ...>`, dictionaries, `dense<...>`,
// StableHLO's structured `#stablehlo.gather<...>` / `#stablehlo.scatter<...>`, and (as
// opaque text) the rest. Used by the MLIR reader only.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "ops/mlir/lexer.h"
#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {

// Whether a value may be followed by `: type`. Inside `{...}` it may; in a pretty op's
// clauses (`dim = 0 : tensor<4xi64>`) the ':' starts the op's own type.
enum class TypeSuffix { Consume, Leave };

// One element of a dense literal, as written, read once the element type is known.
struct DenseScalar {
  enum class Kind { Integer, Float, HexBits, Bool, Complex };
  Kind kind = Kind::Integer;
  std::string_view text;       // Complex: the real part
  std::string_view imaginary;  // Complex: `(re, im)`'s second number
  size_t offset = 0;
};

// `dense<...>` before its type is known (a pretty constant writes the type after the op).
struct DenseLiteral {
  size_t offset = 0;                // of `dense`
  bool isHex = false;               // `dense<"0x...">`
  std::string hexBytes;             // decoded, in written (little-endian) order
  bool isSplat = false;             // one value, not in a list
  std::vector<int64_t> shape;       // the nesting of the lists, e.g. {2, 3}
  std::vector<DenseScalar> values;  // flattened row-major
};

class MlirAttributeParser {
 public:
  explicit MlirAttributeParser(MlirCursor& cursor) : cursor_(cursor) {}

  Attribute parseAttribute(TypeSuffix suffix);
  // `{name = value, name, "quoted name" = value}` at the cursor.
  std::vector<NamedAttribute> parseDictionary();
  // `dense<...>` at the cursor, without any `: type`.
  DenseLiteral parseDenseLiteral();
  // The literal's values as `type` says; ParseError when their number, nesting or range
  // does not fit the type.
  std::shared_ptr<const DenseElements> resolveDense(const DenseLiteral& literal, const Type& type,
                                                    size_t typeOffset);
  // For the op parser's own recursion limit (regions inside regions).
  int& depth() { return depth_; }

 private:
  Attribute parseNumber(TypeSuffix suffix);
  Attribute parseList();
  Attribute parseDenseArray();
  Attribute parseHashAttribute();
  bool tryParseStructuredFields(Attribute& attribute, std::vector<size_t>& fieldOffsets);
  void checkDimensionNumbers(const Attribute& attribute, const std::vector<size_t>& fieldOffsets);
  void parseDenseList(DenseLiteral& literal, size_t level);
  DenseScalar parseDenseScalar();

  MlirCursor& cursor_;
  int depth_ = 0;
};

}  // namespace idxmap::mlir_ir
