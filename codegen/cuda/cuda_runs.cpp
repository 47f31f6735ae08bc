// Kernels of runs: a sorted scatter's tiles (kSegmented) and deterministic mode's sorted
// targets (kSorted). cuda_kernel_internal.h declares them.
#include "codegen/cpp/ir_printer.h"
#include "codegen/cuda/cuda_kernel_internal.h"
#include "codegen/kernel/loop_nest.h"

namespace idxmap::codegen {

std::string CudaKernelPrinter::segmentedKernel() {
  const Interval d0 = kernel_.map.dims.at(0).range;
  const Store store = segmentHeld() ? Store::kHeld : Store::kInPlace;
  const CExpr row = variable("idxmap_row", width_);
  std::vector<CExpr> point = dimVariables();
  point[0] = binary(COp::kAdd, variable("idxmap_first", width_), row);
  // When every source offset uses dims alone, the tile's sources are loaded first, all at
  // once (they lie in the box), for the loads to overlap.
  std::vector<ir::Node> tile;
  std::vector<ir::Value> sources;
  if (segmentSourcesPrefetched()) {
    for (size_t t = 0; t < kernel_.transfers.size(); ++t) {
      const Access& from = kernel_.transfers[t].from;
      const std::string array = "idxmap_source" + std::to_string(t);
      tile.push_back(ir::let(
          storage(buffer(from.buffer)), array,
          ir::loadValue(buffer(from.buffer).name, offsetExpr("load from", from, Where::kBox))));
      sources.push_back(ir::loadValue(array, row));
    }
  }
  tile.push_back(statement(point, store, sources));
  ir::Node loop = threads_.gridLoop(
      {runStarts(d0.lo, d0.hi), pendingUpdates(false, store),
       ir::tileRuns(threads_.rows(), d0.hi, std::move(tile), {statement(point, store)}),
       pendingUpdates(true, store)});
  checkSegmented(loop);
  return kernelFunction("points", {}, {loop});
}

void CudaKernelPrinter::checkSegmented(ir::Node& loop) {
  if (edit_) edit_(loop);
  const Interval d0 = kernel_.map.dims.at(0).range;
  const ir::Node *runs = nullptr, *tile = nullptr;
  for (const ir::Node& node : loop.body) {
    if (node.kind == ir::Node::Kind::kRunStarts && !runs && !tile) runs = &node;
    if (node.kind == ir::Node::Kind::kTileRuns && runs && !tile) tile = &node;
  }
  requireShape(runs && tile, "a segmented thread's runs");
  checkRunStarts(*runs, d0);
  requireShape(
      tile->count >= 1 && tile->hi == d0.hi && !tile->body.empty() && tile->orElse.size() == 1,
      "the thread's tile of rows");
  // Each statement at d0 = idxmap_first + idxmap_row (its opening and stores are validated
  // as it is built: statement()).
  for (const ir::Node* statement : {&tile->body.back(), &tile->orElse[0]}) {
    bool atRow = false;
    for (const ir::Node& let : statement->body)
      atRow = atRow || (ir::isLet(let, "d0") && let.value->kind == ir::ValueNode::Kind::kIndex &&
                        printCExpr(let.value->index) == "idxmap_first + idxmap_row");
    requireShape(statement->kind == ir::Node::Kind::kBlock && statement->scoped && atRow,
                 "a tile's statement at d0 = idxmap_first + idxmap_row");
  }
  // Sources fetched first: each transfer's own load, at an offset proven over the box.
  const size_t fetched = tile->body.size() - 1;
  requireShape(fetched == 0 || fetched == kernel_.transfers.size(), "the tile's fetched sources");
  for (size_t t = 0; t < fetched; ++t) {
    const ir::Node& source = tile->body[t];
    const Access& from = kernel_.transfers[t].from;
    requireShape(source.kind == ir::Node::Kind::kLet &&
                     source.name == "idxmap_source" + std::to_string(t) &&
                     source.value->kind == ir::ValueNode::Kind::kLoad &&
                     source.value->name == buffer(from.buffer).name,
                 "the tile's fetched source " + std::to_string(t));
    proveOffset("load from", source.value->index, from, Where::kBox);
  }
  // The tiles: each thread's of `count` rows, together each of d0's rows once.
  require(checkGridPoints(validator_, loop, kernel_.map, {tile->count, 1}),
          "the thread's tile decoding");
}

bool CudaKernelPrinter::segmentHeld() const {
  if (kernel_.coupled) return false;
  for (size_t a = 0; a < kernel_.transfers.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (kernel_.transfers[a].to.buffer == kernel_.transfers[b].to.buffer) return false;
  return true;
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
  return kernelFunction(
      "keys", {{keyType() + "*", "idxmap_keys", false}, {L + "*", "idxmap_points", false}}, {keys});
}

std::string CudaKernelPrinter::applyKernel() {
  const std::string L = typeName(linear_), K = keyType();
  std::vector<ir::Node> point = threads_.declaredDims("idxmap_point");
  point.push_back(statement(dimVariables(), Store::kInPlace));
  ir::Node apply =
      ir::gridLoop(linear_, "idxmap_point", points_,
                   {ir::sortedRun(K, L, (int64_t{1} << keyBits()) - 1, points_, std::move(point))});
  if (edit_) edit_(apply);
  // The point numbers the sort permuted, each decoded as the keys kernel decoded it: proven
  // from the IR to be the domain's points, each once, over the numbers [0, points).
  // Its threads take the sorted positions [0, points), each once (a grid-stride loop from 0).
  const CExpr& test = apply.condition;
  requireShape(
      apply.kind == ir::Node::Kind::kFor && apply.mapping.kind == ir::LoopMapping::Kind::kGrid &&
          apply.type == L && apply.step == 1 && printCExpr(apply.lower) == "0" &&
          printCExpr(test) == "idxmap_point < " + std::to_string(points_) && apply.body.size() == 1,
      "the threads over the sorted positions");
  const ir::Node& run = apply.body[0];
  requireShape(run.kind == ir::Node::Kind::kSortedRun && run.count == points_ &&
                   run.hi == (int64_t{1} << keyBits()) - 1 && run.type == K && run.from == L,
               "the walk over a run of sorted targets");
  require(checkDecodedPoints(validator_, run.body, "idxmap_point", linear_, points_, kernel_.map),
          "the sorted point numbers' decoding");
  return kernelFunction(
      "apply",
      {{"const " + K + "*", "idxmap_keys", false}, {"const " + L + "*", "idxmap_points", false}},
      {apply});
}

std::string CudaKernelPrinter::rowKeysKernel() {
  const std::string L = typeName(linear_), K = keyType(), W = typeName(width_);
  const size_t k = *rowKey();
  const Interval range = kernel_.map.runtimeVars.at(k).range, rows = kernel_.map.dims.at(0).range;
  const std::string row = "idxmap_row";
  // The key: the value clamped to [lo - 1, hi + 1] and less lo - 1, in [0, hi - lo + 2].
  const ir::Value value = loadedValue(k);
  const std::string shift = range.lo - 1 < 0 ? "$0 + " + std::to_string(1 - range.lo)
                                             : "$0 - " + std::to_string(range.lo - 1);
  const ir::Value key = ir::castValue(
      K, ir::elementValue(shift, {ir::callValue("idxmap_clamp<int64_t>",
                                                {value, ir::indexValue(literal(range.lo - 1)),
                                                 ir::indexValue(literal(range.hi + 1))})}));
  ir::Node loop = ir::gridLoop(
      linear_, row, sortUnits(),
      {ir::let(W, "d0",
               ir::indexValue(binary(COp::kAdd, literal(rows.lo), variable(row, linear_)))),
       ir::store("idxmap_keys", variable(row, linear_), key),
       ir::store("idxmap_points", variable(row, linear_), ir::variableValue(row))});
  if (edit_) edit_(loop);
  // Read back: a grid over the rows, d0 the row's, the key the splitting value's as above, and
  // the row's own number beside it (the sort permutes both).
  requireShape(loop.kind == ir::Node::Kind::kFor &&
                   loop.mapping.kind == ir::LoopMapping::Kind::kGrid && loop.type == L &&
                   loop.step == 1 && printCExpr(loop.lower) == "0" &&
                   printCExpr(loop.condition) == row + " < " + std::to_string(sortUnits()) &&
                   loop.body.size() == 3,
               "the threads over the rows");
  const ir::Node &d0 = loop.body[0], &keyStore = loop.body[1], &number = loop.body[2];
  requireShape(ir::isLet(d0, "d0") && d0.value->kind == ir::ValueNode::Kind::kIndex &&
                   printCExpr(d0.value->index) ==
                       printCExpr(binary(COp::kAdd, literal(rows.lo), variable(row, linear_))),
               "the row's d0");
  const ir::ValueNode* cast = keyStore.value.get();
  const bool keyShape = keyStore.kind == ir::Node::Kind::kStore && keyStore.name == "idxmap_keys" &&
                        printCExpr(keyStore.offset) == row &&
                        cast->kind == ir::ValueNode::Kind::kCast && cast->name == K &&
                        cast->operands.size() == 1 &&
                        cast->operands[0]->kind == ir::ValueNode::Kind::kElement &&
                        cast->operands[0]->name == shift && cast->operands[0]->operands.size() == 1;
  requireShape(keyShape, "the row's key");
  const ir::ValueNode* clamp = cast->operands[0]->operands[0].get();
  requireShape(clamp->kind == ir::ValueNode::Kind::kCall &&
                   clamp->name == "idxmap_clamp<int64_t>" && clamp->operands.size() == 3 &&
                   ir::printValue(clamp->operands[1]) == std::to_string(range.lo - 1) &&
                   ir::printValue(clamp->operands[2]) == std::to_string(range.hi + 1),
               "the row key's clamp");
  checkLoadedValue(k, clamp->operands[0]);
  requireShape(number.kind == ir::Node::Kind::kStore && number.name == "idxmap_points" &&
                   printCExpr(number.offset) == row &&
                   number.value->kind == ir::ValueNode::Kind::kVariable &&
                   number.value->name == row,
               "the row's number");
  return kernelFunction(
      "keys", {{K + "*", "idxmap_keys", false}, {L + "*", "idxmap_points", false}}, {loop});
}

std::string CudaKernelPrinter::rowApplyKernel() {
  const std::string L = typeName(linear_), K = keyType();
  const int64_t rows = sortUnits(), window = points_ / rows;
  const CExpr thread = variable("idxmap_thread", linear_);
  std::vector<ir::Node> point{ir::let(
      L, "idxmap_number",
      ir::indexValue(binary(COp::kAdd,
                            binary(COp::kMul, variable("idxmap_point", linear_), literal(window)),
                            variable("idxmap_window", linear_))))};
  for (ir::Node& dim : threads_.declaredDims("idxmap_number")) point.push_back(std::move(dim));
  point.push_back(statement(dimVariables(), Store::kInPlace));
  ir::Node apply = ir::gridLoop(
      linear_, "idxmap_thread", points_,
      {ir::let(L, "idxmap_point", ir::indexValue(binary(COp::kDiv, thread, literal(window)))),
       ir::let(L, "idxmap_window", ir::indexValue(binary(COp::kRem, thread, literal(window)))),
       ir::sortedRun(K, L, (int64_t{1} << keyBits()) - 1, rows, std::move(point))});
  if (edit_) edit_(apply);
  // Thread t in [0, rows * window): sorted position t / window, window point t % window (each
  // pair once); at a run's start it walks the run, each row rebound to its number, and the
  // point numbered row * window + window point is decoded: proven from the IR to be the
  // domain's points, each once, over the numbers [0, points).
  requireShape(apply.kind == ir::Node::Kind::kFor &&
                   apply.mapping.kind == ir::LoopMapping::Kind::kGrid && apply.type == L &&
                   apply.step == 1 && printCExpr(apply.lower) == "0" &&
                   printCExpr(apply.condition) == "idxmap_thread < " + std::to_string(points_) &&
                   apply.body.size() == 3,
               "the threads over the sorted rows and window points");
  const std::string w = std::to_string(window);
  requireShape(ir::isLet(apply.body[0], "idxmap_point") &&
                   ir::printValue(apply.body[0].value) == "idxmap_thread / " + w &&
                   ir::isLet(apply.body[1], "idxmap_window") &&
                   ir::printValue(apply.body[1].value) == "idxmap_thread % " + w,
               "a thread's sorted row and window point");
  const ir::Node& run = apply.body[2];
  requireShape(run.kind == ir::Node::Kind::kSortedRun && run.count == rows &&
                   run.hi == (int64_t{1} << keyBits()) - 1 && run.type == K && run.from == L &&
                   !run.body.empty() && ir::isLet(run.body[0], "idxmap_number") &&
                   ir::printValue(run.body[0].value) == "idxmap_point * " + w + " + idxmap_window",
               "the walk over a run of sorted rows");
  require(checkDecodedPoints(validator_, std::span(run.body).subspan(1), "idxmap_number", linear_,
                             points_, kernel_.map),
          "the sorted rows' point decoding");
  return kernelFunction(
      "apply",
      {{"const " + K + "*", "idxmap_keys", false}, {"const " + L + "*", "idxmap_points", false}},
      {apply});
}

int CudaKernelPrinter::keyBits() const {
  if (stores_ == Stores::kSortedRows) {
    const Interval range = kernel_.map.runtimeVars.at(*rowKey()).range;
    int bits = 1;
    while (bits < 63 && (int64_t{1} << bits) - 1 < range.hi - range.lo + 3) ++bits;
    return bits;
  }
  const int64_t targets = buffer(kernel_.transfers.at(0).to.buffer).elements();
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) - 1 < targets) ++bits;
  return bits;
}

std::string CudaKernelPrinter::skippedKey() const {
  return "static_cast<" + keyType() + ">(" + std::to_string((int64_t{1} << keyBits()) - 1) + "ull)";
}

}  // namespace idxmap::codegen
