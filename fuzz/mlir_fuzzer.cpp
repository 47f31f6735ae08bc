// Feeds arbitrary bytes to the StableHLO MLIR reader, then every gather / dynamic_gather /
// scatter it reads to the importer and the validators: the path `idxmap verify` takes. Bad
// input may only end in an idxmap::Error (a located diagnostic); any other exception, a
// crash, a hang, a huge allocation or a sanitizer report is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "ops/import/stablehlo.h"
#include "ops/mlir/module.h"
#include "ops/stablehlo/gather_scatter.h"

namespace {

using idxmap::mlir_ir::Operation;
namespace import = idxmap::stablehlo_import;
namespace gs = idxmap::gather_scatter;

void check(const Operation& op) {
  try {
    if (op.name == "stablehlo.gather") gs::validateGather(import::importGather(op));
    if (op.name == "stablehlo.dynamic_gather")
      gs::validateDynamicGather(import::importDynamicGather(op, std::nullopt));
    if (op.name == "stablehlo.scatter") gs::validateScatter(import::importScatter(op));
  } catch (const idxmap::Error&) {
    // A located diagnostic: the expected outcome for a malformed op.
  }
  for (const auto& region : op.regions)
    for (const auto& block : region.blocks)
      for (const Operation& inner : block.operations) check(inner);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  idxmap::mlir_ir::Module module;
  try {
    module = idxmap::mlir_ir::parseMlirModule(text, "fuzz.mlir");
  } catch (const idxmap::Error&) {
    return 0;
  }
  try {
    for (const Operation& op : module.operations) check(op);
    for (const auto& function : module.functions)
      for (const auto& block : function.body.blocks)
        for (const Operation& op : block.operations) check(op);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlir_fuzzer: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
