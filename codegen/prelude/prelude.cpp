#include "codegen/prelude/prelude.h"

#include <array>
#include <string>

namespace idxmap::codegen {
namespace {

using gather_scatter::UpdateComputation;

// Index helpers and the 16-bit float formats. Floor division works for every dividend and a
// positive divisor without overflow (no a + b - 1 tricks); conversions round to nearest even,
// overflow to infinity and keep NaN a NaN, as ops/eval's tensors round.
constexpr const char* kHelpers = R"(#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#ifdef _OPENMP
#include <omp.h>
#endif

template <class T> static inline T idxmap_floordiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
template <class T> static inline T idxmap_floormod(T a, T b) {
  T r = a % b;
  return r < 0 ? r + b : r;
}
template <class T> static inline T idxmap_ceildiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}
template <class T> static inline T idxmap_min(T a, T b) { return b < a ? b : a; }
template <class T> static inline T idxmap_max(T a, T b) { return a < b ? b : a; }
template <class T> static inline T idxmap_clamp(T v, T lo, T hi) {
  return v < lo ? lo : (hi < v ? hi : v);
}
// ONNX's negative indices: v in [-size, -1] reads v + size (any other value is kept, and a
// checked kernel rejects it when out of range).
static inline int64_t idxmap_wrap_negative(int64_t v, int64_t size) { return v < 0 ? v + size : v; }

static inline uint32_t idxmap_float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
static inline float idxmap_bits_float(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

static inline float idxmap_f16_to_f32(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu,
           mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return idxmap_bits_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return idxmap_bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return idxmap_bits_float(sign);
  exponent = 113;  // a subnormal: shift its leading one into the hidden bit
  while (!(mantissa & 0x400u)) {
    mantissa <<= 1;
    --exponent;
  }
  return idxmap_bits_float(sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13));
}
static inline uint16_t idxmap_f32_to_f16(float value) {
  uint32_t bits = idxmap_float_bits(value), sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);  // NaN
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520: inf
  uint32_t half, rest, halfway;
  if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal (or zero) in units of 2^-24
    uint32_t exponent = magnitude >> 23;
    if (exponent < 102) return static_cast<uint16_t>(sign);
    uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u, shift = 126 - exponent;
    half = mantissa >> shift;
    rest = mantissa & ((1u << shift) - 1);
    halfway = 1u << (shift - 1);
  } else {
    half = (magnitude >> 13) - (112u << 10);
    rest = magnitude & 0x1fffu;
    halfway = 0x1000u;
  }
  if (rest > halfway || (rest == halfway && (half & 1u))) ++half;  // a carry moves the exponent
  return static_cast<uint16_t>(sign | half);
}
static inline float idxmap_bf16_to_f32(uint16_t h) { return idxmap_bits_float(static_cast<uint32_t>(h) << 16); }
static inline uint16_t idxmap_f32_to_bf16(float value) {
  uint32_t bits = idxmap_float_bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

// IEEE minimum / maximum: NaN when either is NaN, and -0 below +0 (std::min does neither).
template <class F> static inline F idxmap_ieee_min(F a, F b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class F> static inline F idxmap_ieee_max(F a, F b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a < b ? b : a;
}
// The same on 16-bit floats, compared as floats; the chosen operand's bits come back.
template <float (*ToFloat)(uint16_t)> static inline uint16_t idxmap_half_min(uint16_t a, uint16_t b) {
  float x = ToFloat(a), y = ToFloat(b);
  if (x != x) return a;
  if (y != y) return b;
  if (x == y) return std::signbit(x) ? a : b;
  return x < y ? a : b;
}
template <float (*ToFloat)(uint16_t)> static inline uint16_t idxmap_half_max(uint16_t a, uint16_t b) {
  float x = ToFloat(a), y = ToFloat(b);
  if (x != x) return a;
  if (y != y) return b;
  if (x == y) return std::signbit(x) ? b : a;
  return x < y ? b : a;
}
// Integer add and multiply wrap to the type's width: computed in uint64_t, where C++ defines
// wrapping, then converted (modular since C++20).
template <class T> static inline T idxmap_wrap_add(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <class T> static inline T idxmap_wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// Sub-byte integers (s2, s4, u2, u4) are held one to a byte: an element is its byte's low
// `Bits` bits (the others are ignored where it is read), computed sign- or zero-extended in the
// byte's type, and each result is brought back to that form, so it wraps at `Bits`.
template <int Bits, class T> static inline T idxmap_narrow(T v) {
  using U = std::make_unsigned_t<T>;
  constexpr U mask = static_cast<U>((1u << Bits) - 1);
  U low = static_cast<U>(static_cast<U>(v) & mask);
  if constexpr (std::is_signed_v<T>)
    if (low >> (Bits - 1)) low = static_cast<U>(low | static_cast<U>(~mask));
  return static_cast<T>(low);
}
)";

struct TypeInfo {
  const char* name;
  const char* storage;
  int bytes;  // sizeof(storage), the same on the host and the device
  // kNarrow: a sub-byte integer held in its byte's low bits (idxmap_narrow).
  enum Kind { kInt, kBool, kFloat, kHalf, kNarrow } kind;
  const char* toFloat = "";    // kHalf: storage -> float
  const char* fromFloat = "";  // kHalf: float -> storage, rounded
  int bits = 0;                // kNarrow: the element's width
};

constexpr std::array<TypeInfo, 17> kTypes{{
    {"f32", "float", 4, TypeInfo::kFloat},
    {"f64", "double", 8, TypeInfo::kFloat},
    {"f16", "uint16_t", 2, TypeInfo::kHalf, "idxmap_f16_to_f32", "idxmap_f32_to_f16"},
    {"bf16", "uint16_t", 2, TypeInfo::kHalf, "idxmap_bf16_to_f32", "idxmap_f32_to_bf16"},
    {"i1", "bool", 1, TypeInfo::kBool},
    {"i8", "int8_t", 1, TypeInfo::kInt},
    {"i16", "int16_t", 2, TypeInfo::kInt},
    {"i32", "int32_t", 4, TypeInfo::kInt},
    {"i64", "int64_t", 8, TypeInfo::kInt},
    {"ui8", "uint8_t", 1, TypeInfo::kInt},
    {"ui16", "uint16_t", 2, TypeInfo::kInt},
    {"ui32", "uint32_t", 4, TypeInfo::kInt},
    {"ui64", "uint64_t", 8, TypeInfo::kInt},
    {"i2", "int8_t", 1, TypeInfo::kNarrow, "", "", 2},
    {"i4", "int8_t", 1, TypeInfo::kNarrow, "", "", 4},
    {"ui2", "uint8_t", 1, TypeInfo::kNarrow, "", "", 2},
    {"ui4", "uint8_t", 1, TypeInfo::kNarrow, "", "", 4},
}};

constexpr UpdateComputation kComputations[] = {UpdateComputation::kAdd, UpdateComputation::kMul,
                                               UpdateComputation::kMin, UpdateComputation::kMax,
                                               UpdateComputation::kReplace};

const TypeInfo* typeInfo(const std::string& elementType) {
  // MLIR's `index` (tensor.gather's indices) is 64 bits wide, as ops/eval computes it.
  const std::string& name = elementType == "index" ? std::string("i64") : elementType;
  for (const TypeInfo& type : kTypes)
    if (name == type.name) return &type;
  return nullptr;
}

const char* computationName(UpdateComputation computation) {
  switch (computation) {
    case UpdateComputation::kAdd:
      return "add";
    case UpdateComputation::kMul:
      return "mul";
    case UpdateComputation::kMin:
      return "min";
    case UpdateComputation::kMax:
      return "max";
    case UpdateComputation::kReplace:
      return "replace";
    case UpdateComputation::kOther:
      break;
  }
  return nullptr;
}

// computation(a, b) on integers (add and multiply wrap; kReplace is the caller's).
std::string integerBody(UpdateComputation computation, const std::string& a, const std::string& b) {
  switch (computation) {
    case UpdateComputation::kAdd:
      return "idxmap_wrap_add(" + a + ", " + b + ")";
    case UpdateComputation::kMul:
      return "idxmap_wrap_mul(" + a + ", " + b + ")";
    default:
      return std::string("idxmap_") + computationName(computation) + "(" + a + ", " + b + ")";
  }
}

// The body of computation(a, b) on stored elements of `type`.
std::string combineBody(UpdateComputation computation, const TypeInfo& type) {
  if (type.kind == TypeInfo::kNarrow) {
    // A stored element's other bits are not its value: the result is computed on them brought
    // to the narrow form (wrapping add and multiply would not need it; min and max do), and
    // brought back to it.
    const std::string narrow = "idxmap_narrow<" + std::to_string(type.bits) + ">";
    if (computation == UpdateComputation::kReplace) return narrow + "(b)";
    return narrow + "(" + integerBody(computation, narrow + "(a)", narrow + "(b)") + ")";
  }
  if (computation == UpdateComputation::kReplace) return "b";
  const bool add = computation == UpdateComputation::kAdd,
             mul = computation == UpdateComputation::kMul;
  const std::string minMax = computation == UpdateComputation::kMin ? "min" : "max";
  switch (type.kind) {
    case TypeInfo::kBool:  // StableHLO's add on booleans is or, multiply is and
      return add ? "a || b" : mul ? "a && b" : minMax == "min" ? "a && b" : "a || b";
    case TypeInfo::kInt:
    case TypeInfo::kNarrow:  // its own form above
      return integerBody(computation, "a", "b");
    case TypeInfo::kFloat:
      return add ? "a + b" : mul ? "a * b" : "idxmap_ieee_" + minMax + "(a, b)";
    case TypeInfo::kHalf: {
      // Computed in float and rounded once: float's 24 bits are more than twice these
      // formats' 11 and 8, so the result is the correctly rounded one (no double rounding).
      std::string x = std::string(type.toFloat) + "(a)", y = std::string(type.toFloat) + "(b)";
      if (add || mul)
        return std::string(type.fromFloat) + "(" + x + (add ? " + " : " * ") + y + ")";
      // min and max pick an operand: its bits, unchanged.
      return "idxmap_half_" + minMax + "<" + type.toFloat + ">(a, b)";
    }
  }
  return "b";
}

std::string buildPrelude() {
  std::string out = kHelpers;
  out +=
      "\n// Scatter's update computations, one per element type: computation(current, update).\n";
  for (const TypeInfo& type : kTypes)
    for (UpdateComputation computation : kComputations)
      out += "static inline " + std::string(type.storage) + " idxmap_" +
             computationName(computation) + "_" + type.name + "(" + type.storage + " a, " +
             type.storage + " b) {\n  " +
             (computation == UpdateComputation::kReplace ? "(void)a;\n  " : "") + "return " +
             combineBody(computation, type) + ";\n}\n";
  return out;
}

}  // namespace

// The helpers are the only functions the prelude (and element_code) defines, each introduced by
// `static inline`.
std::string deviceAnnotated(std::string text) {
  const std::string plain = "static inline ", device = "static inline __host__ __device__ ";
  for (size_t at = text.find(plain); at != std::string::npos;
       at = text.find(plain, at + device.size()))
    text.replace(at, plain.size(), device);
  return text;
}

std::string_view kernelPrelude(bool device) {
  static const std::string prelude = buildPrelude(), devicePrelude = deviceAnnotated(prelude);
  return device ? devicePrelude : prelude;
}

std::optional<std::string> storageType(const std::string& elementType) {
  const TypeInfo* type = typeInfo(elementType);
  if (!type) return std::nullopt;
  return type->storage;
}

std::optional<int> storageBytes(const std::string& elementType) {
  const TypeInfo* type = typeInfo(elementType);
  if (!type) return std::nullopt;
  return type->bytes;
}

std::optional<std::string> combineFunction(UpdateComputation computation,
                                           const std::string& elementType) {
  const TypeInfo* type = typeInfo(elementType);
  const char* name = computationName(computation);
  if (!type || !name) return std::nullopt;
  return std::string("idxmap_") + name + "_" + type->name;
}

std::optional<CombineKind> combineKind(const std::string& function) {
  for (const TypeInfo& type : kTypes)
    for (UpdateComputation computation : kComputations)
      if (combineFunction(computation, type.name) == function)
        return CombineKind{computation, type.name};
  return std::nullopt;
}

}  // namespace idxmap::codegen
