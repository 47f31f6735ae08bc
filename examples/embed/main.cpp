// Embedding idxmap: every operation of the public API (docs/api.md), through the one header.
// Usage: embed EXAMPLES_DIR (the repository's examples/ folder, for the programs it reads).
#include <idxmap/idxmap.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

idxmap::Program readProgramFile(const std::string& path) {
  return idxmap::readProgram(readFile(path), path);
}

const char* verdict(const idxmap::ProofResult& result) {
  return idxmap::verdictName(result.verdict);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: embed EXAMPLES_DIR\n";
    return 2;
  }
  const std::string examples = argv[1];
  // Every expression built below lives in `context` and is freed with it.
  idxmap::ExprContext context;
  idxmap::ExprContext::Use use(context);
  try {
    // Maps: parse, simplify, print, compose, prove equal.
    idxmap::IndexingMap tiled = idxmap::parseMap(
        "(d0, d1) -> (d0 * 16 + d1 floordiv 4), domain: d0 in [0, 3], d1 in [0, 15]");
    idxmap::IndexingMap reshape = idxmap::parseMap(
        "(d0, d1) -> ((d0 * 16 + d1) floordiv 64, (d0 * 16 + d1) mod 64),"
        " domain: d0 in [0, 7], d1 in [0, 15]");
    idxmap::IndexingMap simplified = idxmap::simplifyMap(reshape);
    std::cout << "simplified: " << idxmap::printMap(simplified) << "\n";
    std::cout << "isl: " << idxmap::printMap(simplified, idxmap::Notation::kIsl) << "\n";
    std::cout << "equal to its input: " << verdict(idxmap::proveMapsEqual(reshape, simplified))
              << "\n";
    idxmap::IndexingMap transpose =
        idxmap::parseMap("(d0, d1) -> (d1, d0), domain: d0 in [0, 15], d1 in [0, 3]");
    std::cout << "composed: " << idxmap::printMap(idxmap::composeMaps(transpose, tiled)) << "\n";

    // Programs: each op's maps, index properties, kernels, prove-equal.
    idxmap::Program hlo = readProgramFile(examples + "/broadcast.hlo");
    for (const idxmap::OpMaps& op : idxmap::opMaps(hlo))
      for (const idxmap::OpMap& map : op.maps)
        if (map.map)
          std::cout << op.name << " " << map.to << ": " << idxmap::printMap(*map.map) << "\n";
    idxmap::Program gathers = readProgramFile(examples + "/gather.mlir");
    for (const idxmap::OpProperties& op : idxmap::proveIndexProperties(gathers))
      std::cout << op.op << " at " << op.location << ": in bounds " << verdict(op.inBounds)
                << ", sorted " << verdict(op.sorted) << "\n";
    std::string kernels = idxmap::emitKernels(gathers);
    std::cout << "kernels: " << kernels.size() << " bytes of C++, "
              << (kernels.find("idxmap_stablehlo_gather_") != std::string::npos ? "with"
                                                                                : "without")
              << " gather kernels\n";
    idxmap::Program tf = readProgramFile(examples + "/prove_equal/tf_gather.mlir");
    idxmap::Program tcp = readProgramFile(examples + "/prove_equal/tf_gather_tcp.mlir");
    idxmap::Program wrong = readProgramFile(examples + "/prove_equal/tf_gather_wrong_axis.mlir");
    std::cout << "tcp lowering: " << verdict(idxmap::proveProgramsEqual(tf, tcp)) << "\n";
    idxmap::ProofResult refuted = idxmap::proveProgramsEqual(tf, wrong);
    std::cout << "wrong lowering: " << verdict(refuted) << ": "
              << (refuted.counterexample ? refuted.counterexample->explanation : refuted.reason)
              << "\n";

    // Errors: one type, the diagnostic as the CLI prints it.
    try {
      idxmap::parseMap("(d0) -> (d0 floordiv 0), domain: d0 in [0, 3]", "bad.map");
    } catch (const idxmap::ApiError& error) {
      std::cout << "error at line " << error.line() << ", column " << error.column() << ":\n"
                << error.what() << "\n";
    }
  } catch (const idxmap::ApiError& error) {
    std::cerr << error.what() << "\n";
    return 1;
  }
  std::cout << "nodes in the context: " << context.size() << "\n";
}
