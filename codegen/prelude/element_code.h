// The scalar half of HLO kernels: how emitted code holds an element of each HLO type and
// computes HLO's elementwise opcodes on it, with XLA's semantics to the bit:
//   - floats compute in their C++ type (f32: float, f64: double); f16 and bf16 compute in float
//     and are rounded to their type after every operation (float's 24 bits hold the exact
//     result of +, -, *, / and sqrt on them rounded once, so the rounding is correct);
//   - integers wrap to their width (computed in unsigned arithmetic, where C++ defines wrapping);
//     sub-byte ones (s2, s4, u2, u4) are held one to a byte and brought back to their width
//     after every operation;
//     x / 0 is -1 and x % 0 is x, MIN / -1 is MIN and MIN % -1 is 0; shifts by the width or
//     more give 0 (logical) or the sign (arithmetic);
//   - maximum / minimum on floats are IEEE (NaN propagates, -0 < +0);
//   - complex (c64, c128) add, subtract and negate part by part, and multiply as XLA's elemental
//     emitter does, (ac - bd) + (ad + bc)i, each product and sum rounded once (no recovery of
//     infinities from NaN parts, as C's Annex G makes); compare EQ / NE, select, complex, real,
//     imag and convert from real types and between complex ones; other opcodes are not computed;
//   - convert rounds once to nearest even (f64 and wide integers reach f16 / bf16 through
//     float rounded to odd, which keeps that single rounding exact); float to integer truncates
//     toward zero and saturates, NaN gives 0; to pred is `!= 0`.
// Rules are data: one line per opcode (element_code.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idxmap::codegen {

// An HLO element type as emitted code holds it.
struct ElementCode {
  std::string hloType;  // "f32", "s32", "pred", "bf16", ...
  std::string storage;  // "float", "int32_t", "bool", "uint16_t" (f16 / bf16 bits)
  std::string compute;  // the type values are computed in: "float" for f16 / bf16
  // kComplex: c64 / c128, held as idxmap_c64 / idxmap_c128 (real part, imaginary part).
  enum class Kind : uint8_t { kFloat, kHalf, kInt, kPred, kComplex } kind;
  int bits = 0;  // integers: the width
  bool isSigned = false;

  // A sub-byte integer (s2, s4, u2, u4): held one to a byte, sign- or zero-extended from its
  // `bits` (the byte's other bits are ignored where it is read), wrapping at `bits`.
  bool narrow() const { return kind == Kind::kInt && bits < 8; }
};

// nullopt for a type kernels do not compute (f8, f4, token, tuples).
std::optional<ElementCode> elementCode(const std::string& hloType);

// A StableHLO / MLIR element type's HLO name: i1 -> pred, i32 -> s32, ui8 -> u8; the rest as is.
std::string hloTypeName(const std::string& stablehloType);

// The parameter type of a buffer of sub-byte `type` elements packed 8 / type.bits to a byte
// (XLA's E(bits) layouts): idxmap_packed<bits, compute, [const] uint8_t>, which element_helpers
// defines; `b[i]` reads and writes element i.
std::string packedBufferType(const ElementCode& type, bool written);

// A stored element (`stored` is an lvalue or value of `storage`) as a computed value, and back.
std::string loadElement(const ElementCode& type, const std::string& stored);
std::string storeElement(const ElementCode& type, const std::string& value);

// A literal of HLO text ("1.5", "-inf", "nan", "true", "-3") in `type`'s compute type;
// nullopt for text that is not one.
std::optional<std::string> literalElement(const ElementCode& type, std::string_view text);

// `value` (of type `from`) converted to `to`, as HLO's convert computes it.
std::string convertElement(const ElementCode& from, const ElementCode& to,
                           const std::string& value);

// The value of an elementwise `opcode` on operand values (each in its operand's compute type)
// as an expression of the result's compute type; `direction` is compare's (EQ, NE, LT, LE, GT,
// GE). nullopt when the opcode is not elementwise or not defined on these types.
std::optional<std::string> elementwiseValue(std::string_view opcode, std::string_view direction,
                                            const std::vector<ElementCode>& operandTypes,
                                            const ElementCode& resultType,
                                            const std::vector<std::string>& operands);

// The helpers elementwiseValue's expressions call (appended to the kernel prelude).
// For CUDA (`device`) every helper is also `__host__ __device__`.
std::string_view elementHelpers(bool device = false);

}  // namespace idxmap::codegen
