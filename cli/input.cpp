#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace idxmap::cli {
namespace {

std::string readStream(std::istream& in, const std::string& name) {
  std::ostringstream text;
  text << in.rdbuf();
  // rdbuf() sets failbit on an empty stream, which is fine; badbit is a real read error.
  if (in.bad()) throw InputError(name + ": error: cannot read: " + std::strerror(errno));
  return text.str();
}

std::string readFile(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw InputError(path + ": error: cannot read: is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path + ": error: cannot read: " + std::strerror(errno));
  return readStream(file, path);
}

}  // namespace

std::vector<ParsedMap> readMaps(const std::vector<std::string>& inputs) {
  std::vector<std::string> names = inputs;
  if (names.empty()) names.push_back("-");
  std::vector<ParsedMap> maps;
  for (const std::string& name : names) {
    bool isStdin = name == "-";
    std::string text = isStdin ? readStream(std::cin, "<stdin>") : readFile(name);
    for (ParsedMap& map : parseMaps(text, isStdin ? "<stdin>" : name))
      maps.push_back(std::move(map));
  }
  return maps;
}

}  // namespace idxmap::cli
