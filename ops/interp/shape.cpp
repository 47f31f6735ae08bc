// Ops that create or move elements without arithmetic: constant, iota, concatenate,
// broadcast_in_dim, reshape, transpose, slice, dynamic_slice, dynamic_update_slice, pad,
// get_dimension_size, set_dimension_size, real_dynamic_slice, dynamic_pad. Each reads its
// attributes in the pretty spelling (`dims`, `dim`, `sizes`) or the generic one
// (`broadcast_dimensions`, `dimension`, `slice_sizes`), and checks what the spec constrains
// before it indexes anything.
#include <algorithm>

#include "ops/interp/convert.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

using Index = std::vector<int64_t>;

// Calls f(resultIndex, resultPosition) for every index of `shape`, row-major.
template <typename F>
void forEachIndex(const Index& shape, F&& f) {
  if (gather_scatter::isEmptyShape(shape)) return;
  Index index(shape.size(), 0);
  int64_t position = 0;
  do {
    f(index, position++);
  } while (gather_scatter::nextIndex(shape, index));
}

int64_t rankOf(const Tensor& tensor) { return static_cast<int64_t>(tensor.shape.size()); }

void expectAxis(const OpContext& ctx, int64_t axis, int64_t rank, const std::string& what) {
  if (axis < 0 || axis >= rank)
    fail(ctx, what + " " + std::to_string(axis) + " is not an axis of a rank-" +
                  std::to_string(rank) + " tensor");
}

void expectLength(const OpContext& ctx, const Index& list, int64_t length,
                  const std::string& what) {
  if (static_cast<int64_t>(list.size()) != length)
    fail(ctx, what + " has " + std::to_string(list.size()) + " entries, expected " +
                  std::to_string(length));
}

std::vector<Tensor> constant(const OpContext& ctx) {
  expectOperandCount(ctx, 0);
  const mlir_ir::Attribute* value = findAttribute(ctx, {"value"});
  if (!value || value->kind != mlir_ir::Attribute::Kind::Dense || !value->dense)
    fail(ctx, "needs a `dense<...>` value");
  return {tensorFromDense(ctx, *value->dense)};
}

// The result shape of a dynamic_* op: the values of its shape operand `index`, which the
// declared type's static dims must agree with.
Index shapeOperand(const OpContext& ctx, size_t index) {
  if (index >= ctx.operands.size()) fail(ctx, "needs its output shape operand");
  const Tensor& values = ctx.operands[index];
  const mlir_ir::Type& declared = declaredResultType(ctx);
  Index shape =
      indexVector(ctx, values, values.shape.empty() ? -1 : values.shape[0], "the output shape");
  if (declared.rank() != static_cast<int64_t>(shape.size()))
    fail(ctx, "the output shape " + formatIndex(shape) + " does not fit " + declared.toString());
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] < 0 || (declared.shape[d] != kDynamic && declared.shape[d] != shape[d]))
      fail(ctx, "the output shape " + formatIndex(shape) + " does not fit " + declared.toString());
  checkedElementCount(ctx, shape);
  return shape;
}

std::vector<Tensor> iotaOf(const OpContext& ctx, const Index& shape) {
  std::string type = elementTypeName(ctx, declaredResultType(ctx));
  int64_t axis = intAttribute(ctx, {"dim", "iota_dimension"});
  expectAxis(ctx, axis, static_cast<int64_t>(shape.size()), "iota dimension");
  Tensor result = makeTensor(ctx, type, shape);
  forEachIndex(shape, [&](const Index& index, int64_t position) {
    if (result.isFloat())
      result.floats[position] = integerToFloat("i64", index[axis], type);
    else
      result.ints[position] =
          isBooleanType(type) ? index[axis] != 0 : wrapInteger(type, index[axis]);
  });
  return {result};
}

std::vector<Tensor> iota(const OpContext& ctx) {
  expectOperandCount(ctx, 0);
  return iotaOf(ctx, staticResultShape(ctx));
}

std::vector<Tensor> dynamicIota(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  return iotaOf(ctx, shapeOperand(ctx, 0));
}

std::vector<Tensor> concatenate(const OpContext& ctx) {
  if (ctx.operands.empty()) fail(ctx, "takes at least one operand");
  const Tensor& first = ctx.operands[0];
  int64_t axis = intAttribute(ctx, {"dim", "dimension"});
  expectAxis(ctx, axis, rankOf(first), "dimension");
  Index shape = first.shape;
  shape[axis] = 0;
  for (const Tensor& operand : ctx.operands) {
    Index expected = first.shape;
    expected[axis] = operand.shape.size() == first.shape.size() ? operand.shape[axis] : -1;
    if (operand.element_type != first.element_type || operand.shape != expected)
      fail(ctx, "operands must agree except along dimension " + std::to_string(axis) + ", found " +
                    describeType(first) + " and " + describeType(operand));
    shape[axis] = checkedAdd(shape[axis], operand.shape[axis]);
  }
  Tensor result = makeTensor(ctx, first.element_type, shape);
  int64_t offset = 0;
  for (const Tensor& operand : ctx.operands) {
    forEachIndex(operand.shape, [&](const Index& index, int64_t position) {
      Index target = index;
      target[axis] += offset;
      copyElement(operand, position, result, gather_scatter::linearPosition(shape, target));
    });
    offset += operand.shape[axis];
  }
  return {result};
}

std::vector<Tensor> broadcastInDimOf(const OpContext& ctx, const Index& shape) {
  const Tensor& operand = ctx.operands[0];
  Index dims = intsAttribute(ctx, {"dims", "broadcast_dimensions"});
  expectLength(ctx, dims, rankOf(operand), "broadcast_dimensions");
  for (size_t i = 0; i < dims.size(); ++i) {
    expectAxis(ctx, dims[i], static_cast<int64_t>(shape.size()), "broadcast dimension");
    if (operand.shape[i] != 1 && operand.shape[i] != shape[dims[i]])
      fail(ctx, "operand dimension " + std::to_string(i) + " of size " +
                    std::to_string(operand.shape[i]) + " cannot broadcast to result dimension " +
                    std::to_string(dims[i]) + " of size " + std::to_string(shape[dims[i]]));
  }
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  Index source(operand.shape.size());
  forEachIndex(shape, [&](const Index& index, int64_t position) {
    for (size_t i = 0; i < dims.size(); ++i) source[i] = operand.shape[i] == 1 ? 0 : index[dims[i]];
    copyElement(operand, gather_scatter::linearPosition(operand.shape, source), result, position);
  });
  return {result};
}

std::vector<Tensor> broadcastInDim(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  return broadcastInDimOf(ctx, staticResultShape(ctx));
}

std::vector<Tensor> dynamicBroadcastInDim(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  return broadcastInDimOf(ctx, shapeOperand(ctx, 1));
}

std::vector<Tensor> reshapeOf(const OpContext& ctx, const Index& shape) {
  Tensor result = ctx.operands[0];
  if (checkedElementCount(ctx, shape) != result.elementCount())
    fail(ctx, "cannot reshape " + describeType(result) + " to shape " + formatIndex(shape) +
                  ": element counts differ");
  result.shape = shape;
  return {result};
}

std::vector<Tensor> reshape(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  return reshapeOf(ctx, staticResultShape(ctx));
}

std::vector<Tensor> dynamicReshape(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  return reshapeOf(ctx, shapeOperand(ctx, 1));
}

std::vector<Tensor> transpose(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  const Tensor& operand = ctx.operands[0];
  Index permutation = intsAttribute(ctx, {"dims", "permutation"});
  expectLength(ctx, permutation, rankOf(operand), "permutation");
  Index sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i)) fail(ctx, "permutation is not a permutation");
  Index shape;
  for (int64_t axis : permutation) shape.push_back(operand.shape[axis]);
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  Index source(shape.size());
  forEachIndex(shape, [&](const Index& index, int64_t position) {
    for (size_t i = 0; i < permutation.size(); ++i) source[permutation[i]] = index[i];
    copyElement(operand, gather_scatter::linearPosition(operand.shape, source), result, position);
  });
  return {result};
}

// result[i] = operand[start + i * stride], for a slice that lies inside the operand.
Tensor stridedSlice(const OpContext& ctx, const Tensor& operand, const Index& start,
                    const Index& limit, const Index& strides) {
  Index shape;
  for (size_t d = 0; d < operand.shape.size(); ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > operand.shape[d] || strides[d] <= 0)
      fail(ctx, "slice [" + std::to_string(start[d]) + ":" + std::to_string(limit[d]) + ":" +
                    std::to_string(strides[d]) + "] of dimension " + std::to_string(d) + " (size " +
                    std::to_string(operand.shape[d]) +
                    ") needs 0 <= start <= limit <= size and a positive stride");
    shape.push_back((limit[d] - start[d] + strides[d] - 1) / strides[d]);
  }
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  Index source(shape.size());
  forEachIndex(shape, [&](const Index& index, int64_t position) {
    for (size_t d = 0; d < shape.size(); ++d) source[d] = start[d] + index[d] * strides[d];
    copyElement(operand, gather_scatter::linearPosition(operand.shape, source), result, position);
  });
  return result;
}

std::vector<Tensor> slice(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  const Tensor& operand = ctx.operands[0];
  Index start = intsAttribute(ctx, {"start_indices"});
  Index limit = intsAttribute(ctx, {"limit_indices"});
  Index strides = findAttribute(ctx, {"strides"}) ? intsAttribute(ctx, {"strides"})
                                                  : Index(operand.shape.size(), 1);
  for (const Index* list : {&start, &limit, &strides})
    expectLength(ctx, *list, rankOf(operand), "the slice");
  return {stridedSlice(ctx, operand, start, limit, strides)};
}

// The start indices of dynamic_slice / dynamic_update_slice: one 0-d operand per dimension,
// clamped so that a window of `sizes` stays inside the operand (as the spec says).
Index clampedStarts(const OpContext& ctx, size_t firstOperand, const Tensor& operand,
                    const Index& sizes) {
  if (ctx.operands.size() != firstOperand + operand.shape.size())
    fail(ctx,
         "needs one start index per operand dimension (" + std::to_string(operand.shape.size()) +
             "), found " +
             std::to_string(ctx.operands.size() - std::min(firstOperand, ctx.operands.size())));
  Index starts;
  for (size_t d = 0; d < operand.shape.size(); ++d) {
    int64_t start =
        scalarIndex(ctx, ctx.operands[firstOperand + d], "start index " + std::to_string(d));
    starts.push_back(std::clamp<int64_t>(start, 0, operand.shape[d] - sizes[d]));
  }
  return starts;
}

std::vector<Tensor> dynamicSlice(const OpContext& ctx) {
  if (ctx.operands.empty()) fail(ctx, "takes an operand and start indices");
  const Tensor& operand = ctx.operands[0];
  Index sizes = intsAttribute(ctx, {"sizes", "slice_sizes"});
  expectLength(ctx, sizes, rankOf(operand), "slice_sizes");
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || sizes[d] > operand.shape[d])
      fail(ctx, "slice size " + std::to_string(sizes[d]) + " does not fit dimension " +
                    std::to_string(d) + " of size " + std::to_string(operand.shape[d]));
  Index start = clampedStarts(ctx, 1, operand, sizes);
  Index limit;
  for (size_t d = 0; d < sizes.size(); ++d) limit.push_back(start[d] + sizes[d]);
  return {stridedSlice(ctx, operand, start, limit, Index(sizes.size(), 1))};
}

std::vector<Tensor> dynamicUpdateSlice(const OpContext& ctx) {
  if (ctx.operands.size() < 2) fail(ctx, "takes an operand, an update and start indices");
  const Tensor &operand = ctx.operands[0], &update = ctx.operands[1];
  if (update.element_type != operand.element_type || update.shape.size() != operand.shape.size())
    fail(ctx, "the update " + describeType(update) + " does not match the operand " +
                  describeType(operand));
  for (size_t d = 0; d < update.shape.size(); ++d)
    if (update.shape[d] > operand.shape[d])
      fail(ctx, "the update " + describeType(update) + " is larger than the operand " +
                    describeType(operand));
  Index start = clampedStarts(ctx, 2, operand, update.shape);
  Tensor result = operand;
  forEachIndex(update.shape, [&](const Index& index, int64_t position) {
    Index target = index;
    for (size_t d = 0; d < target.size(); ++d) target[d] += start[d];
    copyElement(update, position, result, gather_scatter::linearPosition(operand.shape, target));
  });
  return {result};
}

// pad / dynamic_pad: negative edge padding crops, interior padding goes between elements.
Tensor pad(const OpContext& ctx, const Tensor& operand, const Tensor& paddingValue,
           const Index& low, const Index& high, const Index& interior) {
  if (paddingValue.element_type != operand.element_type || !paddingValue.shape.empty())
    fail(ctx, "the padding value must be a 0-d tensor of " + operand.element_type + ", found " +
                  describeType(paddingValue));
  Index shape;
  for (size_t d = 0; d < operand.shape.size(); ++d) {
    if (interior[d] < 0) fail(ctx, "interior padding must not be negative");
    int64_t size = operand.shape[d];
    int64_t padded =
        checkedAdd(checkedAdd(low[d], high[d]),
                   checkedAdd(size, checkedMul(std::max<int64_t>(size - 1, 0), interior[d])));
    if (padded < 0) fail(ctx, "padding of dimension " + std::to_string(d) + " is below zero size");
    shape.push_back(padded);
  }
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  forEachIndex(shape, [&](const Index&, int64_t position) {
    copyElement(paddingValue, 0, result, position);
  });
  forEachIndex(operand.shape, [&](const Index& index, int64_t position) {
    Index target(index.size());
    for (size_t d = 0; d < index.size(); ++d) {
      target[d] = low[d] + index[d] * (interior[d] + 1);
      if (target[d] < 0 || target[d] >= shape[d]) return;  // cropped away
    }
    copyElement(operand, position, result, gather_scatter::linearPosition(shape, target));
  });
  return result;
}

std::vector<Tensor> padOp(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  int64_t rank = rankOf(ctx.operands[0]);
  Index low = intsAttribute(ctx, {"low", "edge_padding_low"});
  Index high = intsAttribute(ctx, {"high", "edge_padding_high"});
  Index interior = intsAttribute(ctx, {"interior", "interior_padding"});
  for (const Index* list : {&low, &high, &interior}) expectLength(ctx, *list, rank, "padding");
  return {pad(ctx, ctx.operands[0], ctx.operands[1], low, high, interior)};
}

std::vector<Tensor> dynamicPad(const OpContext& ctx) {
  expectOperandCount(ctx, 5);
  int64_t rank = rankOf(ctx.operands[0]);
  return {pad(ctx, ctx.operands[0], ctx.operands[1],
              indexVector(ctx, ctx.operands[2], rank, "edge_padding_low"),
              indexVector(ctx, ctx.operands[3], rank, "edge_padding_high"),
              indexVector(ctx, ctx.operands[4], rank, "interior_padding"))};
}

std::vector<Tensor> realDynamicSlice(const OpContext& ctx) {
  expectOperandCount(ctx, 4);
  const Tensor& operand = ctx.operands[0];
  int64_t rank = rankOf(operand);
  return {stridedSlice(ctx, operand, indexVector(ctx, ctx.operands[1], rank, "start_indices"),
                       indexVector(ctx, ctx.operands[2], rank, "limit_indices"),
                       indexVector(ctx, ctx.operands[3], rank, "strides"))};
}

std::vector<Tensor> getDimensionSize(const OpContext& ctx) {
  expectOperandCount(ctx, 1);
  int64_t axis = intAttribute(ctx, {"dim", "dimension"});
  expectAxis(ctx, axis, rankOf(ctx.operands[0]), "dimension");
  return {Tensor{"i32", {}, {ctx.operands[0].shape[axis]}, {}}};
}

// Spec 002: the result's dimension gets the runtime size, at most the static size or bound
// (the declared result's bound when it has one, else the operand's size). A smaller size
// slices; a larger one pads with values the spec leaves undefined — zeros here.
std::vector<Tensor> setDimensionSize(const OpContext& ctx) {
  expectOperandCount(ctx, 2);
  const Tensor& operand = ctx.operands[0];
  int64_t axis = intAttribute(ctx, {"dim", "dimension"});
  expectAxis(ctx, axis, rankOf(operand), "dimension");
  int64_t size = scalarIndex(ctx, ctx.operands[1], "size");
  int64_t bound = operand.shape[axis];
  if (axis < static_cast<int64_t>(ctx.op.resultTypes.size() ? ctx.op.resultTypes[0].bounds.size()
                                                            : 0) &&
      ctx.op.resultTypes[0].bounds[axis] != kDynamic)
    bound = ctx.op.resultTypes[0].bounds[axis];
  if (size < 0 || size > bound)
    fail(ctx, "size " + std::to_string(size) + " of dimension " + std::to_string(axis) +
                  " is outside [0, " + std::to_string(bound) + "]");
  Index shape = operand.shape;
  shape[axis] = size;
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  forEachIndex(shape, [&](const Index& index, int64_t position) {
    if (index[axis] < operand.shape[axis])
      copyElement(operand, gather_scatter::linearPosition(operand.shape, index), result, position);
  });
  return {result};
}

}  // namespace

const std::vector<OpRule>& shapeRules() {
  static const std::vector<OpRule> rules = {
      {"stablehlo.constant", constant},
      {"stablehlo.iota", iota},
      {"stablehlo.dynamic_iota", dynamicIota},
      {"stablehlo.dynamic_broadcast_in_dim", dynamicBroadcastInDim},
      {"stablehlo.dynamic_reshape", dynamicReshape},
      {"stablehlo.concatenate", concatenate},
      {"stablehlo.broadcast_in_dim", broadcastInDim},
      {"stablehlo.reshape", reshape},
      {"stablehlo.transpose", transpose},
      {"stablehlo.slice", slice},
      {"stablehlo.dynamic_slice", dynamicSlice},
      {"stablehlo.dynamic_update_slice", dynamicUpdateSlice},
      {"stablehlo.pad", padOp},
      {"stablehlo.dynamic_pad", dynamicPad},
      {"stablehlo.real_dynamic_slice", realDynamicSlice},
      {"stablehlo.get_dimension_size", getDimensionSize},
      {"stablehlo.set_dimension_size", setDimensionSize},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
