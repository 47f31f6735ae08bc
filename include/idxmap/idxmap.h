// idxmap's public API: the one header an embedding program includes (docs/api.md).
//
// Maps: parse in any text form (XLA / idxmap, MLIR affine_map with a domain, isl), print,
// simplify, compose, prove two maps equal. Programs (an HLO module, or an MLIR module of
// StableHLO, tensor, TCP, torch, ONNX and TF ops): each op's indexing maps, the index
// properties of its gathers and scatters proven (unique, sorted, in bounds, 32-bit safe), its
// kernels emitted as C++ or CUDA, two functions proven to compute the same result.
//
// Every failure is an ApiError carrying the diagnostic as the CLI prints it (file:line:col,
// the source line and a caret when the input has one, and the spec's label for a broken op
// constraint). Answers to yes/no questions are ProofResults: proven with a method, refuted
// with a replayed counterexample, or unknown with a reason; never a guess.
//
// Memory and threads: expressions built while an ExprContext is in use on the thread live
// until it is destroyed; otherwise for the process (core/expr_context.h). Maps and programs
// are values any number of threads may read; every call may run on any thread.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr.h"
#include "core/expr_context.h"
#include "core/indexing_map.h"
#include "core/verdict.h"

namespace idxmap {

// The one exception type of this API.
class ApiError : public std::runtime_error {
 public:
  // `diagnostic` is what() (the whole text); the location is empty (line 0) when the
  // failure has none.
  ApiError(std::string diagnostic, std::string message, std::string file = {}, int line = 0,
           int column = 0);
  const std::string& message() const { return message_; }  // without location or caret
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when there is no location
  int column() const { return column_; }

 private:
  std::string message_, file_;
  int line_, column_;
};

// ---- Maps ---------------------------------------------------------------------------------

// Exactly one map, in any form the CLI reads; `file` names the text in diagnostics.
IndexingMap parseMap(std::string_view text, std::string_view file = "<input>");
// Every map of a text (blank-line separated, or one `affine_map` / isl map after another).
std::vector<IndexingMap> parseEveryMap(std::string_view text, std::string_view file = "<input>");

enum class Notation {
  kIdxmap,  // XLA's syntax, one domain entry per line (what parseMap reads back)
  kXla,     // exactly as XLA's IndexingMap::ToString prints it
  kIsl,     // an isl map, e.g. "{ [d0, d1] -> [(d0 + d1)] : 0 <= d0 <= 9 and ... }"
};
std::string printMap(const IndexingMap& map, Notation notation = Notation::kIdxmap);

// The map with its expressions simplified using the variables' ranges (same relation).
IndexingMap simplifyMap(const IndexingMap& map);
// `first` then `second` (second's dims are first's results), simplified.
IndexingMap composeMaps(const IndexingMap& first, const IndexingMap& second);
// Whether the maps denote the same relation: isl when it can, Z3 otherwise.
ProofResult proveMapsEqual(const IndexingMap& a, const IndexingMap& b, unsigned timeoutMs = 10000);

// ---- Programs -----------------------------------------------------------------------------

// A parsed HLO or MLIR module and its text. Cheap to copy; immutable.
class Program {
 public:
  struct Parsed;  // the module (internal)
  explicit Program(std::shared_ptr<const Parsed> parsed) : parsed_(std::move(parsed)) {}
  bool isHlo() const;
  const std::string& file() const;
  const Parsed& parsed() const { return *parsed_; }

 private:
  std::shared_ptr<const Parsed> parsed_;
};

// MLIR text or HLO text, told apart as the CLI does: by the file name's suffix (.mlir, .hlo),
// otherwise MLIR when the text starts (after comments) with `module`, `func.func`, `%`, a quoted
// op name, `#` or `stablehlo.`, and HLO when it does not.
Program readProgram(std::string_view text, std::string_view file = "<input>");

// One map of an op: from an index of its result (or updates) to an index of one operand.
struct OpMap {
  std::string from, to;            // "result" -> "operand 0", "updates" -> "scatter_indices"
  std::optional<IndexingMap> map;  // absent when unknown or not one quasi-affine piece
  std::string isl;                 // the relation in isl syntax (empty when unknown)
  bool unknown = false;            // the op's model cannot express this operand's indexing
};
struct OpMaps {
  std::string op;        // "stablehlo.gather", "broadcast", ...
  std::string name;      // the HLO instruction's name; empty for MLIR
  std::string location;  // file:line:col of the op
  std::vector<OpMap> maps;
};
// HLO: every instruction of the entry computation (XLA's output-to-input indexing).
// MLIR: every gather and scatter form (StableHLO's maps, the others through their lowering).
// Throws ApiError for an op that breaks its spec.
std::vector<OpMaps> opMaps(const Program& program);

struct OpProperties {
  std::string op;
  std::string location;
  std::optional<ProofResult> unique;  // scatters, and gathers that may claim it
  ProofResult sorted, inBounds, int32Safe;
  std::string indices;  // where the index values come from ("iota", "%arg2")
};
// `idxmap verify`'s proofs for every gather and scatter form of the program. `assumptions`
// are facts about values as --assume writes them ("%arg2: unique, in [0, 99]"), MLIR only. A
// verdict whose condition is on the function's arguments carries a `witness` (values that break
// it) only when the interpreter replayed it.
// Throws ApiError when an op breaks its spec (the first finding, with its label). Runs with
// the CLI's isl budgets (5M operations, 120 s a question), as emitKernels does; the thread's
// own come back afterwards.
std::vector<OpProperties> proveIndexProperties(const Program& program,
                                               const std::vector<std::string>& assumptions = {});

enum class KernelLanguage { kCpp, kCuda };
// `idxmap emit`: one self-contained source file with every op's kernel, each relying only on
// facts proven (its header says which). Throws ApiError naming every op that could not get
// one (invalid, unsupported, or a kernel validation did not confirm).
std::string emitKernels(const Program& program, KernelLanguage language = KernelLanguage::kCpp,
                        const std::vector<std::string>& assumptions = {});

// `idxmap prove-equal`: whether function `function` of `first` and `other` of `second` (the
// same name when empty) compute the same result for every argument. Refuted with the
// arguments, replayed by the interpreter, in counterexample->explanation. Proven means
// bit-identical results: float ops are decided as IEEE-754 arithmetic. Functions shown equal
// only with their float ops read as arithmetic on reals (the IEEE query out of reach) get
// Verdict::EqualOverReals: not proven.
ProofResult proveProgramsEqual(const Program& first, const Program& second,
                               const std::string& function = "main", const std::string& other = "",
                               unsigned timeoutMs = 20000);

// ---- Running programs ----------------------------------------------------------------------

// A tensor's values, row-major: what runProgram takes and gives. Integer and boolean element
// types ("i1", "i8" ... "i64", "ui8" ... "ui64") hold `ints`; float types ("f16", "bf16",
// "f32", "f64") hold `floats` (every value of the type exactly).
struct Array {
  std::string elementType;
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

// How runProgram computes gathers and scatters (every other op the interpreter's way):
// StableHLO's formulas, a walk of the op models' maps, the C++ kernels `idxmap emit` writes
// (compiled with $CXX, cached), or its CUDA kernels (a GPU and nvcc).
enum class Engine { kReference, kMaps, kKernel, kCuda };

// `idxmap run`: the results of `function` of an MLIR program called on `arguments`. An
// argument takes its parameter's element type when both are integers (every value must fit:
// an int64 array passes to an i32 parameter) or both floats (rounded to nearest even, as a
// convert rounds); its shape must be the parameter's (a `?` takes any size). Throws ApiError
// for a wrong count, type, shape or value, an op that does not run (located), and a check op
// of the program (check.expect_*) that fails.
std::vector<Array> runProgram(const Program& program, const std::vector<Array>& arguments,
                              Engine engine = Engine::kReference,
                              const std::string& function = "main");

}  // namespace idxmap
