// Inside the interpreter: the op table (rules as data — one row per op name, each family in its
// own file) and the helpers every evaluator shares: located failures, attribute readers that
// accept the pretty and the generic spelling of an attribute, element arithmetic of the
// StableHLO element types, and tensor construction within kMaxElements.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/name_table.h"
#include "ops/interp/interpreter.h"
#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::mlir_interpreter {

// What an evaluator sees: the op, its operand values, and the interpreter (for regions,
// calls, checks and the engine).
struct OpContext {
  const mlir_ir::Operation& op;
  const std::vector<Tensor>& operands;
  Interpreter& interpreter;
};

using OpEvaluator = std::vector<Tensor> (*)(const OpContext&);

using OpRules = NameTable<OpEvaluator>;
using OpRule = OpRules::Row;  // {op name, evaluator}

// The rows of each family's table (ops/interp/<family>.cpp).
const std::vector<OpRule>& elementwiseRules();
const std::vector<OpRule>& shapeRules();
const std::vector<OpRule>& gatherRules();
const std::vector<OpRule>& checkRules();
const std::vector<OpRule>& controlRules();
const std::vector<OpRule>& arithmeticRules();
const std::vector<OpRule>& reduceRules();
const std::vector<OpRule>& sortRules();
const std::vector<OpRule>& dotRules();
const std::vector<OpRule>& formRules();

// The evaluator of an op name; nullptr for an op the interpreter does not know.
OpEvaluator findOpEvaluator(std::string_view name);

// --- located failures -------------------------------------------------------------------

// `op.name: message` at the op's location.
[[noreturn]] void fail(const OpContext& ctx, const std::string& message);
void expectOperandCount(const OpContext& ctx, size_t count);
// The single block of region `index` (`what` names it in the diagnostic when it is missing).
const mlir_ir::Block& regionBlock(const OpContext& ctx, size_t index, const std::string& what);
// The value of a 0-d i1 tensor (a predicate a region or an operand gives).
bool predicateValue(const OpContext& ctx, const Tensor& tensor, const std::string& what);

// The gather forms' models (gather.cpp, forms.cpp): a value's type, a declared type only where
// it is static (a dynamic one gives way to the value's or the inferred shape), and the model's
// violations as one located failure.
TensorType typeOf(const Tensor& tensor);
std::optional<TensorType> staticOrNone(const std::optional<TensorType>& type);
void expectValid(const OpContext& ctx, const std::vector<gather_scatter::Violation>& violations);

// --- attributes (the first of `names` present: pretty spellings, then the generic one) ----

const mlir_ir::Attribute* findAttribute(const OpContext& ctx,
                                        std::initializer_list<std::string_view> names);
std::vector<int64_t> intsAttribute(const OpContext& ctx,
                                   std::initializer_list<std::string_view> names);
int64_t intAttribute(const OpContext& ctx, std::initializer_list<std::string_view> names);
// The declared type of result `index`; fails when the text does not write it.
const mlir_ir::Type& declaredResultType(const OpContext& ctx, size_t index = 0);
// Its shape, which must be static (the evaluators need it to build the result).
std::vector<int64_t> staticResultShape(const OpContext& ctx, size_t index = 0);
// The element type name of a declared type ("i64", "bf16"); fails for types the
// interpreter does not compute with (quantized, complex, opaque).
std::string elementTypeName(const OpContext& ctx, const mlir_ir::Type& type);

// --- element types and values ------------------------------------------------------------

bool isBooleanType(const std::string& type);
bool isUnsignedType(const std::string& type);
int integerBitWidth(const std::string& type);  // i1 -> 1, ui16 -> 16, index -> 64
bool isSupportedElementType(const std::string& type);
// Two's-complement wrap of `value` to the type's width: sign-extended for signless types,
// zero-extended for ui* (ui64 keeps its bit pattern), 0/1 for i1.
int64_t wrapInteger(const std::string& type, int64_t value);
// Integer element values compare unsigned for ui* and i1.
bool integerLess(const std::string& type, int64_t a, int64_t b);

// A tensor of `shape` filled with zeros; fails past kMaxElements or on int64 overflow.
Tensor makeTensor(const OpContext& ctx, const std::string& elementType,
                  const std::vector<int64_t>& shape);
int64_t checkedElementCount(const OpContext& ctx, const std::vector<int64_t>& shape);
// Element `position` of `from` copied to position `to` of `into` (same element type).
using gather_scatter::copyElement;
using gather_scatter::scalarAt;
// The single value of a 0-d (or one-element) integer tensor, as index arithmetic reads it.
int64_t scalarIndex(const OpContext& ctx, const Tensor& tensor, const std::string& what);
// The values of a 1-d integer tensor of `length` elements.
std::vector<int64_t> indexVector(const OpContext& ctx, const Tensor& tensor, int64_t length,
                                 const std::string& what);

// `[1, 0]`, and one element as StableHLO's tests write it (shortest round-trip decimal).
std::string formatIndex(const std::vector<int64_t>& index);
std::string formatElement(const Tensor& tensor, int64_t position);

// A tensor of a dense attribute, expanded to its declared shape (splats included).
Tensor tensorFromDense(const OpContext& ctx, const mlir_ir::DenseElements& dense);

}  // namespace idxmap::mlir_interpreter
