#include "codegen/run/tensor_buffers.h"

#include <cmath>
#include <cstring>
#include <optional>

#include "codegen/prelude/prelude.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::Tensor;

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A tensor's f16 / bf16 values are already rounded to the format, so these conversions are
// exact: a value's float has the 16-bit pattern's bits and zeros below them.
uint16_t halfBits(double value) {
  uint32_t bits = floatBits(static_cast<float>(value)), sign = (bits >> 16) & 0x8000u,
           magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);
  if (magnitude >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (magnitude < 0x38800000u)  // a subnormal: a multiple of 2^-24
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::ldexp(std::fabs(value), 24)));
  return static_cast<uint16_t>(sign | ((magnitude >> 13) - (112u << 10)));
}
double halfValue(uint16_t h) {
  double magnitude;
  uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1f)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else
    magnitude = std::ldexp(1024 + mantissa, static_cast<int>(exponent) - 25);
  return (h & 0x8000u) ? -magnitude : magnitude;
}
uint16_t bfloatBits(double value) {
  uint32_t bits = floatBits(static_cast<float>(value));
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  return static_cast<uint16_t>(bits >> 16);
}

int integerWidth(const std::string& type) {
  if (type == "i1") return 1;
  if (type == "index") return 64;
  size_t digits = type.find_first_of("0123456789");
  return std::stoi(type.substr(digits));
}

}  // namespace

size_t bufferElementBytes(const std::string& type) {
  // A complex element is its real part, then its imaginary part.
  if (type == "complex<f32>") return 8;
  if (type == "complex<f64>") return 16;
  std::optional<int> bytes = storageBytes(type);
  if (!bytes) throw Error("element type " + type + " has no kernel storage");
  return static_cast<size_t>(*bytes);
}

Buffer::Buffer(size_t bytes)
    : storage_((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)), bytes_(bytes) {}

Buffer toBuffer(const Tensor& tensor) {
  const size_t width = bufferElementBytes(tensor.element_type);
  const auto count = static_cast<size_t>(tensor.elementCount());
  Buffer buffer(width * count);
  auto* bytes = static_cast<unsigned char*>(buffer.data());
  for (size_t i = 0; i < count; ++i) {
    unsigned char* at = bytes + i * width;
    if (tensor.element_type == "complex<f32>") {
      const float parts[2] = {static_cast<float>(tensor.floats[i]),
                              static_cast<float>(tensor.imags[i])};
      std::memcpy(at, parts, 8);
    } else if (tensor.element_type == "complex<f64>") {
      const double parts[2] = {tensor.floats[i], tensor.imags[i]};
      std::memcpy(at, parts, 16);
    } else if (tensor.element_type == "f64") {
      std::memcpy(at, &tensor.floats[i], 8);
    } else if (tensor.element_type == "f32") {
      float value = static_cast<float>(tensor.floats[i]);
      std::memcpy(at, &value, 4);
    } else if (tensor.element_type == "f16" || tensor.element_type == "bf16") {
      uint16_t bits =
          tensor.element_type == "f16" ? halfBits(tensor.floats[i]) : bfloatBits(tensor.floats[i]);
      std::memcpy(at, &bits, 2);
    } else {
      // Little-endian: the low bytes of the int64 are the value truncated to the width.
      uint64_t value = static_cast<uint64_t>(tensor.ints[i]);
      if (tensor.element_type == "i1") value = value != 0;
      std::memcpy(at, &value, width);
    }
  }
  return buffer;
}

Tensor fromBuffer(const Buffer& buffer, const std::string& elementType,
                  const std::vector<int64_t>& shape) {
  Tensor tensor = gather_scatter::zeros(elementType, shape);
  const size_t width = bufferElementBytes(elementType);
  const auto* bytes = static_cast<const unsigned char*>(buffer.data());
  const size_t count =
      tensor.isFloat() || tensor.isComplex() ? tensor.floats.size() : tensor.ints.size();
  if (buffer.size() < width * count) throw Error("a buffer smaller than its tensor");
  for (size_t i = 0; i < count; ++i) {
    const unsigned char* at = bytes + i * width;
    if (elementType == "complex<f32>") {
      float parts[2];
      std::memcpy(parts, at, 8);
      tensor.floats[i] = parts[0];
      tensor.imags[i] = parts[1];
    } else if (elementType == "complex<f64>") {
      double parts[2];
      std::memcpy(parts, at, 16);
      tensor.floats[i] = parts[0];
      tensor.imags[i] = parts[1];
    } else if (elementType == "f64") {
      std::memcpy(&tensor.floats[i], at, 8);
    } else if (elementType == "f32") {
      float value;
      std::memcpy(&value, at, 4);
      tensor.floats[i] = value;
    } else if (elementType == "f16" || elementType == "bf16") {
      uint16_t bits;
      std::memcpy(&bits, at, 2);
      tensor.floats[i] =
          elementType == "f16" ? halfValue(bits) : bitsFloat(static_cast<uint32_t>(bits) << 16);
    } else {
      uint64_t value = 0;
      std::memcpy(&value, at, width);
      int bits = integerWidth(elementType);
      bool isSigned = elementType[0] == 'i' && elementType != "i1";
      // A sub-byte element is its byte's low bits: the others are not part of the value.
      if (bits < 8) value &= (uint64_t{1} << bits) - 1;
      if (isSigned && bits < 64 && (value >> (bits - 1)) & 1) value |= ~uint64_t{0} << bits;
      tensor.ints[i] = static_cast<int64_t>(value);
    }
  }
  return tensor;
}

}  // namespace idxmap::codegen
