// One stage of an HLO kernel (codegen/hlo/hlo_kernel.h): the statement that computes one
// element of a stage's instruction, walking the computation toward the parameters through the op
// models' maps. What it prints is validated afterwards, so every index expression, offset and
// branch condition it prints is recorded as a PendingCheck. Private to codegen/hlo/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/hlo/hlo_kernel.h"
#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/index_code.h"
#include "codegen/prelude/element_code.h"
#include "core/indexing_map.h"
#include "ops/hlo/module.h"

namespace idxmap::codegen::hlo_stage {

// A buffer the kernel reads: one of its parameters, a stage's own buffer, a constant array.
struct ValueBuffer {
  std::string name;
  ElementCode type;
  std::vector<int64_t> shape;
  bool holdsComputeType = false;  // stage buffers hold computed values, not stored ones
  // XLA's minor-to-major layout of the buffer's elements; empty: row-major.
  std::vector<int64_t> layout = {};
  int packedBits = 0;  // sub-byte elements packed in bytes (KernelBuffer::packedBits)
};

// The offset of `at`'s results (an index of `buffer`'s logical shape) into the buffer's
// elements as its layout orders them, simplified over `at`'s domain.
Expr bufferOffset(IndexingMap at, const ValueBuffer& buffer);

// What every stage of one kernel shares.
struct KernelScope {
  const hlo::Computation* computation = nullptr;
  std::vector<ValueBuffer> parameters;                          // by parameter number
  std::map<const hlo::Instruction*, ValueBuffer> materialized;  // stages computed before
  // A variadic reduction's stage: its results' buffers, read through get-tuple-element.
  std::map<const hlo::Instruction*, std::vector<ValueBuffer>> materializedTuples;
  std::map<const hlo::Instruction*, ValueBuffer> constants;  // array constants
  std::vector<ir::Node> constantArrays;                      // their definitions
};

// A check of printed text, run once the stage's variables are all known.
struct PendingCheck {
  // kRuntimeValue: `text` gives runtime variable `runtimeVar` its clamped value from `raw`.
  enum class Kind : uint8_t { kExpression, kCondition, kCovered, kRuntimeValue } kind;
  std::string role, text;
  Expr meaning;                                       // kExpression (may be null)
  std::optional<int64_t> elements;                    // kExpression into a buffer
  std::vector<Constraint> condition;                  // kCondition
  std::vector<std::vector<Constraint>> alternatives;  // kCovered
  std::vector<Constraint> context;                    // the branch it runs in
  size_t runtimeVar = 0;                              // kRuntimeValue
  std::string raw;                                    // kRuntimeValue
  // What the statement's IR holds: the index expression or condition (kExpression,
  // kCondition), the runtime variable's value (kRuntimeValue). The IR is read back against
  // these (uncheckedIn): an expression in it that no check holds is not proven.
  CExpr expr = {};
  ir::Value value = {};
};

// A load the stage performs, for the kernel's header: buffer and index over the stage's map.
struct StageRead {
  std::string buffer;
  std::vector<Expr> index;
};

// What the stage's files share: an instruction kernels cannot compute, located at its opcode;
// its element type as code; the op model's only map to an operand; the map of a fallback
// operand (read at one index in every piece); whether a map reads its operand everywhere in
// `shape`.
UnsupportedHlo unsupported(const hlo::Instruction& at, const std::string& message);
const ElementCode& codeOf(const hlo::Instruction& instruction);
// The element type of result `k` as code: the instruction's own, or its tuple's element k (a
// variadic reduction's).
const ElementCode& codeOfResult(const hlo::Instruction& instruction, size_t k);
// The shape of an instruction's results: its own, or a variadic reduction's (all alike).
const std::vector<int64_t>& resultShape(const hlo::Instruction& instruction);
IndexingMap operandMap(const hlo::Instruction& instruction, size_t operand);
IndexingMap fallbackMap(const hlo::Instruction& instruction, size_t operand);
bool coversShape(const IndexingMap& map, const hlo::Shape& shape);
// The opcodes computed in a stage of their own, with loops over the positions they reduce:
// reduce, reduce-window, dot, convolution.
bool reducesInStage(const std::string& opcode);

class StageEmitter {
 public:
  // `stage`: the instruction whose element the statement computes, into `outputs` (one per
  // result: a variadic reduction has several; the offset into each is the one its layout gives
  // the loop iterators d0..).
  // Index variables (loop iterators, runtime variables) and arithmetic in `width`.
  StageEmitter(KernelScope& scope, const hlo::Instruction& stage, std::vector<ValueBuffer> outputs,
               CWidth width);

  // The stage's variables: its output dims, a reduce's reduced dims (a dot's contracting dims)
  // after them, and the runtime variables the statement declares.
  const IndexingMap& map() const { return map_; }
  // The statement at one point of the loop nest: a scope of `pointLets` (d<i> where isl fixed
  // some) and the stage's code as IR, its element values as element_code writes them.
  ir::Node statement(std::vector<ir::Node> pointLets);
  const std::vector<PendingCheck>& checks() const { return checks_; }
  const std::vector<StageRead>& reads() const { return reads_; }
  // What the last statement stores: each output buffer and the offset it writes, over the
  // output's dims (row-major in its layout), for the caller to prove distinct across points.
  struct Write {
    std::string buffer;
    Expr offset;
    int64_t elements = 0;  // the buffer's
  };
  const std::vector<Write>& writes() const { return writes_; }
  // The stores of `statements` (the stage's, read back from its IR after any edit), as checks
  // that each offset is its output's (kExpression, "store to <buffer>"): every statement stores
  // each output once, in order, at its top level (so at every point it runs), and no other
  // node stores into an output. Empty, with `why`, where the IR has another shape.
  std::vector<PendingCheck> storesRead(const std::vector<const ir::Node*>& statements,
                                       std::string& why) const;
  // What in `statements` (read back as storesRead's) no check holds: an index expression, a
  // condition or a runtime variable's value other than the ones checks prove (the very
  // expressions: checks keep them), a reduced loop other than over its range variable's range.
  // Empty when every one is held.
  std::string uncheckedIn(const std::vector<const ir::Node*>& statements) const;
  // The points one statement visits: the reduced dims' sizes (1 for other stages).
  int64_t pointsPerStatement() const;

 private:
  struct Frame;  // a computation being walked and its bound parameters
  std::string value(const Frame& frame, const hlo::Instruction& instruction,
                    const std::vector<Expr>& index);
  std::string compute(const Frame& frame, const hlo::Instruction& instruction,
                      const std::vector<Expr>& index);
  // A reduction's accumulators (one per result) at the end of its loops.
  std::vector<std::string> reduction(const Frame& frame, const hlo::Instruction& reduce,
                                     const std::vector<Expr>& index);
  std::string dotProduct(const Frame& frame, const hlo::Instruction& dot,
                         const std::vector<Expr>& index);
  // The loops over a reduction's dims (d<outputDims>.., in row-major order) and, where `reads`
  // (the map whose range variables they walk) has constraints, the guard that skips a position
  // in padding or a base dilation hole, as XLA skips it; and their ends.
  struct ReducedLoops {
    std::vector<Expr> iterators;
    CExpr guard;  // null: none
    std::vector<Constraint> outerContext;
  };
  ReducedLoops openReducedLoops(const IndexingMap& reads, const std::vector<Expr>& index,
                                const std::string& opcode);
  void closeReducedLoops(const ReducedLoops& loops);
  std::string branch(const Frame& frame, const hlo::Instruction& instruction,
                     const std::vector<Expr>& index);
  std::string load(const ValueBuffer& buffer, const std::vector<Expr>& index);
  std::string gather(const Frame& frame, const hlo::Instruction& instruction,
                     const std::vector<Expr>& index);
  // A new runtime variable rt<k>: `raw` (of integer `type`) clamped into `range`.
  Expr declareRuntime(const std::string& raw, const ElementCode& type, Interval range);
  std::vector<Expr> runtimeStarts(const Frame& frame, const hlo::Instruction& instruction,
                                  size_t firstOperand, const IndexingMap& map);
  std::vector<Expr> through(const IndexingMap& map, const std::vector<Expr>& index,
                            const std::vector<Expr>& runtime = {}) const;
  std::vector<Constraint> conditionOf(const IndexingMap& map, const std::vector<Expr>& index,
                                      const std::vector<Expr>& runtime) const;
  // `meaning` as the index expression the statement computes, its printed text checked later
  // (PendingCheck) against `meaning` and, with `elements`, the buffer's bounds.
  CExpr indexExpr(const std::string& role, Expr meaning,
                  std::optional<int64_t> elements = std::nullopt);
  std::string printIndex(const std::string& role, Expr meaning,
                         std::optional<int64_t> elements = std::nullopt) {
    return printCExpr(indexExpr(role, meaning, elements));
  }
  // The test that `condition` holds (each expression within its range), checked later.
  CExpr conditionExpr(const std::string& role, const std::vector<Constraint>& condition);
  // A new local `const type v<n> = value;`, its name returned.
  std::string local(const std::string& type, const std::string& value);
  std::string fresh(const std::string& prefix);
  // The statement is built as IR: nodes go to the innermost open block (a branch's or a
  // reduction loop's body, or the statement's own).
  void emit(ir::Node node) { blocks_.back().push_back(std::move(node)); }
  void open() { blocks_.emplace_back(); }
  std::vector<ir::Node> close() {
    std::vector<ir::Node> body = std::move(blocks_.back());
    blocks_.pop_back();
    return body;
  }
  IndexingMap contextMap() const;

  KernelScope& scope_;
  const hlo::Instruction& stage_;
  std::vector<ValueBuffer> outputs_;
  IndexingMap map_;
  size_t outputDims_;
  CWidth width_;
  bool emptyReduction_ = false;  // a reduction over no position: the init value
  IndexLowering lowering_;
  std::vector<PendingCheck> checks_;
  std::vector<ir::Value> runtimeValues_;  // every runtime variable's, as declared
  std::vector<StageRead> reads_;
  std::vector<Write> writes_;
  // Per statement: its open blocks, the branch constraints, values already computed.
  std::vector<std::vector<ir::Node>> blocks_;
  std::vector<Constraint> context_;
  std::vector<std::map<std::string, std::string>> memo_;
  int next_ = 0;
};

struct StageEmitter::Frame {
  const hlo::Computation* computation;
  std::vector<std::string> bound;  // a reducer's parameters; empty: the kernel's parameters
  int id;                          // distinguishes memoized values of different frames
};

}  // namespace idxmap::codegen::hlo_stage
