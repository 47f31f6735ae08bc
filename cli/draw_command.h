// `idxmap draw`: a picture of a map (draw/): one map of a .map file, one gather / scatter of a
// StableHLO MLIR file, or an HLO instruction's result -> operand, as SVG, with the drawn point
// pairs as JSON for tests and tools.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct DrawOptions {
  std::string input = "-";
  std::string output;       // empty: stdout
  size_t op = 1;            // MLIR: the op-th gather or scatter
  size_t map = 1;           // .map: the map-th map
  std::string instruction;  // HLO: the instruction (default: the entry's root)
  size_t operand = 0;       // HLO: which operand
  std::string points;       // "i,j;k,l"; empty: chosen
  size_t pointCount = 6;
  bool json = false;
};

CLI::App* addDrawCommand(CLI::App& app, DrawOptions& options);
// 0 drawn; 2 invalid input (no such op or map, a point outside the domain, unreadable file).
ExitCode runDraw(const DrawOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
