// The kernel IR: a kernel as a tree of statements over index expressions (CExpr) and element
// values. Lowering builds it (from a Kernel, codegen/kernel/kernel.h, or an HLO stage,
// codegen/hlo/), validation reads it back (codegen/cpp/kernel_check.cpp, codegen/cuda/
// thread_check.h, ir/loops.h's readLoopNest) and the printer prints it
// (codegen/cpp/ir_printer.h), so what a kernel does is written down once, as data, before any
// text exists.
//
// Semantics, one statement at a time (C's, as both targets compile them):
//   kBlock       the body in order; a scope of its own (`{ }`) when `scoped`
//   kComment     nothing (printed as `//` lines)
//   kFor         for (W name = lower; condition; name += step) body, W `type` or else the
//                function's index width; `mapping` says how iterations are spread (threads,
//                SIMD lanes, a CUDA grid's threads), never what they compute: every mapping
//                runs each iteration once
//   kIf          body where condition != 0, else orElse
//   kLet         const type name = value, in scope to the end of the enclosing block
//   kVar         type name = value (value-initialized when there is none): a local the
//                statements after it may assign (kAssign: name = value)
//   kStore       name[offset] = value (a buffer's element); when `atomic` names a function,
//                atomic(&name[offset], value) instead: the element updated atomically
//   kVectorCopy  the 16 bytes at &name[offset] take those at the address of `value` (a load)
//   kThreads     every thread of a team runs body (one thread when the function's point count
//                is below the parallel grain); names declared inside are the thread's own
//   kThreadShare int64_t name, from: the calling thread's share [name, from) of
//                [lo, lo + count) (idxmap_thread_range's: the shares of a team partition it)
//   kRunStarts   declares idxmap_run_starts_at(d0): d0 <= lo || d0 > hi, or some load of
//                `loads` differs between d0 and d0 - 1 (a run of equal index vectors starts)
//   kToRunStart  while (!idxmap_run_starts_at(name)) ++name
//   kPrefetch    a hint to fetch `count` bytes from the address `value` (changes no value)
//   kCopy        name's `count` elements of type `type` copied from `from` unless they are one
//                buffer (threads share the bytes)
//   kBadIndexFlag declares the flag kBadIndex sets (before any thread runs)
//   kBadIndex    reports an index value out of range: sets the flag, from any thread
//   kReturnIfBad returns 2 when the flag is set
//   kTileRuns    a segmented CUDA thread's tile of `count` rows of d0 from the declared d0 (none
//                past `hi`): declares idxmap_first = d0, then runs a statement at d0 = idxmap_first
//                + idxmap_row for every row from the tile's first run start (kRunStarts' test)
//                to the tile's end and on past it while no run starts: the runs that start in
//                the tile, each whole. `body`: sources fetched first (kLets, each an array of
//                `count` values, row r's computed at d0 = idxmap_first + r, rows past hi
//                skipped), then the statement for the tile's rows; `orElse`: the statement for
//                the rows past it
//   kConstants   static const type name[] = {values...}: a constant array (an HLO constant)
//   kBuffer      std::vector<type> name(count): a local buffer of count zeros (an HLO stage's
//                temporary, C++)
//   kLaunch      a CUDA launch of kernel `name` over `count` threads (256 a block, grid-stride
//                past the block limit) with the arguments `loads` (kVariable values: buffers,
//                the flag, workspace pointers), on the launcher's stream
//   kRegion      type* const name = a pointer `loads`' one offset (a literal: C text) bytes into
//                the CUDA launcher's workspace (idxmap_space); with two offsets, type* const
//                name[2] of both
//   kIfAligned   body where the buffers `loads` names (kVariable values) each start at a
//                multiple of `count` bytes, else orElse
//   kSortPairs   CUB's stable radix sort of `count` (key, point number) pairs by the keys' low
//                `hi` bits, from idxmap_keys[0] and idxmap_points[0] into idxmap_keys[1] and
//                idxmap_points[1], its scratch the workspace from byte `lo` to the end (`name`:
//                the function that gives the workspace's bytes)
//   kSortedRun   deterministic mode's thread at sorted position idxmap_point: unless its key
//                (idxmap_keys[idxmap_point], of C type `type`) is the skipped key `hi` or the
//                one before it is equal, runs body for each position of the run of equal keys
//                from it (at most `count` positions in all), in order, with idxmap_point
//                rebound to the point number stored there (idxmap_points[at], of type `from`)
//
// In a CUDA launcher (LaunchFunction) every failing CUDA call returns 3, and kCopy and
// kBadIndexFlag act on device memory in stream order: the copy device to device, the flag an
// int of the workspace (its first bytes) zeroed.
//
// Invariants: a kLet's, kFor's and kThreadShare's names are not redeclared in their scope
// (the point's dims d<i> excepted: a statement may rebind a dim to a fixed value in a nested
// block); a kStore's buffer is a written parameter, an array the kernel is handed (CUDA's sort
// keys) or a local buffer (kBuffer, an HLO stage's temporary).
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codegen/kernel/c_expr.h"

namespace idxmap::codegen {

// A parameter's name as a signature prints it: `name`, or `/*name*/` where nothing in the
// function uses it (so -Wunused-parameter has nothing to say).
inline std::string parameterName(const std::string& name, bool used) {
  return used ? name : "/*" + name + "*/";
}

// A kernel parameter as the entry points print it (codegen/cpp/cpp_kernel.h).
// The bytes that `elements` sub-byte elements of `bits` each take, packed (the last byte's
// unused bits included).
inline int64_t packedBytes(int64_t elements, int bits) { return (elements * bits + 7) / 8; }

struct EntryBuffer {
  std::string name;
  std::string storage;  // the C++ element type (uint8_t: a packed buffer's bytes)
  bool written = false;
  int64_t elements = 0;
  // A buffer of sub-byte elements packed 8 / packedBits to a byte: its parameter type (an
  // idxmap_packed accessor, made from a pointer to its bytes) instead of a pointer to storage.
  std::string accessor = {};
  int packedBits = 0;
};

}  // namespace idxmap::codegen

namespace idxmap::codegen {

// Threads of a CUDA block in every launch (kLaunch) and kernel's launch bounds.
inline constexpr int64_t kCudaThreadsPerBlock = 256;

}  // namespace idxmap::codegen

namespace idxmap::codegen::ir {

// A value a statement computes: an index expression, a loaded element, a cast, a helper call.
struct ValueNode;
using Value = std::shared_ptr<const ValueNode>;
struct ValueNode {
  enum class Kind : uint8_t {
    kIndex,     // an index expression: `index`
    kVariable,  // a declared name: `name`
    kLoad,      // name[index]: an element of buffer `name`
    kAddress,   // reinterpret_cast<const char*>(&name[index]): an element's address, as bytes
    kCast,      // static_cast<name>(operands[0])
    kCall,      // name(operands...): a prelude helper, `name` with its template arguments
    kLiteral,   // `name`, a C literal as written (`false`, `0`)
    kElement,   // `name`, an element value as prelude/element_code writes it (C, as written;
                // element_code's tests check its semantics, kernel validation reads it not),
                // `$k` in it standing for operand k as printed (a load: buffersUsed counts
                // it, and an HLO stage's read-back, uncheckedIn, requires its offset proven)
  };
  Kind kind = Kind::kIndex;
  std::string name;
  CExpr index;
  std::vector<Value> operands;
};

Value indexValue(CExpr index);
Value variableValue(std::string name);
Value loadValue(std::string buffer, CExpr offset);
Value addressValue(std::string buffer, CExpr offset);
Value castValue(std::string type, Value operand);
Value callValue(std::string function, std::vector<Value> arguments);
Value literalValue(std::string text);
Value elementValue(std::string code, std::vector<Value> from = {});

// How a loop's iterations are spread. kThreads: an `omp parallel for` over this loop and the
// `collapse - 1` loops perfectly nested in it, SIMD lanes too when `simd`, threads only from the
// parallel grain of points on (the function's points, or the loop's own `points`); kSimd: lanes of
// one thread; kGrid: a CUDA kernel's threads, thread t of T running iterations lower + t, lower + t
// + T, ... (step 1: a grid-stride loop, whatever the launch's size).
struct LoopMapping {
  enum class Kind : uint8_t { kSerial, kSimd, kThreads, kGrid };
  Kind kind = Kind::kSerial;
  size_t collapse = 1;
  bool simd = false;
  int64_t points = 0;  // kThreads: the points that decide the grain (0: the function's)
};

struct Node {
  enum class Kind : uint8_t {
    kBlock,
    kComment,
    kFor,
    kIf,
    kLet,
    kVar,
    kAssign,
    kStore,
    kVectorCopy,
    kThreads,
    kThreadShare,
    kRunStarts,
    kToRunStart,
    kPrefetch,
    kCopy,
    kBadIndexFlag,
    kBadIndex,
    kReturnIfBad,
    kTileRuns,
    kSortedRun,
    kConstants,
    kBuffer,
    kLaunch,
    kRegion,
    kIfAligned,
    kSortPairs,
  };
  Kind kind = Kind::kBlock;
  bool scoped = false;             // kBlock
  std::string name;                // kFor: iterator; kLet, kThreadShare, kToRunStart: the variable;
                                   // kVar, kAssign: the variable; kStore, kVectorCopy, kCopy: the
                                   // buffer written; kComment: the text
  std::string type;                // kLet, kVar: the C type; kCopy: the element type; kFor: the
                                   // iterator's (empty: the function's index width);
                                   // kSortedRun: the keys'
  std::string atomic;              // kStore: the atomic update function, or empty for a plain store
  bool packed = false;             // kCopy: the buffers are idxmap_packed accessors, whose bytes
                                   // are copied (type uint8_t, count: bytes)
  std::string from;                // kCopy: the buffer read; kThreadShare: the last variable;
                                   // kSortedRun: the point numbers' C type
  CExpr lower, condition, offset;  // kFor: lower, condition; kIf: condition; kStore,
                                   // kVectorCopy: offset
  int64_t step = 1;                // kFor
  int64_t lo = 0, hi = 0, count = 0;  // kThreadShare: lo, count; kRunStarts: lo, hi;
                                      // kPrefetch: count (bytes); kCopy: count (elements);
                                      // kTileRuns: count (rows), hi; kSortedRun:
                                      // count (positions), hi (the skipped key)
  LoopMapping mapping;                // kFor
  Value value;  // kLet, kVar, kAssign, kStore, kVectorCopy (the source), kPrefetch (the address)
  std::vector<Value> loads;        // kRunStarts; kConstants: the values
  std::vector<Node> body, orElse;  // kBlock, kFor, kThreads, kIf (then / else)
};

// Whether `node` is the kLet of `name`.
inline bool isLet(const Node& node, const std::string& name) {
  return node.kind == Node::Kind::kLet && node.name == name;
}

Node block(std::vector<Node> body, bool scoped = false);
Node comment(std::string text);
Node forLoop(std::string iterator, CExpr lower, CExpr condition, int64_t step,
             std::vector<Node> body);
// for (W iterator = 0; iterator < count; ++iterator) over a CUDA grid's threads (kGrid).
Node gridLoop(CWidth width, std::string iterator, int64_t count, std::vector<Node> body);
Node ifThen(CExpr condition, std::vector<Node> body, std::vector<Node> orElse = {});
Node let(std::string type, std::string name, Value value);
Node var(std::string type, std::string name, Value value = nullptr);
Node assign(std::string name, Value value);
Node store(std::string buffer, CExpr offset, Value value, std::string atomic = {});
Node vectorCopy(std::string buffer, CExpr offset, Value source);
Node threads(std::vector<Node> body);
Node threadShare(std::string first, std::string last, int64_t lo, int64_t count);
Node runStarts(int64_t lo, int64_t hi, std::vector<Value> loads);
Node toRunStart(std::string variable);
Node prefetch(Value address, int64_t bytes);
// `packed`: both are idxmap_packed accessors; `count` bytes of theirs are copied.
Node copy(std::string into, std::string from, std::string type, int64_t count, bool packed = false);
Node badIndexFlag();
Node badIndex();
Node returnIfBad();
Node tileRuns(int64_t rows, int64_t hi, std::vector<Node> body, std::vector<Node> pastTile);
Node constants(std::string type, std::string name, std::vector<Value> values);
Node buffer(std::string type, std::string name, int64_t elements);
Node launch(std::string kernel, int64_t threads, std::vector<std::string> arguments);
Node region(std::string type, std::string name, std::vector<std::string> offsets);
Node ifAligned(std::vector<std::string> buffers, int64_t bytes, std::vector<Node> body,
               std::vector<Node> orElse);
Node sortPairs(int64_t pairs, int bits, int64_t scratch, std::string workspaceBytes);
Node sortedRun(std::string keyType, std::string pointType, int64_t skippedKey, int64_t positions,
               std::vector<Node> body);

// One kernel entry point: `extern "C" int symbol(buffers...)` returning 0, 1 for element
// counts other than the buffers', 2 after a kBadIndex.
struct Function {
  std::string symbol;
  std::vector<EntryBuffer> buffers;
  std::string header;          // the comment above it: `//` lines of maps, proofs and certificates
  CWidth width = CWidth::k64;  // the index width of loops and index variables
  int64_t points = 0;          // kThreads and threaded loops run serially below the grain
  std::vector<Node> body;
};

// The buffers `nodes` read or write: loads and addresses in their values (an element value's
// operands too), stores, 16-byte copies and copies, a launch's arguments and the buffers an
// alignment test reads.
std::set<std::string> buffersUsed(const std::vector<Node>& nodes);

// A parameter of a CUDA kernel. A buffer prints as `type* __restrict__ name` (type: its
// element's, `const` where it is read only), anything else as `type name`.
struct Parameter {
  std::string type, name;
  bool buffer = true;
  std::string accessor = {};  // a packed buffer's parameter type (EntryBuffer::accessor)
};

// A CUDA kernel: `static __global__ void __launch_bounds__(kCudaThreadsPerBlock) name(parameters)
// { body }`, its threads each running body (a grid-stride loop). Its launches pass every
// parameter, in order; a buffer no node of body reads or writes (buffersUsed) is left unnamed.
struct GlobalFunction {
  std::string name;
  std::vector<Parameter> parameters;
  std::vector<Node> body;
};

// A CUDA kernel's launcher in a caller's workspace: `extern "C" int symbol_launch_in(buffers...,
// void* idxmap_workspace, cudaStream_t stream)` returning 1 for element counts other than the
// buffers', 3 when a CUDA call fails, else 0 once body (regions, copies, launches, the sort)
// is queued on the stream; with it SYMBOL_workspace_bytes() (returning `workspaceBytes`, C
// text) and the entries around it: SYMBOL_launch (the workspace allocated around launch_in;
// `checked`: waits and returns 2 when the bad-index flag is set), SYMBOL and their _packed forms.
struct LaunchFunction {
  std::string symbol;
  std::vector<EntryBuffer> buffers;
  std::string workspaceBytes;
  bool checked = false;
  std::vector<Node> body;
};

}  // namespace idxmap::codegen::ir
