// runProgram (include/idxmap/idxmap.h): `idxmap run` for a caller with arrays in memory — the
// interpreter with the engine asked for, the arguments fitted to the function's parameter
// types first, so that an array in a wider type of the same kind (NumPy's default int64 and
// float64) passes where every value fits.
#include <memory>

#include "api/api_internal.h"
#include "codegen/run/jit.h"
#include "codegen/run/kernel_engine.h"
#include "ops/eval/tensor.h"
#include "ops/interp/interpreter.h"
#include "verify/assumptions.h"

namespace idxmap {
namespace {

using gather_scatter::isFloatType;
using gather_scatter::roundToElementType;
using mlir_interpreter::Tensor;

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text;
  for (int64_t size : shape) text += (text.empty() ? "" : "x") + std::to_string(size);
  return "[" + text + "]";
}

// The argument as the interpreter takes it for a parameter of `type`; LocatedError at the
// function when it does not fit.
Tensor fitted(const Array& array, const mlir_ir::Type& type, size_t position,
              const mlir_ir::Function& function) {
  const std::string name = "argument " + std::to_string(position) + " of @" + function.name;
  auto refuse = [&](const std::string& why) { return LocatedError(function.location, name + why); };
  const std::string& want = type.element_type;
  const bool wantFloat = isFloatType(want), haveFloat = isFloatType(array.elementType);
  if (wantFloat != haveFloat)
    throw refuse(" is " + array.elementType + ", the parameter " + type.toString());
  if (array.shape.size() != type.shape.size())
    throw refuse(" has shape " + shapeText(array.shape) + ", the parameter " + type.toString());
  for (size_t d = 0; d < array.shape.size(); ++d)
    if (!type.isDynamic(d) && array.shape[d] != type.shape[d])
      throw refuse(" has shape " + shapeText(array.shape) + ", the parameter " + type.toString());
  Tensor tensor{want, array.shape, {}, {}};
  const int64_t count = tensor.elementCount();
  if (static_cast<int64_t>(wantFloat ? array.floats.size() : array.ints.size()) != count)
    throw refuse(" has " + std::to_string(wantFloat ? array.floats.size() : array.ints.size()) +
                 " values for shape " + shapeText(array.shape));
  if (wantFloat) {
    for (double value : array.floats) tensor.floats.push_back(roundToElementType(want, value));
    return tensor;
  }
  const std::optional<std::pair<int64_t, int64_t>> range =
      want == "i1" ? std::optional(std::pair<int64_t, int64_t>(0, 1)) : integerTypeRange(want);
  for (int64_t value : array.ints) {
    if (range && (value < range->first || value > range->second))
      throw refuse(" holds " + std::to_string(value) + ", which " + want + " cannot (" +
                   type.toString() + ")");
    tensor.ints.push_back(value);
  }
  return tensor;
}

Array publicArray(const Tensor& tensor) {
  return {tensor.element_type, tensor.shape, tensor.ints, tensor.floats};
}

}  // namespace

std::vector<Array> runProgram(const Program& program, const std::vector<Array>& arguments,
                              Engine engine, const std::string& function) {
  const Program::Parsed& source = program.parsed();
  return api::guarded(
      [&] {
        if (!source.mlir)
          throw LocatedError({source.file, 1, 1}, "runProgram runs MLIR programs (this is HLO)");
        const mlir_ir::Module& module = *source.mlir;
        const mlir_ir::Function* callee = module.function(function);
        if (callee == nullptr) throw LocatedError({source.file, 1, 1}, "no function @" + function);
        if (arguments.size() != callee->arguments.size())
          throw LocatedError(callee->location,
                             "@" + function + " takes " + std::to_string(callee->arguments.size()) +
                                 " argument(s), given " + std::to_string(arguments.size()));
        std::vector<Tensor> values;
        for (size_t i = 0; i < arguments.size(); ++i)
          values.push_back(fitted(arguments[i], callee->arguments[i].type, i, *callee));
        std::unique_ptr<codegen::KernelEngine> kernels;
        if (engine == Engine::kKernel) kernels = std::make_unique<codegen::KernelEngine>(module);
        if (engine == Engine::kCuda) {  // (it says so, located, where there is no GPU)
          codegen::EmitTarget target{codegen::EmitTarget::Kind::kCuda, {}};
          kernels = std::make_unique<codegen::KernelEngine>(module, codegen::cudaJitOptions(), 0,
                                                            std::vector<Assumption>{}, target);
        }
        mlir_interpreter::Interpreter interpreter(module,
                                                  engine == Engine::kMaps
                                                      ? mlir_interpreter::Engine::kMaps
                                                      : mlir_interpreter::Engine::kReference,
                                                  kernels.get());
        std::vector<Array> results;
        for (const Tensor& result : interpreter.call(*callee, values))
          results.push_back(publicArray(result));
        for (const mlir_interpreter::CheckOutcome& check : interpreter.checks())
          if (check.failure)
            throw LocatedError(check.location, check.op + " failed: " + *check.failure);
        return results;
      },
      &source);
}

}  // namespace idxmap
