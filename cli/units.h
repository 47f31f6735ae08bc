// The units a command works on: each input file, or with --split-input-file each section of
// it between `// -----` lines (as MLIR tools and XLA's tests write several modules to one
// file). A failing unit is reported and the others still run.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"
#include "cli/input.h"

namespace idxmap::cli {

// The sections of `source` between lines that start with `// -----` (after blank space). Each
// section keeps the file's name and line numbers: the lines before it are left empty, so a
// diagnostic names the line in the file. A file without a marker is one section.
std::vector<Source> splitSections(const Source& source);

// The more severe of two statuses: invalid input, then refuted, then unknown, then success.
ExitCode worseExit(ExitCode a, ExitCode b);

using UnitWork =
    std::function<ExitCode(const Source& unit, std::ostream& out, std::ostream& diagnostics)>;

// Runs `work` on each unit of `inputs` (stdin when there are none). A single unit runs as is:
// its errors propagate to the caller. With several, each unit's error is printed on
// `diagnostics` and counts as exit 2 for it; text outputs are separated by `// -----` lines;
// with `json`, the output is one array with a record per unit, {file, line, exit, output}
// (output: what the command prints for that unit, null when it failed). The status is the
// worst of the units'. A section of only blank and comment lines is not a unit.
ExitCode forEachUnit(const std::vector<std::string>& inputs, bool splitInputFile, bool json,
                     std::ostream& out, std::ostream& diagnostics, const UnitWork& work);

}  // namespace idxmap::cli
