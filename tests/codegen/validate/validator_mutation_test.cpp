// The validator's mutation score (issue 32, item 3): on the kernels of random gathers and
// scatters (random_kernel_cases.h; nothing proven about their indices, so gathers clamp and
// scatters skip), every single change of what the kernel prints (validator_mutants.h) to its
// offsets, runtime-variable lines, skip test and loop bounds, and on random HLO fusions every
// change of the index expressions their stages print, is put to the validator, and brute
// force decides (with no isl) whether the change alters what the kernel does. The validator
// must refuse at least 99% of the changes that alter behaviour (the score, printed) and accept
// the printed code itself. CI runs a sample of the ops; IDXMAP_TEST_FULL=1 (scripts/
// test-full.sh) all of them. Not measured here: store strategies (an atomic made plain) and
// thread shares, which the validator checks by other means (validation_loops, thread_share_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "codegen/hlo/hlo_kernel.h"
#include "codegen/kernel/index_code.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "codegen/validate/validation.h"
#include "tests/codegen/hlo/random_hlo.h"
#include "tests/codegen/random_kernel_cases.h"
#include "tests/codegen/validate/validator_mutants.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using namespace testing;

struct Score {
  int64_t changed = 0, killed = 0, equivalent = 0, equivalentRefused = 0;
  std::vector<std::string> survivors;

  void count(bool changes, bool proven, const std::string& what) {
    if (changes) {
      ++changed;
      if (proven)
        survivors.push_back(what);
      else
        ++killed;
    } else {
      ++equivalent;
      equivalentRefused += !proven;
    }
  }
};

// A map's box: its dims' ranges, then its runtime variables'.
std::vector<Interval> boxOf(const IndexingMap& map) {
  std::vector<Interval> ranges;
  for (const Variable& v : map.dims) ranges.push_back(v.range);
  for (const Variable& v : map.runtimeVars) ranges.push_back(v.range);
  return ranges;
}

// How many points the box has; `limit` + 1 once it has more.
int64_t boxPoints(const std::vector<Interval>& ranges, int64_t limit) {
  int64_t points = 1;
  for (const Interval& r : ranges) {
    points *= r.isEmpty() ? 0 : r.hi - r.lo + 1;
    if (points > limit) return limit + 1;
  }
  return points;
}

// Calls `visit` at every point of the box, row-major; nothing when a range is empty.
void forEachInBox(const std::vector<Interval>& ranges,
                  const std::function<void(const std::vector<int64_t>&)>& visit) {
  for (const Interval& r : ranges)
    if (r.isEmpty()) return;
  std::vector<int64_t> at;
  for (const Interval& r : ranges) at.push_back(r.lo);
  for (;;) {
    visit(at);
    size_t i = ranges.size();
    while (i > 0 && at[i - 1] == ranges[i - 1].hi) at[i - 1] = ranges[i - 1].lo, --i;
    if (i == 0) return;
    ++at[i - 1];
  }
}

// The kernel's variables at one point: d<i>, then rt<k> (also named v<k>, the loaded values).
struct Point {
  std::vector<std::string> names;
  std::vector<int64_t> values;
};

class KernelMutants {
 public:
  KernelMutants(const Kernel& kernel, Score& score)
      : kernel_(kernel),
        map_(kernel.map),
        width_(kernel.int32 ? CWidth::k32 : CWidth::k64),
        score_(score) {
    IndexLowering lowering(map_, width_);
    declared_ = lowering.declared();
    for (size_t k = 0; k < map_.runtimeVars.size(); ++k)
      declared_.push_back({"v" + std::to_string(k), CWidth::k64});
  }

  // The kernel's points (dims in range, runtime variables in range), at most `limit`.
  bool enumerable(int64_t limit) const { return boxPoints(boxOf(map_), limit) <= limit; }

  void offsets() {
    IndexLowering lowering(map_, width_);
    auto check = [&](const std::string& role, const Access& access, Where where) {
      const std::string text = printCExpr(lowering.lower(access.offset));
      const int64_t elements = kernel_.buffers.at(access.buffer).elements();
      KernelValidator validator(map_, declared_);
      ASSERT_TRUE(validator.checkExpression(role, text, access.offset, where, elements).isProven())
          << role << ": " << text;
      mutants::forEachMutant(parseCExpr(text, declared_), declared_, [&](const CExpr& m) {
        bool changes = false;
        forEachPoint(where == Where::kGuarded, [&](const Point& p) {
          std::optional<__int128> value = mutants::evaluate(m, p.names, p.values);
          const size_t dims = map_.dims.size();
          std::vector<int64_t> d(p.values.begin(), p.values.begin() + static_cast<long>(dims)),
              rt(p.values.begin() + static_cast<long>(dims),
                 p.values.begin() + static_cast<long>(dims + map_.runtimeVars.size()));
          changes |= !value || *value != access.offset.evaluate(d, {}, rt) || *value < 0 ||
                     *value >= elements;
        });
        const std::string mutant = printCExpr(m);
        score_.count(
            changes,
            validator.checkExpression(role, mutant, access.offset, where, elements).isProven(),
            role + ": " + text + " -> " + mutant);
      });
    };
    for (size_t k = 0; k < kernel_.loads.size(); ++k)
      check("load of rt" + std::to_string(k), kernel_.loads[k], Where::kBox);
    for (const Transfer& t : kernel_.transfers) {
      check("store", t.to, Where::kGuarded);
      check("load", t.from, Where::kGuarded);
    }
  }

  void runtimeValues() {
    for (size_t k = 0; k < map_.runtimeVars.size(); ++k) {
      const Interval range = map_.runtimeVars[k].range;
      const std::string v = "v" + std::to_string(k);
      const std::string text =
          "static_cast<" + std::string(typeName(width_)) + ">(" +
          (kernel_.clamp ? "idxmap_clamp<int64_t>(" + v + ", " + printCExpr(literal(range.lo)) +
                               ", " + printCExpr(literal(range.hi)) + ")"
                         : v) +
          ")";
      KernelValidator validator(map_, declared_);
      ASSERT_TRUE(validator.checkRuntimeValue(k, text, kernel_.clamp, "").isProven()) << text;
      const int64_t lo = kernel_.clamp ? range.lo - 3 : range.lo,
                    hi = kernel_.clamp ? range.hi + 3 : range.hi;
      mutants::forEachMutant(
          parseCExpr(text, {{v, CWidth::k64}}), {{v, CWidth::k64}}, [&](const CExpr& m) {
            bool changes = false;
            for (int64_t loaded = lo; loaded <= hi; ++loaded) {
              std::optional<__int128> value = mutants::evaluate(m, {v}, {loaded});
              changes |= !value || *value != std::clamp(loaded, range.lo, range.hi);
            }
            score_.count(
                changes,
                validator.checkRuntimeValue(k, printCExpr(m), kernel_.clamp, "").isProven(),
                "rt" + std::to_string(k) + ": " + printCExpr(m));
          });
    }
  }

  // The skip test as cpp_kernel prints it: the loaded values' range checks, then the
  // constraints that involve them (over the raw values).
  void guard() {
    if (!kernel_.guard && !kernel_.check) return;
    IndexLowering lowering(map_, width_, "v", CWidth::k64);
    std::string text;
    for (size_t k = 0; k < map_.runtimeVars.size(); ++k) {
      const std::string v = "v" + std::to_string(k);
      text += std::string(k ? " && " : "") + v +
              " >= " + printCExpr(literal(map_.runtimeVars[k].range.lo)) + " && " + v +
              " <= " + printCExpr(literal(map_.runtimeVars[k].range.hi));
    }
    for (const Constraint& c : map_.constraints) {
      if (usesOnlyDims(c.expr)) continue;
      const std::string e = printCExpr(lowering.lower(c.expr));
      text += " && " + e + " >= " + printCExpr(literal(c.range.lo)) + " && " + e +
              " <= " + printCExpr(literal(c.range.hi));
    }
    if (text.empty()) return;  // nothing to test (with no index values, nothing is skipped)
    KernelValidator validator(map_, declared_);
    const ProofResult baseline = validator.checkGuard(text);
    ASSERT_TRUE(baseline.isProven()) << text << "\n" << baseline.reason << "\n" << oneLine(map_);
    mutants::forEachMutant(parseCExpr(text, declared_), declared_, [&](const CExpr& m) {
      bool changes = false;
      forEachPoint(false, [&](const Point& p) {
        for (int64_t shift : {-2, 2}) {  // loaded values just outside the ranges too
          Point q = p;
          const size_t dims = map_.dims.size();
          for (size_t k = 0; k < map_.runtimeVars.size(); ++k) q.values[dims + k] += shift;
          for (const Point* at : std::initializer_list<const Point*>{&p, &q}) {
            std::optional<__int128> holds = mutants::evaluate(m, at->names, at->values);
            changes |= !holds || (*holds != 0) != inDomain(*at);
          }
        }
      });
      score_.count(changes, validator.checkGuard(printCExpr(m)).isProven(),
                   "guard: " + printCExpr(m));
    });
  }

  void loops() {
    const LoopNest nest = buildLoopNest(map_, width_);
    KernelValidator validator(map_, declared_);
    ASSERT_TRUE(validator.checkLoopNest(nest).isProven());
    std::vector<std::vector<int64_t>> expected;
    int64_t longest = 0;
    for (const Variable& v : map_.dims) longest = std::max(longest, v.range.hi - v.range.lo + 1);
    std::vector<Interval> dimRanges;
    for (const Variable& v : map_.dims) dimRanges.push_back(v.range);
    forEachInBox(dimRanges, [&](const std::vector<int64_t>& d) {  // row-major: sorted
      for (const Constraint& c : nest.dimConstraints) {
        int64_t value = c.expr.evaluate(d, {}, {});
        if (value < c.range.lo || value > c.range.hi) return;
      }
      expected.push_back(d);
    });
    std::vector<DeclaredVariable> dims;
    for (size_t i = 0; i < map_.dims.size(); ++i) dims.push_back({"d" + std::to_string(i), width_});
    mutants::forEachLoopMutant(nest, dims, [&](const LoopNest& m) {
      std::optional<std::vector<std::vector<int64_t>>> points =
          mutants::runLoopNest(m, longest + 4);
      if (points) std::sort(points->begin(), points->end());
      score_.count(!points || *points != expected, validator.checkLoopNest(m).isProven(),
                   "loop nest");
    });
  }

 private:
  // Calls `visit` at every point of the dims' and runtime variables' box (`guarded`: only where
  // the map's constraints hold).
  void forEachPoint(bool guarded, const std::function<void(const Point&)>& visit) const {
    Point p;
    for (size_t i = 0; i < map_.dims.size(); ++i) p.names.push_back("d" + std::to_string(i));
    for (size_t k = 0; k < map_.runtimeVars.size(); ++k)
      p.names.push_back("rt" + std::to_string(k));
    for (size_t k = 0; k < map_.runtimeVars.size(); ++k) p.names.push_back("v" + std::to_string(k));
    forEachInBox(boxOf(map_), [&](const std::vector<int64_t>& at) {
      p.values = at;
      for (size_t k = 0; k < map_.runtimeVars.size(); ++k)
        p.values.push_back(at[map_.dims.size() + k]);
      if (!guarded || inDomain(p)) visit(p);
    });
  }

  // Whether the loaded values (v<k>) are in range and every constraint holds with them.
  bool inDomain(const Point& p) const {
    const size_t dims = map_.dims.size(), n = map_.runtimeVars.size();
    std::vector<int64_t> d(p.values.begin(), p.values.begin() + static_cast<long>(dims)),
        v(p.values.begin() + static_cast<long>(dims + n), p.values.end());
    for (size_t k = 0; k < n; ++k)
      if (!map_.runtimeVars[k].range.contains(v[k])) return false;
    for (const Constraint& c : map_.constraints) {
      int64_t value = c.expr.evaluate(d, {}, v);
      if (value < c.range.lo || value > c.range.hi) return false;
    }
    return true;
  }

  const Kernel& kernel_;
  const IndexingMap& map_;
  CWidth width_;
  std::vector<DeclaredVariable> declared_;
  Score& score_;
};

// Every single change of a recorded expression (an HLO stage's offset, index or condition
// operand), against brute force over the points where it runs: the box of the validator's map
// (its constraints on dims alone), and where `where` is kGuarded its other constraints too.
void scoreRecorded(const CheckedExpression& checked, Score& score) {
  const IndexingMap& map = checked.map;
  const std::vector<Interval> ranges = boxOf(map);
  if (boxPoints(ranges, 20000) > 20000) return;
  std::vector<std::string> names;
  for (size_t i = 0; i < map.dims.size(); ++i) names.push_back("d" + std::to_string(i));
  for (size_t k = 0; k < map.runtimeVars.size(); ++k) names.push_back("rt" + std::to_string(k));
  std::vector<std::vector<int64_t>> at;  // the points where the expression runs
  forEachInBox(ranges, [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> d(p.begin(), p.begin() + static_cast<long>(map.dims.size())),
        rt(p.begin() + static_cast<long>(map.dims.size()), p.end());
    for (const Constraint& c : map.constraints) {
      if (checked.where == Where::kBox && !usesOnlyDims(c.expr)) continue;
      int64_t value = c.expr.evaluate(d, {}, rt);
      if (value < c.range.lo || value > c.range.hi) return;
    }
    at.push_back(p);
  });
  KernelValidator validator(map, checked.declared);
  mutants::forEachMutant(
      parseCExpr(checked.text, checked.declared), checked.declared, [&](const CExpr& m) {
        bool changes = false;
        for (const std::vector<int64_t>& values : at) {
          std::optional<__int128> value = mutants::evaluate(m, names, values);
          std::vector<int64_t> d(values.begin(),
                                 values.begin() + static_cast<long>(map.dims.size())),
              rt(values.begin() + static_cast<long>(map.dims.size()), values.end());
          changes |= !value ||
                     (!checked.meaning.isNull() && *value != checked.meaning.evaluate(d, {}, rt)) ||
                     (checked.bufferElements && (*value < 0 || *value >= *checked.bufferElements));
          if (changes) break;
        }
        const std::string mutant = printCExpr(m);
        score.count(changes,
                    validator
                        .checkExpression(checked.role, mutant, checked.meaning, checked.where,
                                         checked.bufferElements)
                        .isProven(),
                    checked.role + ": " + checked.text + " -> " + mutant);
      });
}

// The same on HLO kernels: random loop fusions (random_hlo.h: broadcasts, transposes, reshapes,
// slices, pads, concatenations, reductions, gathers, dynamic slices), every index expression
// their stages print, recorded as the validator proves it.
TEST(ValidatorMutation, RefusesTheChangesThatAlterAnHloKernel) {
  constexpr size_t kFull = 60;
  const sampling::Sample sample = sampling::sampleOf("ValidatorMutation.Hlo", kFull, 16);
  RandomHlo generator(sample.seed);
  Score score;
  std::vector<CheckedExpression> recorded;
  int kernels = 0;
  for (size_t id = 0; id < sample.count; ++id) {
    hlo::Module module = hlo::parseHloModule(generator.module(static_cast<int>(id)), "random.hlo");
    recorded.clear();
    KernelValidator::journal = &recorded;
    try {
      hloKernel(*module.entry->root, "mutated_" + std::to_string(id), false);
    } catch (const UnsupportedHlo&) {
      KernelValidator::journal = nullptr;
      continue;
    }
    KernelValidator::journal = nullptr;
    ++kernels;
    for (const CheckedExpression& checked : recorded) scoreRecorded(checked, score);
  }
  ASSERT_GT(kernels, 0);
  ASSERT_GT(score.changed, 0);
  const double rate =
      100.0 * static_cast<double>(score.killed) / static_cast<double>(score.changed);
  std::cout << "[ score ] validator mutation score on HLO kernels: " << score.killed << " of "
            << score.changed << " behaviour-changing mutants refused (" << rate << "%) over "
            << kernels << " kernels; " << score.equivalent << " mutants change nothing\n";
  for (size_t i = 0; i < score.survivors.size() && i < 10; ++i)
    std::cout << "  survived: " << score.survivors[i] << "\n";
  EXPECT_GE(rate, 99.0);
}

TEST(ValidatorMutation, RefusesAtLeast99PercentOfTheChangesThatAlterAKernel) {
  constexpr size_t kFull = 120;
  const sampling::Sample sample = sampling::sampleOf("ValidatorMutation", kFull, 16);
  const int gathers = static_cast<int>(sample.count / 2);
  RandomCases random =
      randomKernelCases(gathers, static_cast<int>(sample.count) - gathers, sample.seed);
  Score score;
  int kernels = 0;
  for (const RandomCase& c : random.cases) {
    Kernel kernel;
    try {
      kernel = c.scatter ? scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"})
                         : gatherKernel(c.gather, {}, {"result", "operand", "start_indices"});
    } catch (const Error&) {
      continue;  // an update computation or element type kernels do not take
    }
    KernelMutants mutants(kernel, score);
    if (!mutants.enumerable(20000)) continue;
    ++kernels;
    mutants.offsets();
    mutants.runtimeValues();
    mutants.guard();
    mutants.loops();
  }
  ASSERT_GT(kernels, 0);
  ASSERT_GT(score.changed, 0);
  const double rate =
      100.0 * static_cast<double>(score.killed) / static_cast<double>(score.changed);
  std::cout << "[ score ] validator mutation score: " << score.killed << " of " << score.changed
            << " behaviour-changing mutants refused (" << rate << "%) over " << kernels
            << " kernels; " << score.equivalent << " mutants change nothing, "
            << score.equivalentRefused << " of them refused too\n";
  for (size_t i = 0; i < score.survivors.size() && i < 10; ++i)
    std::cout << "  survived: " << score.survivors[i] << "\n";
  EXPECT_GE(rate, 99.0);
}

}  // namespace
}  // namespace idxmap::codegen
