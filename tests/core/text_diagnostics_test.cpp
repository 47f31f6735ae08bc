// Diagnostics: every bad input is a ParseError naming file:line:col of the offending token,
// with the source line and a caret. Errors the Expr constructors raise while combining
// operands (division by zero, non-affine products, overflow while folding) point at the
// operator; a literal that does not fit int64 points at the literal.
#include <gtest/gtest.h>

#include <string>

#include "core/text.h"
#include "core/text_source.h"

namespace idxmap {
namespace {

// The full diagnostic for `text` read as a file, or "" when it parses.
std::string diagnose(const std::string& text) {
  try {
    parseMaps(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

// "<stdin>:line:col: message" of the diagnostic, without the source and caret lines.
std::string headline(const std::string& text) {
  std::string full = diagnose(text);
  return full.substr(0, full.find('\n'));
}

TEST(TextDiagnostics, DivisionByZeroPointsAtTheOperator) {
  EXPECT_EQ(diagnose("(d0) -> (d0 floordiv 0)"),
            "<stdin>:1:13: error: division by zero\n"
            "(d0) -> (d0 floordiv 0)\n"
            "            ^");
  EXPECT_EQ(headline("(d0) -> (d0 mod 0), domain: d0 in [0, 1]"),
            "<stdin>:1:13: error: modulo by zero");
  EXPECT_EQ(headline("(d0) -> (d0 / (3 - 3)), domain: d0 in [0, 1]"),
            "<stdin>:1:13: error: division by zero");
}

TEST(TextDiagnostics, ParseErrorCarriesLocationAndMessage) {
  try {
    parseMaps("(d0) -> (d0),\ndomain:\nd0 in [0, 9],\nd0 + d9 in [0, 1]", "in.map");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().file, "in.map");
    EXPECT_EQ(e.location().line, 4);
    EXPECT_EQ(e.location().column, 6);
    EXPECT_EQ(e.message(), "unknown variable 'd9'");
    EXPECT_EQ(std::string(e.what()),
              "in.map:4:6: error: unknown variable 'd9'\nd0 + d9 in [0, 1]\n     ^");
  }
}

TEST(TextDiagnostics, LocationIsFileWideAndCaretKeepsTabs) {
  EXPECT_EQ(diagnose("() -> ()\n\n\t(d0) -> (d0 floordiv 0)"),
            "<stdin>:3:14: error: division by zero\n"
            "\t(d0) -> (d0 floordiv 0)\n"
            "\t            ^");
}

TEST(TextDiagnostics, LongLinesAreShownAsAWindowAroundTheColumn) {
  std::string text = "(d0) -> (d0" + std::string(1000, ' ') + "+ d1), domain: d0 in [0, 1]";
  std::string full = diagnose(text);
  EXPECT_EQ(full.substr(0, full.find('\n')), "<stdin>:1:1014: error: unknown variable 'd1'");
  std::string shown = full.substr(full.find('\n') + 1);
  std::string line = shown.substr(0, shown.find('\n'));
  std::string caret = shown.substr(shown.find('\n') + 1);
  EXPECT_LE(line.size(), 170u);
  EXPECT_EQ(line.substr(0, 3), "...");
  EXPECT_EQ(line.substr(caret.size() - 1, 2), "d1");
  EXPECT_EQ(caret.back(), '^');
}

TEST(TextDiagnostics, UnknownVariable) {
  EXPECT_EQ(headline("(d0) -> (d1),\ndomain:\nd0 in [0, 9]"),
            "<stdin>:1:10: error: unknown variable 'd1'");
}

TEST(TextDiagnostics, LiteralsThatDoNotFitInt64) {
  EXPECT_EQ(headline("(d0) -> (d0 + 9223372036854775808), domain: d0 in [0, 1]"),
            "<stdin>:1:15: error: integer literal does not fit in 64 bits");
  EXPECT_EQ(headline("(d0) -> (d0), domain: d0 in [0, 99999999999999999999]"),
            "<stdin>:1:33: error: integer literal does not fit in 64 bits");
  EXPECT_EQ(headline("(d0) -> (d0), domain: d0 in [-9223372036854775809, 0]"),
            "<stdin>:1:31: error: integer literal does not fit in 64 bits");
  EXPECT_EQ(diagnose("(d0) -> (d0), domain: d0 in [-9223372036854775808, 0]"), "");
}

TEST(TextDiagnostics, OverflowWhileFoldingPointsAtTheOperator) {
  EXPECT_EQ(headline("(d0) -> (d0 + 9223372036854775807 + 1), domain: d0 in [0, 1]"),
            "<stdin>:1:35: error: integer overflow: 9223372036854775807 + 1");
  EXPECT_EQ(headline("(d0) -> (-(d0 * -9223372036854775808)), domain: d0 in [0, 1]"),
            "<stdin>:1:10: error: integer overflow: -9223372036854775808 * -1");
}

TEST(TextDiagnostics, NonAffineProductAndNonConstantDivisor) {
  std::string product = headline("(d0, d1) -> (d0 * d1), domain: d0 in [0, 1], d1 in [0, 1]");
  EXPECT_EQ(product.substr(0, 28), "<stdin>:1:17: error: non-aff") << product;
  std::string divisor = headline("(d0){r0} -> (d0 / r0), domain: d0 in [0, 3], r0 in [1, 1]");
  EXPECT_EQ(divisor.substr(0, 34), "<stdin>:1:17: error: non-constant ") << divisor;
}

TEST(TextDiagnostics, DomainMustListEveryVariableInOrder) {
  EXPECT_EQ(headline("(d0, d1) -> (d0),\ndomain:\nd0 in [0, 9],\nx in [0, 3]"),
            "<stdin>:4:1: error: domain entry names 'x' where the range of 'd1' belongs (the "
            "domain gives every variable's range first, in declaration order)");
  EXPECT_EQ(headline("(d0, d1) -> (d0),\ndomain:\nd1 in [0, 9],\nd0 in [0, 3]"),
            "<stdin>:3:1: error: domain entry names 'd1' where the range of 'd0' belongs (the "
            "domain gives every variable's range first, in declaration order)");
  EXPECT_EQ(headline("(d0, d1) -> (d0),\ndomain:\nd0 in [0, 9],\nd0 + d1 in [0, 3]"),
            "<stdin>:4:1: error: missing range for variable 'd1' (the domain gives every "
            "variable's range first, in declaration order)");
  EXPECT_EQ(headline("(d0)[s0] -> (d0),\ndomain:\nd0 in [0, 9]"),
            "<stdin>:3:13: error: missing range for variable 's0' (the domain gives every "
            "variable's range first, in declaration order)");
  EXPECT_EQ(headline("(d0) -> (d0)"),
            "<stdin>:1:13: error: the map has variables, so it needs a 'domain:' section giving "
            "every variable's range");
}

// XLA writes an empty variable range for an empty map; it reads as KNOWN EMPTY.
TEST(TextDiagnostics, EmptyRangesMakeTheMapKnownEmpty) {
  EXPECT_EQ(diagnose("(d0) -> (d0), domain: d0 in [10, 0]"), "");
  EXPECT_TRUE(parseIndexingMap("(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [10, 0]").knownEmpty);
  EXPECT_FALSE(parseIndexingMap("(d0) -> (d0), domain: d0 in [0, 9]").knownEmpty);
  EXPECT_EQ(diagnose("(d0) -> (d0), domain: d0 in [10, 0], KNOWN EMPTY"), "");
  // A constraint may state an empty interval: the domain is empty, which is for the
  // simplifier to find.
  EXPECT_EQ(diagnose("(d0) -> (d0), domain: d0 in [0, 9], d0 mod 2 in [1, 0]"), "");
}

TEST(TextDiagnostics, UnbalancedParentheses) {
  EXPECT_EQ(headline("(d0) -> ((d0 + 1), domain: d0 in [0, 1]"),
            "<stdin>:1:20: error: expected an expression, found 'domain'");
  EXPECT_EQ(headline("(d0) -> ((d0 + 1)"),
            "<stdin>:1:18: error: expected ',' or ')', found end of input");
  EXPECT_EQ(headline("(d0) -> (d0)), domain: d0 in [0, 1]"),
            "<stdin>:1:13: error: expected ',' or 'domain:', found ')'");
  EXPECT_EQ(headline("(d0 -> (d0)"), "<stdin>:1:5: error: expected ',' or ')', found '->'");
}

TEST(TextDiagnostics, BadNamesAndCharacters) {
  EXPECT_EQ(headline("(d0, x)[x] -> ()"), "<stdin>:1:9: error: duplicate variable name 'x'");
  EXPECT_EQ(headline("(mod) -> ()"),
            "<stdin>:1:2: error: 'mod' is reserved and cannot name a variable");
  EXPECT_EQ(headline("(d0) -> (d0 $ 1)"), "<stdin>:1:13: error: unexpected character '$'");
  EXPECT_EQ(headline("(d0) -> (d0 \x01)"), "<stdin>:1:13: error: unexpected character byte 0x01");
  EXPECT_EQ(headline("(d0) -> (d0), domain: d0 in [0, 1], d0 [0, 1]"),
            "<stdin>:1:40: error: expected 'in', found '['");
}

TEST(TextDiagnostics, MissingBlankLineBetweenMapsIsHinted) {
  std::string message =
      headline("(d0) -> (d0), domain: d0 in [0, 1]\n(d0) -> (d0), domain: d0 in [0, 1]");
  EXPECT_NE(message.find("blank line"), std::string::npos) << message;
  message = headline("() -> ()\n  () -> ()");
  EXPECT_EQ(message,
            "<stdin>:2:3: error: expected ',' or 'domain:' (maps are separated by a blank line), "
            "found '('");
}

TEST(TextDiagnostics, KnownEmptyEndsTheMap) {
  EXPECT_EQ(headline("KNOWN EMPTY (d0)"),
            "<stdin>:1:13: error: expected the end of the map after KNOWN EMPTY, found '('");
}

TEST(TextDiagnostics, OneMapExpected) {
  try {
    parseIndexingMap("() -> ()\n\n(d0) -> (d0), domain: d0 in [0, 1]");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 3);
    EXPECT_EQ(e.message(), "expected exactly one map, found another one here");
  }
  EXPECT_THROW(parseIndexingMap("\n \n"), ParseError);
}

// XLA's maps can hold s0 * s2: refused at the `*`, saying why and what to write instead.
TEST(TextDiagnostics, NonAffineProductSaysWhyAndTheWorkaround) {
  try {
    parseIndexingMap(
        "(d0)[s0, s1] -> (d0 + s0 * s1), domain: d0 in [0, 9], s0 in [0, 3], "
        "s1 in [0, 4]");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().column, 26);
    EXPECT_EQ(
        e.message().rfind("non-affine product (s0) * (s1): idxmap's maps are quasi-affine", 0), 0u)
        << e.message();
    EXPECT_NE(e.message().find("write one map per value"), std::string::npos);
  }
  // A constant factor on either side is affine.
  EXPECT_NO_THROW(
      parseIndexingMap("(d0)[s0] -> (s0 * 3 + 2 * d0), domain: d0 in [0, 9], s0 in [0, 3]"));
}

TEST(TextLimits, DeepNestingIsADiagnosticNotACrash) {
  std::string nested = "(d0) -> (" + std::string(300, '(') + "d0" + std::string(300, ')') +
                       "), domain: d0 in [0, 1]";
  EXPECT_NE(diagnose(nested).find("nested too deeply"), std::string::npos);
  std::string fine = "(d0) -> (" + std::string(200, '(') + "d0" + std::string(200, ')') +
                     "), domain: d0 in [0, 1]";
  EXPECT_EQ(diagnose(fine), "");
  std::string calls;
  for (int i = 0; i < 100000; ++i) calls += "min(d0, ";
  EXPECT_NE(diagnose("(d0) -> (" + calls).find("nested too deeply"), std::string::npos);
}

TEST(TextLimits, LongChainsAreBoundedByTreeDepth) {
  // Products and divisions nest: 1,200 of them are a tree 2,400 deep, refused.
  std::string chain = "d0";
  for (int i = 0; i < 1200; ++i) chain += " mod 7 * 2";
  try {
    parseExpr(chain);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("too deep"), std::string::npos) << e.message();
  }
  std::string moderate = "d0";
  for (int i = 0; i < 500; ++i) moderate += " + d" + std::to_string(i % 7);
  EXPECT_NO_THROW(parseExpr(moderate));
  // Unary minus is counted, not recursed on.
  EXPECT_EQ(parseExpr(std::string(100001, '-') + "d0"), -Expr::dim(0));
}

// XLA prints flat sums of thousands of terms: they are built as balanced trees (depth the
// logarithm of the length), and mean what they say at every point (evaluated term by term).
TEST(TextLimits, LongFlatSumsParse) {
  std::string sum = "d0";
  for (int i = 1; i < 100000; ++i) sum += i % 3 == 0 ? " - d1" : " + d0";
  Expr parsed = parseExpr(sum);  // 66,667 d0 and 33,333 - d1
  for (int64_t d0 : {0, 1, 7})
    for (int64_t d1 : {0, 5}) {
      std::vector<int64_t> dims = {d0, d1};
      EXPECT_EQ(parsed.evaluate(dims, {}, {}), 66667 * d0 - 33333 * d1);
    }
  // Terms of every kind, and their signs, in a sum of 2,000: against the sum evaluated one
  // term at a time.
  std::string terms;
  std::vector<std::string> parts;
  for (int i = 0; i < 2000; ++i)
    parts.push_back((i % 4 == 0   ? "(d0 + " + std::to_string(i) + ") floordiv 3"
                     : i % 4 == 1 ? "d1 * " + std::to_string(i)
                     : i % 4 == 2 ? "d0 mod 5"
                                  : std::to_string(i)));
  for (size_t i = 0; i < parts.size(); ++i)
    terms += (i == 0 ? "" : i % 5 == 0 ? " - " : " + ") + parts[i];
  Expr long2 = parseExpr(terms);
  for (int64_t d0 : {0, 3, 11})
    for (int64_t d1 : {-2, 4}) {
      std::vector<int64_t> dims = {d0, d1};
      int64_t expected = 0;
      for (size_t i = 0; i < parts.size(); ++i) {
        int64_t value = parseExpr(parts[i]).evaluate(dims, {}, {});
        expected += i != 0 && i % 5 == 0 ? -value : value;
      }
      EXPECT_EQ(long2.evaluate(dims, {}, {}), expected);
    }
}

TEST(TextLimits, ManyVariablesAndMapsParse) {
  std::string header = "(", domain;
  for (int i = 0; i < 20000; ++i) {
    header += (i ? ", x" : "x") + std::to_string(i);
    domain += ", x" + std::to_string(i) + " in [0, " + std::to_string(i) + "]";
  }
  std::vector<ParsedMap> one = parseMaps(header + ") -> (x19999), domain:" + domain.substr(1));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].map.dims.size(), 20000u);
  std::string many;
  for (int i = 0; i < 5000; ++i)
    many += "(d0) -> (d0 + " + std::to_string(i) + "), domain: d0 in [0, 1]\n\n";
  EXPECT_EQ(parseMaps(many).size(), 5000u);
}

TEST(SourceTextLine, ByNumberWithoutLineBreaks) {
  SourceText source("first\r\nsecond\n\nlast", "f.txt");
  EXPECT_EQ(source.line(1), "first");
  EXPECT_EQ(source.line(2), "second");
  EXPECT_EQ(source.line(3), "");
  EXPECT_EQ(source.line(4), "last");
  EXPECT_EQ(source.line(0), "");
  EXPECT_EQ(source.line(5), "");
}

}  // namespace
}  // namespace idxmap
