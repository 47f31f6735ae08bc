// Ops that create or move elements, as index rules: the element of the result at an index is
// the operand's element at an index computed from it (reshapes through the row-major linear
// position, broadcasts by dropping dims, a concatenate or pad by cases on the index).
// Shapes come from the declared result types, which the reader keeps.
#include <algorithm>
#include <cmath>

#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

using Index = std::vector<z3::expr>;
using Shape = std::vector<int64_t>;

// Float constants as the interpreter reads them: the written value rounded to the type.
z3::expr denseElement(TermBuilder& builder, const mlir_ir::DenseElements& dense, int64_t position,
                      const mlir_ir::ElementType& element) {
  if (element.isFloat()) return builder.floats().constant(dense.floatAt(position), element);
  return builder.ctx().int_val(dense.intAt(position));
}

std::vector<TensorRef> constant(const TermContext& ctx) {
  expectOperands(ctx, 0);
  const Shape shape = declaredShape(ctx.op);
  const mlir_ir::ElementType element = declaredElement(ctx.op);
  const bool isFloat = element.isFloat();
  z3::context& z = ctx.builder.ctx();
  const mlir_ir::Attribute* value = ctx.op.attribute("value");
  if (!value) value = ctx.op.attribute("");
  if (value && value->kind != mlir_ir::Attribute::Kind::Dense) {  // `arith.constant 4 : index`
    z3::expr scalar = z.int_val(value->intValue);
    if (isFloat)
      scalar = ctx.builder.floats().constant(value->kind == mlir_ir::Attribute::Kind::Float
                                                 ? value->floatValue
                                                 : static_cast<double>(value->intValue),
                                             element);
    return {ctx.builder.make(shape, element, [scalar](const Index&) { return scalar; })};
  }
  if (!value || !value->dense) unsupported(ctx.op, "needs a `dense<...>` value");
  std::shared_ptr<const mlir_ir::DenseElements> dense = value->dense;
  if (dense->isSplat) {
    z3::expr splat = denseElement(ctx.builder, *dense, 0, element);
    return {ctx.builder.make(shape, element, [splat](const Index&) { return splat; })};
  }
  std::optional<int64_t> count = dense->type.elementCount();
  if (!count || *count > TermBuilder::kMaxUnrolled)
    unsupported(ctx.op, "a constant of more than " + std::to_string(TermBuilder::kMaxUnrolled) +
                            " distinct elements is not written out");
  // An array holding every element, read at the linear position.
  z3::expr table = z3::const_array(z.int_sort(), denseElement(ctx.builder, *dense, 0, element));
  for (int64_t i = 1; i < *count; ++i)
    table = z3::store(table, z.int_val(i), denseElement(ctx.builder, *dense, i, element));
  return {ctx.builder.make(shape, element, [&z, table, shape](const Index& index) {
    return z3::select(table, linearize(z, shape, index)).simplify();
  })};
}

std::vector<TensorRef> iota(const TermContext& ctx) {
  expectOperands(ctx, 0);
  const Shape shape = declaredShape(ctx.op);
  const mlir_ir::ElementType element = declaredElement(ctx.op);
  const int64_t axis = intOf(ctx.op, {"dim", "iota_dimension"});
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    unsupported(ctx.op, "iota_dimension " + std::to_string(axis) + " is not an axis");
  const mlir_ir::ElementType counter = mlir_ir::ElementType{mlir_ir::ElementKind::I64, ""};
  TermBuilder* builder = &ctx.builder;
  return {ctx.builder.make(shape, element, [axis, element, counter, builder](const Index& index) {
    if (!element.isFloat()) return index[axis];
    return builder->floats().fromInteger(index[axis], counter, element);
  })};
}

// An operand read at indices computed from the result's: the rule of every pure move.
TensorRef moved(const TermContext& ctx, std::function<Index(const Index&)> source) {
  TensorRef operand = ctx.operands.at(0);
  TermBuilder* builder = &ctx.builder;
  return builder->make(
      declaredShape(ctx.op), operand->element,
      [builder, operand, source](const Index& index) {
        return builder->at(operand, source(index));
      },
      operand->wraps);
}

int64_t elementCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  return count;
}

std::vector<TensorRef> reshape(const TermContext& ctx) {
  if (ctx.operands.empty()) unsupported(ctx.op, "needs the tensor to reshape");
  const Shape shape = declaredShape(ctx.op), from = ctx.operands[0]->shape;
  if (elementCount(shape) != elementCount(from))
    unsupported(ctx.op, "the result has another element count than the operand");
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, shape, from](const Index& index) {
    return delinearize(*z, from, linearize(*z, shape, index));
  })};
}

std::vector<TensorRef> broadcastInDim(const TermContext& ctx) {
  if (ctx.operands.empty()) unsupported(ctx.op, "needs the tensor to broadcast");
  const Shape from = ctx.operands[0]->shape;
  const std::vector<int64_t> dims = intsOf(ctx.op, {"dims", "broadcast_dimensions"});
  const Shape shape = declaredShape(ctx.op);
  if (dims.size() != from.size()) unsupported(ctx.op, "one broadcast dimension per operand dim");
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0 || dims[i] >= static_cast<int64_t>(shape.size()) ||
        (from[i] != 1 && from[i] != shape[dims[i]]))
      unsupported(ctx.op, "operand dim " + std::to_string(i) + " does not broadcast");
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, from, dims](const Index& index) {
    Index source;
    for (size_t i = 0; i < dims.size(); ++i)
      source.push_back(from[i] == 1 ? z->int_val(0) : index.at(dims[i]));
    return source;
  })};
}

// tcp.broadcast_to: the size-1 dims named by `axes` take the result's size.
std::vector<TensorRef> broadcastTo(const TermContext& ctx) {
  if (ctx.operands.empty()) unsupported(ctx.op, "needs the tensor to broadcast");
  const std::vector<int64_t> axes = intsOf(ctx.op, {"axes"});
  const Shape from = ctx.operands[0]->shape, shape = declaredShape(ctx.op);
  if (from.size() != shape.size()) unsupported(ctx.op, "the result must keep the operand's rank");
  for (int64_t axis : axes)
    if (axis < 0 || axis >= static_cast<int64_t>(from.size()) || from[axis] != 1)
      unsupported(ctx.op, "axis " + std::to_string(axis) + " is not a size-1 dim of the operand");
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != from[d] &&
        std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end())
      unsupported(ctx.op, "dim " + std::to_string(d) + " changes size but is not in `axes`");
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, axes](Index index) {
    for (int64_t axis : axes) index[axis] = z->int_val(0);
    return index;
  })};
}

std::vector<TensorRef> transpose(const TermContext& ctx) {
  expectOperands(ctx, 1);
  const std::vector<int64_t> permutation = intsOf(ctx.op, {"dims", "permutation"});
  std::vector<int64_t> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i) || sorted.size() != ctx.operands[0]->shape.size())
      unsupported(ctx.op, "the permutation must name every dim once");
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, permutation](const Index& index) {
    Index source(index.size(), z->int_val(0));
    for (size_t i = 0; i < permutation.size(); ++i) source.at(permutation[i]) = index[i];
    return source;
  })};
}

std::vector<TensorRef> slice(const TermContext& ctx) {
  expectOperands(ctx, 1);
  const std::vector<int64_t> start = intsOf(ctx.op, {"start_indices"});
  std::vector<int64_t> strides(start.size(), 1);
  if (ctx.op.attribute("strides")) strides = intsOf(ctx.op, {"strides"});
  const Shape from = ctx.operands[0]->shape, shape = declaredShape(ctx.op);
  if (start.size() != from.size() || strides.size() != start.size() || shape.size() != from.size())
    unsupported(ctx.op, "start_indices and strides need one entry per dim");
  for (size_t d = 0; d < from.size(); ++d)
    if (start[d] < 0 || strides[d] < 1 ||
        (shape[d] > 0 && start[d] + (shape[d] - 1) * strides[d] >= from[d]))
      unsupported(ctx.op, "the slice leaves the operand along dim " + std::to_string(d));
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, start, strides](const Index& index) {
    Index source;
    for (size_t d = 0; d < index.size(); ++d)
      source.push_back((index[d] * z->int_val(strides[d]) + z->int_val(start[d])).simplify());
    return source;
  })};
}

std::vector<TensorRef> reverse(const TermContext& ctx) {
  expectOperands(ctx, 1);
  const std::vector<int64_t> dims = intsOf(ctx.op, {"dims", "dimensions"});
  const Shape shape = ctx.operands[0]->shape;
  for (int64_t d : dims)
    if (d < 0 || d >= static_cast<int64_t>(shape.size()))
      unsupported(ctx.op, "dimension " + std::to_string(d) + " is not a dim of the operand");
  z3::context* z = &ctx.builder.ctx();
  return {moved(ctx, [z, dims, shape](Index index) {
    for (int64_t d : dims) index.at(d) = (z->int_val(shape.at(d) - 1) - index.at(d)).simplify();
    return index;
  })};
}

std::vector<TensorRef> concatenate(const TermContext& ctx) {
  if (ctx.operands.empty()) unsupported(ctx.op, "needs operands");
  const int64_t axis = intOf(ctx.op, {"dim", "dimension"});
  const Shape shape = declaredShape(ctx.op);
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    unsupported(ctx.op, "dimension " + std::to_string(axis) + " is not an axis");
  std::vector<TensorRef> pieces = ctx.operands;
  TermBuilder* builder = &ctx.builder;
  bool wraps = std::any_of(pieces.begin(), pieces.end(),
                           [](const TensorRef& piece) { return piece->wraps; });
  return {builder->make(
      shape, pieces[0]->element,
      [builder, pieces, axis](const Index& index) {
        // The last piece first: each earlier one takes over below its end.
        std::vector<int64_t> offsets;
        int64_t offset = 0;
        for (const TensorRef& piece : pieces) {
          offsets.push_back(offset);
          offset += piece->shape.at(axis);
        }
        z3::expr value = builder->ctx().int_val(0);
        for (size_t i = pieces.size(); i-- > 0;) {
          Index source = index;
          source[axis] = (index[axis] - builder->ctx().int_val(offsets[i])).simplify();
          z3::expr element = builder->at(pieces[i], source);
          value =
              i + 1 == pieces.size()
                  ? element
                  : z3::ite(index[axis] < builder->ctx().int_val(offsets[i + 1]), element, value);
        }
        return value;
      },
      wraps)};
}

std::vector<TensorRef> pad(const TermContext& ctx) {
  expectOperands(ctx, 2);
  const std::vector<int64_t> low = intsOf(ctx.op, {"low", "edge_padding_low"});
  const std::vector<int64_t> interior = intsOf(ctx.op, {"interior", "interior_padding"});
  const Shape from = ctx.operands[0]->shape;
  if (low.size() != from.size() || interior.size() != from.size())
    unsupported(ctx.op, "the paddings need one entry per dim");
  TensorRef operand = ctx.operands[0], padding = ctx.operands[1];
  TermBuilder* builder = &ctx.builder;
  return {builder->make(
      declaredShape(ctx.op), operand->element,
      [builder, operand, padding, low, interior, from](const Index& index) {
        z3::context& z = builder->ctx();
        z3::expr inside = z.bool_val(true);
        Index source;
        for (size_t d = 0; d < index.size(); ++d) {
          z3::expr step = z.int_val(interior[d] + 1);
          z3::expr shifted = index[d] - z.int_val(low[d]);
          inside = inside && shifted >= 0 && z3::mod(shifted, step) == 0 &&
                   shifted / step < z.int_val(from[d]);
          source.push_back((shifted / step).simplify());
        }
        return z3::ite(inside.simplify(), builder->at(operand, source), builder->at(padding, {}));
      },
      operand->wraps || padding->wraps)};
}

// dynamic_slice: start indices from scalar operands, clamped so the slice fits (the spec).
std::vector<TensorRef> dynamicSlice(const TermContext& ctx) {
  const Shape from = ctx.operands.at(0)->shape;
  if (ctx.operands.size() != from.size() + 1)
    unsupported(ctx.op, "takes one start index per operand dim");
  const std::vector<int64_t> sizes = intsOf(ctx.op, {"sizes", "slice_sizes"});
  std::vector<TensorRef> starts(ctx.operands.begin() + 1, ctx.operands.end());
  TermBuilder* builder = &ctx.builder;
  return {moved(ctx, [builder, starts, sizes, from](const Index& index) {
    z3::context& z = builder->ctx();
    Index source;
    for (size_t d = 0; d < index.size(); ++d) {
      z3::expr start = builder->value(starts[d], {});
      z3::expr hi = z.int_val(from[d] - sizes.at(d));
      z3::expr clamped = z3::ite(start < 0, z.int_val(0), z3::ite(start > hi, hi, start));
      source.push_back(clamped + index[d]);
    }
    return source;
  })};
}

std::vector<TensorRef> dynamicUpdateSlice(const TermContext& ctx) {
  const Shape from = ctx.operands.at(0)->shape;
  if (ctx.operands.size() != from.size() + 2)
    unsupported(ctx.op, "takes an update and one start index per operand dim");
  TensorRef operand = ctx.operands[0], update = ctx.operands[1];
  std::vector<TensorRef> starts(ctx.operands.begin() + 2, ctx.operands.end());
  TermBuilder* builder = &ctx.builder;
  return {builder->make(
      from, operand->element,
      [builder, operand, update, starts, from](const Index& index) {
        z3::context& z = builder->ctx();
        z3::expr inside = z.bool_val(true);
        Index source;
        for (size_t d = 0; d < index.size(); ++d) {
          z3::expr start = builder->value(starts[d], {});
          z3::expr hi = z.int_val(from[d] - update->shape[d]);
          z3::expr clamped = z3::ite(start < 0, z.int_val(0), z3::ite(start > hi, hi, start));
          source.push_back(index[d] - clamped);
          inside =
              inside && index[d] >= clamped && index[d] < clamped + z.int_val(update->shape[d]);
        }
        return z3::ite(inside, builder->at(update, source), builder->at(operand, index));
      },
      operand->wraps || update->wraps)};
}

}  // namespace

const std::vector<TermRules::Row>& movementTermRules() {
  static const std::vector<TermRules::Row> rules = {
      {"stablehlo.constant", constant},
      {"arith.constant", constant},
      {"stablehlo.iota", iota},
      {"stablehlo.reshape", reshape},
      {"tensor.expand_shape", reshape},
      {"tensor.collapse_shape", reshape},
      {"stablehlo.broadcast_in_dim", broadcastInDim},
      {"tcp.broadcast_to", broadcastTo},
      {"stablehlo.transpose", transpose},
      {"stablehlo.slice", slice},
      {"stablehlo.reverse", reverse},
      {"stablehlo.concatenate", concatenate},
      {"stablehlo.pad", pad},
      {"stablehlo.dynamic_slice", dynamicSlice},
      {"stablehlo.dynamic_update_slice", dynamicUpdateSlice},
  };
  return rules;
}

}  // namespace idxmap::program_terms
