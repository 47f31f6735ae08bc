// The interpreter's walk: scopes of SSA values, the op table lookup, and the type checks that
// turn a program whose declared types disagree with its values into a diagnostic.
#include "ops/interp/interpreter.h"

#include <cstdio>
#include <new>
#include <unordered_map>

#include "ops/interp/op_table.h"

namespace idxmap::mlir_interpreter {
namespace {

std::string valueKey(const mlir_ir::Value& value) {
  return value.name + "#" + std::to_string(value.resultNumber);
}

// Deep enough for any test program; a recursive function stops here with a diagnostic.
constexpr int kMaxCallDepth = 64;

// Whether the value fits the declared type: same element type, same rank, and every static
// dim equal (a `?` dim takes any size up to its bound).
bool fitsType(const Tensor& value, const mlir_ir::Type& type) {
  if (!type.isTensor && type.rank() == 0 && !type.isOpaque())  // a plain scalar type `i64`
    return value.shape.empty() && value.element_type == type.elementType().toString();
  if (type.isOpaque() || value.element_type != type.elementType().toString()) return false;
  if (static_cast<int64_t>(value.shape.size()) != type.rank()) return false;
  for (size_t d = 0; d < value.shape.size(); ++d) {
    if (type.shape[d] == kDynamic) {
      if (!type.bounds.empty() && type.bounds[d] != kDynamic && value.shape[d] > type.bounds[d])
        return false;
    } else if (type.shape[d] != value.shape[d]) {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

const OpRules& opRules() {
  static const OpRules rules({elementwiseRules(), arithmeticRules(), shapeRules(), reduceRules(),
                              sortRules(), dotRules(), gatherRules(), formRules(), checkRules(),
                              controlRules()});
  return rules;
}

}  // namespace

OpEvaluator findOpEvaluator(std::string_view name) {
  const OpEvaluator* evaluator = opRules().find(name);
  return evaluator ? *evaluator : nullptr;
}

std::vector<std::string> supportedOpNames() {
  std::vector<std::string> names;
  for (std::string_view name : opRules().names()) names.emplace_back(name);
  return names;
}

Interpreter::Interpreter(const mlir_ir::Module& module, Engine engine, ExternalEngine* external)
    : module_(module), engine_(engine), external_(external) {}

const Tensor& Interpreter::lookup(const mlir_ir::Value& value) const {
  std::string key = valueKey(value);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto found = scope->find(key);
    if (found != scope->end()) return found->second;
  }
  throw InterpretError(value.location, "use of undefined value " + value.toString());
}

std::vector<Tensor> Interpreter::evaluate(const mlir_ir::Operation& op,
                                          const std::vector<Tensor>& operands) {
  OpEvaluator evaluator = findOpEvaluator(op.name);
  if (!evaluator)
    throw InterpretError(op.location, "unsupported op '" + op.name +
                                          "' (the interpreter has no "
                                          "evaluator for it)");
  if (op.operandTypes.size() == operands.size()) {
    for (size_t i = 0; i < operands.size(); ++i)
      if (!fitsType(operands[i], op.operandTypes[i]))
        throw InterpretError(op.location, op.name + ": operand " + std::to_string(i) + " (" +
                                              op.operands[i].toString() + ") is " +
                                              describeType(operands[i]) + ", but the op says " +
                                              op.operandTypes[i].toString());
  }
  std::vector<Tensor> results;
  try {
    results = evaluator(OpContext{op, operands, *this});
  } catch (const InterpretError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    // A library error without a location (an overflow in a size, say) is about this op.
    throw InterpretError(op.location, op.name + ": " + error.what());
  }
  if (op.resultTypes.size() == results.size()) {
    for (size_t i = 0; i < results.size(); ++i)
      if (!fitsType(results[i], op.resultTypes[i]))
        throw InterpretError(op.location, op.name + ": result " + std::to_string(i) +
                                              " is declared " + op.resultTypes[i].toString() +
                                              " but the computed value is " +
                                              describeType(results[i]));
  }
  return results;
}

std::vector<Tensor> Interpreter::runBlock(const mlir_ir::Block& block,
                                          const std::vector<Tensor>& arguments) {
  return runBlock(block, block.arguments, arguments);
}

std::vector<Tensor> Interpreter::runBlock(const mlir_ir::Block& block,
                                          const std::vector<mlir_ir::BlockArgument>& parameters,
                                          const std::vector<Tensor>& arguments) {
  if (arguments.size() != parameters.size())
    throw InterpretError(block.operations.empty() ? SourceLocation{} : block.operations[0].location,
                         "the block takes " + std::to_string(parameters.size()) +
                             " argument(s), given " + std::to_string(arguments.size()));
  scopes_.emplace_back();
  struct PopScope {
    std::vector<Scope>& scopes;
    ~PopScope() { scopes.pop_back(); }
  } pop{scopes_};
  for (size_t i = 0; i < arguments.size(); ++i) {
    const mlir_ir::BlockArgument& argument = parameters[i];
    if (!fitsType(arguments[i], argument.type))
      throw InterpretError(argument.value.location, "argument " + argument.value.toString() +
                                                        " is declared " + argument.type.toString() +
                                                        " but is given " +
                                                        describeType(arguments[i]));
    scopes_.back()[valueKey(argument.value)] = arguments[i];
  }
  for (const mlir_ir::Operation& op : block.operations) {
    std::vector<Tensor> operands;
    for (const mlir_ir::Value& value : op.operands) operands.push_back(lookup(value));
    bool terminator =
        op.name == "func.return" || op.name == "stablehlo.return" || op.name == "return";
    if (terminator) return operands;
    std::vector<Tensor> results = evaluate(op, operands);
    if (results.size() != op.results.size())
      throw InterpretError(op.location, op.name + " gives " + std::to_string(results.size()) +
                                            " result(s) but " + std::to_string(op.results.size()) +
                                            " are named");
    for (size_t i = 0; i < results.size(); ++i)
      scopes_.back()[valueKey(op.results[i])] = std::move(results[i]);
  }
  return {};  // a block without a terminator returns nothing
}

std::vector<Tensor> Interpreter::call(const mlir_ir::Function& function,
                                      const std::vector<Tensor>& arguments) {
  if (function.body.blocks.empty())
    throw InterpretError(function.location, "@" + function.name + " is a declaration: no body");
  if (function.body.blocks.size() != 1)
    throw InterpretError(function.location,
                         "@" + function.name + ": functions of several blocks are not supported");
  if (callDepth_ >= kMaxCallDepth)
    throw InterpretError(function.location, "calls nested deeper than " +
                                                std::to_string(kMaxCallDepth) + " (recursion?)");
  ++callDepth_;
  // A function sees only its own values: it starts from a fresh stack of scopes.
  std::vector<Scope> outer = std::move(scopes_);
  scopes_.clear();
  struct Restore {
    Interpreter& self;
    std::vector<Scope>& outer;
    ~Restore() {
      self.scopes_ = std::move(outer);
      --self.callDepth_;
    }
  } restore{*this, outer};
  // The entry block's arguments are the function's, written in its signature.
  const mlir_ir::Block& body = function.body.blocks[0];
  std::vector<Tensor> results =
      runBlock(body, body.arguments.empty() ? function.arguments : body.arguments, arguments);
  if (!function.resultTypes.empty() && results.size() == function.resultTypes.size())
    for (size_t i = 0; i < results.size(); ++i)
      if (!fitsType(results[i], function.resultTypes[i]))
        throw InterpretError(function.location, "@" + function.name + " returns " +
                                                    describeType(results[i]) + " as result " +
                                                    std::to_string(i) + ", declared " +
                                                    function.resultTypes[i].toString());
  return results;
}

Tensor tensorOfDense(const mlir_ir::DenseElements& dense, const SourceLocation& location,
                     const std::string& what) {
  auto failWith = [&](const std::string& message) {
    throw InterpretError(location, what + ": " + message);
  };
  if (dense.type.isOpaque()) failWith("type " + dense.type.toString() + " is not supported");
  std::string type = dense.type.elementType().toString();
  if (!isSupportedElementType(type))
    failWith("element type " + type + " is not supported (quantized and complex types are not)");
  if (!dense.type.hasStaticShape()) failWith("a dense value needs a static shape");
  std::optional<int64_t> count = dense.type.elementCount();
  if (!count || *count > kMaxElements)
    failWith("a value of more than " + std::to_string(kMaxElements) +
             " elements is refused (the interpreter's limit)");
  Tensor tensor = gather_scatter::zeros(type, dense.type.shape);
  for (int64_t i = 0; i < *count; ++i) {
    if (tensor.isFloat())  // decimal literals are read as doubles: round them to the type
      tensor.floats[i] = gather_scatter::roundToElementType(type, dense.floatAt(i));
    else
      tensor.ints[i] = wrapInteger(type, dense.intAt(i));
  }
  return tensor;
}

namespace {

// An element as StableHLO's interpreter prints it: floats in `%e` form (1.000000e+00).
std::string printedElement(const Tensor& tensor, int64_t position) {
  if (!tensor.isFloat()) return formatElement(tensor, position);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%e", tensor.floats.at(position));
  return buffer;
}

// Dimension `dim` onward at `position`: the innermost on one line, outer ones a bracket per
// line, indented two spaces a level.
std::string printedLevel(const Tensor& tensor, size_t dim, int64_t& position,
                         const std::string& indent) {
  int64_t size = tensor.shape[dim];
  if (dim + 1 == tensor.shape.size() || size == 0) {
    std::string text = indent + "[";
    for (int64_t i = 0; i < (dim + 1 == tensor.shape.size() ? size : 0); ++i)
      text += (i ? ", " : "") + printedElement(tensor, position++);
    return text + "]";
  }
  std::string text = indent + "[\n";
  for (int64_t i = 0; i < size; ++i)
    text += (i ? ",\n" : "") + printedLevel(tensor, dim + 1, position, indent + "  ");
  return text + "\n" + indent + "]";
}

std::string nestedElements(const Tensor& tensor, size_t dim, int64_t& next) {
  if (dim == tensor.shape.size()) return formatElement(tensor, next++);
  std::string text = "[";
  for (int64_t i = 0; i < tensor.shape[dim]; ++i)
    text += (i ? ", " : "") + nestedElements(tensor, dim + 1, next);
  return text + "]";
}

}  // namespace

std::string formatElements(const Tensor& tensor) {
  int64_t next = 0;
  return nestedElements(tensor, 0, next);
}

std::string formatTensor(const Tensor& tensor) {
  if (tensor.shape.empty()) return describeType(tensor) + " {" + printedElement(tensor, 0) + "}";
  int64_t position = 0;
  return describeType(tensor) + " {\n" + printedLevel(tensor, 0, position, "  ") + "\n}";
}

std::vector<const mlir_ir::Function*> entryFunctions(const mlir_ir::Module& module,
                                                     bool withArguments) {
  std::vector<const mlir_ir::Function*> entries;
  if (withArguments) {
    const mlir_ir::Function* main = module.function("main");
    if (!main)
      throw InterpretError(SourceLocation{module.fileName, 1, 1},
                           "values are given for @main's arguments, but there is no @main");
    return {main};
  }
  if (const mlir_ir::Function* main = module.function("main")) {
    if (!main->arguments.empty())
      throw InterpretError(main->location,
                           "@main takes arguments: give their values with --inputs FILE");
    entries.push_back(main);
    return entries;
  }
  for (const mlir_ir::Function& function : module.functions)
    if (function.arguments.empty() && !function.body.blocks.empty()) entries.push_back(&function);
  if (entries.empty())
    throw InterpretError(SourceLocation{module.fileName, 1, 1},
                         "nothing to run: no @main and no function without arguments");
  return entries;
}

}  // namespace idxmap::mlir_interpreter
