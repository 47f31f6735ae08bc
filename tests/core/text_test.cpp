// The text layer read like the docs: map text in, structure or text out.
#include "core/text.h"
#include "tests/support/exprs.h"

#include <gtest/gtest.h>

namespace idxmap {
namespace {

using namespace test_exprs;

constexpr const char* kFormatExample =
    R"((d0, d1)[s0, s1]{rt0} -> (d1 * 4 + s0, s1 floordiv 2 + rt0),
domain:
d0 in [0, 9],
d1 in [0, 19],
s0 in [0, 3],
s1 in [0, 7],
rt0 in [0, 5],
d0 + s0 in [0, 10],
s1 mod 2 in [0, 0])";

TEST(TextParse, ReadsFormatExample) {
  IndexingMap map = parseIndexingMap(kFormatExample);
  ASSERT_EQ(map.dims.size(), 2u);
  ASSERT_EQ(map.rangeVars.size(), 2u);
  ASSERT_EQ(map.runtimeVars.size(), 1u);
  EXPECT_EQ(map.dims[1].range, (Interval{0, 19}));
  EXPECT_EQ(map.runtimeVars[0].range, (Interval{0, 5}));
  EXPECT_TRUE(map.dims[0].name.empty());  // default names are stored unnamed
  ASSERT_EQ(map.results.size(), 2u);
  EXPECT_EQ(map.results[0], d(1) * 4 + s(0));
  EXPECT_EQ(map.results[1], s(1).floorDiv(2) + rt(0));
  ASSERT_EQ(map.constraints.size(), 2u);
  EXPECT_EQ(map.constraints[0].expr, d(0) + s(0));
  EXPECT_EQ(map.constraints[0].range, (Interval{0, 10}));
  EXPECT_EQ(map.constraints[1].expr, s(1).mod(2));
  EXPECT_FALSE(map.knownEmpty);
}

TEST(TextPrint, WritesFormatExampleExactly) {
  EXPECT_EQ(printIndexingMap(parseIndexingMap(kFormatExample)), kFormatExample);
}

TEST(TextPrint, MapWithoutVariablesHasNoDomain) {
  IndexingMap map;
  map.results = {Expr::constant(7)};
  EXPECT_EQ(printIndexingMap(map), "() -> (7)");
  EXPECT_EQ(printIndexingMap(IndexingMap{}), "() -> ()");
  EXPECT_EQ(parseIndexingMap("() -> ()"), IndexingMap{});
  EXPECT_EQ(parseIndexingMap("() -> (7)"), map);
}

TEST(TextParse, DivisionSpellings) {
  EXPECT_EQ(parseExpr("d0 / 2"), d(0).floorDiv(2));
  EXPECT_EQ(parseExpr("d0 floordiv 2"), d(0).floorDiv(2));
  EXPECT_EQ(parseExpr("d0 floorDiv 2"), d(0).floorDiv(2));
  EXPECT_EQ(parseExpr("d0 ceildiv 2"), d(0).ceilDiv(2));
  EXPECT_EQ(parseExpr("d0 ceilDiv 2"), d(0).ceilDiv(2));
  EXPECT_EQ(parseExpr("d0 mod 2"), d(0).mod(2));
  EXPECT_EQ(parseExpr("min(d0, 5)"), Expr::min(d(0), Expr::constant(5)));
  EXPECT_EQ(parseExpr("max(d1, s0)"), Expr::max(d(1), s(0)));
}

TEST(TextParse, PrecedenceAndAssociativity) {
  EXPECT_EQ(parseExpr("-d0 mod 2"), (-d(0)).mod(2));
  EXPECT_EQ(parseExpr("-d0 * 3"), d(0) * -3);
  EXPECT_EQ(parseExpr("d0 / 16 * 16"), d(0).floorDiv(16) * 16);
  EXPECT_EQ(parseExpr("d0 mod 20 mod 7"), d(0).mod(20).mod(7));
  EXPECT_EQ(parseExpr("d0 - d1 - d2"), (d(0) - d(1)) - d(2));
  EXPECT_EQ(parseExpr("d0 + d1 * 2 - 3"), d(0) + d(1) * 2 - 3);
  EXPECT_EQ(parseExpr("(d0 + d1) * 2"), (d(0) + d(1)) * 2);
  EXPECT_EQ(parseExpr("2 * d0"), d(0) * 2);
  EXPECT_EQ(parseExpr("- -d0"), d(0));
  EXPECT_EQ(parseExpr("-(d0 floordiv 2)"), -d(0).floorDiv(2));
  EXPECT_TRUE(parseExpr("-9223372036854775808").isConstant(INT64_MIN));
  EXPECT_TRUE(parseExpr("(5 floordiv 2) mod -3").isConstant(-1));  // 2 - (-3) * (-1)
}

// `//` comments, as XLA's map files have them: whole lines above, between and inside maps
// (they neither open nor separate one), and at the end of a line.
TEST(TextParse, CommentsAreSkipped) {
  std::vector<ParsedMap> maps = parseMaps(
      "// two maps\n(d0) -> (d0 // the identity\n), domain: d0 in [0, 9]\n\n// the second\n"
      "(d0) -> (d0 floordiv 2),\n// between its lines\ndomain: d0 in [0, 9]\n\n// the end\n");
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].map, parseIndexingMap("(d0) -> (d0), domain: d0 in [0, 9]"));
  EXPECT_EQ(maps[1].map, parseIndexingMap("(d0) -> (d0 floordiv 2), domain: d0 in [0, 9]"));
  EXPECT_TRUE(parseMaps("// nothing but a comment\n").empty());
}

TEST(TextParse, NegativeDivisorsAreNormalized) {
  EXPECT_EQ(parseExpr("d0 floordiv -2"), (-d(0)).floorDiv(2));
  EXPECT_EQ(parseExpr("d0 ceildiv -2"), -d(0).floorDiv(2));
  EXPECT_EQ(parseExpr("d0 mod -3"), -((-d(0)).mod(3)));
}

struct PrintCase {
  Expr expr;
  const char* text;
};

TEST(TextPrint, ParenthesesAndSignsFollowXla) {
  const PrintCase cases[] = {
      {(d(0) + 1) * 2, "(d0 + 1) * 2"},
      {(d(0) * 128 + d(1)).floorDiv(192), "(d0 * 128 + d1) floordiv 192"},
      {-d(0).floorDiv(2), "-(d0 floordiv 2)"},
      {(-d(0)).mod(2), "(-d0) mod 2"},
      {d(0) * -1, "-d0"},
      {d(0) + d(1) * -1, "d0 - d1"},
      {d(0) + -5, "d0 - 5"},
      {d(0) + d(1) * -3, "d0 - d1 * 3"},
      {d(0) * -3, "d0 * -3"},
      {s(0).mod(3) * 4 + s(0) * 3 + d(0), "(s0 mod 3) * 4 + s0 * 3 + d0"},
      {d(0) * 4 + s(0) + s(1) - 42, "d0 * 4 + s0 + s1 - 42"},
      {d(0) + (d(1) + d(2)), "d0 + (d1 + d2)"},
      {d(0) - (d(1) + d(2)), "d0 - (d1 + d2)"},
      {d(0) - (d(1) + d(2)) * 2, "d0 - (d1 + d2) * 2"},
      {d(0) - d(1).floorDiv(2), "d0 - d1 floordiv 2"},
      {-(d(0) + d(1)), "-(d0 + d1)"},
      {-Expr::min(d(0), d(1)), "-min(d0, d1)"},
      {Expr::min(Expr::constant(10), d(0)), "min(10, d0)"},
      {Expr::max(-d(0), Expr::constant(-4)), "max(-d0, -4)"},
      {d(0).floorDiv(2).floorDiv(3), "d0 floordiv 2 floordiv 3"},
      {d(0).mod(20).mod(7), "d0 mod 20 mod 7"},
      {d(0).mod(20).floorDiv(7), "(d0 mod 20) floordiv 7"},
      {d(0).ceilDiv(4), "d0 ceildiv 4"},
      {-(d(0) + 3).floorDiv(2), "-((d0 + 3) floordiv 2)"},
      {-d(0) + d(1), "-d0 + d1"},
      {Expr::constant(-7), "-7"},
      {d(0) + INT64_MIN, "d0 + -9223372036854775808"},
      {d(0) + d(1) * INT64_MIN, "d0 + d1 * -9223372036854775808"},
      {d(0) + INT64_MAX, "d0 + 9223372036854775807"},
      {d(0) - INT64_MAX, "d0 - 9223372036854775807"},
      {rt(2) + s(1), "rt2 + s1"},
  };
  for (const PrintCase& c : cases) {
    EXPECT_EQ(printExpr(c.expr), c.text);
    EXPECT_EQ(parseExpr(c.text), c.expr) << c.text;
  }
}

TEST(TextParse, CustomNamesAreKeptDefaultNamesDropped) {
  IndexingMap map = parseIndexingMap(R"((d0, d1)[to_convert_0, range, to_convert_1]
  -> (d1, d0, range + to_convert_1, to_convert_0),
domain:
d0 in [0, 3],
d1 in [0, 3],
to_convert_0 in [0, 2],
range in [0, 1],
to_convert_1 in [0, 3],
d0 + d1 * 2 + to_convert_0 * 3 + to_convert_1 * 4 + range * 5 in [0, 100])");
  EXPECT_EQ(map.dims[0].name, "");
  EXPECT_EQ(map.rangeVars[0].name, "to_convert_0");
  EXPECT_EQ(map.rangeVars[1].name, "range");
  EXPECT_EQ(map.results[2], s(1) + s(2));
  EXPECT_EQ(map.constraints[0].expr, d(0) + d(1) * 2 + s(0) * 3 + s(2) * 4 + s(1) * 5);
  EXPECT_EQ(
      printIndexingMap(map),
      R"((d0, d1)[to_convert_0, range, to_convert_1] -> (d1, d0, range + to_convert_1, to_convert_0),
domain:
d0 in [0, 3],
d1 in [0, 3],
to_convert_0 in [0, 2],
range in [0, 1],
to_convert_1 in [0, 3],
d0 + d1 * 2 + to_convert_0 * 3 + to_convert_1 * 4 + range * 5 in [0, 100])");
}

TEST(TextParse, RuntimeVariablesWithCustomNames) {
  IndexingMap map = parseIndexingMap("(){r0, r1} -> (r0),\ndomain:\nr0 in [1, 1],\nr1 in [0, 1]");
  ASSERT_EQ(map.runtimeVars.size(), 2u);
  EXPECT_EQ(map.runtimeVars[0].name, "r0");
  EXPECT_EQ(map.results[0], rt(0));
  EXPECT_EQ(printIndexingMap(map), "(){r0, r1} -> (r0),\ndomain:\nr0 in [1, 1],\nr1 in [0, 1]");
}

TEST(TextParse, NamesMayBeAnyNonKeywordIdentifier) {
  IndexingMap map = parseIndexingMap(
      "(th_x, _b, d2, d0)[KNOWN] -> (th_x + _b + d2 + d0 + KNOWN), domain: th_x in [0, 127], "
      "_b in [0, 1], d2 in [0, 2], d0 in [0, 4], KNOWN in [0, 3], KNOWN mod 2 in [0, 0]");
  EXPECT_EQ(map.dims[0].name, "th_x");
  EXPECT_EQ(map.dims[1].name, "_b");
  EXPECT_EQ(map.dims[2].name, "");    // the default name of its position
  EXPECT_EQ(map.dims[3].name, "d0");  // another position's default name is a custom name
  EXPECT_EQ(map.results[0], d(0) + d(1) + d(2) + d(3) + s(0));
  EXPECT_EQ(map.rangeVars[0].name, "KNOWN");
  EXPECT_EQ(parseIndexingMap(printIndexingMap(map)), map);
}

TEST(TextParse, WhitespaceAndCommasAreFlexible) {
  IndexingMap expected = parseIndexingMap(kFormatExample);
  EXPECT_EQ(
      parseIndexingMap("(d0,d1)[s0,s1]{rt0}->(d1*4+s0,s1/2+rt0),domain:d0 in[0,9],d1 in[0,19],s0 in"
                       "[0,3],s1 in[0,7],rt0 in[0,5],d0+s0 in[0,10],s1 mod 2 in[0,0]"),
      expected);
  // The pre-2024-09 form: domain entries on their own lines without commas.
  EXPECT_EQ(
      parseIndexingMap("(d0, d1)[s0, s1]{rt0}\n  -> (d1 * 4 + s0,\n      s1 floordiv 2 + rt0)\n"
                       "domain:\n  d0 in [0, 9]\n  d1 in [0, 19]\n  s0 in [0, 3]\n"
                       "  s1 in [0, 7]\n  rt0 in [0, 5]\n  d0 + s0 in [0, 10]\n"
                       "  s1 mod 2 in [0, 0],\n"),
      expected);
}

TEST(TextParse, ExplicitlyEmptyLists) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1, d2, d3)[] -> (0),\ndomain:\nd0 in [0, 9],\nd1 in [-10, -1],\nd2 in [-1, 2],\n"
      "d3 in [0, 0]");
  EXPECT_EQ(map.dims.size(), 4u);
  EXPECT_TRUE(map.rangeVars.empty());
  EXPECT_EQ(map.dims[1].range, (Interval{-10, -1}));
  EXPECT_EQ(parseIndexingMap("()[]{} -> ()"), IndexingMap{});
}

TEST(TextParse, ExtremeBoundsRoundTrip) {
  IndexingMap map = parseIndexingMap(
      "(bl_x) -> (bl_x), domain: bl_x in [0, 2415919103], "
      "bl_x * 2 in [-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(map.dims[0].range.hi, 2415919103);
  EXPECT_EQ(map.constraints[0].range, Interval::unbounded());
  EXPECT_EQ(parseIndexingMap(printIndexingMap(map)), map);
}

TEST(TextKnownEmpty, BareFormIsXlasPrintedForm) {
  IndexingMap map = parseIndexingMap("KNOWN EMPTY");
  EXPECT_TRUE(map.knownEmpty);
  EXPECT_TRUE(map.dims.empty());
  EXPECT_TRUE(map.results.empty());
  EXPECT_EQ(parseIndexingMap(printIndexingMap(map)), map);
}

TEST(TextKnownEmpty, DomainEntryKeepsArityAndNormalizes) {
  IndexingMap map = parseIndexingMap(
      "(d0, d1)[s0]{rt0} -> (d0 + s0, d1),\ndomain:\nd0 in [0, 9],\nd1 in [5, 2],\n"
      "s0 in [0, 3],\nrt0 in [0, 5],\nd0 mod 2 in [0, 0],\nKNOWN EMPTY");
  EXPECT_TRUE(map.knownEmpty);
  ASSERT_EQ(map.results.size(), 2u);
  EXPECT_TRUE(map.results[1].isConstant(0));
  EXPECT_EQ(map.dims[0].range, (Interval{0, -1}));
  EXPECT_EQ(map.rangeVars[0].range, (Interval{0, -1}));
  EXPECT_EQ(map.runtimeVars[0].range, (Interval{0, 5}));  // markKnownEmpty keeps these
  EXPECT_TRUE(map.constraints.empty());
  std::string text = printIndexingMap(map);
  EXPECT_EQ(text,
            "(d0, d1)[s0]{rt0} -> (0, 0),\ndomain:\nd0 in [0, -1],\nd1 in [0, -1],\n"
            "s0 in [0, -1],\nrt0 in [0, 5],\nKNOWN EMPTY");
  EXPECT_EQ(parseIndexingMap(text), map);
}

TEST(TextKnownEmpty, MapMarkedEmptyRoundTrips) {
  IndexingMap map = IndexingMap::identity({4, 5});
  map.markKnownEmpty();
  EXPECT_EQ(parseIndexingMap(printIndexingMap(map)), map);
  IndexingMap none;
  none.markKnownEmpty();
  EXPECT_EQ(printIndexingMap(none), "() -> (),\ndomain:\nKNOWN EMPTY");
  EXPECT_EQ(parseIndexingMap(printIndexingMap(none)), none);
}

TEST(TextMlir, AffineMapWithDomainEqualsXla) {
  IndexingMap mlir = parseIndexingMap(
      "affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>\n"
      "domain:\nd0 in [0, 9],\nd1 in [0, 19],\ns0 in [0, 3],\nd0 + s0 in [0, 10]");
  IndexingMap xla = parseIndexingMap(
      "(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2),\n"
      "domain:\nd0 in [0, 9],\nd1 in [0, 19],\ns0 in [0, 3],\nd0 + s0 in [0, 10]");
  EXPECT_EQ(mlir, xla);
  std::vector<ParsedMap> maps = parseMaps(
      "affine_map<(i)[N] -> (i * 2 + N)>, domain: i in [0, 3], N in [1, 1]\n\n"
      "affine_map<() -> (42)>");
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].syntax, MapSyntax::Mlir);
  EXPECT_EQ(maps[0].map.dims[0].name, "i");
  EXPECT_EQ(maps[0].map.results[0], d(0) * 2 + s(0));
  EXPECT_EQ(maps[1].map.results[0], Expr::constant(42));
}

TEST(TextMlir, RangesAreRequired) {
  try {
    parseIndexingMap("affine_map<(d0)[s0] -> (d0 + s0)>");
    FAIL() << "expected a diagnostic";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("domain:"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("range"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseIndexingMap("affine_map<(d0){rt0} -> (d0)>, domain: d0 in [0, 1]"), ParseError);
}

TEST(TextParseMaps, SplitsAtBlankLinesAndRecordsWhereEachMapIs) {
  std::string text =
      "\n(d0) -> (d0),\ndomain:\nd0 in [0, 9]\n"
      "  \t \n\n"
      "  (d0, d1) -> (d1,\n    d0),\n  domain:\n  d0 in [0, 1],\n  d1 in [0, 2]   \n"
      "\n"
      "KNOWN EMPTY\n";
  std::vector<ParsedMap> maps = parseMaps(text, "maps.txt");
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(maps[0].location.file, "maps.txt");
  EXPECT_EQ(maps[0].location.line, 2);
  EXPECT_EQ(maps[0].location.column, 1);
  EXPECT_EQ(maps[0].text, "(d0) -> (d0),\ndomain:\nd0 in [0, 9]");
  EXPECT_EQ(maps[1].location.line, 7);
  EXPECT_EQ(maps[1].location.column, 3);
  EXPECT_EQ(maps[1].text, "(d0, d1) -> (d1,\n    d0),\n  domain:\n  d0 in [0, 1],\n  d1 in [0, 2]");
  EXPECT_EQ(maps[1].map.results[0], d(1));
  EXPECT_EQ(maps[2].syntax, MapSyntax::Xla);
  EXPECT_TRUE(maps[2].map.knownEmpty);
}

TEST(TextIsl, IslChunksGoThroughTheIslBridge) {
  std::vector<ParsedMap> maps = parseMaps(
      "(d0) -> (d0), domain: d0 in [0, 1]\n\n"
      "{ [d0] -> [d0 + 1] : 0 <= d0 <= 9 }\n\n"
      "[rt0] -> { [d0] -> [d0 + rt0] : 0 <= d0 <= 9 and 0 <= rt0 <= 5 }");
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(maps[1].syntax, MapSyntax::Isl);
  EXPECT_EQ(maps[1].location.line, 3);
  EXPECT_EQ(maps[1].text, "{ [d0] -> [d0 + 1] : 0 <= d0 <= 9 }");
  ASSERT_EQ(maps[1].map.dims.size(), 1u);
  EXPECT_EQ(maps[1].map.dims[0].range, (Interval{0, 9}));
  ASSERT_EQ(maps[1].map.results.size(), 1u);
  int64_t three[] = {3};
  EXPECT_EQ(maps[1].map.results[0].evaluate(three, {}, {}), 4);
  EXPECT_EQ(maps[2].syntax, MapSyntax::Isl);
  EXPECT_EQ(maps[2].map.runtimeVars.size(), 1u);
}

TEST(TextIsl, MalformedIslIsLocatedAtTheMapsStart) {
  try {
    parseMaps("() -> ()\n\n  { [d0] -> [ : }", "f.isl");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 3);
    EXPECT_EQ(e.location().column, 3);
    EXPECT_EQ(e.message().rfind("invalid isl map", 0), 0u) << e.what();
  }
}

TEST(TextParseMaps, NoMapsInEmptyInput) {
  EXPECT_TRUE(parseMaps("").empty());
  EXPECT_TRUE(parseMaps(" \n\t\n\r\n").empty());
  EXPECT_THROW(parseIndexingMap(""), ParseError);
  EXPECT_THROW(parseIndexingMap("() -> ()\n\n() -> ()"), ParseError);
}

TEST(TextParseExpr, NamesOfAMap) {
  IndexingMap names = parseIndexingMap(
      "(th_x, d1)[chunk]{off} -> (th_x), domain: th_x in [0, 1], d1 in [0, 1], chunk in [0, 1], "
      "off in [0, 1]");
  EXPECT_EQ(parseExpr("th_x * 2 + chunk - off + d1", &names), d(0) * 2 + s(0) - rt(0) + d(1));
  EXPECT_EQ(printExpr(d(0) * 2 + s(0) - rt(0), &names), "th_x * 2 + chunk - off");
  EXPECT_EQ(parseExpr("d0 + s0 + rt0", &names), d(0) + s(0) + rt(0));  // defaults still work
  EXPECT_EQ(parseExpr("d7 + rt12"), d(7) + rt(12));
  EXPECT_THROW(parseExpr("th_x"), ParseError);
  EXPECT_THROW(parseExpr("d01"), ParseError);
  EXPECT_THROW(parseExpr("d0 d1"), ParseError);
  EXPECT_THROW(parseExpr(""), ParseError);
}

}  // namespace
}  // namespace idxmap
