// Values that ops reorder: stablehlo.sort permutes each 1-D slice along its dimension, whatever
// its comparator, so the result that sorts an iota along that dimension (argsort) holds a
// permutation of 0 .. n-1 in every slice. Its elements are a leaf (which permutation is known
// at run time only) with that range, and distinct when the slice is the whole tensor.
#include <isl/map.h>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using mlir_ir::Operation;

std::span<const Tracer::Rules::Row> Tracer::orderRules() {
  static const Rules::Row rows[] = {
      {"stablehlo.sort", &Tracer::sort},
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
  if (!sorted || sorted->shape != shape || !sorted->leaves.empty() || !sorted->represented() ||
      !checked(isl_map_is_equal(sorted->symbolic->get(), iota.get())))
    return opaque(op, type,
                  "stablehlo.sort of operand " + std::to_string(result) +
                      ", not an iota along the sorted dimension");
  int64_t others = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (static_cast<int64_t>(d) != *axis) others *= shape[d];
  const int64_t n = shape[static_cast<size_t>(*axis)];
  const std::string tensor = resultName(op);
  std::string why = "a permutation of 0.." + std::to_string(n - 1) + " along dimension " +
                    std::to_string(*axis) + " (stablehlo.sort of an iota)";
  IndexValues values = leaf(tensor, type, why, std::pair<int64_t, int64_t>{0, n - 1},
                            /*distinct=*/others == 1);
  values.provenance = tensor + " (" + why + ")";
  return values;
}

}  // namespace idxmap::index_provenance
