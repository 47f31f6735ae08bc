// Element-wise ops as terms. Integer arithmetic is exact and wraps to the result type, as
// the interpreter computes it. Float ops compute as the builder's float model says
// (verify/programs/float_terms.h: on reals, or IEEE floats with rounding uninterpreted or
// exact), each noted so the verdict can say what it rests on. Every other element-wise op is
// an uninterpreted function of its operands' elements: equal only as the same function of the
// same elements, which is what data movement needs.
#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

using Index = std::vector<z3::expr>;
using Combine = std::function<z3::expr(const std::vector<z3::expr>&)>;

// The result element from the operands' elements at the same index; a rank-0 operand is
// read at {} (clamp's and select's scalar forms). `raw` reads them as at() gives them (for
// the ring ops, whose result then `wraps`); otherwise each is the element's value.
TensorRef elementwise(const TermContext& ctx, const mlir_ir::ElementType& element, Combine combine,
                      bool raw = false, bool wraps = false) {
  if (ctx.operands.empty()) unsupported(ctx.op, "needs operands");
  std::vector<TensorRef> operands = ctx.operands;
  const std::vector<int64_t> shape = declaredShape(ctx.op);
  for (const TensorRef& operand : operands)
    if (!operand->shape.empty() && operand->shape != shape)
      unsupported(ctx.op, "operands must have the result's shape");
  TermBuilder* builder = &ctx.builder;
  return builder->make(
      shape, element,
      [builder, operands, combine, raw](const Index& index) {
        std::vector<z3::expr> values;
        for (const TensorRef& operand : operands) {
          Index at = operand->shape.empty() ? Index{} : index;
          values.push_back(raw ? builder->at(operand, at) : builder->value(operand, at));
        }
        return combine(values);
      },
      wraps);
}

bool floatOperands(const TermContext& ctx) {
  return !ctx.operands.empty() && ctx.operands[0]->element.isFloat();
}

// Arithmetic combines elements of one type (the spec's constraint for every binary op): a
// program that mixes them is no program to compare.
void expectElementType(const TermContext& ctx, const mlir_ir::ElementType& element) {
  for (const TensorRef& operand : ctx.operands)
    if (!(operand->element == element))
      unsupported(ctx.op, "an operand of element type " + operand->element.toString() +
                              " where the op computes " + element.toString());
}

// One float op's meaning: the operands' values and the element type, to the result.
using FloatCombine =
    std::function<z3::expr(FloatTerms&, const std::vector<z3::expr>&, const mlir_ir::ElementType&)>;

// A float op computed as the float model says (noted for the verdict).
TensorRef floatOp(const TermContext& ctx, const mlir_ir::ElementType& element,
                  FloatCombine combine) {
  TermBuilder* builder = &ctx.builder;
  builder->noteFloatArithmetic(ctx.op.name);
  return elementwise(ctx, element, [builder, element, combine](const std::vector<z3::expr>& v) {
    return combine(builder->floats(), v, element);
  });
}

// add, subtract, multiply, negate: on integers exact and left to wrap where the value is
// observed (TermTensor::wraps); on floats `real` as the float model computes it.
std::vector<TensorRef> ring(const TermContext& ctx, Combine exact, FloatCombine real) {
  mlir_ir::ElementType element = declaredElement(ctx.op);
  expectElementType(ctx, element);
  if (element.isFloat()) return {floatOp(ctx, element, real)};
  return {elementwise(ctx, element, exact, /*raw=*/true, /*wraps=*/true)};
}

// abs, min, max, clamp: on the values, an integer result wrapped to its type (abs of the
// smallest value wraps); a float one as the float model computes it.
std::vector<TensorRef> arithmetic(const TermContext& ctx, Combine exact, FloatCombine real) {
  mlir_ir::ElementType element = declaredElement(ctx.op);
  expectElementType(ctx, element);
  TermBuilder* builder = &ctx.builder;
  if (element.isFloat()) return {floatOp(ctx, element, real)};
  return {elementwise(ctx, element, [builder, element, exact](const std::vector<z3::expr>& v) {
    return builder->wrap(exact(v), element);
  })};
}

using Values = std::vector<z3::expr>;
using Element = mlir_ir::ElementType;

std::vector<TensorRef> add(const TermContext& ctx) {
  expectOperands(ctx, 2);
  return ring(
      ctx, [](const Values& v) { return v[0] + v[1]; },
      [](FloatTerms& f, const Values& v, const Element& e) { return f.add(v[0], v[1], e); });
}
std::vector<TensorRef> subtract(const TermContext& ctx) {
  expectOperands(ctx, 2);
  return ring(
      ctx, [](const Values& v) { return v[0] - v[1]; },
      [](FloatTerms& f, const Values& v, const Element& e) { return f.subtract(v[0], v[1], e); });
}
std::vector<TensorRef> multiply(const TermContext& ctx) {
  expectOperands(ctx, 2);
  return ring(
      ctx, [](const Values& v) { return v[0] * v[1]; },
      [](FloatTerms& f, const Values& v, const Element& e) { return f.multiply(v[0], v[1], e); });
}
std::vector<TensorRef> negate(const TermContext& ctx) {
  expectOperands(ctx, 1);
  return ring(
      ctx, [](const Values& v) { return -v[0]; },
      [](FloatTerms& f, const Values& v, const Element&) { return f.negate(v[0]); });
}
std::vector<TensorRef> abs(const TermContext& ctx) {
  expectOperands(ctx, 1);
  return arithmetic(
      ctx, [](const Values& v) { return z3::ite(v[0] < 0, -v[0], v[0]); },
      [](FloatTerms& f, const Values& v, const Element&) { return f.abs(v[0]); });
}
std::vector<TensorRef> minimum(const TermContext& ctx) {
  expectOperands(ctx, 2);
  return arithmetic(
      ctx, [](const Values& v) { return z3::ite(v[1] < v[0], v[1], v[0]); },
      [](FloatTerms& f, const Values& v, const Element&) { return f.minimum(v[0], v[1]); });
}
std::vector<TensorRef> maximum(const TermContext& ctx) {
  expectOperands(ctx, 2);
  return arithmetic(
      ctx, [](const Values& v) { return z3::ite(v[0] < v[1], v[1], v[0]); },
      [](FloatTerms& f, const Values& v, const Element&) { return f.maximum(v[0], v[1]); });
}

// clamp(min, operand, max), min and max element-wise or scalars: min(max(operand, min), max).
std::vector<TensorRef> clamp(const TermContext& ctx) {
  expectOperands(ctx, 3);
  return arithmetic(
      ctx,
      [](const Values& v) {
        z3::expr low = z3::ite(v[1] < v[0], v[0], v[1]);
        return z3::ite(v[2] < low, v[2], low);
      },
      [](FloatTerms& f, const Values& v, const Element&) {
        return f.minimum(f.maximum(v[1], v[0]), v[2]);
      });
}

// divide and sqrt of floats (integer divide stays uninterpreted): correctly rounded.
std::vector<TensorRef> opaque(const TermContext& ctx);
std::vector<TensorRef> divide(const TermContext& ctx) {
  expectOperands(ctx, 2);
  Element element = declaredElement(ctx.op);
  if (!element.isFloat()) return opaque(ctx);
  expectElementType(ctx, element);
  return {floatOp(ctx, element, [](FloatTerms& f, const Values& v, const Element& e) {
    return f.divide(v[0], v[1], e);
  })};
}
std::vector<TensorRef> sqrt(const TermContext& ctx) {
  expectOperands(ctx, 1);
  Element element = declaredElement(ctx.op);
  if (!element.isFloat()) return opaque(ctx);
  expectElementType(ctx, element);
  return {floatOp(ctx, element, [](FloatTerms& f, const Values& v, const Element& e) {
    return f.sqrt(v[0], e);
  })};
}

// The branches pass on as they are (and the result wraps when one does); the predicate is read
// as its value.
std::vector<TensorRef> select(const TermContext& ctx) {
  expectOperands(ctx, 3);
  TensorRef predicate = ctx.operands[0];
  TermBuilder* builder = &ctx.builder;
  const mlir_ir::ElementType element = declaredElement(ctx.op);
  if (!(ctx.operands[1]->element == element) || !(ctx.operands[2]->element == element))
    unsupported(ctx.op, "its branches must have the result's element type");
  bool wraps = ctx.operands[1]->wraps || ctx.operands[2]->wraps;
  return {elementwise(
      ctx, declaredElement(ctx.op),
      [builder, predicate](const std::vector<z3::expr>& v) {
        z3::expr condition = predicate->wraps ? builder->wrap(v[0], predicate->element) : v[0];
        return z3::ite(condition != 0, v[1], v[2]);
      },
      /*raw=*/true, wraps)};
}

// The direction keyword (`LT`, pretty) or `#stablehlo<comparison_direction LT>` (generic).
std::string comparisonDirection(const mlir_ir::Operation& op) {
  const char* directions[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  for (const std::string& keyword : op.keywords)
    for (const char* direction : directions)
      if (keyword == direction) return keyword;
  if (const mlir_ir::Attribute* attribute = op.attribute("comparison_direction"))
    for (const char* direction : directions)
      if (attribute->text.find(std::string(" ") + direction) != std::string::npos ||
          attribute->text == direction)
        return direction;
  unsupported(op, "missing comparison direction (EQ, NE, GE, GT, LE, LT)");
}

std::vector<TensorRef> compare(const TermContext& ctx) {
  expectOperands(ctx, 2);
  // An unsigned comparison of signless (signed here) values orders them otherwise: opaque.
  for (const std::string& keyword : ctx.op.keywords)
    if (keyword == "UNSIGNED" || keyword == "TOTALORDER") return opaque(ctx);
  if (const mlir_ir::Attribute* type = ctx.op.attribute("compare_type"))
    if (type->text.find("UNSIGNED") != std::string::npos ||
        type->text.find("TOTALORDER") != std::string::npos)
      return opaque(ctx);
  if (!(ctx.operands[0]->element == ctx.operands[1]->element))
    unsupported(ctx.op, "compares elements of two types");
  const bool isFloat = floatOperands(ctx);
  if (isFloat) ctx.builder.noteFloatArithmetic(ctx.op.name);
  const std::string direction = comparisonDirection(ctx.op);
  TermBuilder* builder = &ctx.builder;
  const FloatTerms integers(builder->ctx(), FloatModel::kReals);  // integers compare as reals do
  return {elementwise(ctx, declaredElement(ctx.op),
                      [builder, integers, direction, isFloat](const std::vector<z3::expr>& v) {
                        z3::expr holds =
                            (isFloat ? builder->floats() : integers).compare(direction, v[0], v[1]);
                        return z3::ite(holds, v[0].ctx().int_val(1), v[0].ctx().int_val(0));
                      })};
}

// The same uninterpreted function for the same op and types in both programs.
std::vector<TensorRef> opaque(const TermContext& ctx) {
  mlir_ir::ElementType element = declaredElement(ctx.op);
  z3::context& z = ctx.builder.ctx();
  z3::sort_vector domain(z);
  std::string name = ctx.op.name;
  FloatTerms& floats = ctx.builder.floats();
  for (const TensorRef& operand : ctx.operands) {
    domain.push_back(operand->element.isFloat() ? floats.sort(operand->element) : z.int_sort());
    name += "_" + operand->element.toString();
  }
  name += "_" + element.toString();
  for (const std::string& keyword : ctx.op.keywords) name += "_" + keyword;
  z3::func_decl function =
      z.function(name.c_str(), domain, element.isFloat() ? floats.sort(element) : z.int_sort());
  return {elementwise(ctx, element, [function](const std::vector<z3::expr>& v) {
    z3::expr_vector args(function.ctx());
    for (const z3::expr& value : v) args.push_back(value);
    return function(args);
  })};
}

std::vector<TensorRef> convert(const TermContext& ctx) {
  expectOperands(ctx, 1);
  mlir_ir::ElementType to = declaredElement(ctx.op);
  mlir_ir::ElementType from = ctx.operands[0]->element;
  TermBuilder* builder = &ctx.builder;
  if (!from.isFloat() && !to.isFloat())
    return {elementwise(ctx, to, [builder, to](const std::vector<z3::expr>& v) {
      return builder->wrap(v[0], to);
    })};
  // Float to integer: how out-of-range values saturate is the interpreter's choice, not a
  // model's: the same function of the same value.
  if (!to.isFloat()) return opaque(ctx);
  if (!(from == to)) builder->noteFloatArithmetic(ctx.op.name);
  return {elementwise(ctx, to, [builder, from, to](const std::vector<z3::expr>& v) {
    return from.isFloat() ? builder->floats().convert(v[0], from, to)
                          : builder->floats().fromInteger(v[0], from, to);
  })};
}

}  // namespace

const std::vector<TermRules::Row>& elementTermRules() {
  static const std::vector<TermRules::Row> rules = {
      {"stablehlo.add", add},
      {"stablehlo.subtract", subtract},
      {"stablehlo.multiply", multiply},
      {"stablehlo.negate", negate},
      {"stablehlo.abs", abs},
      {"stablehlo.minimum", minimum},
      {"stablehlo.maximum", maximum},
      {"stablehlo.clamp", clamp},
      {"stablehlo.select", select},
      {"stablehlo.compare", compare},
      {"stablehlo.convert", convert},
      // Computed without a model of their arithmetic: the same op of the same elements.
      {"stablehlo.divide", divide},
      {"stablehlo.sqrt", sqrt},
      {"stablehlo.remainder", opaque},
      {"stablehlo.power", opaque},
      {"stablehlo.and", opaque},
      {"stablehlo.or", opaque},
      {"stablehlo.xor", opaque},
      {"stablehlo.not", opaque},
      {"stablehlo.exponential", opaque},
      {"stablehlo.log", opaque},
      {"stablehlo.rsqrt", opaque},
      {"stablehlo.tanh", opaque},
      {"stablehlo.logistic", opaque},
      {"stablehlo.floor", opaque},
      {"stablehlo.ceil", opaque},
      {"stablehlo.sign", opaque},
      {"stablehlo.sine", opaque},
      {"stablehlo.cosine", opaque},
  };
  return rules;
}

}  // namespace idxmap::program_terms
