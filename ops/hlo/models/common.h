// What every op model shares: the base class that turns per-op map builders into the
// OpModel interface (validation first, simplified maps, unknown indexing where a map cannot
// be expressed), and the pieces the builders are made of.
#pragma once

#include <string>
#include <vector>

#include "core/indexing_map.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"

namespace idxmap::ops {

using hlo::Instruction;
using hlo::Shape;

// Thrown by a builder when the op's indexing has no exact map (an unbounded `?` dimension, a
// bitcast that changes the element width): the model answers "unknown indexing".
class Inexpressible : public Error {
 public:
  using Error::Error;
};

// One entry per operand (output->input) or per result (input->output), each a set of maps
// whose union is the relation.
using MapSets = std::vector<std::vector<IndexingMap>>;

class OpModelBase : public OpModel {
 public:
  // inferShape, then the declared shape must be compatible with it (spec 002).
  void validate(const Instruction& instruction) const override;
  // Validate, build, simplify; KNOWN EMPTY pieces of an entry are dropped unless all are.
  InstructionIndexing outputToInput(const Instruction& instruction, int outputId,
                                    PointDims pointDims) const final;
  InstructionIndexing inputToOutput(const Instruction& instruction, int inputId,
                                    PointDims pointDims) const final;

 protected:
  // For result `outputId`, the maps to every operand.
  virtual MapSets mapsToOperands(const Instruction& instruction, int outputId) const = 0;
  // For operand `inputId`, the maps to every result. By default the exact inverse of
  // mapsToOperands (through isl), which is right for every op; models override it where a
  // direct construction reads better.
  virtual MapSets mapsToResults(const Instruction& instruction, int inputId) const;
  // For result `outputId`, per operand: which replica's copy of it an index reads (XLA's
  // replica id map; collectives only). Empty by default: every read is local.
  virtual MapSets replicaIdMaps(const Instruction& instruction, int outputId) const;
};

// The array shape of result `outputId` (a tuple's element, or the shape itself).
const Shape& resultShape(const Instruction& instruction, int outputId);
int resultCount(const Instruction& instruction);

// A map with no results whose dims range over `shape`. A bounded dim `<=N` adds a runtime
// variable rt in [0, N], its run-time size, and the constraint rt - d in [1, N]: the index lies
// below the size (spec 002). An unbounded `?` dim throws Inexpressible.
IndexingMap domainOf(const Shape& shape);
// `domain` with these results.
IndexingMap withResults(IndexingMap domain, std::vector<Expr> results);
// Adds a range variable / runtime variable and returns it as an expression.
Expr addRangeVar(IndexingMap& map, Interval range);
Expr addRuntimeVar(IndexingMap& map, Interval range);
void addConstraint(IndexingMap& map, Expr expr, Interval range);
// The dims of `map` as expressions, d0 .. dn-1.
std::vector<Expr> dimExprs(const IndexingMap& map);
// (d...) -> (d...) over `shape`'s indices: an element read where it is written.
IndexingMap identityOver(const Shape& shape);
// The map from `shape`'s indices to a rank-0 operand: (d...) -> ().
IndexingMap toScalar(const Shape& shape);
// From a rank-0 operand to every index of `shape`: ()[s...] -> (s...).
IndexingMap fromScalar(const Shape& shape);
// A map from `shape`'s indices that reads nothing of a rank-`operandRank` operand (KNOWN EMPTY).
IndexingMap readsNothing(const Shape& shape, size_t operandRank);
// The relation read backwards (isl), simplified.
IndexingMap invert(const IndexingMap& map);

// Diagnostics.
[[noreturn]] void failAtInstruction(const Instruction& instruction, const std::string& message);
void expectOperandCount(const Instruction& instruction, size_t count);
void expectOperandCountAtLeast(const Instruction& instruction, size_t count);
const Shape& arrayOperand(const Instruction& instruction, size_t index);
void expectScalarOperand(const Instruction& instruction, size_t index);
// The reducer a reduce, reduce-window or scatter calls (to_apply=), as XLA's VerifyReducerShape
// checks it: 2N scalar parameters, N accumulators of `accumulators`' element types then N
// elements of `inputs`' types, returning the N accumulators (a scalar, or a tuple of N).
void expectReducer(const Instruction& instruction, const std::vector<std::string>& accumulators,
                   const std::vector<std::string>& inputs);
// Operands `first`.. are start indices: integral scalars, all of one element type (XLA's
// dynamic-slice and dynamic-update-slice).
void expectStartIndices(const Instruction& instruction, size_t first);
// Ops whose shapes XLA infers for bounded dynamic operands (spec 002) from their bounds, but
// whose maps idxmap does not build: shape inference rejects an unbounded `?` operand ("`what`
// of unbounded dynamic shapes is not modeled"), the map builders throw Inexpressible (unknown
// indexing) for any dynamic operand.
void expectBoundedOperands(const Instruction& instruction, const std::string& what);
void expectStaticOperands(const Instruction& instruction, const std::string& what);
// `dims` must be distinct dimensions of a rank-`rank` array ("dimensions={0,0}: dimension 0
// repeated").
void expectDistinctDims(const hlo::Attribute& attribute, std::string_view name,
                        const std::vector<int64_t>& dims, int64_t rank);
std::string dimsText(const std::vector<int64_t>& values);  // "{1,0}"

// The element types of operands [first, last).
std::vector<std::string> elementTypes(const Instruction& instruction, size_t first, size_t last);
// A variadic op's result: the one array, or the tuple of several.
Shape variadicResult(std::vector<Shape> results);
// An array shape of this element type and these static dims.
Shape arrayShape(const std::string& elementType, std::vector<int64_t> dims);

// The families, one model each (one file each); registry.cpp maps opcodes to them.
const OpModel& elementwiseModel();  // n-ary elementwise ops and map
std::vector<std::string_view> elementwiseOpcodes();
const OpModel& broadcastModel();
const OpModel& constantModel();  // constant, iota, parameter: no operands
const OpModel& transposeModel();
const OpModel& reverseModel();
const OpModel& reduceModel();
const OpModel& scanModel();  // XLA's maps: element i from element i of each input
const OpModel& sliceModel();
const OpModel& reshapeModel();
const OpModel& bitcastModel();
const OpModel& bitcastConvertModel();
const OpModel& concatenateModel();
const OpModel& dotModel();
const OpModel& scaledDotModel();
const OpModel& padModel();
const OpModel& reduceWindowModel();
const OpModel& convolutionModel();
const OpModel& dynamicSliceModel();
const OpModel& gatherModel();
const OpModel& scatterModel();
const OpModel& dynamicUpdateSliceModel();
const OpModel& copyModel();
const OpModel& tupleModel();
const OpModel& getTupleElementModel();
const OpModel& getDimensionSizeModel();
const OpModel& setDimensionSizeModel();
const OpModel& allGatherModel();
const OpModel& allReduceModel();  // all-reduce, all-reduce-start, all-reduce-done

}  // namespace idxmap::ops
