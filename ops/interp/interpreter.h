// An interpreter for StableHLO MLIR functions (ops/mlir/module.h) on dense tensors: what
// `idxmap run` executes. Every op is a row of a table from its name to an evaluator function
// (ops/interp/<family>.cpp, one file per op family); the `check.*` ops record outcomes
// instead of stopping the run.
//
// The engine decides only how gather, dynamic_gather and scatter are computed: `kReference`
// uses the spec-formula evaluators (ops/eval/reference_evaluator.h), `kMaps` walks the ops'
// indexing maps (ops/eval/map_evaluator.h). Everything else is computed the same way in both, so
// two runs that differ point at the maps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/checked.h"
#include "core/text.h"
#include "ops/eval/engine.h"
#include "ops/eval/tensor.h"
#include "ops/mlir/module.h"

namespace idxmap::mlir_interpreter {

using gather_scatter::Tensor;

using gather_scatter::Engine;

// The largest tensor the interpreter creates: 2^26 elements (512 MiB of 64-bit values, the
// way Tensor stores every element type). A constant, iota or broadcast past it is refused
// with a diagnostic instead of being attempted; a splat constant of any declared size costs
// nothing until it is expanded.
inline constexpr int64_t kMaxElements = int64_t{1} << 26;

// A located diagnostic about the program being run (unsupported op, operand or result type
// that does not match the values, attributes an op cannot use). what() is
// `file:line:col: error: message`.
class InterpretError : public LocatedError {
 public:
  InterpretError(SourceLocation location, std::string message)
      : LocatedError(std::move(location), std::move(message)) {}
};

// One executed check op.
struct CheckOutcome {
  SourceLocation location;
  std::string op;                      // "check.expect_eq_const"
  std::optional<std::string> failure;  // "element [1, 0] is 3, expected 4"; none: passed
};

// A third way to compute gather, dynamic_gather and scatter, supplied from outside ops/
// (codegen's compiled kernels: `idxmap run --engine kernel`). It sees the op, its validated
// model (types from the values) and the operand values; it throws InterpretError for an op it
// cannot compute. dynamic_gather comes as the gather it is (its slice sizes' values applied).
class ExternalEngine {
 public:
  virtual ~ExternalEngine() = default;
  virtual Tensor gather(const mlir_ir::Operation& op, const gather_scatter::GatherOp& model,
                        const Tensor& operand, const Tensor& indices) = 0;
  virtual std::vector<Tensor> scatter(const mlir_ir::Operation& op,
                                      const gather_scatter::ScatterOp& model,
                                      const std::vector<Tensor>& inputs, const Tensor& indices,
                                      const std::vector<Tensor>& updates) = 0;
};

// A while loop that runs this many iterations is taken for one that never ends (`run` must
// not hang); Interpreter::setMaxWhileIterations and `idxmap run --max-iterations` move it.
inline constexpr int64_t kDefaultMaxWhileIterations = int64_t{1} << 20;

class Interpreter {
 public:
  // With `external` (not owned; must outlive the interpreter), gather, dynamic_gather and
  // scatter are computed by it instead of `engine`.
  Interpreter(const mlir_ir::Module& module, Engine engine, ExternalEngine* external = nullptr);

  // Runs a function's body with its arguments bound to `arguments`; returns what it returns.
  std::vector<Tensor> call(const mlir_ir::Function& function, const std::vector<Tensor>& arguments);
  // Evaluates one op on tensors given for its operands: a bare op, as conformance records
  // carry them. The results are checked against the op's declared result types.
  std::vector<Tensor> evaluate(const mlir_ir::Operation& op, const std::vector<Tensor>& operands);
  // Runs a single-block region (scatter's update computation, a function body) with its
  // block arguments bound; values defined outside the region stay visible.
  std::vector<Tensor> runBlock(const mlir_ir::Block& block, const std::vector<Tensor>& arguments);

  Engine engine() const { return engine_; }
  int64_t maxWhileIterations() const { return maxWhileIterations_; }
  void setMaxWhileIterations(int64_t iterations) { maxWhileIterations_ = iterations; }
  ExternalEngine* external() const { return external_; }
  const mlir_ir::Module& module() const { return module_; }
  const std::vector<CheckOutcome>& checks() const { return checks_; }
  void recordCheck(CheckOutcome outcome) { checks_.push_back(std::move(outcome)); }

 private:
  using Scope = std::unordered_map<std::string, Tensor>;
  std::vector<Tensor> runBlock(const mlir_ir::Block& block,
                               const std::vector<mlir_ir::BlockArgument>& parameters,
                               const std::vector<Tensor>& arguments);
  const Tensor& lookup(const mlir_ir::Value& value) const;

  const mlir_ir::Module& module_;
  Engine engine_;
  ExternalEngine* external_;
  std::vector<CheckOutcome> checks_;
  std::vector<Scope> scopes_;  // innermost last: regions see the values of their parents
  int callDepth_ = 0;
  int64_t maxWhileIterations_ = kDefaultMaxWhileIterations;
};

// The functions `idxmap run` executes: `@main` when the module has one, else every function
// without arguments, in written order. Throws InterpretError when there is none, or when
// `@main` takes arguments and `withArguments` is false (nothing supplies them). With
// `withArguments` (values given), `@main` alone, which must exist.
std::vector<const mlir_ir::Function*> entryFunctions(const mlir_ir::Module& module,
                                                     bool withArguments = false);

// Every op name the interpreter evaluates, sorted (`idxmap run --help` lists them).
std::vector<std::string> supportedOpNames();

// A typed dense value as a tensor, checked as a constant's is: an element type the
// interpreter computes with, a static shape within kMaxElements. InterpretError
// `what: message` at `location` otherwise.
Tensor tensorOfDense(const mlir_ir::DenseElements& dense, const SourceLocation& location,
                     const std::string& what);

// A value as StableHLO's interpreter prints a result: its type, then its elements, a
// bracket per line for each outer dimension, the innermost on one line, floats as `%e`
// (`tensor<2x2xf32> {\n  [\n    [1.000000e+00, 2.000000e+00],\n    ...\n  ]\n}`); a 0-d
// value on one line, `tensor<ui8> {1}`.
std::string formatTensor(const Tensor& tensor);
std::string describeType(const Tensor& tensor);  // `tensor<2x3xi64>`
// Only the nested elements: `[[1, 2], [3, 4]]`, `5` for a 0-d tensor.
std::string formatElements(const Tensor& tensor);

}  // namespace idxmap::mlir_interpreter
