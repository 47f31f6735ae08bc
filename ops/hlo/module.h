// The HLO module model: what the HLO text reader produces and the op models consume.
// It keeps what indexing needs (shapes, layouts, bounded dims, operands, attributes as
// written, called computations) and where each piece was written, for diagnostics.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor_type.h"
#include "core/text.h"

namespace idxmap::hlo {

// An array shape (`f32[10,<=20]{1,0}`): core's TensorType (a bounded `<=N` dim is kDynamic
// with bound N, an unbounded `?` dim kDynamic without one; extent(d) is the size or the
// bound, -1 for `?`) plus its layout; or a tuple of shapes (`(f32[2], s32[])`).
struct Shape : TensorType {
  std::optional<std::vector<int64_t>> layout;  // minor-to-major, when written
  int packedBits = 0;  // the layout's E(n): elements packed n bits each (0: not written)
  std::vector<Shape> tupleElements;
  bool isTuple = false;

  // Elements in the array (bounds for bounded dims); throws OverflowError past int64.
  int64_t elementCount() const;
  std::string toString() const;  // as HLO writes it
};

// One `name=value` attribute, its value kept as written (e.g. "{1,0}", "[0:10:2]",
// "1_4_1x4_8_0"); ops/hlo/attributes.h reads the typed forms.
struct Attribute {
  std::string value;
  SourceLocation location;  // of the value
};

struct Computation;

struct Instruction {
  std::string name;
  Shape shape;
  std::string opcode;                  // "add", "broadcast", "fusion", ...
  std::vector<Instruction*> operands;  // in the same computation
  std::map<std::string, Attribute> attributes;
  std::string literal;                           // constant(...)'s text; iota etc. leave it empty
  int64_t parameterNumber = -1;                  // for parameter(N)
  std::vector<Computation*> calledComputations;  // calls=, to_apply=, ...
  SourceLocation location;                       // of the instruction's name
  SourceLocation opcodeLocation;                 // of the opcode
  bool isRoot = false;

  const Attribute* attribute(std::string_view name) const;
};

struct Computation {
  std::string name;
  std::vector<std::unique_ptr<Instruction>> instructions;  // in text order
  Instruction* root = nullptr;
  bool isEntry = false;

  Instruction* find(std::string_view name) const;
  Instruction* parameter(int64_t number) const;
};

struct Module {
  std::string name;
  std::string fileName;
  std::vector<std::unique_ptr<Computation>> computations;
  Computation* entry = nullptr;

  Computation* find(std::string_view name) const;
};

// Reads an HLO module as XLA prints it. Throws ParseError (file:line:col, caret) on
// malformed text, unknown operands or computations, and inconsistent shapes in the syntax
// itself; it does not check op semantics (that is the op models' job).
// With `infer`, an instruction may leave its result shape out where XLA infers it
// (`ROOT t = tuple(a, b)`): `infer` gives it from the operands and attributes (it throws a
// located ParseError when it cannot), before any later instruction reads it.
using ShapeInference = std::function<Shape(const Instruction&)>;
Module parseHloModule(std::string_view text, std::string_view fileName = "<stdin>",
                      const ShapeInference& infer = {});

}  // namespace idxmap::hlo
