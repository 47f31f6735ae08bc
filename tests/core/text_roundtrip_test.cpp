// Printing then parsing gives back the same map (IndexingMap::operator==) and the same Expr
// nodes: on thousands of seeded random expressions and maps, and on every map text of the
// XLA conformance data.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "core/text.h"

namespace idxmap {
namespace {

class RandomMaps {
 public:
  explicit RandomMaps(uint64_t seed) : rng_(seed) {}

  int64_t constant() {
    switch (below(6)) {
      case 0:
        return pick<int64_t>(
            {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
             std::numeric_limits<int64_t>::min() + 1, int64_t{1} << 31, -(int64_t{1} << 40)});
      case 1:
        return between(-1000000, 1000000);
      default:
        return between(-20, 20);
    }
  }

  // Builds a random expression through the Expr API. A construction the IR rejects
  // (overflow while folding, division by an INT64_MIN divisor) falls back to a leaf.
  Expr expr(int depth, const IndexingMap& vars) {
    if (depth == 0 || below(4) == 0) return leaf(vars);
    Expr a = expr(depth - 1, vars);
    try {
      switch (below(10)) {
        case 0:
          return a + expr(depth - 1, vars);
        case 1:
          return a - expr(depth - 1, vars);
        case 2:
          return a * constant();
        case 3:
          return -a;
        case 4:
          return a.floorDiv(divisor());
        case 5:
          return a.ceilDiv(divisor());
        case 6:
          return a.mod(divisor());
        case 7:
          return Expr::min(a, expr(depth - 1, vars));
        case 8:
          return Expr::max(a, expr(depth - 1, vars));
        default:
          return a + constant();
      }
    } catch (const Error&) {
      return leaf(vars);
    }
  }

  IndexingMap map() {
    IndexingMap m;
    for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
      for (int i = below(kind == ExprKind::Dim ? 4 : 3); i > 0; --i)
        m.variables(kind).push_back({range(), ""});
    nameSomeVariables(m);
    for (int i = below(4); i > 0; --i) m.results.push_back(expr(4, m));
    for (int i = below(4); i > 0; --i)
      m.constraints.push_back({expr(3, m), below(8) == 0 ? Interval{5, 2} : range()});
    if (below(10) == 0) m.markKnownEmpty();
    return m;
  }

 private:
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  int64_t between(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  template <typename T>
  T pick(std::initializer_list<T> values) {
    return *(values.begin() + below(static_cast<int>(values.size())));
  }

  int64_t divisor() {
    int64_t d = below(5) == 0 ? constant() : between(-16, 16);
    return d == 0 ? 7 : d;
  }

  Interval range() {
    if (below(10) == 0) return Interval::unbounded();
    int64_t lo = between(-100, 100);
    return {lo, lo + between(0, 1000)};
  }

  Expr leaf(const IndexingMap& vars) {
    std::vector<Expr> choices;
    for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
      for (unsigned i = 0; i < vars.variables(kind).size(); ++i)
        choices.push_back(Expr::variable(kind, i));
    if (choices.empty() || below(4) == 0) return Expr::constant(constant());
    return choices[below(static_cast<int>(choices.size()))];
  }

  // Custom names, some of them another position's default name; a map whose printed names
  // would clash is left with default names (such a map is not printable).
  void nameSomeVariables(IndexingMap& m) {
    static const char* const kNames[] = {"th_x", "bl_x",  "chunk_id", "range", "r0", "x",
                                         "_tmp", "KNOWN", "EMPTY",    "d1",    "s0", "rt3"};
    std::set<std::string> printed;
    bool clash = false;
    for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
      for (unsigned i = 0; i < m.variables(kind).size(); ++i) {
        if (below(3) == 0) m.variables(kind)[i].name = kNames[below(std::size(kNames))];
        if (m.variables(kind)[i].name == defaultVariableName(kind, i))
          m.variables(kind)[i].name.clear();
        clash |= !printed.insert(m.variableName(kind, i)).second;
      }
    if (clash)
      for (ExprKind kind : {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar})
        for (Variable& v : m.variables(kind)) v.name.clear();
  }

  std::mt19937_64 rng_;
};

TEST(TextRoundTrip, RandomExpressions) {
  RandomMaps random(20240601);
  IndexingMap vars = IndexingMap::identity({4, 4, 4});
  vars.rangeVars.resize(2);
  vars.runtimeVars.resize(2);
  for (int i = 0; i < 5000; ++i) {
    Expr e = random.expr(6, vars);
    std::string text = printExpr(e);
    Expr parsed = parseExpr(text);
    ASSERT_EQ(parsed, e) << text << "\nreads back as\n" << printExpr(parsed);
    ASSERT_EQ(printExpr(parsed), text);
  }
}

TEST(TextRoundTrip, RandomMaps) {
  RandomMaps random(42);
  std::string file;
  std::vector<IndexingMap> maps;
  for (int i = 0; i < 3000; ++i) {
    IndexingMap m = random.map();
    std::string text = printIndexingMap(m);
    IndexingMap parsed = parseIndexingMap(text);
    ASSERT_EQ(parsed, m) << text << "\nreads back as\n" << printIndexingMap(parsed);
    ASSERT_EQ(printIndexingMap(parsed), text);
    if (i < 300) {
      file += text + (i % 2 ? "\n\n" : "\n \t\n\n");
      maps.push_back(m);
    }
  }
  std::vector<ParsedMap> parsed = parseMaps(file);
  ASSERT_EQ(parsed.size(), maps.size());
  for (size_t i = 0; i < maps.size(); ++i) EXPECT_EQ(parsed[i].map, maps[i]) << i;
}

// Every map text of a conformance record: the strings (or lists of strings) under these
// keys that are whole maps.
std::vector<std::string> mapTexts(const nlohmann::json& record) {
  std::vector<std::string> texts;
  auto add = [&](const nlohmann::json& value) {
    if (!value.is_string()) return;
    std::string text = value.get<std::string>();
    size_t first = text.find_first_not_of(" \n\t");
    if (first == std::string::npos) return;
    // HLO indexing output appends a "runtime variables:" section after the map; it is not
    // part of the map syntax.
    text = text.substr(0, text.find("\nruntime variables:"));
    bool isMap = text[first] == '(' && text.find("->") != std::string::npos;  // not an Expr
    if (isMap || text.substr(first) == "KNOWN EMPTY") texts.push_back(text);
  };
  for (const char* key : {"input", "expected", "lhs", "rhs"}) {
    if (!record.contains(key)) continue;
    if (record[key].is_array())
      for (const auto& item : record[key]) add(item);
    else
      add(record[key]);
  }
  if (record.contains("expected_by_operand"))
    for (const auto& operand : record["expected_by_operand"])
      for (const auto& map : operand["maps"]) add(map);
  return texts;
}

bool hasFeature(const nlohmann::json& record, const std::string& feature) {
  if (!record.contains("features")) return false;
  const auto& features = record["features"];
  return std::find(features.begin(), features.end(), feature) != features.end();
}

// Each map parses and round-trips. Exceptions, by design: records with non-affine
// products or non-constant divisors (the IR cannot hold them) are skipped. A variable range
// with lo > hi makes the map KNOWN EMPTY, as XLA does on construction.
void checkConformanceFile(const std::string& name, int minimumMaps) {
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/xla/" + name);
  if (!in) GTEST_SKIP() << "no conformance data at " << IDXMAP_CONFORMANCE_DIR;
  int checked = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json record = nlohmann::json::parse(line);
    if (hasFeature(record, "non_affine_mul") || hasFeature(record, "non_constant_divisor"))
      continue;
    for (const std::string& text : mapTexts(record)) {
      SCOPED_TRACE(record["id"].get<std::string>() + ":\n" + text);
      IndexingMap map = parseIndexingMap(text);  // an empty range reads as KNOWN EMPTY
      if (map.knownEmpty && text.find("KNOWN EMPTY") == std::string::npos)
        EXPECT_TRUE(hasFeature(record, "known_empty")) << text;
      EXPECT_EQ(parseIndexingMap(printIndexingMap(map)), map) << printIndexingMap(map);
      ++checked;
    }
  }
  EXPECT_GE(checked, minimumMaps);
}

TEST(TextConformance, SimplifyCasesParseAndRoundTrip) {
  checkConformanceFile("simplify_cases.jsonl", 85);
}

TEST(TextConformance, OperandMapsParseAndRoundTrip) { checkConformanceFile("op_maps.jsonl", 70); }

}  // namespace
}  // namespace idxmap
