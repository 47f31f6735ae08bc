#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string_view>

#include "core/text_source.h"
#include "ops/mlir/module.h"

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

Source readSource(const std::string& input) {
  if (input == "-") return {"<stdin>", readStream(std::cin, "<stdin>"), ""};
  return {input, readFile(input), ""};
}

bool isMlir(const Source& source) { return mlir_ir::looksLikeMlir(source.name, source.text); }

std::string sourceLine(const Source& source, int lineNumber) {
  return std::string(SourceText(source.text, source.name).line(lineNumber));
}

namespace {

// Each input read in turn ("-" or none: stdin), handed to `read` before the next is opened.
template <class Read>
void forEachSource(const std::vector<std::string>& inputs, Read&& read) {
  if (inputs.empty()) return read(readSource("-"));
  for (const std::string& name : inputs) read(readSource(name));
}

}  // namespace

std::vector<MapReading> readEachMap(const std::vector<std::string>& inputs) {
  std::vector<MapReading> readings;
  forEachSource(inputs, [&](const Source& source) {
    for (MapReading& reading : idxmap::readEachMap(source.text, source.name))
      readings.push_back(std::move(reading));
  });
  return readings;
}

std::vector<ParsedMap> readMaps(const std::vector<std::string>& inputs) {
  std::vector<ParsedMap> maps;
  forEachSource(inputs, [&](const Source& source) {
    for (ParsedMap& map : parseMaps(source.text, source.name)) maps.push_back(std::move(map));
  });
  return maps;
}

const hlo::Instruction& findInstruction(const hlo::Module& module, const std::string& name,
                                        const std::string& sourceName) {
  if (!module.entry) throw InputError(sourceName + ": error: the module has no ENTRY computation");
  if (name.empty()) return *module.entry->root;
  if (const hlo::Instruction* found = module.entry->find(name)) return *found;
  for (const auto& computation : module.computations)
    if (const hlo::Instruction* found = computation->find(name)) return *found;
  throw InputError(sourceName + ": error: no instruction '" + name + "' in module '" + module.name +
                   "'");
}

}  // namespace idxmap::cli
