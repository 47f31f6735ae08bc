// XLA's own simplification tests (../shared/conformance/xla/simplify_cases.jsonl): for every
// record whose constructs idxmap supports, our output must mean the same as the input (isl,
// exact) and be no larger than XLA's expected map.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "simplifier/simplify.h"

namespace idxmap {
namespace {

// Operations whose result keeps the map's relation; the others (RemoveUnusedVars,
// ConvertRangeVariablesToDimensions, ...) change the map's arity on purpose.
const std::set<std::string> kMeaningPreservingOps = {"Simplify",       "Canonicalize",
                                                     "FoldAtCreation", "RemoveUnusedSymbols",
                                                     "RescaleSymbols", "RescaleSymbols+Simplify"};
const std::set<std::string> kUnsupportedFeatures = {"non_affine_mul", "non_constant_divisor"};

int mapSize(const IndexingMap& map) {
  int size = 0;
  for (Expr e : map.results) size += e.size();
  for (const Constraint& c : map.constraints) size += c.expr.size();
  return size;
}

// XLA's expression tests use variables v0, v1, ... without a domain; give them one.
std::string asMap(const std::string& text, const std::string& variablesFrom) {
  if (text.find("->") != std::string::npos) return text;
  std::set<std::string> names;
  std::regex var("\\bv[0-9]+\\b");
  for (auto it = std::sregex_iterator(variablesFrom.begin(), variablesFrom.end(), var);
       it != std::sregex_iterator(); ++it)
    names.insert(it->str());
  std::string header = "(", domain;
  for (const std::string& n : names) {
    header += (header.size() > 1 ? ", " : "") + n;
    domain += ", " + n + " in [-64, 64]";
  }
  return header + ") -> (" + text + ")" + (names.empty() ? "" : ", domain: " + domain.substr(2));
}

TEST(XlaConformance, SimplifyCasesKeepMeaningAndAreNoLarger) {
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/xla/simplify_cases.jsonl");
  if (!in) GTEST_SKIP() << "../shared/conformance is not present";
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json record = nlohmann::json::parse(line);
    if (record["kind"] != "simplify" || !kMeaningPreservingOps.count(record["op"])) continue;
    bool supported = true;
    for (const auto& f : record["features"])
      supported = supported && !kUnsupportedFeatures.count(f);
    if (!supported) continue;
    std::string id = record["id"], inputText = record["input"];
    SCOPED_TRACE(id);
    IndexingMap input = parseIndexingMap(asMap(inputText, inputText));
    IndexingMap output = simplify(input);
    ProofResult same = islEqual(input, output);
    ASSERT_FALSE(same.isUnknown()) << "isl gave up: " << same.reason;
    EXPECT_TRUE(same.isProven()) << printIndexingMap(output);
    if (record["expected"].is_string()) {
      IndexingMap expected = parseIndexingMap(asMap(record["expected"], inputText));
      EXPECT_LE(mapSize(output), mapSize(expected)) << "ours:\n"
                                                    << printIndexingMap(output) << "\nXLA's:\n"
                                                    << printIndexingMap(expected);
    }
    ++checked;
  }
  EXPECT_GE(checked, 40);
}

}  // namespace
}  // namespace idxmap
