#include "ops/hlo/element_types.h"

#include <map>

namespace idxmap::hlo {
namespace {

// XLA's array element types, one a line.
const std::map<std::string, ElementType, std::less<>>& table() {
  using enum ElementKind;
  static const std::map<std::string, ElementType, std::less<>> types = {
      {"pred", {Pred, 1}},
      {"s1", {Signed, 1}},
      {"s2", {Signed, 2}},
      {"s4", {Signed, 4}},
      {"s8", {Signed, 8}},
      {"s16", {Signed, 16}},
      {"s32", {Signed, 32}},
      {"s64", {Signed, 64}},
      {"u1", {Unsigned, 1}},
      {"u2", {Unsigned, 2}},
      {"u4", {Unsigned, 4}},
      {"u8", {Unsigned, 8}},
      {"u16", {Unsigned, 16}},
      {"u32", {Unsigned, 32}},
      {"u64", {Unsigned, 64}},
      {"f4e2m1fn", {Floating, 4}},
      {"f6e2m3fn", {Floating, 6}},
      {"f6e3m2fn", {Floating, 6}},
      {"f8e3m4", {Floating, 8}},
      {"f8e4m3", {Floating, 8}},
      {"f8e4m3fn", {Floating, 8}},
      {"f8e4m3fnuz", {Floating, 8}},
      {"f8e4m3b11fnuz", {Floating, 8}},
      {"f8e5m2", {Floating, 8}},
      {"f8e5m2fnuz", {Floating, 8}},
      {"f8e8m0fnu", {Floating, 8}},
      {"f16", {Floating, 16}},
      {"bf16", {Floating, 16}},
      {"f32", {Floating, 32}},
      {"f64", {Floating, 64}},
      {"c64", {Complex, 64}},
      {"c128", {Complex, 128}},
  };
  return types;
}

bool isKind(std::string_view name, ElementKind kind) {
  std::optional<ElementType> type = elementType(name);
  return type && type->kind == kind;
}

}  // namespace

std::optional<ElementType> elementType(std::string_view name) {
  auto found = table().find(name);
  if (found == table().end()) return std::nullopt;
  return found->second;
}

bool isFloating(std::string_view name) { return isKind(name, ElementKind::Floating); }
bool isComplex(std::string_view name) { return isKind(name, ElementKind::Complex); }
bool isIntegral(std::string_view name) {
  return isKind(name, ElementKind::Signed) || isKind(name, ElementKind::Unsigned);
}
bool isSigned(std::string_view name) {
  return isKind(name, ElementKind::Signed) || isKind(name, ElementKind::Floating);
}

std::string componentType(std::string_view name) {
  if (name == "c64") return "f32";
  if (name == "c128") return "f64";
  return std::string(name);
}

std::optional<std::string> complexOf(std::string_view name) {
  if (name == "f32") return "c64";
  if (name == "f64") return "c128";
  return std::nullopt;
}

}  // namespace idxmap::hlo
