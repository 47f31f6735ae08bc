// The C++ that every emitted file starts with, so that the file is self-contained (no idxmap
// headers): floor division and clamps as inline functions (no macro evaluates an argument
// twice), the element types' storage (f16 and bf16 as their 16-bit patterns) and the update
// computations of scatter, each computing exactly what ops/eval's ElementCombiner computes
// (integers wrap to their width, floats round to their type after every operation, min and
// max are IEEE minimum / maximum).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ops/stablehlo/gather_scatter.h"

namespace idxmap::codegen {

// The prelude's text: includes, then the helpers, all `static inline` or templates. For CUDA
// (`device`) every helper is also `__host__ __device__`.
std::string_view kernelPrelude(bool device = false);

// The C++ type emitted code stores an element of `elementType` in ("float", "uint16_t" for
// f16 and bf16, "int8_t", "uint32_t", "bool" for i1, ...); nullopt for a type kernels do not
// support (f8 types, complex, quantized).
std::optional<std::string> storageType(const std::string& elementType);
// The size of that storage in bytes (nullopt where storageType is).
std::optional<int> storageBytes(const std::string& elementType);

// The prelude function computing `computation`(current, update) on two stored elements of
// `elementType` ("idxmap_add_f16"); nullopt for kOther or an unsupported type.
std::optional<std::string> combineFunction(gather_scatter::UpdateComputation computation,
                                           const std::string& elementType);

// `text` with every `static inline` helper also `__host__ __device__` (callable from CUDA).
std::string deviceAnnotated(std::string text);

// The inverse of combineFunction: the computation and element type a prelude function
// computes; nullopt for a name it does not give.
struct CombineKind {
  gather_scatter::UpdateComputation computation;
  std::string elementType;
};
std::optional<CombineKind> combineKind(const std::string& function);

}  // namespace idxmap::codegen
