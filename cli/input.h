// Reading the maps a command works on: files in command-line order, stdin for "-" or when no
// file is named.
#pragma once

#include <string>
#include <vector>

#include "core/checked.h"
#include "core/text.h"
#include "ops/hlo/module.h"

namespace idxmap::cli {

// An input that cannot be read (missing file, directory, I/O error). Reported as
// `file: error: message`, exit 2.
class InputError : public Error {
 public:
  using Error::Error;
};

// One input's whole text and the name diagnostics give it ("<stdin>" for "-").
struct Source {
  std::string name;
  std::string text;
  // What a summary calls it: the name, or `name:line` for a `// -----` section of the file.
  std::string label() const { return section.empty() ? name : name + ":" + section; }
  std::string section;  // the section's first line, when the file was split
};

// Reads a file, or stdin for "-". Throws InputError.
Source readSource(const std::string& input);

// StableHLO MLIR rather than HLO: by the name's extension (.mlir / .hlo) when it has one,
// else by how the text starts after blank space and `//` comments (`module`, `func.func`,
// `%`, `"`, `#`, `stablehlo.`).
bool isMlir(const Source& source);

// Line `lineNumber` (1-based) of the text without its line break, for a diagnostic's caret
// where the reporting code has the location but not the text.
std::string sourceLine(const Source& source, int lineNumber);

// The instruction named `name`: the ENTRY computation's first, then the other computations' in
// text order (names are unique per computation only); the ENTRY's ROOT when `name` is empty.
// Throws InputError naming the module.
const hlo::Instruction& findInstruction(const hlo::Module& module, const std::string& name,
                                        const std::string& sourceName);

// Every map of every input, in order. Throws InputError or the parser's ParseError.
std::vector<ParsedMap> readMaps(const std::vector<std::string>& inputs);
// Every map of every input read on its own (core's readEachMap): a malformed one is its
// error, the others are still read.
std::vector<MapReading> readEachMap(const std::vector<std::string>& inputs);

}  // namespace idxmap::cli
