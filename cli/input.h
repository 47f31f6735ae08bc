// Reading the maps a command works on: files in command-line order, stdin for "-" or when no
// file is named.
#pragma once

#include <string>
#include <vector>

#include "core/checked.h"
#include "core/text.h"

namespace idxmap::cli {

// An input that cannot be read (missing file, directory, I/O error). Reported as
// `file: error: message`, exit 2.
class InputError : public Error {
 public:
  using Error::Error;
};

// Every map of every input, in order. Throws InputError or the parser's ParseError.
std::vector<ParsedMap> readMaps(const std::vector<std::string>& inputs);

}  // namespace idxmap::cli
