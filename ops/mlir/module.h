// The StableHLO MLIR module model: what the MLIR reader (ops/mlir/parser.cpp) produces and
// the gather/scatter models and evaluators consume. It is deliberately generic — an
// operation is a name, operands, results, attributes and regions — so that the pretty and
// generic forms of an op, and ops the reader has no model for, land in the same shape.
// Every piece keeps where it was written, for diagnostics that name file:line:col.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor_type.h"
#include "core/text.h"

namespace idxmap::mlir_ir {

enum class ElementKind {
  I1,
  I8,
  I16,
  I32,
  I64,
  UI8,
  UI16,
  UI32,
  UI64,
  F16,
  BF16,
  F32,
  F64,
  Index,  // MLIR's `index` (shape computations in tests)
  Other,  // anything else (`!quant.uniform<...>`, `complex<f32>`, `i4`): kept as text
};

struct ElementType {
  ElementKind kind = ElementKind::F32;
  std::string text;  // the type as written when kind == Other; empty otherwise

  // `i32` -> I32, ...; nullopt for names this model does not enumerate.
  static std::optional<ElementType> fromName(std::string_view name);
  int bitWidth() const;  // 1 for i1, 16 for bf16, 64 for index; 0 for Other
  bool isFloat() const;
  bool isInteger() const;  // i*, ui*, index (i1 included)
  bool isSigned() const;   // i8..i64 and index; i1 and ui* are not
  std::string toString() const;
  bool operator==(const ElementType& o) const { return kind == o.kind && text == o.text; }
};

// An MLIR type as the reader sees it: a tensor type `tensor<2x?x3xf32, #stablehlo.bounds<?,
// 8, ?>>` (core's TensorType: dims kDynamic for `?`, bounds from the encoding), a plain scalar
// type `i64` (isTensor = false, rank 0), or a type the model does not read (`tuple<...>`,
// `!dialect.t`, `tensor<*xf32>`), kept as text in `opaque`. The element type is kept as
// written, so every type prints as it was read.
struct Type : idxmap::TensorType {
  bool isTensor = true;
  std::string opaque;  // non-empty for a type the model does not read

  // The element type, read from its name (ElementKind::Other with the text for the rest).
  ElementType elementType() const;
  bool isOpaque() const { return !opaque.empty(); }
  bool hasStaticShape() const { return !isOpaque() && isStatic(); }
  // Product of the dims; nullopt when a dim is dynamic. Throws OverflowError past int64.
  std::optional<int64_t> elementCount() const;
  std::string toString() const;  // as MLIR writes it
  bool operator==(const Type& o) const = default;
};

// The values of `dense<...>`: nested lists, a splat (`dense<0.5>`), or hex
// (`dense<"0x0100...">`), flattened row-major. A splat keeps one value, never the
// expanded tensor, so `dense<0> : tensor<1000000000xi64>` costs nothing.
struct DenseElements {
  Type type;             // of the attribute (`: tensor<...>`)
  bool isSplat = false;  // one value stands for every element
  // Integer element types (i1: 0/1). Signless iN come sign-extended (`dense<255> :
  // tensor<i8>` is -1, as MLIR reads it); uiN keep their bit pattern (a ui64 above 2^63 is
  // negative here). Other element types (quantized) land here when every value is an
  // integer, else in `floats`.
  std::vector<int64_t> ints;
  std::vector<double> floats;  // float element types (f16/bf16 widened exactly)
  // complex<f32> / complex<f64>: (real, imaginary) per element, flattened. No evaluator
  // computes with complex values; they are read so that files holding them parse.
  std::vector<double> complexParts;

  // The element at a row-major flat index (splats answer every index).
  int64_t intAt(int64_t flatIndex) const;
  double floatAt(int64_t flatIndex) const;
};

struct NamedAttribute;

struct Attribute {
  enum class Kind {
    Unit,        // a name without `= value` in a dictionary (`unique`)
    Integer,     // `3`, `3 : i64`, `-1`
    Float,       // `1.5`, `1.0e-3 : f32`
    Bool,        // `true`, `false`
    String,      // `"abc"`
    SymbolRef,   // `@check.eq` (text without '@')
    IntArray,    // `[1, 2]`, `array<i64: 1, 2>`, `array<i1: true>` (true = 1)
    Array,       // `[...]` of anything else
    Dense,       // `dense<...>`
    Dictionary,  // `{a = 1, b}`
    Structured,  // `#stablehlo.gather<...>`, `#stablehlo.scatter<...>`: fields by name.
                 // For those two the reader guarantees known names, each at most once,
                 // integer lists (index_vector_dim: Integer); absent fields are not added
    Type,        // a type used as an attribute (`tensor<2xf32>`, `f32`)
    Opaque,      // anything else (`#stablehlo<comparison_direction LT>`), as written
  };

  Kind kind = Kind::Unit;
  int64_t intValue = 0;                // Integer, Bool (0/1)
  double floatValue = 0;               // Float
  std::string text;                    // String, SymbolRef, Opaque; Structured: the name, e.g.
                                       // "stablehlo.gather"
  std::vector<int64_t> ints;           // IntArray
  std::vector<Attribute> elements;     // Array
  std::vector<NamedAttribute> fields;  // Dictionary, Structured (in written order)
  std::shared_ptr<const DenseElements> dense;  // Dense
  std::optional<Type> type;                    // `: type` written after a value; Type's type
  SourceLocation location;                     // of the value

  // A Dictionary's or Structured's field; nullptr when absent.
  const Attribute* field(std::string_view name) const;
  // Integer and Bool as int64, IntArray as itself; nullopt otherwise.
  std::optional<int64_t> asInt() const;
  std::optional<std::vector<int64_t>> asInts() const;
};

struct NamedAttribute {
  std::string name;
  Attribute value;
  SourceLocation location;  // of the name
};

// An SSA value: `%0` is {"0", 0}, `%0#1` is {"0", 1}, `%arg0` is {"arg0", 0}.
struct Value {
  std::string name;  // without the '%'
  int64_t resultNumber = 0;
  SourceLocation location;

  std::string toString() const;  // `%0#1`, or `%0` for result 0
  bool operator==(const Value& o) const { return name == o.name && resultNumber == o.resultNumber; }
};

struct BlockArgument {
  Value value;
  Type type;
  std::vector<NamedAttribute> attributes;  // `%arg1: tensor<2xf32> {mhlo.sharding = ""}`
};

struct Operation;

struct Block {
  std::string label;  // `bb0` for `^bb0`; empty for an unlabeled entry block
  std::vector<BlockArgument> arguments;
  std::vector<Operation> operations;
};

struct Region {
  std::vector<Block> blocks;
};

// The op among `ops` (not inside their regions) that defines `value`, or nullptr: what
// index provenance follows from a gather's indices back to constants and iotas.
const Operation* definingOp(const std::vector<Operation>& ops, const Value& value);

struct Operation {
  std::string name;            // "stablehlo.gather", "func.return", "check.expect_eq_const"
  bool genericForm = false;    // written `"name"(...)` rather than the op's pretty syntax
  std::vector<Value> results;  // `%0:2 = ` gives {"0",0} and {"0",1}
  std::vector<Value> operands;
  std::vector<Type> operandTypes;  // empty where the text does not say them
  std::vector<Type> resultTypes;
  // From `<{...}>` properties, `{...}` attribute dictionaries and the pretty form's
  // `name = value` and `name(value)` clauses alike, in written order. Pretty forms also
  // give: "value" for a `dense<...>` literal (constants, check ops); "callee" for `@sym`;
  // "start_indices" / "limit_indices" / "strides" for slice ranges `[1:3, 0:8:2]`; a Unit
  // "unique" for the keyword `unique` (spec 001); dot_general's `batching_dims = [0] x [1]`
  // as "lhs_batching_dimensions" and "rhs_batching_dimensions" (the generic form's field
  // names; likewise contracting_dims); an empty name for a bare positional value.
  std::vector<NamedAttribute> attributes;
  // Bare words of a pretty form that carry meaning by position (`LT`, `SIGNED` of
  // stablehlo.compare; `across`, `applies`, `stablehlo.add` of stablehlo.reduce).
  std::vector<std::string> keywords;
  std::vector<Region> regions;
  SourceLocation location;  // of the op name

  const Attribute* attribute(std::string_view name) const;
  // The word of `words` that attribute `name` (`#stablehlo<comparison_direction LT>`) or, in
  // the pretty form, a keyword (`LT`, `SIGNED`) names: "" when the op writes neither; nullopt
  // when the attribute is written but names none of them.
  std::optional<std::string> namedWord(std::string_view name,
                                       const std::vector<std::string>& words) const;
  const NamedAttribute* namedAttribute(std::string_view name) const;
};

struct Function {
  std::string name;        // without the '@'
  std::string visibility;  // "public", "private", or empty
  std::vector<BlockArgument> arguments;
  std::vector<Type> resultTypes;
  std::vector<NamedAttribute> attributes;  // `attributes {...}` after the signature
  Region body;                             // empty for a declaration
  SourceLocation location;                 // of the name

  // The body's terminator (`func.return` / `return`), or nullptr.
  const Operation* returnOp() const;
  // The op of the entry block defining `value`, or nullptr (arguments, unknown names).
  const Operation* definingOp(const Value& value) const;
  // The argument that is `value`, or nullptr.
  const BlockArgument* argument(const Value& value) const;
};

struct Module {
  std::string fileName;
  // `module attributes {...}`; a bare attribute written at top level (a test snippet such
  // as `#stablehlo.gather<...>`) comes with an empty name.
  std::vector<NamedAttribute> attributes;
  std::vector<Function> functions;
  // Operations written outside any function: test snippets are often a bare op.
  std::vector<Operation> operations;

  const Function* function(std::string_view name) const;
};

// Reads StableHLO MLIR as StableHLO's tests write it: an optional `module { ... }`, any
// number of `func.func`s and bare operations, generic and pretty op forms; `tensor.gather`
// / `tensor.scatter` (spec 001) and `tcp.gather` / `tcp.gather_nd` (spec 003) syntax.
// Unknown ops are read generically. `loc(...)` is skipped. Throws ParseError (file:line:col,
// caret) on malformed text and on absurd sizes; it does not check op semantics.
Module parseMlirModule(std::string_view text, std::string_view fileName = "<stdin>");

// Whether a text is MLIR rather than HLO: by the file name's suffix (.mlir, .hlo), else by its
// first token after blank space and `//` comments (`module`, `func.func`, `%`, a quoted op
// name, `#`, `stablehlo.`). What the CLI and the API read a program as.
bool looksLikeMlir(std::string_view fileName, std::string_view text);

// A list of typed dense values, `[dense<1> : tensor<2xi32>, dense<[1.5, 2.0]> : tensor<2xf32>]`:
// StableHLO's `--args` syntax, which `idxmap run --inputs` reads. ParseError on anything else.
std::vector<Attribute> parseMlirValueList(std::string_view text, std::string_view fileName);

}  // namespace idxmap::mlir_ir
