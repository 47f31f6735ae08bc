// The ops around the gather forms that are not StableHLO's, as their specs and MLIR define them:
// tensor.gather / tensor.scatter (spec 001), tcp.gather / tcp.gather_nd (spec 003), and the ops
// their lowerings are written with — tensor.expand_shape / tensor.collapse_shape (row-major
// reshapes: the reassociation only groups dims, so the result type says everything),
// tcp.broadcast_to (size-1 dims of `axes` repeated to the result's sizes) and arith.constant.
// A form is imported into its model, validated, lowered (ops/forms/lowering.h) and evaluated by
// either engine; an index value the form defines no result for is a located error.
#include "ops/import/forms.h"
#include "ops/eval/lowered_gather.h"
#include "ops/forms/tcp_gather.h"
#include "ops/forms/tensor_gather.h"
#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

using gather_scatter::Violation;
using Index = std::vector<int64_t>;

// The import's ParseError and the evaluators' IndexValueError, located at the op.
template <typename Evaluate>
auto located(const OpContext& ctx, Evaluate&& evaluate) {
  try {
    return evaluate();
  } catch (const ParseError& error) {
    throw InterpretError(error.location(), error.message());
  } catch (const gather_scatter::IndexValueError& error) {
    throw InterpretError(ctx.op.location, error.what());  // it names the op
  }
}

Engine engineOf(const OpContext& ctx) { return ctx.interpreter.engine(); }

// A gather form of (operand, indices): its model retyped to the values, validated, lowered
// and evaluated.
template <typename Form>
std::vector<Tensor> loweredGather(const OpContext& ctx, Form (*import)(const mlir_ir::Operation&),
                                  void (*retype)(Form&, const TensorType&, const TensorType&),
                                  std::vector<Violation> (*validate)(const Form&),
                                  gather_scatter::LoweredGather (*lower)(const Form&)) {
  expectOperandCount(ctx, 2);
  return located(ctx, [&] {
    Form op = import(ctx.op);
    retype(op, typeOf(ctx.operands[0]), typeOf(ctx.operands[1]));
    op.result = staticOrNone(op.result);
    expectValid(ctx, validate(op));
    return std::vector<Tensor>{gather_scatter::evaluateLoweredGather(
        lower(op), ctx.operands[0], ctx.operands[1], engineOf(ctx))};
  });
}

std::vector<Tensor> tensorGather(const OpContext& ctx) {
  return loweredGather<gather_scatter::TensorGatherOp>(
      ctx, gather_scatter::importTensorGather,
      [](gather_scatter::TensorGatherOp& op, const TensorType& source, const TensorType& indices) {
        op.source = source, op.indices = indices;
      },
      gather_scatter::validateTensorGather, gather_scatter::lowerTensorGather);
}

std::vector<Tensor> tcpGather(const OpContext& ctx) {
  return loweredGather<gather_scatter::TcpGatherOp>(
      ctx, gather_scatter::importTcpGather,
      [](gather_scatter::TcpGatherOp& op, const TensorType& input, const TensorType& indices) {
        op.input = input, op.indices = indices;
      },
      gather_scatter::validateTcpGather, gather_scatter::lowerTcpGather);
}

std::vector<Tensor> tcpGatherNd(const OpContext& ctx) {
  return loweredGather<gather_scatter::TcpGatherNdOp>(
      ctx, gather_scatter::importTcpGatherNd,
      [](gather_scatter::TcpGatherNdOp& op, const TensorType& input, const TensorType& indices) {
        op.input = input, op.indices = indices;
      },
      gather_scatter::validateTcpGatherNd, gather_scatter::lowerTcpGatherNd);
}

std::vector<Tensor> tensorScatter(const OpContext& ctx) {
  expectOperandCount(ctx, 3);
  return located(ctx, [&] {
    gather_scatter::TensorScatterOp op = gather_scatter::importTensorScatter(ctx.op);
    op.source = typeOf(ctx.operands[0]);
    op.dest = typeOf(ctx.operands[1]);
    op.indices = typeOf(ctx.operands[2]);
    op.result = staticOrNone(op.result);
    expectValid(ctx, gather_scatter::validateTensorScatter(op));
    return std::vector<Tensor>{gather_scatter::evaluateLoweredScatter(
        gather_scatter::lowerTensorScatter(op), ctx.operands[1], ctx.operands[2], ctx.operands[0],
        engineOf(ctx))};
  });
}

// expand_shape and collapse_shape keep the elements in row-major order.
std::vector<Tensor> reassociate(const OpContext& ctx) {
  if (ctx.operands.empty()) fail(ctx, "needs the tensor to reshape");
  Tensor result = ctx.operands[0];
  Index shape = staticResultShape(ctx);
  if (checkedElementCount(ctx, shape) != result.elementCount())
    fail(ctx, "cannot reshape " + describeType(result) + " to shape " + formatIndex(shape) +
                  ": element counts differ");
  result.shape = shape;
  return {result};
}

// tcp.broadcast_to: every dim in `axes` has size 1 in the operand and the result's size (its
// new size is an index operand); every other dim keeps its size.
std::vector<Tensor> broadcastTo(const OpContext& ctx) {
  if (ctx.operands.empty()) fail(ctx, "needs the tensor to broadcast");
  const Tensor& operand = ctx.operands[0];
  Index shape = staticResultShape(ctx);
  Index axes = intsAttribute(ctx, {"axes"});
  if (shape.size() != operand.shape.size())
    fail(ctx, "the result must have the operand's rank " + std::to_string(operand.shape.size()));
  if (ctx.operands.size() != axes.size() + 1)
    fail(ctx, "takes one size operand per axis: " + std::to_string(axes.size()) + ", found " +
                  std::to_string(ctx.operands.size() - 1));
  Index broadcast(shape.size(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i];
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()) || broadcast[axis])
      fail(ctx, "axes " + formatIndex(axes) + " must be distinct axes of the operand");
    if (operand.shape[axis] != 1)
      fail(ctx, "axis " + std::to_string(axis) + " has size " +
                    std::to_string(operand.shape[axis]) + "; only a size-1 dim broadcasts");
    if (scalarIndex(ctx, ctx.operands[i + 1], "the size of axis " + std::to_string(axis)) !=
        shape[axis])
      fail(ctx, "the size operand of axis " + std::to_string(axis) + " disagrees with " +
                    declaredResultType(ctx).toString());
    broadcast[axis] = 1;
  }
  for (size_t d = 0; d < shape.size(); ++d)
    if (!broadcast[d] && shape[d] != operand.shape[d])
      fail(ctx, "dim " + std::to_string(d) + " is not in `axes` but changes size from " +
                    std::to_string(operand.shape[d]) + " to " + std::to_string(shape[d]));
  Tensor result = makeTensor(ctx, operand.element_type, shape);
  if (gather_scatter::isEmptyShape(shape)) return {result};
  Index index(shape.size(), 0), source(shape.size());
  int64_t position = 0;
  do {
    for (size_t d = 0; d < shape.size(); ++d) source[d] = broadcast[d] ? 0 : index[d];
    copyElement(operand, gather_scatter::linearPosition(operand.shape, source), result, position++);
  } while (gather_scatter::nextIndex(shape, index));
  return {result};
}

// `arith.constant 4 : index` (a scalar) or `arith.constant dense<...> : tensor<...>`.
std::vector<Tensor> arithConstant(const OpContext& ctx) {
  expectOperandCount(ctx, 0);
  const mlir_ir::Attribute* value = findAttribute(ctx, {"value", ""});
  if (value && value->kind == mlir_ir::Attribute::Kind::Dense && value->dense)
    return {tensorFromDense(ctx, *value->dense)};
  const mlir_ir::Type& type = declaredResultType(ctx);
  if (!value || type.rank() != 0) fail(ctx, "needs a scalar or `dense<...>` value");
  std::string element = elementTypeName(ctx, type);
  Tensor result = makeTensor(ctx, element, {});
  if (result.isFloat() && value->kind == mlir_ir::Attribute::Kind::Float) {
    result.floats[0] = gather_scatter::roundToElementType(element, value->floatValue);
  } else if (!result.isFloat() && value->asInt()) {
    result.ints[0] = wrapInteger(element, *value->asInt());
  } else {
    fail(ctx, "its value does not fit " + type.toString());
  }
  return {result};
}

}  // namespace

const std::vector<OpRule>& formRules() {
  static const std::vector<OpRule> rules = {
      {"tensor.gather", tensorGather},
      {"tensor.scatter", tensorScatter},
      {"tcp.gather", tcpGather},
      {"tcp.gather_nd", tcpGatherNd},
      {"tensor.expand_shape", reassociate},
      {"tensor.collapse_shape", reassociate},
      {"tcp.broadcast_to", broadcastTo},
      {"arith.constant", arithConstant},
  };
  return rules;
}

}  // namespace idxmap::mlir_interpreter
