// Validation refuses what is wrong and accepts what is right: C '/' on a dividend that can be
// negative, int32 arithmetic past 2^31, an offset past its buffer, a guard that lets an
// out-of-bounds update through and a loop nest that misses points are each refuted with a
// replayed point; their correct versions are proven (loop nests: loop_nest_test.cpp).
#include <gtest/gtest.h>

#include <map>

#include <functional>
#include <optional>
#include <set>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/kernel/index_code.h"
#include "codegen/kernel/loop_nest.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "codegen/validate/validation.h"
#include "core/text.h"
#include "tests/codegen/validate/validator_mutants.h"

namespace idxmap::codegen {
namespace {

IndexingMap map(const char* text) { return parseIndexingMap(text); }

std::vector<DeclaredVariable> variables(const IndexingMap& m, CWidth width) {
  std::vector<DeclaredVariable> out;
  for (size_t i = 0; i < m.dims.size(); ++i) out.push_back({"d" + std::to_string(i), width});
  for (size_t k = 0; k < m.runtimeVars.size(); ++k) {
    out.push_back({"rt" + std::to_string(k), width});
    out.push_back({"v" + std::to_string(k), CWidth::k64});
  }
  return out;
}

TEST(Validation, TruncatingDivisionOnlyWhereTheDividendIsNonNegative) {
  IndexingMap m = map("(d0) -> (d0 floordiv 2), domain: d0 in [-4, 4]");
  KernelValidator validator(m, variables(m, CWidth::k32));
  ProofResult wrong = validator.checkExpression("test", "d0 / 2", m.results[0], Where::kBox);
  ASSERT_TRUE(wrong.isRefuted()) << wrong.reason;
  ASSERT_TRUE(wrong.counterexample);
  int64_t d0 = wrong.counterexample->dims.at(0);
  EXPECT_TRUE(d0 < 0 && d0 % 2 != 0) << wrong.counterexample->explanation;  // where they differ
  EXPECT_TRUE(
      validator
          .checkExpression("test", "idxmap_floordiv<int32_t>(d0, 2)", m.results[0], Where::kBox)
          .isProven());
  IndexingMap positive = map("(d0) -> (d0 floordiv 2, d0 mod 3), domain: d0 in [0, 9]");
  KernelValidator onPositive(positive, variables(positive, CWidth::k32));
  EXPECT_TRUE(
      onPositive.checkExpression("test", "d0 / 2", positive.results[0], Where::kBox).isProven());
  EXPECT_TRUE(
      onPositive.checkExpression("test", "d0 % 3", positive.results[1], Where::kBox).isProven());
  EXPECT_TRUE(
      onPositive.checkExpression("test", "d0 % 2", positive.results[1], Where::kBox).isRefuted());
}

TEST(Validation, Int32ArithmeticPast2To31IsRefuted) {
  IndexingMap m = map("(d0, d1) -> (d0 * 40000 + d1), domain: d0 in [0, 69999], d1 in [0, 39999]");
  KernelValidator narrow(m, variables(m, CWidth::k32));
  ProofResult result =
      narrow.checkExpression("offset", "d0 * 40000 + d1", m.results[0], Where::kBox);
  ASSERT_TRUE(result.isRefuted());
  EXPECT_NE(result.counterexample->explanation.find("outside int32_t"), std::string::npos)
      << result.counterexample->explanation;
  KernelValidator wide(m, variables(m, CWidth::k64));
  EXPECT_TRUE(
      wide.checkExpression("offset", "d0 * 40000 + d1", m.results[0], Where::kBox).isProven());
  // A cast widens before the multiplication: correct in an int32 kernel too.
  EXPECT_TRUE(narrow
                  .checkExpression("offset", "static_cast<int64_t>(d0) * 40000 + d1", m.results[0],
                                   Where::kBox)
                  .isProven());
}

TEST(Validation, OffsetsStayInsideTheirBuffer) {
  IndexingMap m = map("(d0, d1) -> (d0 * 3 + d1), domain: d0 in [0, 3], d1 in [0, 2]");
  KernelValidator validator(m, variables(m, CWidth::k32));
  EXPECT_TRUE(
      validator.checkExpression("store", "d0 * 3 + d1", m.results[0], Where::kBox, 12).isProven());
  ProofResult past =
      validator.checkExpression("store", "d0 * 3 + d1", m.results[0], Where::kBox, 11);
  ASSERT_TRUE(past.isRefuted());
  EXPECT_EQ(past.counterexample->dims, (std::vector<int64_t>{3, 2}));
}

// Points that run at once must write distinct elements; brute force over the box is the oracle.
TEST(Validation, PointsRunAtOnceWriteDistinctElements) {
  for (const char* text :
       {"(d0, d1) -> (d0 * 3 + d1), domain: d0 in [0, 3], d1 in [0, 2]",
        "(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 3], d1 in [0, 2]",
        "(d0, d1) -> ((d0 * 3 + d1) floordiv 2), domain: d0 in [0, 1], d1 in [0, 1]",
        "(d0, d1) -> (d1 * 5 - d0), domain: d0 in [0, 4], d1 in [0, 2]"}) {
    IndexingMap m = map(text);
    std::map<int64_t, int> writes;
    bool collide = false;
    for (int64_t d0 = m.dims[0].range.lo; d0 <= m.dims[0].range.hi; ++d0)
      for (int64_t d1 = m.dims[1].range.lo; d1 <= m.dims[1].range.hi; ++d1)
        collide |= ++writes[m.results[0].evaluate(std::vector<int64_t>{d0, d1}, {}, {})] > 1;
    KernelValidator validator(m, variables(m, CWidth::k32));
    ProofResult distinct = validator.checkDistinct("store", m.results[0]);
    EXPECT_EQ(distinct.isRefuted(), collide) << text;
    EXPECT_EQ(distinct.isProven(), !collide) << text;
    if (collide) {  // the pair is real: its first point is the counterexample
      ASSERT_TRUE(distinct.counterexample.has_value());
      EXPECT_EQ(distinct.counterexample->dims.size(), 2u);
    }
  }
  IndexingMap gather = map("(d0){rt0} -> (rt0), domain: d0 in [0, 3], rt0 in [0, 3]");
  KernelValidator validator(gather, variables(gather, CWidth::k32));
  EXPECT_FALSE(validator.checkDistinct("store", gather.results[0]).isProven());  // index values
}

TEST(Validation, TheSkipTestMustBeTheMapsDomain) {
  IndexingMap m =
      map("(d0, d1){rt0} -> (rt0 + d1), domain: d0 in [0, 3], d1 in [0, 1], "
          "rt0 in [-1, 9], rt0 + d1 in [0, 9]");
  KernelValidator validator(m, variables(m, CWidth::k32));
  EXPECT_TRUE(
      validator.checkGuard("v0 >= -1 && v0 <= 9 && v0 + d1 >= 0 && v0 + d1 <= 9").isProven());
  // Off by one at the top: an update at 10 would be stored.
  ProofResult loose = validator.checkGuard("v0 >= -1 && v0 <= 9 && v0 + d1 >= 0 && v0 + d1 <= 10");
  ASSERT_TRUE(loose.isRefuted());
  EXPECT_EQ(loose.counterexample->runtimeVars.at(0) + loose.counterexample->dims.at(1), 10);
  // Arithmetic on the raw value before its range check could overflow: refused.
  EXPECT_TRUE(
      validator.checkGuard("v0 + d1 >= 0 && v0 + d1 <= 9 && v0 >= -1 && v0 <= 9").isRefuted());
}

// The line that gives a runtime variable its value from the loaded one: a clamp where the op
// clamps (into exactly the range), the value itself where the range is checked or proven; a
// wrong bound, a missing clamp or a narrowing cast that loses the value is refuted at a value
// the C expression, evaluated, shows wrong.
TEST(Validation, ARuntimeVariableIsItsLoadedValueClampedAsTheOpSays) {
  IndexingMap m = map("(d0){rt0} -> (rt0), domain: d0 in [0, 3], rt0 in [0, 9]");
  KernelValidator validator(m, variables(m, CWidth::k32));
  EXPECT_TRUE(
      validator
          .checkRuntimeValue(0, "static_cast<int32_t>(idxmap_clamp<int64_t>(v0, 0, 9))", true, "")
          .isProven());
  EXPECT_TRUE(
      validator.checkRuntimeValue(0, "static_cast<int32_t>(v0)", false, "checked").isProven());
  ProofResult offByOne = validator.checkRuntimeValue(
      0, "static_cast<int32_t>(idxmap_clamp<int64_t>(v0, 0, 8))", true, "");
  ASSERT_TRUE(offByOne.isRefuted());
  EXPECT_GE(offByOne.counterexample->runtimeVars.at(0), 9);  // a loaded 9 or more reads 8
  ProofResult unclamped = validator.checkRuntimeValue(0, "static_cast<int64_t>(v0)", true, "");
  ASSERT_TRUE(unclamped.isRefuted());
  const int64_t loaded = unclamped.counterexample->runtimeVars.at(0);
  EXPECT_TRUE(loaded < 0 || loaded > 9) << loaded;
  // Every int64_t value is clamped first; cast to int32_t before the clamp, a large one wraps.
  EXPECT_FALSE(
      validator
          .checkRuntimeValue(0, "idxmap_clamp<int32_t>(static_cast<int32_t>(v0), 0, 9)", true, "")
          .isProven());
  EXPECT_TRUE(
      validator.checkRuntimeValue(0, "static_cast<int32_t>(v0 + 1)", false, "").isRefuted());
}

// A kernel is built on the simplified map only where that is proven to be the op's own: a
// simplifier fault (here a digit merged wrongly, an off-by-one in a constant) is caught there,
// with both maps named, and no kernel is written.
TEST(Validation, ASimplifierFaultCannotReachAKernel) {
  const IndexingMap own =
      map("(d0, d1) -> ((d0 * 4 + d1) floordiv 4, (d0 * 4 + d1) mod 4), domain: d0 in [0, 5], "
          "d1 in [0, 3]");
  ReliedFact fact = simplificationFact(own,
                                       map("(d0, d1) -> (d0, d1), domain: d0 in [0, 5], "
                                           "d1 in [0, 3]"),
                                       "result -> operand");
  EXPECT_TRUE(fact.proof.isProven());
  EXPECT_EQ(fact.statement, "the kernel's map result -> operand is the op's own (simplified)");
  for (const char* wrong : {"(d0, d1) -> (d0, d1 + 1), domain: d0 in [0, 5], d1 in [0, 3]",
                            "(d0, d1) -> (d1, d0), domain: d0 in [0, 5], d1 in [0, 3]"}) {
    try {
      simplificationFact(own, map(wrong), "result -> operand");
      ADD_FAILURE() << wrong << " was taken for the op's own map";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("the simplified map result -> operand (d0, d1) -> "),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("is not proven equal to the op's own"), std::string::npos) << message;
      EXPECT_NE(message.find("no kernel is written"), std::string::npos) << message;
    }
  }
}

// The same for an HLO stage's expressions, point by point: s0 and 2 - s0 take the same values
// over s0 in [0, 2], but not at the same point.
TEST(Validation, ASimplifiedExpressionMustTakeTheSameValueAtEveryPoint) {
  const IndexingMap context = map("(d0)[s0] -> (), domain: d0 in [0, 7], s0 in [0, 2]");
  const Expr raw = parseExpr("(d0 * 3 + s0) mod 3 + (d0 * 3 + s0) floordiv 3 * 3", &context);
  EXPECT_EQ(requireSameValue(raw, parseExpr("d0 * 3 + s0", &context), context),
            parseExpr("d0 * 3 + s0", &context));
  for (const char* wrong : {"d0 * 3 + 2 - s0", "d0 * 3 + s0 + 1"}) {
    try {
      requireSameValue(raw, parseExpr(wrong, &context), context);
      ADD_FAILURE() << wrong << " was taken for " << printExpr(raw, &context);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("not proven the same value"), std::string::npos)
          << e.what();
    }
  }
}

// Threads that walk every point and apply the ones they own: the printed test must be exactly
// "first <= owner < last" for every share, and every point where the statement runs must have
// an owner in the shared range.
TEST(Validation, EachPointHasExactlyOneOwningThread) {
  IndexingMap m =
      map("(d0, d1){rt0} -> (rt0 * 2 + d1), domain: d0 in [0, 3], d1 in [0, 1], rt0 in [0, 4]");
  KernelValidator validator(m, variables(m, CWidth::k32));
  const Expr target = m.results[0];
  EXPECT_TRUE(validator
                  .checkOwnership("by value", "rt0 >= first && rt0 < last", Expr::runtimeVar(0),
                                  {0, 4}, "first", "last")
                  .isProven());
  EXPECT_TRUE(validator
                  .checkOwnership("by target", "(rt0 * 2 + d1) >= first && (rt0 * 2 + d1) < last",
                                  target, {0, 9}, "first", "last")
                  .isProven());
  // A share that also takes its upper bound: two threads apply the point there.
  EXPECT_TRUE(validator
                  .checkOwnership("overlap", "rt0 >= first && rt0 <= last", Expr::runtimeVar(0),
                                  {0, 4}, "first", "last")
                  .isRefuted());
  // Shares of [0, 8] leave the targets 9 unowned.
  EXPECT_TRUE(validator
                  .checkOwnership("short", "(rt0 * 2 + d1) >= first && (rt0 * 2 + d1) < last",
                                  target, {0, 8}, "first", "last")
                  .isRefuted());
  // The owner tested is not the one claimed.
  EXPECT_TRUE(validator
                  .checkOwnership("other", "d1 >= first && d1 < last", Expr::runtimeVar(0), {0, 4},
                                  "first", "last")
                  .isRefuted());
}

// The emitter broken on purpose: a kernel told to use int32 for an offset past 2^31 (shape
// only, never run) is refused before any text is returned.
TEST(Validation, AKernelWithAnOverflowingOffsetIsNotPrinted) {
  Kernel kernel;
  kernel.symbol = "broken";
  kernel.op = "test.copy";
  kernel.location = "test:1:1";
  kernel.map = map("(d0, d1) -> (d0, d1), domain: d0 in [0, 69999], d1 in [0, 39999]");
  kernel.buffers = {{"in", "f32", {70000, 40000}, false}, {"out", "f32", {70000, 40000}, true}};
  Expr offset = Expr::dim(0) * 40000 + Expr::dim(1);
  kernel.transfers = {{{1, offset}, {0, offset}, ""}};
  kernel.strategy = Strategy::kIndependent;
  kernel.int32 = true;
  try {
    printCppKernel(kernel);
    FAIL() << "printed";
  } catch (const ValidationError& error) {
    EXPECT_TRUE(error.result().isRefuted());
    EXPECT_NE(std::string(error.what()).find("int32_t"), std::string::npos) << error.what();
  }
  kernel.int32 = false;
  PrintedKernel printed = printCppKernel(kernel);
  EXPECT_NE(printed.text.find("int64_t d0"), std::string::npos) << printed.text;
}

TEST(CExpr, PrintsAndReadsBack) {
  std::vector<DeclaredVariable> declared{{"d0", CWidth::k32}, {"d1", CWidth::k64}};
  const char* texts[] = {"d0 * 4 + d1 % 3",
                         "d0 - (d1 - 2)",
                         "-d0 * 3",
                         "d0 - -d1",
                         "(d0 + 1) / 2",
                         "idxmap_floordiv<int64_t>(d1 - 7, 4)",
                         "d0 + 3000000000LL",
                         "static_cast<int64_t>(d0) * 40000",
                         "d0 >= 0 && d0 + d1 <= 9",
                         "d1 - (-2147483647 - 1)"};
  for (const char* text : texts) {
    CExpr e = parseCExpr(text, declared);
    EXPECT_EQ(printCExpr(e), text);
  }
  EXPECT_EQ(widthOf(parseCExpr("d0 * 4", declared)), CWidth::k32);
  EXPECT_EQ(widthOf(parseCExpr("d0 * 4 + d1", declared)), CWidth::k64);
  EXPECT_EQ(widthOf(parseCExpr("d0 + 3000000000", declared)), CWidth::k64);
  EXPECT_THROW(parseCExpr("d2 + 1", declared), CExprParseError);
  EXPECT_THROW(parseCExpr("d0 +", declared), CExprParseError);
  EXPECT_THROW(parseCExpr("d0 << 2", declared), CExprParseError);
}

}  // namespace
}  // namespace idxmap::codegen
