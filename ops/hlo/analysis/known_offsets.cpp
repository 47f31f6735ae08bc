// The producing HLO read as StableHLO ops (only the ops index provenance follows; the others
// become ops it does not follow, and parameters stay undefined values, "known at run time"),
// then the start indices folded by ops/provenance's fold.
#include "ops/hlo/analysis/known_offsets.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <set>

#include "ops/hlo/attributes.h"
#include "ops/hlo/models/gather_scatter.h"
#include "ops/provenance/fold.h"
#include "simplifier/simplify.h"

namespace idxmap {
namespace {

using hlo::Instruction;
using mlir_ir::Attribute;
using mlir_ir::Operation;

// Ops followed back from a start index before giving up (as index provenance's own limit).
constexpr size_t kMaxProducers = 256;

mlir_ir::Type typeOf(const hlo::Shape& shape) {
  mlir_ir::Type type;
  if (shape.isTuple) {
    type.opaque = shape.toString();
    return type;
  }
  type.shape = shape.shape;
  type.bounds = shape.bounds;
  type.element_type = ops::stablehloElementType(shape.element_type);
  return type;
}

Attribute intArray(std::vector<int64_t> values) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::IntArray;
  attribute.ints = std::move(values);
  return attribute;
}

Attribute integer(int64_t value) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::Integer;
  attribute.intValue = value;
  return attribute;
}

// An integer or pred literal as dense values: `42`, `{1, 2}`, `{ {1, 2}, {3, 4} }`, `true`.
// nullopt for floats and anything else (the constant then stays unknown).
std::optional<Attribute> denseLiteral(const Instruction& constant) {
  auto dense = std::make_shared<mlir_ir::DenseElements>();
  dense->type = typeOf(constant.shape);
  for (std::string_view token : hlo::literalElements(constant.literal)) {
    int64_t value = 0;
    if (token == "true" || token == "false") {
      value = token == "true";
    } else {
      auto [ptr, error] = std::from_chars(token.data(), token.data() + token.size(), value);
      if (error != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
    }
    dense->ints.push_back(value);
  }
  std::optional<int64_t> count = dense->type.elementCount();
  if (!count || static_cast<int64_t>(dense->ints.size()) != *count) return std::nullopt;
  Attribute attribute;
  attribute.kind = Attribute::Kind::Dense;
  attribute.dense = std::move(dense);
  return attribute;
}

bool hasDefaultLayout(const hlo::Shape& shape) {
  if (!shape.layout) return true;
  for (size_t i = 0; i < shape.layout->size(); ++i)
    if ((*shape.layout)[i] != static_cast<int64_t>(shape.layout->size() - 1 - i)) return false;
  return true;
}

// Elementwise opcodes the value analysis follows beyond XLA's folding, as StableHLO names them.
std::optional<std::string> elementwiseName(const std::string& opcode) {
  static const std::set<std::string, std::less<>> names = {"abs",
                                                           "and",
                                                           "divide",
                                                           "maximum",
                                                           "minimum",
                                                           "negate",
                                                           "not",
                                                           "or",
                                                           "remainder",
                                                           "select",
                                                           "shift-left",
                                                           "shift-right-arithmetic",
                                                           "shift-right-logical",
                                                           "sign",
                                                           "xor"};
  if (!names.count(opcode)) return std::nullopt;
  std::string name = "stablehlo." + opcode;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// `op` as the StableHLO op `instruction` is, for the ops only verify follows.
void followedBeyondFolding(const Instruction& instruction, Operation& op) {
  const std::string& opcode = instruction.opcode;
  auto named = [&](const char* name, Attribute value) {
    op.attributes.push_back({name, std::move(value), instruction.opcodeLocation});
  };
  auto attribute = [&](const char* name) -> const hlo::Attribute& {
    return hlo::requireAttribute(instruction, name);
  };
  if (std::optional<std::string> name = elementwiseName(opcode)) {
    op.name = *name;
  } else if (opcode == "compare") {  // the direction and type as StableHLO's pretty keywords
    op.name = "stablehlo.compare";
    op.keywords.push_back(hlo::readComparisonDirection(attribute("direction"), "direction"));
    if (const hlo::Attribute* type = instruction.attribute("type"))
      op.keywords.push_back(type->value);
  } else if (opcode == "slice") {
    std::vector<int64_t> start, limit, strides;
    for (const hlo::SliceDim& dim : hlo::readSlice(attribute("slice"), "slice")) {
      start.push_back(dim.start);
      limit.push_back(dim.limit);
      strides.push_back(dim.stride);
    }
    op.name = "stablehlo.slice";
    named("start_indices", intArray(start));
    named("limit_indices", intArray(limit));
    named("strides", intArray(strides));
  } else if (opcode == "reverse") {
    op.name = "stablehlo.reverse";
    named("dimensions", intArray(hlo::readIntList(attribute("dimensions"), "dimensions")));
  } else if (opcode == "pad") {
    std::vector<int64_t> low, high, interior;
    for (const hlo::PadDim& dim : hlo::readPadding(attribute("padding"), "padding")) {
      low.push_back(dim.low);
      high.push_back(dim.high);
      interior.push_back(dim.interior);
    }
    op.name = "stablehlo.pad";
    named("edge_padding_low", intArray(low));
    named("edge_padding_high", intArray(high));
    named("interior_padding", intArray(interior));
  } else if (opcode == "dynamic-slice") {
    op.name = "stablehlo.dynamic_slice";
    named("slice_sizes",
          intArray(hlo::readIntList(attribute("dynamic_slice_sizes"), "dynamic_slice_sizes")));
  } else if (opcode == "get-dimension-size") {
    std::vector<int64_t> dims = hlo::readIntList(attribute("dimensions"), "dimensions");
    if (dims.size() != 1) return;
    op.name = "stablehlo.get_dimension_size";
    named("dimension", integer(dims[0]));
  }
}

// The StableHLO op an instruction is, with the attributes index provenance reads; an op it
// does not follow keeps a name that says where it came from. `everyOp`: also the ops that
// choose and compare (select, compare, min, max, logic), slice, reverse, pad, dynamic-slice and
// get-dimension-size, which verify follows; XLA's folding reads the others only.
Operation asStablehlo(const Instruction& instruction, bool everyOp) {
  Operation op;
  op.results.push_back({instruction.name, 0, instruction.location});
  op.resultTypes.push_back(typeOf(instruction.shape));
  for (const Instruction* operand : instruction.operands) {
    op.operands.push_back({operand->name, 0, operand->location});
    op.operandTypes.push_back(typeOf(operand->shape));
  }
  op.location = instruction.opcodeLocation;
  const std::string& opcode = instruction.opcode;
  auto named = [&](const char* name, Attribute value) {
    op.attributes.push_back({name, std::move(value), instruction.opcodeLocation});
  };
  auto ints = [&](const char* attribute) {
    const hlo::Attribute* written = instruction.attribute(attribute);
    return written ? std::optional(hlo::readIntList(*written, attribute)) : std::nullopt;
  };
  op.name = "hlo." + opcode;
  if (opcode == "constant") {
    if (std::optional<Attribute> value = denseLiteral(instruction)) {
      op.name = "stablehlo.constant";
      named("value", std::move(*value));
    }
  } else if (opcode == "iota") {
    if (std::optional<std::vector<int64_t>> dim = ints("iota_dimension"); dim && dim->size() == 1) {
      op.name = "stablehlo.iota";
      named("iota_dimension", integer((*dim)[0]));
    }
  } else if (opcode == "broadcast") {
    if (std::optional<std::vector<int64_t>> dims = ints("dimensions")) {
      op.name = "stablehlo.broadcast_in_dim";
      named("broadcast_dimensions", intArray(*dims));
    }
  } else if (opcode == "transpose") {
    if (std::optional<std::vector<int64_t>> dims = ints("dimensions")) {
      op.name = "stablehlo.transpose";
      named("permutation", intArray(*dims));
    }
  } else if (opcode == "concatenate") {
    if (std::optional<std::vector<int64_t>> dims = ints("dimensions"); dims && dims->size() == 1) {
      op.name = "stablehlo.concatenate";
      named("dimension", integer((*dims)[0]));
    }
  } else if (opcode == "reshape" || (opcode == "bitcast" && instruction.operands.size() == 1 &&
                                     hasDefaultLayout(instruction.shape) &&
                                     hasDefaultLayout(instruction.operands[0]->shape))) {
    op.name = "stablehlo.reshape";  // a bitcast between row-major layouts is a reshape
  } else if (opcode == "add" || opcode == "subtract" || opcode == "multiply" || opcode == "clamp" ||
             opcode == "convert") {
    op.name = "stablehlo." + opcode;
  } else if (everyOp) {
    try {
      followedBeyondFolding(instruction, op);
    } catch (const ParseError&) {  // an attribute it cannot read: the op stays unfollowed
      op.name = "hlo." + opcode;
      op.attributes.clear();
      op.keywords.clear();
    }
  }
  return op;
}

// `value` and the instructions it is computed from, producers first; parameters are left
// out (undefined values are known at run time only).
std::vector<Operation> producers(const Instruction& value, bool everyOp) {
  std::vector<const Instruction*> order;
  std::set<const Instruction*> seen;
  std::vector<std::pair<const Instruction*, bool>> stack = {{&value, false}};
  while (!stack.empty() && order.size() < kMaxProducers) {
    auto [instruction, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      order.push_back(instruction);
      continue;
    }
    if (!seen.insert(instruction).second || instruction->opcode == "parameter") continue;
    stack.push_back({instruction, true});
    for (const Instruction* operand : instruction->operands) stack.push_back({operand, false});
  }
  std::vector<Operation> scope;
  for (const Instruction* instruction : order) scope.push_back(asStablehlo(*instruction, everyOp));
  return scope;
}

// `instruction`'s values, traced through its producers read as StableHLO ops.
index_provenance::IndexValues valuesThrough(const Instruction& instruction, bool everyOp,
                                            const index_provenance::ValueContext& context) {
  std::vector<Operation> scope = producers(instruction, everyOp);
  return index_provenance::indexValues(scope, {instruction.name, 0, instruction.location},
                                       typeOf(instruction.shape), context);
}

// The value of a scalar whose computation fixes it; nullopt when it is known at run time only.
std::optional<int64_t> scalarValue(const Instruction& scalar) {
  index_provenance::IndexValues values = hloIndexValues(scalar);
  if (!values.shape.empty() || !values.allKnown()) return std::nullopt;
  isl_set* range = isl_map_range(values.known.copy());
  std::optional<int64_t> value;
  if (isl_set_is_singleton(range) == isl_bool_true) {
    isl_point* point = isl_set_sample_point(isl_set_copy(range));
    isl_val* v = isl_point_get_coordinate_val(point, isl_dim_set, 0);
    if (v && isl_val_is_int(v) == isl_bool_true) value = isl_val_get_num_si(v);
    isl_val_free(v);
    isl_point_free(point);
  }
  isl_set_free(range);
  return value;
}

// rt_k replaced by starts[k] clamped into rt_k's range, as the op clamps, where it is known;
// the others keep their variables, in order, with their ranges.
IndexingMap substituteStarts(const IndexingMap& map,
                             const std::vector<std::optional<int64_t>>& starts) {
  if (map.runtimeVars.size() != starts.size() || map.knownEmpty) return map;
  IndexingMap out = map;
  out.runtimeVars.clear();
  std::vector<Expr> replacement;
  for (size_t k = 0; k < starts.size(); ++k) {
    const Interval& range = map.runtimeVars[k].range;
    if (starts[k]) {
      replacement.push_back(Expr::constant(std::clamp(*starts[k], range.lo, range.hi)));
    } else {
      replacement.push_back(Expr::runtimeVar(static_cast<unsigned>(out.runtimeVars.size())));
      out.runtimeVars.push_back(map.runtimeVars[k]);
    }
  }
  for (Expr& result : out.results) result = result.replaceVariables({}, {}, replacement);
  for (Constraint& constraint : out.constraints)
    constraint.expr = constraint.expr.replaceVariables({}, {}, replacement);
  return simplify(out);
}

}  // namespace

index_provenance::IndexValues hloIndexValues(const Instruction& instruction) {
  return valuesThrough(instruction, false, {});
}

index_provenance::IndexValues hloProgramValues(const Instruction& instruction,
                                               const index_provenance::ValueContext& context) {
  return valuesThrough(instruction, true, context);
}

InstructionIndexing foldKnownStarts(const Instruction& instruction, InstructionIndexing indexing) {
  const std::string& opcode = instruction.opcode;
  if (opcode == "dynamic-slice" || opcode == "dynamic-update-slice") {
    // Each start is a scalar: known, it is one value, substituted into every map.
    size_t first = opcode == "dynamic-slice" ? 1 : 2;
    std::vector<std::optional<int64_t>> starts;
    for (size_t i = first; i < instruction.operands.size(); ++i)
      starts.push_back(scalarValue(*instruction.operands[i]));
    if (std::none_of(starts.begin(), starts.end(), [](const auto& s) { return s.has_value(); }))
      return indexing;
    for (OperandIndexing& entry : indexing.entries)
      for (IndexingMap& map : entry.maps) map = substituteStarts(map, starts);
  } else if (opcode == "gather" && !indexing.entries.empty() && instruction.operands.size() == 2) {
    // The start indices vary with the point: their values as a relation, folded by isl.
    index_provenance::IndexValues values = hloIndexValues(*instruction.operands[1]);
    if (!values.anyKnown() || indexing.entries[0].maps.size() != 1) return indexing;
    index_provenance::FoldedMap folded =
        index_provenance::foldGatherIndices(ops::hloGatherOp(instruction), values);
    std::optional<std::vector<IndexingMap>> pieces = index_provenance::foldedPieces(folded);
    if (folded.anyFolded() && pieces) indexing.entries[0].maps = std::move(*pieces);
  }
  return indexing;
}

}  // namespace idxmap
