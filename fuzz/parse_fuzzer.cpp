// Feeds arbitrary bytes to parseMaps. Whatever parses must print and read back to an equal
// map (and print the same text again); a bad input may only be a ParseError. Any other
// exception, a crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/text.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& printed, const std::string& detail) {
  std::fprintf(stderr, "parse_fuzzer: %s\n--- printed ---\n%s\n--- detail ---\n%s\n", what,
               printed.c_str(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<idxmap::ParsedMap> maps;
  try {
    maps = idxmap::parseMaps(text, "fuzz");
  } catch (const idxmap::ParseError&) {
    return 0;
  }
  for (const idxmap::ParsedMap& parsed : maps) {
    std::string printed = idxmap::printIndexingMap(parsed.map);
    idxmap::IndexingMap again;
    try {
      again = idxmap::parseIndexingMap(printed);
    } catch (const idxmap::ParseError& e) {
      fail("the printed map does not parse", printed, e.what());
    }
    if (!(again == parsed.map))
      fail("the printed map reads back as a different map", printed,
           idxmap::printIndexingMap(again));
    if (idxmap::printIndexingMap(again) != printed)
      fail("printing is not stable", printed, idxmap::printIndexingMap(again));
  }
  return 0;
}
