// Inside the value analysis: which `?` dims of a scope's values have one size. An op whose
// shape rules make two dims equal (an elementwise op's operands and result, a transpose's
// permuted dims, a concatenation's other dims, a reshape that moves its one `?` as a whole, a
// dynamic_iota or dynamic_reshape whose shape operand is built from get_dimension_size) joins
// them; one size is one parameter of the values (a size leaf), so a reverse along a dim
// and the prover's size of the tensor it ends in are one number.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ops/mlir/module.h"

namespace idxmap::index_provenance {

// A `?` dim of a value: its name as the text writes it ("%arg0", "%2#1") and the dim.
using SizedDim = std::pair<std::string, size_t>;

class SizeClasses {
 public:
  // The classes of the `?` dims of `scope`'s values (`function` gives its arguments' types,
  // and may be null).
  SizeClasses(const std::vector<mlir_ir::Operation>& scope, const mlir_ir::Function* function);

  // The dims with the same size as `dim` (itself included), in a fixed order: the first is
  // the class's name.
  std::vector<SizedDim> members(const SizedDim& dim) const;

  // A `?` dim whose size is a sum of others' (a concatenation along it, a pad of it):
  // constant + (interior + 1) * (the parts' sizes) - interior, or `constant` when the one
  // part of a pad with interior padding is empty.
  struct Sum {
    SizedDim result;
    int64_t constant = 0;
    std::vector<SizedDim> parts;  // `?` parts; static ones are in `constant`
    int64_t interior = 0;         // a pad's; its one part
  };
  // The sums whose result has the size of `dim`.
  std::vector<Sum> sumsOf(const SizedDim& dim) const;

 private:
  SizedDim find(const SizedDim& dim) const;
  void join(const SizedDim& a, const SizedDim& b);
  // Joins dim `a` of `first` and dim `b` of `second` where both are `?`.
  void joinDims(const mlir_ir::Value& first, const mlir_ir::Type& firstType, size_t a,
                const mlir_ir::Value& second, const mlir_ir::Type& secondType, size_t b);
  void joinOp(const mlir_ir::Operation& op);
  std::optional<SizedDim> shapeElement(const mlir_ir::Value& shape, int64_t k, int depth) const;

  std::map<std::string, mlir_ir::Type> types_;  // by value name
  std::map<std::string, const mlir_ir::Operation*> definitions_;
  std::vector<Sum> sums_;
  mutable std::map<SizedDim, SizedDim> parent_;
};

}  // namespace idxmap::index_provenance
