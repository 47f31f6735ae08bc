// Kernels of runs: a sorted scatter's tiles (kSegmented) and deterministic mode's sorted
// targets (kSorted). cuda_kernel_internal.h declares them.
#include "codegen/cpp/ir_printer.h"
#include "codegen/cuda/cuda_kernel_internal.h"
#include "codegen/kernel/loop_nest.h"

namespace idxmap::codegen {

std::string CudaKernelPrinter::segmentedKernel() {
  const Interval d0 = kernel_.map.dims.at(0).range;
  const std::string W = typeName(width_), hi = std::to_string(d0.hi);
  const std::string rows = std::to_string(threads_.rows());
  // Transfers that share a target could update one element: then no element is held.
  Store store = Store::kHeld;
  for (size_t a = 0; a < kernel_.transfers.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (kernel_.transfers[a].to.buffer == kernel_.transfers[b].to.buffer) store = Store::kInPlace;
  std::string out = runStartTest(d0.lo, d0.hi, 4);
  out += "    const " + W + " idxmap_first = d0;\n    const " + W + " idxmap_rows = " + hi +
         " - idxmap_first < " + rows + " ? " + hi + " - idxmap_first + 1 : " + rows + ";\n";
  std::vector<std::string> sources;
  std::vector<CExpr> row = dimVariables();
  row[0] = binary(COp::kAdd, variable("idxmap_first", width_), variable("idxmap_row", width_));
  if (segmentSourcesPrefetched()) {
    std::string loads;
    for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
      const Transfer& transfer = kernel_.transfers[t];
      const std::string array = "idxmap_source" + std::to_string(t);
      out += "    " + storage(buffer(transfer.from.buffer)) + " " + array + "[" + rows + "];\n";
      loads += "        " + array + "[idxmap_row] = " + buffer(transfer.from.buffer).name + "[" +
               offset("load from", transfer.from, Where::kBox) + "];\n";
      sources.push_back(array + "[idxmap_row]");
    }
    out += "    IDXMAP_UNROLL\n    for (" + W + " idxmap_row = 0; idxmap_row < " + rows +
           "; ++idxmap_row)\n      if (idxmap_row < idxmap_rows) {\n        const " + W +
           " d0 = idxmap_first + idxmap_row;\n" + loads + "      }\n";
  }
  out += "    " + W +
         " idxmap_skip = 0;  // rows of a run the tile before applies\n"
         "    while (idxmap_skip < idxmap_rows && !idxmap_run_starts_at(idxmap_first + "
         "idxmap_skip)) ++idxmap_skip;\n";
  out += pendingText(false, 4, store);
  out += "    IDXMAP_UNROLL\n    for (" + W + " idxmap_row = 0; idxmap_row < " + rows +
         "; ++idxmap_row)\n      if (idxmap_row >= idxmap_skip && idxmap_row < idxmap_rows)\n" +
         statementText(row, 8, store, sources);
  // The last run goes on past the tile, row by row (`row <= hi - first`: no overflow).
  out += "    if (idxmap_skip < idxmap_rows)\n      for (" + W +
         " idxmap_row = idxmap_rows; idxmap_row <= " + hi +
         " - idxmap_first && !idxmap_run_starts_at(idxmap_first + idxmap_row); ++idxmap_row)\n" +
         statementText(row, 8, store);
  out += pendingText(true, 4, store);
  // The tile's walk is text still; the thread's tile is read back from the IR and proven.
  return kernelFunction("points", "",
                        {checkedGrid(threads_.gridLoop({ir::text(out)}), {threads_.rows(), 1},
                                     "the thread's tile decoding")});
}

bool CudaKernelPrinter::segmentSourcesPrefetched() const {
  for (const Transfer& transfer : kernel_.transfers)
    if (!usesOnlyDims(transfer.from.offset)) return false;
  return true;
}

std::string CudaKernelPrinter::keysKernel() {
  const std::string L = typeName(linear_);
  const CExpr point = variable("idxmap_point", linear_);
  ir::Node statement = statementAt(dimVariables(), [&] {
    const CExpr to = offsetExpr("store to", kernel_.transfers.at(0).to, Where::kGuarded);
    return std::vector<ir::Node>{
        ir::store("idxmap_keys", point, ir::castValue(keyType(), ir::indexValue(to)))};
  });
  checkOpening(statement);  // its store is proven as it is built (offsetExpr)
  ir::Node keys = checkedGrid(
      threads_.gridLoop({ir::store("idxmap_keys", point, ir::literalValue(skippedKey())),
                         ir::store("idxmap_points", point, ir::variableValue("idxmap_point")),
                         std::move(statement)}),
      {}, "the thread's point decoding");
  return kernelFunction("keys", ", " + keyType() + "* idxmap_keys, " + L + "* idxmap_points",
                        {keys});
}

std::string CudaKernelPrinter::applyKernel() {
  const std::string L = typeName(linear_), K = keyType();
  // The point numbers the sort permuted, each decoded as the keys kernel decoded it: proven
  // from the IR to be the domain's points, each once, over the numbers [0, points).
  std::vector<ir::Node> point = threads_.declaredDims("idxmap_point");
  require(checkDecodedPoints(validator_, point, "idxmap_point", linear_, points_, kernel_.map),
          "the sorted point numbers' decoding");
  point.push_back(statement(dimVariables(), Store::kInPlace));
  std::string out =
      "    const " + K +
      " idxmap_key = idxmap_keys[idxmap_point];\n    if (idxmap_key == " + skippedKey() +
      " || (idxmap_point > 0 && idxmap_keys[idxmap_point - 1] == idxmap_key)) "
      "continue;\n";
  out += "    for (" + L + " idxmap_at = idxmap_point; idxmap_at < " + std::to_string(points_) +
         " && idxmap_keys[idxmap_at] == idxmap_key; ++idxmap_at) {\n      const " + L +
         " idxmap_point = idxmap_points[idxmap_at];\n" + ir::printStatements(point, 6, style()) +
         "    }\n";
  return kernelFunction("apply", ", const " + K + "* idxmap_keys, const " + L + "* idxmap_points",
                        {ir::gridLoop(linear_, "idxmap_point", points_, {ir::text(out)})});
}

int CudaKernelPrinter::keyBits() const {
  const int64_t targets = buffer(kernel_.transfers.at(0).to.buffer).elements();
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) - 1 < targets) ++bits;
  return bits;
}

std::string CudaKernelPrinter::skippedKey() const {
  return "static_cast<" + keyType() + ">(" + std::to_string((int64_t{1} << keyBits()) - 1) + "ull)";
}

}  // namespace idxmap::codegen
