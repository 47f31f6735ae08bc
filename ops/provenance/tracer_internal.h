// Inside the value analysis: the tracer that follows a value back through the ops of its scope
// (and into the functions it calls), and its rules, one per op name (rules as data: each
// family's rows are in its own file).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/name_table.h"
#include "ops/mlir/module.h"
#include "ops/provenance/index_values.h"
#include "ops/provenance/size_classes_internal.h"

namespace idxmap::index_provenance {

class Tracer {
 public:
  // The values of the op's result of this type (static shape, integer elements); depth counts
  // the ops followed.
  using Rule = IndexValues (Tracer::*)(const mlir_ir::Operation& op, const mlir_ir::Type& type,
                                       int depth);
  using Rules = NameTable<Rule>;

  Tracer(const std::vector<mlir_ir::Operation>& scope, const ValueContext& context);

  IndexValues trace(const mlir_ir::Value& value, const mlir_ir::Type& type, int depth);
  // The traced values with the leaves they use, numbered from 0, and `known` derived.
  IndexValues finished(IndexValues values) const;
  // What the program's shapes say of the sizes (IndexValues::sizeFacts), with `root`'s own `?`
  // dims among the sizes; before finished(), which lists them.
  std::vector<std::string> sizeFacts(const mlir_ir::Value& root, const mlir_ir::Type& type);

  // The rows of each family (movement_rules.cpp, arithmetic_rules.cpp, logic_rules.cpp,
  // order_rules.cpp).
  static std::span<const Rules::Row> movementRules();
  static std::span<const Rules::Row> arithmeticRules();
  static std::span<const Rules::Row> logicRules();
  static std::span<const Rules::Row> orderRules();

 private:
  // The ops a value is looked up in: the scope the analysis started in, then each function
  // entered through func.call, whose arguments are the call's operands in the frame below.
  struct Frame {
    const std::vector<mlir_ir::Operation>* ops = nullptr;
    const mlir_ir::Function* callee = nullptr;  // null for the first frame
    const mlir_ir::Operation* call = nullptr;
  };

  // The op of the current frame defining `value`: searched backwards from `user` (the op that
  // reads it, where it lies in the frame), then forwards; nullptr for an argument.
  const mlir_ir::Operation* definition(const mlir_ir::Value& value,
                                       const mlir_ir::Operation* user) const;
  // trace() of a value that `user` reads.
  IndexValues traceUse(const mlir_ir::Operation* user, const mlir_ir::Value& value,
                       const mlir_ir::Type& type, int depth);
  // Operand i's type: as its definition says, else as the op's signature says.
  std::optional<mlir_ir::Type> operandType(const mlir_ir::Operation& op, size_t i);
  // Whether values of `type` are followed: static shapes, and `?` dims too when the context
  // says so (ValueContext::followDynamicShapes).
  bool followed(const mlir_ir::Type& type) const;
  // Why the op's rule may not see `?` dims ("" when it may): only rules whose relations need
  // no size see them (elementwise ops, iotas, transpose, broadcasts and concatenations, which
  // check the dims they stretch or shift, calls).
  std::string sizesNeeded(const mlir_ir::Operation& op, const mlir_ir::Type& type);
  std::optional<IndexValues> operand(const mlir_ir::Operation& op, size_t i, int depth);
  // Every operand's values over `shape` (a 0-d operand stands for every point); nullopt when
  // one has no usable type or another shape.
  std::optional<std::vector<IndexValues>> operands(const mlir_ir::Operation& op,
                                                   const std::vector<int64_t>& shape, int depth);
  // The single value of every point, if the values are one constant.
  static std::optional<int64_t> singleValue(const IndexValues& values);

  // A tensor the analysis does not see into: each point reads its own element, in the type's
  // range met with `assumed`; `distinct` when no two of its elements are equal.
  IndexValues leaf(const std::string& tensor, const mlir_ir::Type& type, const std::string& why,
                   std::optional<std::pair<int64_t, int64_t>> assumed = std::nullopt,
                   bool distinct = false);
  // The result of `op` as a leaf: what its type allows, and why it is not followed.
  IndexValues opaque(const mlir_ir::Operation& op, const mlir_ir::Type& type,
                     const std::string& why);
  // The index of the leaf `tensor` read through `access`, registered on first use.
  size_t leafIndex(const Leaf& leaf);
  // The parameter ("z<i>") for the size of `?` dim `dim` of `value` (a name of the current
  // frame), one for every dim of its size class (size_classes_internal.h).
  std::string size(const mlir_ir::Value& value, size_t dim);
  std::string size(const std::string& value, size_t dim);
  // Values pulled back along `pull` ({ [p] -> [q] }, result point to operand point): the
  // leaves now read through pull, then their old access.
  IndexValues pulled(const IndexValues& source, const std::vector<int64_t>& shape,
                     const isl::map& pull, const std::string& what);
  // f applied to the paired values of the operands ({ [a, b, ...] -> [v] : conditions }),
  // wrapped into the result's element type as the op's arithmetic wraps.
  IndexValues elementwise(const std::vector<IndexValues>& inputs, const mlir_ir::Type& type,
                          const std::string& in, const std::vector<std::string>& conditions,
                          const std::string& what);
  // The values wrapped into `type`'s element type (two's complement, or modulo 2^n unsigned)
  // where some may not fit; not represented where the type holds values past int64.
  static IndexValues wrapped(IndexValues values, const mlir_ir::Type& type);

  // Data movement (movement_rules.cpp; concatenate, reshape, reverse, pad and dimensionSize in
  // sized_rules.cpp).
  IndexValues constant(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues iota(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues concatenate(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues broadcast(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues reshape(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues transpose(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues slice(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues dynamicSlice(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues reverse(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues pad(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues dimensionSize(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues call(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  // Arithmetic (arithmetic_rules.cpp).
  IndexValues clamp(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues addSub(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues multiply(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues negateAbs(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues minMax(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues divideRemainder(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues shift(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues convert(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  // Predicates (logic_rules.cpp).
  IndexValues compare(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues select(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues logic(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  // Reordering and choosing (order_rules.cpp).
  IndexValues sort(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues topK(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);
  IndexValues reduce(const mlir_ir::Operation& op, const mlir_ir::Type& type, int depth);

  const Frame& frame() const { return frames_.back(); }
  // The current frame's size classes, built on first use.
  const SizeClasses& sizeClasses();
  static constexpr size_t kMaxSizes = 64;
  // A tensor's name as leaves record it: "@callee:%x" inside a called function.
  std::string scoped(const std::string& tensor) const;
  // The name of the result of `op` being traced (result_), scoped.
  std::string resultName(const mlir_ir::Operation& op) const;

  std::vector<Frame> frames_;
  const mlir_ir::Function* function_ = nullptr;  // the first frame's, when the module has it
  const ValueContext& context_;
  std::vector<Leaf> leaves_;                  // every leaf met, parameter "l<i>" is leaves_[i]
  std::vector<std::vector<SizedDim>> sizes_;  // every size met, parameter "z<i>" is sizes_[i]
  std::map<const std::vector<mlir_ir::Operation>*, SizeClasses> classes_;  // by frame
  size_t result_ = 0;                         // which result of its op the value being traced is
  const mlir_ir::Operation* user_ = nullptr;  // the op reading the value being traced
};

// `{ [p] -> [v] : box(p) and conditions }` as values known at every point.
IndexValues exactly(const std::vector<int64_t>& shape, const std::vector<std::string>& conditions,
                    const std::string& provenance);

// The list attribute under either name, of `rank` entries; nullopt otherwise.
std::optional<std::vector<int64_t>> ints(const mlir_ir::Operation& op, const char* generic,
                                         const char* pretty, size_t rank);

// The attribute under its generic name, else under its pretty one.
const mlir_ir::Attribute* firstAttribute(const mlir_ir::Operation& op, const char* generic,
                                         const char* pretty);

}  // namespace idxmap::index_provenance
