// Inside index provenance: the tracer that follows a value back through the ops of one scope,
// and its rules, one per op name (rules as data: each family's rows are in its own file).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/name_table.h"
#include "ops/mlir/module.h"
#include "ops/provenance/index_values.h"

namespace idxmap::index_provenance {

class Tracer {
 public:
  // The values of the op's result, of this (static) shape; depth counts the ops followed.
  using Rule = IndexValues (Tracer::*)(const mlir_ir::Operation& op,
                                       const std::vector<int64_t>& shape, int depth);
  using Rules = NameTable<Rule>;

  explicit Tracer(const std::vector<mlir_ir::Operation>& scope) : scope_(scope) {}

  IndexValues trace(const mlir_ir::Value& value, const mlir_ir::Type& type, int depth);

  // The rows of each family (movement_rules.cpp, arithmetic_rules.cpp).
  static std::span<const Rules::Row> movementRules();
  static std::span<const Rules::Row> arithmeticRules();

 private:
  // Operand i's type: as its definition says, else as the op's signature says.
  std::optional<mlir_ir::Type> operandType(const mlir_ir::Operation& op, size_t i);
  std::optional<IndexValues> operand(const mlir_ir::Operation& op, size_t i, int depth);
  // Every operand's values over `shape` (a 0-d operand stands for every point); nullopt when
  // one has no usable type or another shape.
  std::optional<std::vector<IndexValues>> operands(const mlir_ir::Operation& op,
                                                   const std::vector<int64_t>& shape, int depth);
  // Values pulled back along `pull` ({ [p] -> [q] }, result point to operand point).
  static IndexValues pulled(const IndexValues& source, const std::vector<int64_t>& shape,
                            const isl::map& pull, const std::string& what);
  // f applied to the paired values of the operands: { [a, b, ...] -> [v] : conditions }.
  static IndexValues elementwise(const std::vector<IndexValues>& inputs,
                                 const std::vector<int64_t>& shape, const std::string& in,
                                 const std::vector<std::string>& conditions,
                                 const std::string& what);

  // Data movement (movement_rules.cpp).
  IndexValues constant(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues iota(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues concatenate(const mlir_ir::Operation& op, const std::vector<int64_t>& shape,
                          int depth);
  IndexValues broadcast(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues reshape(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues transpose(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  // Arithmetic (arithmetic_rules.cpp).
  IndexValues clamp(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues addSub(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues multiply(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);
  IndexValues convert(const mlir_ir::Operation& op, const std::vector<int64_t>& shape, int depth);

  const std::vector<mlir_ir::Operation>& scope_;
};

// The attribute under its generic name, else under its pretty one.
const mlir_ir::Attribute* firstAttribute(const mlir_ir::Operation& op, const char* generic,
                                         const char* pretty);

}  // namespace idxmap::index_provenance
