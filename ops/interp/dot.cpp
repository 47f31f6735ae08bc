// stablehlo.dot_general and stablehlo.dot: result[batch..., lhs free..., rhs free...] is the
// sum, over the contracting indices in row-major order, of lhs * rhs, as the spec defines it.
// Each product and each partial sum is rounded to the element type (integers wrap, i1 is
// and/or), as StableHLO's interpreter computes it with multiply and add. `precision_config`
// and `algorithm` are hints to a backend that do not change that definition: read, not used.
#include <algorithm>

#include "ops/interp/element_functions.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::roundToElementType;
using mlir_ir::Attribute;

struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};

// Generic `dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], ...>`, or
// the pretty form's `batching_dims = [0] x [0], contracting_dims = [2] x [1]`, which the
// reader spells with the same four names.
DotDims dotGeneralDims(const OpContext& ctx) {
  DotDims dims;
  std::vector<std::pair<std::string_view, std::vector<int64_t>*>> fields = {
      {"lhs_batching_dimensions", &dims.lhsBatch},
      {"rhs_batching_dimensions", &dims.rhsBatch},
      {"lhs_contracting_dimensions", &dims.lhsContracting},
      {"rhs_contracting_dimensions", &dims.rhsContracting}};
  const Attribute* numbers = ctx.op.attribute("dot_dimension_numbers");
  if (numbers && numbers->kind != Attribute::Kind::Structured)
    throw InterpretError(numbers->location,
                         ctx.op.name + ": dot_dimension_numbers must be #stablehlo.dot<...>");
  for (auto& [name, values] : fields) {
    const Attribute* field = nullptr;
    if (numbers) {
      for (const mlir_ir::NamedAttribute& f : numbers->fields)
        if (f.name == name) field = &f.value;
    } else {
      field = ctx.op.attribute(name);
    }
    if (!field) continue;  // absent: empty
    std::optional<std::vector<int64_t>> ints = field->asInts();
    if (!ints)
      throw InterpretError(field->location,
                           ctx.op.name + ": " + std::string(name) + " must be a list of integers");
    *values = *ints;
  }
  return dims;
}

// The spec's checks that the evaluation relies on: equal counts, dims in range and used once
// per operand, paired dims of equal size.
void checkDims(const OpContext& ctx, const DotDims& dims) {
  const Tensor& lhs = ctx.operands[0];
  const Tensor& rhs = ctx.operands[1];
  if (dims.lhsBatch.size() != dims.rhsBatch.size() ||
      dims.lhsContracting.size() != dims.rhsContracting.size())
    fail(ctx,
         "lhs and rhs must have as many batching dimensions, and as many contracting "
         "dimensions, as each other");
  auto checkOperand = [&](const Tensor& operand, const std::vector<int64_t>& batch,
                          const std::vector<int64_t>& contracting, const std::string& side) {
    std::vector<bool> used(operand.shape.size(), false);
    for (const auto* list : {&batch, &contracting})
      for (int64_t d : *list) {
        if (d < 0 || d >= static_cast<int64_t>(operand.shape.size()) || used[d])
          fail(ctx, side + " dimension " + std::to_string(d) +
                        " is out of range or used twice (rank " +
                        std::to_string(operand.shape.size()) + ")");
        used[d] = true;
      }
  };
  checkOperand(lhs, dims.lhsBatch, dims.lhsContracting, "lhs");
  checkOperand(rhs, dims.rhsBatch, dims.rhsContracting, "rhs");
  auto checkSizes = [&](const std::vector<int64_t>& l, const std::vector<int64_t>& r,
                        const std::string& what) {
    for (size_t k = 0; k < l.size(); ++k)
      if (lhs.shape[l[k]] != rhs.shape[r[k]])
        fail(ctx, what + " dimensions " + std::to_string(l[k]) + " of lhs (size " +
                      std::to_string(lhs.shape[l[k]]) + ") and " + std::to_string(r[k]) +
                      " of rhs (size " + std::to_string(rhs.shape[r[k]]) + ") differ");
  };
  checkSizes(dims.lhsBatch, dims.rhsBatch, "batching");
  checkSizes(dims.lhsContracting, dims.rhsContracting, "contracting");
  if (lhs.element_type != rhs.element_type)
    fail(ctx, "lhs and rhs element types differ (" + lhs.element_type + ", " + rhs.element_type +
                  "); mixed-precision dots are not evaluated");
}

std::vector<int64_t> freeDims(const Tensor& operand, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < static_cast<int64_t>(operand.shape.size()); ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      free.push_back(d);
  return free;
}

std::vector<Tensor> evaluate(const OpContext& ctx, const DotDims& dims) {
  checkDims(ctx, dims);
  const Tensor& lhs = ctx.operands[0];
  const Tensor& rhs = ctx.operands[1];
  std::vector<int64_t> lhsFree = freeDims(lhs, dims.lhsBatch, dims.lhsContracting);
  std::vector<int64_t> rhsFree = freeDims(rhs, dims.rhsBatch, dims.rhsContracting);
  std::vector<int64_t> shape;
  for (int64_t d : dims.lhsBatch) shape.push_back(lhs.shape[d]);
  for (int64_t d : lhsFree) shape.push_back(lhs.shape[d]);
  for (int64_t d : rhsFree) shape.push_back(rhs.shape[d]);
  if (shape != staticResultShape(ctx))
    fail(ctx, "the declared result shape does not match batch ++ lhs free ++ rhs free dims");
  const std::string& type = lhs.element_type;
  if (elementTypeName(ctx, declaredResultType(ctx)) != type)
    fail(ctx, "the result element type must be the operands' (" + type + ")");
  Tensor result = makeTensor(ctx, type, shape);
  std::vector<int64_t> contracting;
  for (int64_t d : dims.lhsContracting) contracting.push_back(lhs.shape[d]);
  if (result.elementCount() == 0) return {result};
  std::vector<int64_t> at(shape.size(), 0), lhsAt(lhs.shape.size()), rhsAt(rhs.shape.size());
  int64_t position = 0;
  do {
    size_t next = 0;
    for (size_t k = 0; k < dims.lhsBatch.size(); ++k, ++next) {
      lhsAt[dims.lhsBatch[k]] = at[next];
      rhsAt[dims.rhsBatch[k]] = at[next];
    }
    for (int64_t d : lhsFree) lhsAt[d] = at[next++];
    for (int64_t d : rhsFree) rhsAt[d] = at[next++];
    int64_t integer = 0;
    double floating = 0;
    std::vector<int64_t> c(contracting.size(), 0);
    bool nonEmpty =
        std::all_of(contracting.begin(), contracting.end(), [](int64_t n) { return n > 0; });
    while (nonEmpty) {
      for (size_t k = 0; k < c.size(); ++k) {
        lhsAt[dims.lhsContracting[k]] = c[k];
        rhsAt[dims.rhsContracting[k]] = c[k];
      }
      int64_t l = gather_scatter::linearPosition(lhs.shape, lhsAt);
      int64_t r = gather_scatter::linearPosition(rhs.shape, rhsAt);
      if (lhs.isFloat()) {
        double product = roundToElementType(type, lhs.floats[l] * rhs.floats[r]);
        floating = roundToElementType(type, floating + product);
      } else if (isBooleanType(type)) {
        integer = integer | (lhs.ints[l] & rhs.ints[r]);
      } else {
        int64_t product = wrapInteger(
            type, wrapping(lhs.ints[l], rhs.ints[r], [](uint64_t x, uint64_t y) { return x * y; }));
        integer = wrapInteger(
            type, wrapping(integer, product, [](uint64_t x, uint64_t y) { return x + y; }));
      }
      if (!gather_scatter::nextIndex(contracting, c)) break;
    }
    if (result.isFloat())
      result.floats[position] = floating;
    else
      result.ints[position] = integer;
    ++position;
  } while (gather_scatter::nextIndex(shape, at));
  return {result};
}

std::vector<Tensor> dotGeneral(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  return evaluate(ctx, dotGeneralDims(ctx));
}

// stablehlo.dot: a vector or matrix lhs contracts its last dim with rhs's first.
std::vector<Tensor> dot(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  size_t lhsRank = ctx.operands[0].shape.size(), rhsRank = ctx.operands[1].shape.size();
  if (lhsRank < 1 || lhsRank > 2 || rhsRank < 1 || rhsRank > 2)
    fail(ctx, "takes vectors and matrices (ranks " + std::to_string(lhsRank) + ", " +
                  std::to_string(rhsRank) + ")");
  return evaluate(ctx, {{}, {}, {static_cast<int64_t>(lhsRank) - 1}, {0}});
}

}  // namespace

const std::vector<OpRule>& dotRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.dot", dot},
      {"stablehlo.dot_general", dotGeneral},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
