// HLO element types as XLA's primitive_util classifies them: which kind each is (the classes
// shape inference checks an op's operands against) and its width in bits (bitcast-convert).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace idxmap::hlo {

enum class ElementKind { Pred, Signed, Unsigned, Floating, Complex };

struct ElementType {
  ElementKind kind;
  int bits;  // XLA's BitWidth: pred is 1 bit
};

// nullopt for a name that is not an array element type (token, a misspelling).
std::optional<ElementType> elementType(std::string_view name);

// XLA's predicates on an element type; false for a name elementType does not know.
bool isFloating(std::string_view name);
bool isComplex(std::string_view name);
bool isIntegral(std::string_view name);  // signed or unsigned integers, not pred
// Signed integers and floating types (XLA's ElementIsSigned; complex is not).
bool isSigned(std::string_view name);

// The component type of a complex type (c64 -> f32, c128 -> f64); the name itself otherwise.
std::string componentType(std::string_view name);
// The complex type of components of this type (f32 -> c64, f64 -> c128); nullopt otherwise.
std::optional<std::string> complexOf(std::string_view name);

}  // namespace idxmap::hlo
