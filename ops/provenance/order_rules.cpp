// Values that ops reorder or choose among, as leaves (which element is known at run time only)
// with the range that the choice guarantees:
// - stablehlo.sort permutes each 1-D slice along its dimension, whatever its comparator, so
//   the result that sorts an iota along that dimension (argsort) holds a permutation of
//   0 .. n-1 in every slice: in [0, n - 1], and distinct when the slice is the whole tensor;
// - chlo.top_k's indices are k distinct positions along the last dimension: in [0, n - 1],
//   distinct when the operand has one dimension;
// - a stablehlo.reduce whose body returns, for result k, one of its arguments for that result
//   (through select, minimum and maximum: argmax and argmin, whose index result picks the
//   accumulator's or the element's) only ever holds its init value or an element of input k:
//   in the hull of their ranges.
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

namespace {

// The least and greatest value of any point, every leaf in its range; nullopt when there is
// no point or the values are not represented.
std::optional<std::pair<int64_t, int64_t>> bounds(const IndexValues& values) {
  if (!values.represented()) return std::nullopt;
  isl::set all = own(isl_map_range(values.symbolic->copy()));
  // Counted first: the arguments of one call are evaluated in no set order.
  const unsigned parameters = static_cast<unsigned>(checked(isl_set_dim(all.get(), isl_dim_param)));
  all = own(isl_set_project_out(all.release(), isl_dim_param, 0, parameters));
  if (checked(isl_set_is_empty(all.get()))) return std::nullopt;
  isl::val lo = own(isl_set_dim_min_val(all.copy(), 0));
  isl::val hi = own(isl_set_dim_max_val(all.copy(), 0));
  if (!checked(isl_val_is_int(lo.get())) || !checked(isl_val_is_int(hi.get()))) return std::nullopt;
  return std::pair(isl_bridge::toInt64(lo), isl_bridge::toInt64(hi));
}

bool isReturn(const Operation& op) {
  return op.name == "stablehlo.return" || op.name == "mhlo.return" || op.name == "return";
}

// Whether `value`, in `block`, is always one of block arguments `k` and `count + k` (result k's
// accumulator and element): such an argument, or a select, minimum or maximum of such values.
bool picksArgument(const mlir_ir::Block& block, const mlir_ir::Value& value, size_t k, size_t count,
                   int depth) {
  for (size_t i : {k, count + k})
    if (i < block.arguments.size() && block.arguments[i].value == value) return true;
  const Operation* op = mlir_ir::definingOp(block.operations, value);
  if (!op || depth > kMaxDepth) return false;
  std::vector<size_t> choices;
  if (op->name == "stablehlo.select" && op->operands.size() == 3) choices = {1, 2};
  if ((op->name == "stablehlo.minimum" || op->name == "stablehlo.maximum") &&
      op->operands.size() == 2)
    choices = {0, 1};
  if (choices.empty()) return false;
  for (size_t i : choices)
    if (!picksArgument(block, op->operands[i], k, count, depth + 1)) return false;
  return true;
}

// Whether the reduce's result k is always one of the values its body is given for it.
bool reducePicks(const Operation& reduce, size_t k, size_t count) {
  const std::vector<std::string>& words = reduce.keywords;
  for (size_t i = 0; i + 1 < words.size(); ++i)  // `applies stablehlo.maximum`
    if (words[i] == "applies")
      return words[i + 1] == "stablehlo.minimum" || words[i + 1] == "stablehlo.maximum";
  if (reduce.regions.empty() || reduce.regions[0].blocks.size() != 1) return false;
  const mlir_ir::Block& body = reduce.regions[0].blocks[0];
  if (body.operations.empty() || !isReturn(body.operations.back())) return false;
  const Operation& returned = body.operations.back();
  return k < returned.operands.size() && returned.operands.size() == count &&
         picksArgument(body, returned.operands[k], k, count, 0);
}

}  // namespace

std::span<const Tracer::Rules::Row> Tracer::orderRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.sort", &Tracer::sort},
      {"chlo.top_k", &Tracer::topK},
      {"stablehlo.reduce", &Tracer::reduce},
  };
  return rows;
}

IndexValues Tracer::sort(const Operation& op, const mlir_ir::Type& type, int depth) {
  const std::vector<int64_t>& shape = type.shape;
  const mlir_ir::Attribute* dimension = op.attribute("dimension");
  std::optional<int64_t> axis = dimension ? dimension->asInt() : std::nullopt;
  if (axis && *axis < 0) *axis += static_cast<int64_t>(shape.size());  // -1: the last
  if (!axis || *axis < 0 || *axis >= static_cast<int64_t>(shape.size()))
    return opaque(op, type, "a sort without a valid dimension");
  const size_t result = result_;
  std::optional<IndexValues> sorted = operand(op, result, depth);
  const std::string along = var('p', static_cast<size_t>(*axis));
  isl::map iota =
      relation(tuple('p', shape.size()), "[v]", concat(box('p', shape), {"v = " + along}));
  // Along a `?` dim an iota wraps past its element type (movement_rules.cpp): so does the one
  // it is compared with.
  const bool dynamic = shape[static_cast<size_t>(*axis)] == kDynamic;
  if (dynamic) {
    IndexValues reference = unknown(shape, "");
    reference.symbolic = iota;
    reference = wrapped(std::move(reference), type);
    if (reference.symbolic) iota = *reference.symbolic;
  }
  if (!sorted || sorted->shape != shape || !sorted->leaves.empty() || !sorted->represented() ||
      !checked(isl_map_is_equal(sorted->symbolic->get(), iota.get())))
    return opaque(op, type,
                  "stablehlo.sort of operand " + std::to_string(result) +
                      ", not an iota along the sorted dimension");
  // Distinct when every other dim is a static 1 (one row to permute).
  bool oneRow = true;
  for (size_t d = 0; d < shape.size(); ++d)
    if (static_cast<int64_t>(d) != *axis) oneRow = oneRow && shape[d] == 1;
  const std::string tensor = resultName(op);
  // Along a `?` dim of size z: in [0, z - 1] (the leaf's range as a relation on z) where the
  // element type holds z - 1; a longer iota wrapped, and its sort holds repeated values, so
  // the elements are distinct only when every size fits (i64).
  const std::optional<std::pair<int64_t, int64_t>> range = valueRange(type.elementType());
  if (!range) return opaque(op, type, "a sort of elements of no integer type");
  const int64_t n = shape[static_cast<size_t>(*axis)];
  const std::string z = dynamic ? size(op.operands[result], static_cast<size_t>(*axis)) : "";
  std::string why = "a permutation of 0.." + (dynamic ? "(" + z + " - 1)" : std::to_string(n - 1)) +
                    " along dimension " + std::to_string(*axis) + " (stablehlo.sort of an iota)";
  IndexValues values =
      leaf(tensor, type, why,
           dynamic ? std::nullopt : std::optional(std::pair<int64_t, int64_t>{0, n - 1}),
           /*distinct=*/oneRow && (!dynamic || range->second == INT64_MAX));
  if (dynamic) {
    const std::string l = isl_map_get_dim_name(values.symbolic->get(), isl_dim_param, 0);
    values.symbolic = values.symbolic->intersect_params(
        readSet("[" + l + ", " + z + "] -> { : (0 <= " + l + " < " + z + ") or " + z + " > " +
                std::to_string(range->second) + " + 1 }"));
  }
  values.provenance = tensor + " (" + why + ")";
  return values;
}

IndexValues Tracer::topK(const Operation& op, const mlir_ir::Type& type, int depth) {
  (void)depth;
  if (result_ != 1) return opaque(op, type, "the values of chlo.top_k are not followed");
  // A static operand whose rows hold at least k elements: otherwise [0, n - 1] would say
  // nothing true (a `?` row, or k > n, which the op does not allow).
  std::optional<mlir_ir::Type> input = operandType(op, 0);
  if (!input || !input->hasStaticShape() || input->shape.empty() ||
      type.shape.size() != input->shape.size() || input->shape.back() <= 0 ||
      type.shape.back() > input->shape.back() ||
      !std::equal(type.shape.begin(), type.shape.end() - 1, input->shape.begin()))
    return opaque(op, type, "chlo.top_k without a static operand of at least k per row");
  const int64_t n = input->shape.back();
  const std::string tensor = resultName(op);
  std::string why =
      "distinct positions in 0.." + std::to_string(n - 1) + " of each row (chlo.top_k's indices)";
  IndexValues values = leaf(tensor, type, why, std::pair<int64_t, int64_t>{0, n - 1},
                            /*distinct=*/type.shape.size() == 1);
  values.provenance = tensor + " (" + why + ")";
  return values;
}

IndexValues Tracer::reduce(const Operation& op, const mlir_ir::Type& type, int depth) {
  const size_t count = op.operands.size() / 2, k = result_;
  if (count == 0 || op.operands.size() % 2 != 0 || k >= count)
    return opaque(op, type, "stablehlo.reduce without inputs and as many init values");
  const std::string which = "result " + std::to_string(k) + " of stablehlo.reduce";
  if (!reducePicks(op, k, count))
    return opaque(op, type,
                  which +
                      ", whose body computes it (not a select, minimum or maximum "
                      "of its arguments)");
  std::optional<IndexValues> input = operand(op, k, depth);
  std::optional<IndexValues> init = operand(op, count + k, depth);
  std::optional<std::pair<int64_t, int64_t>> inputs = input ? bounds(*input) : std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> start = init ? bounds(*init) : std::nullopt;
  if (!inputs || !start)
    return opaque(op, type, which + ", whose input or init value is not represented");
  std::pair<int64_t, int64_t> hull{std::min(inputs->first, start->first),
                                   std::max(inputs->second, start->second)};
  const std::string tensor = resultName(op);
  std::string why = "in [" + std::to_string(hull.first) + ", " + std::to_string(hull.second) +
                    "]: " + which + " picks its init value or an element of input " +
                    std::to_string(k);
  IndexValues values = leaf(tensor, type, why, hull);
  values.provenance = tensor + " (" + why + ")";
  return values;
}

}  // namespace idxmap::index_provenance
