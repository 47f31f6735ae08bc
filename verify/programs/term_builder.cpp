#include <algorithm>
#include <cmath>

#include "verify/programs/term_builder_internal.h"

namespace idxmap::program_terms {
namespace {

const TermRules& termRules() {
  static const TermRules rules({movementTermRules(), elementTermRules(), gatherTermRules()});
  return rules;
}

std::string valueKey(const mlir_ir::Value& value) {
  return value.name + "#" + std::to_string(value.resultNumber);
}

// Calls nested deeper than this are a recursion the terms cannot unroll.
constexpr int kMaxCallDepth = 64;

}  // namespace

void unsupported(const mlir_ir::Operation& op, const std::string& message) {
  throw UnsupportedProgram(op.location, op.name + ": " + message);
}

std::vector<int64_t> declaredShape(const mlir_ir::Operation& op, size_t index) {
  if (index >= op.resultTypes.size()) unsupported(op, "its result type is not written");
  const mlir_ir::Type& type = op.resultTypes[index];
  if (!type.hasStaticShape())
    unsupported(op, "its result type " + type.toString() + " has no static shape");
  return type.shape;
}

mlir_ir::ElementType declaredElement(const mlir_ir::Operation& op, size_t index) {
  if (index >= op.resultTypes.size()) unsupported(op, "its result type is not written");
  mlir_ir::ElementType element = op.resultTypes[index].elementType();
  if (element.kind == mlir_ir::ElementKind::Other)
    unsupported(op, "element type " + element.toString() + " is not modeled");
  return element;
}

namespace {

const mlir_ir::Attribute* firstAttribute(const mlir_ir::Operation& op,
                                         std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    if (const mlir_ir::Attribute* attribute = op.attribute(name)) return attribute;
  unsupported(op, "missing attribute `" + std::string(*names.begin()) + "`");
}

}  // namespace

std::vector<int64_t> intsOf(const mlir_ir::Operation& op,
                            std::initializer_list<std::string_view> names) {
  const mlir_ir::Attribute* attribute = firstAttribute(op, names);
  if (std::optional<std::vector<int64_t>> ints = attribute->asInts()) return *ints;
  if (attribute->kind == mlir_ir::Attribute::Kind::Dense && attribute->dense &&
      attribute->dense->type.rank() <= 1 && attribute->dense->floats.empty()) {
    std::optional<int64_t> count = attribute->dense->type.elementCount();
    if (count && *count <= TermBuilder::kMaxUnrolled) {
      std::vector<int64_t> values;
      for (int64_t i = 0; i < *count; ++i) values.push_back(attribute->dense->intAt(i));
      return values;
    }
  }
  unsupported(op, "`" + std::string(*names.begin()) + "` must be a list of integers");
}

int64_t intOf(const mlir_ir::Operation& op, std::initializer_list<std::string_view> names) {
  const mlir_ir::Attribute* attribute = firstAttribute(op, names);
  if (std::optional<int64_t> value = attribute->asInt()) return *value;
  unsupported(op, "`" + std::string(*names.begin()) + "` must be an integer");
}

void expectOperands(const TermContext& ctx, size_t count) {
  if (ctx.operands.size() != count)
    unsupported(ctx.op, "takes " + std::to_string(count) + " operand(s), found " +
                            std::to_string(ctx.operands.size()));
}

std::vector<z3::expr> numerals(z3::context& ctx, const std::vector<int64_t>& index) {
  std::vector<z3::expr> out;
  for (int64_t value : index) out.push_back(ctx.int_val(value));
  return out;
}

z3::expr linearize(z3::context& ctx, const std::vector<int64_t>& shape,
                   const std::vector<z3::expr>& index) {
  z3::expr position = ctx.int_val(0);
  for (size_t d = 0; d < shape.size(); ++d) position = position * ctx.int_val(shape[d]) + index[d];
  return position.simplify();
}

std::vector<z3::expr> delinearize(z3::context& ctx, const std::vector<int64_t>& shape,
                                  const z3::expr& position) {
  std::vector<z3::expr> index(shape.size(), ctx.int_val(0));
  z3::expr rest = position;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 1) continue;  // index 0: the rest stays as it is
    index[d] = d == 0 ? rest : z3::mod(rest, ctx.int_val(shape[d]));
    rest = rest / ctx.int_val(shape[d]);  // floor division: the divisor is positive
  }
  for (z3::expr& entry : index) entry = entry.simplify();
  return index;
}

TermBuilder::TermBuilder(z3::context& ctx, const mlir_ir::Module& module,
                         const std::vector<ArgumentTerm>& arguments, FloatModel floats)
    : ctx_(ctx), module_(module), arguments_(arguments), floats_(ctx, floats) {}

TensorRef TermBuilder::make(std::vector<int64_t> shape, mlir_ir::ElementType element,
                            std::function<z3::expr(const std::vector<z3::expr>&)> rule,
                            bool wraps) {
  made_.push_back(std::make_shared<const TermTensor>(
      TermTensor{std::move(shape), std::move(element), std::move(rule), wraps}));
  return made_.back();
}

z3::expr TermBuilder::inShape(const std::vector<int64_t>& shape,
                              const std::vector<z3::expr>& index) {
  z3::expr inside = ctx_.bool_val(true);
  for (size_t d = 0; d < shape.size(); ++d)
    inside = inside && index[d] >= 0 && index[d] < ctx_.int_val(shape[d]);
  return inside.simplify();
}

z3::expr TermBuilder::at(const TensorRef& tensor, const std::vector<z3::expr>& index) {
  const bool isFloat = tensor->element.isFloat();
  // A tensor without elements is never read at a real position: any value serves.
  if (std::find(tensor->shape.begin(), tensor->shape.end(), 0) != tensor->shape.end())
    return isFloat ? floats_.constant(0, tensor->element) : ctx_.int_val(0);
  std::vector<unsigned> key;
  for (const z3::expr& entry : index) key.push_back(entry.id());
  auto found = memo_.find({tensor.get(), key});
  if (found != memo_.end()) return found->second;
  guards_.push_back(inShape(tensor->shape, index));
  z3::expr value = tensor->rule(index);
  guards_.pop_back();
  memo_.emplace(std::make_pair(tensor.get(), key), value);
  return value;
}

z3::expr TermBuilder::value(const TensorRef& tensor, const std::vector<z3::expr>& index) {
  z3::expr element = at(tensor, index);
  return tensor->wraps ? wrap(element, tensor->element) : element;
}

void TermBuilder::require(const z3::expr& condition, const std::string& what) {
  z3::expr guard = guards_.empty() ? ctx_.bool_val(true) : guards_.back();
  requireAlways(z3::implies(guard, condition), what);
}

void TermBuilder::requireAlways(const z3::expr& condition, const std::string& what) {
  z3::expr simple = condition.simplify();
  if (simple.is_true()) return;
  preconditions_.push_back(simple);
  if (!what.empty() &&
      std::find(assumptions_.begin(), assumptions_.end(), what) == assumptions_.end())
    assumptions_.push_back(what);
}

z3::expr TermBuilder::wrap(const z3::expr& value, const mlir_ir::ElementType& element) {
  const int width = element.bitWidth();
  if (width <= 0 || width > 64) return value;
  z3::expr modulus = ctx_.int_val(std::to_string(uint64_t{1} << (width - 1)).c_str()) * 2;
  if (width == 64) modulus = ctx_.int_val("18446744073709551616");
  if (!element.isSigned()) return z3::mod(value, modulus).simplify();
  z3::expr half = modulus / 2;
  return (z3::mod(value + half, modulus) - half).simplify();
}

z3::expr TermBuilder::inTypeRange(const z3::expr& value, const mlir_ir::ElementType& element) {
  const int width = element.bitWidth();
  if (width <= 0 || width > 64) return ctx_.bool_val(true);
  if (width == 1 || !element.isSigned()) {
    std::string limit =
        width == 64 ? "18446744073709551615" : std::to_string((uint64_t{1} << width) - 1);
    return value >= 0 && value <= ctx_.int_val(limit.c_str());
  }
  if (width == 64) return value >= ctx_.int_val(INT64_MIN) && value <= ctx_.int_val(INT64_MAX);
  int64_t half = int64_t{1} << (width - 1);
  return value >= ctx_.int_val(-half) && value <= ctx_.int_val(half - 1);
}

TensorRef TermBuilder::lookup(const mlir_ir::Value& value) const {
  std::string key = valueKey(value);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto found = scope->find(key);
    if (found != scope->end()) return found->second;
  }
  throw UnsupportedProgram(value.location, "use of undefined value " + value.toString());
}

std::vector<TensorRef> TermBuilder::runOps(const std::vector<mlir_ir::Operation>& ops) {
  for (const mlir_ir::Operation& op : ops) {
    std::vector<TensorRef> operands;
    for (const mlir_ir::Value& value : op.operands) operands.push_back(lookup(value));
    if (op.name == "func.return" || op.name == "stablehlo.return" || op.name == "return")
      return operands;
    std::vector<TensorRef> results;
    if (op.name == "func.call") {
      const mlir_ir::Attribute* callee = op.attribute("callee");
      const mlir_ir::Function* function = callee ? module_.function(callee->text) : nullptr;
      if (!function) unsupported(op, "its callee is not a function of the file");
      if (++depth_ > kMaxCallDepth) unsupported(op, "calls nest too deep to unroll");
      scopes_.emplace_back();
      for (size_t i = 0; i < function->arguments.size() && i < operands.size(); ++i)
        scopes_.back()[valueKey(function->arguments[i].value)] = operands[i];
      if (function->arguments.size() != operands.size() || function->body.blocks.size() != 1)
        unsupported(op, "the call does not match @" + function->name);
      results = runOps(function->body.blocks[0].operations);
      scopes_.pop_back();
      --depth_;
    } else {
      const TermRule* rule = termRules().find(op.name);
      if (!rule) unsupported(op, "no term model for this op (not data movement idxmap follows)");
      try {
        results = (*rule)(TermContext{op, operands, ops, *this});
      } catch (const UnsupportedProgram&) {
        throw;
      } catch (const std::exception& error) {
        // An attribute that names no dim, a type Z3 cannot combine: the op is not one the
        // terms model, said at the op rather than as a bare library message.
        unsupported(op, error.what());
      }
    }
    if (results.size() != op.results.size())
      unsupported(op, "gives " + std::to_string(results.size()) + " values for " +
                          std::to_string(op.results.size()) + " names");
    for (size_t i = 0; i < results.size(); ++i)
      scopes_.back()[valueKey(op.results[i])] = results[i];
  }
  return {};
}

std::vector<TensorRef> TermBuilder::runBlock(const mlir_ir::Block& block,
                                             const std::vector<TensorRef>& args) {
  scopes_.emplace_back();
  for (size_t i = 0; i < block.arguments.size() && i < args.size(); ++i)
    scopes_.back()[valueKey(block.arguments[i].value)] = args[i];
  std::vector<TensorRef> results = runOps(block.operations);
  scopes_.pop_back();
  return results;
}

std::vector<TensorRef> TermBuilder::call(const mlir_ir::Function& function) {
  if (function.body.blocks.size() != 1)
    throw UnsupportedProgram(function.location,
                             "@" + function.name + " must be one block (no body, or branches)");
  scopes_.emplace_back();
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    const ArgumentTerm& argument = arguments_.at(i);
    const mlir_ir::ElementType element = argument.element;
    z3::func_decl decl = argument.function;
    scopes_.back()[valueKey(function.arguments[i].value)] =
        make(argument.shape, element, [this, decl, element](const std::vector<z3::expr>& index) {
          z3::expr_vector args(ctx_);
          for (const z3::expr& entry : index) args.push_back(entry);
          z3::expr value = decl(args);
          if (!element.isFloat()) requireAlways(inTypeRange(value, element), "");
          return value;
        });
  }
  std::vector<TensorRef> results = runOps(function.body.blocks[0].operations);
  scopes_.pop_back();
  return results;
}

}  // namespace idxmap::program_terms
