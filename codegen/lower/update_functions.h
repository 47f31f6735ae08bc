// A scatter's update computation that the prelude has no function for (an argmax: a compare and
// selects over both inputs of a variadic scatter; any elementwise ops) as C++ functions the
// scatter kernel calls (Kernel::coupled), written from a StableHLO region here and from an HLO
// computation in codegen/hlo (hlo_scatter_update).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "codegen/prelude/element_code.h"
#include "ops/mlir/module.h"

namespace idxmap::codegen {

struct UpdateFunctions {
  // One an input, `<symbol>_update<i>`: input i's new value from every input's current value,
  // then every update value (stored elements, in operand order).
  std::vector<std::string> names;
  std::string text;  // their definitions, `static inline` (`__host__ __device__` too for CUDA)

  // The header's note on them: what they are, and that kernel validation does not read them.
  std::string note() const;
};

// An update function's locals, each value once: `const <compute type> v<k> = <expression>;` in
// the order its result needs them, found again by the key of what they compute (an HLO
// instruction, an MLIR value).
template <class Key>
class UpdateLocals {
 public:
  using Local = std::pair<std::string, ElementCode>;  // the name, its code
  const Local* find(const Key& key) const {
    auto found = locals_.find(key);
    return found == locals_.end() ? nullptr : &found->second;
  }
  const Local& define(const Key& key, const ElementCode& type, const std::string& expression) {
    const std::string name = "v" + std::to_string(locals_.size());
    text_ += "  const " + type.compute + " " + name + " = " + expression + ";\n";
    return locals_[key] = {name, type};
  }
  const std::string& text() const { return text_; }

 private:
  std::map<Key, Local> locals_;
  std::string text_;
};

// The name of parameter k of an update function of `inputs` inputs: current<k>, then update<k>.
std::string updateParameter(size_t k, size_t inputs);
// An update function's definition: `storage` holds its parameters' types (every input's, then
// every update's), `body` its locals, `result` the value it returns, of `resultStorage`.
std::string updateFunction(const std::string& name, const std::vector<std::string>& storage,
                           const std::string& body, const std::string& resultStorage,
                           const std::string& result);

// The functions of `scatter`'s region (stablehlo.scatter, mhlo.scatter): each op computed as
// codegen/prelude's element_code computes the HLO opcode of its name (XLA's semantics to the
// bit). Throws Error, naming the op and its location, for one element_code does not compute.
UpdateFunctions regionUpdateFunctions(const mlir_ir::Operation& scatter, const std::string& symbol,
                                      bool cuda);

}  // namespace idxmap::codegen
