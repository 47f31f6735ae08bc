// `idxmap draw`: a picture of a map (draw/): one map of a .map file, one gather / scatter of a
// StableHLO MLIR file, or an HLO instruction's result -> operand, as SVG, with the drawn point
// pairs as JSON for tests and tools.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "cli/exit_code.h"

namespace idxmap::cli {

struct DrawOptions {
  std::string input = "-";
  std::string output;  // empty: stdout
  // Each applies to one kind of input (unset: its default); set for another, an error.
  std::optional<size_t> op;                // MLIR: the op-th gather or scatter (1)
  std::optional<size_t> map;               // .map: the map-th map (1)
  std::optional<std::string> instruction;  // HLO: the instruction (the entry's root)
  std::optional<size_t> operand;           // HLO: which operand (0)
  std::string points;                      // "i,j;k,l"; empty: chosen
  size_t pointCount = 6;
  bool json = false;
};

CLI::App* addDrawCommand(CLI::App& app, DrawOptions& options);
// 0 drawn; 2 invalid input (no such op or map, a point outside the domain, an op breaking its
// spec's constraints, an option for another kind of input, unreadable file).
ExitCode runDraw(const DrawOptions& options, std::ostream& out, std::ostream& diagnostics);

}  // namespace idxmap::cli
