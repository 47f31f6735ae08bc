// Runtime variables folded from the HLO that computes them (XLA's
// FusionWithRTVarsSimplification), against an independent oracle: the op-by-op HLO reference
// evaluator (tests/codegen/hlo/hlo_reference.h), run on an operand that holds its own positions,
// says which element each result element reads. Random dynamic-slice, dynamic-update-slice
// and gather ops, top-level or fused, with start indices built from constants (some out of
// range, so clamped), iotas, and arithmetic, and some from a parameter (kept as rt).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"
#include "tests/codegen/hlo/hlo_reference.h"
#include "tests/support/map_oracle.h"

namespace idxmap {
namespace known_offsets_test {
namespace {

using codegen::testing::HloReference;
using gather_scatter::Tensor;
using Pair = std::vector<int64_t>;  // (result index..., operand index...)

// A scalar s32 start index whose value is known to the writer: HLO lines defining `name`,
// built from constants with add / subtract / multiply / clamp / convert.
struct Start {
  std::string lines;
  std::string name;
  int64_t value = 0;
  bool known = true;  // false: a parameter, supplied at evaluation
};

Start constantStart(std::mt19937& rng, const std::string& name, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> pick(lo, hi);
  int64_t a = pick(rng), b = std::uniform_int_distribution<int64_t>(-3, 3)(rng);
  switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:
      return {"  " + name + " = s32[] constant(" + std::to_string(a) + ")\n", name, a};
    case 1:  // a - b + b
      return {"  " + name + "a = s32[] constant(" + std::to_string(a - b) + ")\n  " + name +
                  "b = s32[] constant(" + std::to_string(b) + ")\n  " + name + " = s32[] add(" +
                  name + "a, " + name + "b)\n",
              name, a};
    case 2:  // 2 * a, through s64
      return {"  " + name + "a = s64[] constant(" + std::to_string(a) + ")\n  " + name +
                  "t = s64[] constant(2)\n  " + name + "m = s64[] multiply(" + name + "a, " + name +
                  "t)\n  " + name + " = s32[] convert(" + name + "m)\n",
              name, 2 * a};
    case 3:  // clamp(0, a, 4)
      return {"  " + name + "l = s32[] constant(0)\n  " + name + "a = s32[] constant(" +
                  std::to_string(a) + ")\n  " + name + "h = s32[] constant(4)\n  " + name +
                  " = s32[] clamp(" + name + "l, " + name + "a, " + name + "h)\n",
              name, std::clamp<int64_t>(a, 0, 4)};
    default:  // 10 - a
      return {"  " + name + "t = s32[] constant(10)\n  " + name + "a = s32[] constant(" +
                  std::to_string(a) + ")\n  " + name + " = s32[] subtract(" + name + "t, " + name +
                  "a)\n",
              name, 10 - a};
  }
}

struct Case {
  std::string text;       // analyzed: the op at the top level or fused
  std::string fusedText;  // evaluated: the reference runs a fusion's computation
  std::vector<Tensor> operands;
  int operandWithPositions = 0;        // its values are its row-major positions
  std::vector<int64_t> unknownStarts;  // the values given to the parameter starts, in order,
                                       // clamped as the op clamps them
  bool allKnown = true;
  std::string unknownStartSource;  // "parameter(N)": what XLA names the start left unknown
};

Tensor positions(const std::vector<int64_t>& shape, int64_t base) {
  Tensor t{"i32", shape, {}, {}};
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  for (int64_t i = 0; i < n; ++i) t.ints.push_back(base + i);
  return t;
}

Tensor scalar(int64_t v) { return Tensor{"i32", {}, {v}, {}}; }

std::string dims(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The body computing the op; parameters: 0 the operand, then (DUS) 1 the update, then the
// unknown starts.
Case randomCase(std::mt19937& rng, const std::string& op) {
  auto in = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  std::vector<int64_t> shape = {in(3, 9), in(2, 5)};
  std::vector<int64_t> window = {in(1, shape[0]), in(1, shape[1])};
  Case c;
  std::string lines = "  p0 = s32" + dims(shape) + " parameter(0)\n";
  c.operands.push_back(positions(shape, 0));
  int next = 1;
  std::string result;
  if (op == "gather") {
    int64_t rows = in(1, 6), scale = in(-1, 3), shift = in(-2, shape[0] + 1);
    lines += "  io = s32[" + std::to_string(rows) + "] iota(), iota_dimension=0\n" +
             "  sc = s32[] constant(" + std::to_string(scale) + ")\n" + "  sb = s32[" +
             std::to_string(rows) + "] broadcast(sc), dimensions={}\n" + "  sh = s32[] constant(" +
             std::to_string(shift) + ")\n" + "  hb = s32[" + std::to_string(rows) +
             "] broadcast(sh), dimensions={}\n" + "  ml = s32[" + std::to_string(rows) +
             "] multiply(io, sb)\n" + "  ad = s32[" + std::to_string(rows) + "] add(ml, hb)\n" +
             "  ix = s32[" + std::to_string(rows) + ",1] reshape(ad)\n";
    result = "s32[" + std::to_string(rows) + "," + std::to_string(shape[1]) +
             "] gather(p0, ix), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
             "index_vector_dim=1, slice_sizes={1," +
             std::to_string(shape[1]) + "}";
  } else {
    std::string starts;
    if (op == "dynamic-update-slice") {
      lines += "  p1 = s32" + dims(window) + " parameter(1)\n";
      c.operands.push_back(positions(window, 100000));
      ++next;
    }
    for (int k = 0; k < 2; ++k) {
      std::string name = "st" + std::to_string(k);
      // Known at run time only (where it has a choice: a start with one possible value is
      // that value, and the simplifier says so). At most one: a map that does not depend on a
      // runtime variable drops it, so with one the oracle knows what rt0 is.
      if (in(0, 3) == 0 && shape[k] > window[k] && c.allKnown) {
        int64_t v = in(-2, shape[k] + 2);
        c.unknownStartSource = "parameter(" + std::to_string(next) + ")";
        lines += "  " + name + " = s32[] parameter(" + std::to_string(next++) + ")\n";
        c.operands.push_back(scalar(v));
        c.unknownStarts.push_back(std::clamp<int64_t>(v, 0, shape[k] - window[k]));
        c.allKnown = false;
      } else {
        lines += constantStart(rng, name, -3, shape[k] + 3).lines;
      }
      starts += ", " + name;
    }
    result = op == "dynamic-slice"
                 ? "s32" + dims(window) + " dynamic-slice(p0" + starts +
                       "), dynamic_slice_sizes={" + std::to_string(window[0]) + "," +
                       std::to_string(window[1]) + "}"
                 : "s32" + dims(shape) + " dynamic-update-slice(p0, p1" + starts + ")";
  }
  std::string params, args, types;
  for (int i = 0; i < next; ++i) {
    const Tensor& t = c.operands[static_cast<size_t>(i)];
    std::string type = "s32" + dims(t.shape);
    params += "  q" + std::to_string(i) + " = " + type + " parameter(" + std::to_string(i) + ")\n";
    args += (i ? ", q" : "q") + std::to_string(i);
    types += (i ? ", " : "") + type + " q" + std::to_string(i);
  }
  std::string resultType = result.substr(0, result.find(' '));
  c.fusedText = "HloModule m\nfused {\n" + lines + "  ROOT r = " + result + "\n}\nENTRY main {\n" +
                params + "  ROOT f = " + resultType + " fusion(" + args +
                "), kind=kLoop, calls=fused\n}\n";
  bool fused = in(0, 1) == 1;
  c.text = fused ? c.fusedText
                 : "HloModule m\nENTRY main {\n" + lines + "  ROOT r = " + result + "\n}\n";
  return c;
}

std::vector<int64_t> unflatten(int64_t position, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = position % shape[d];
    position /= shape[d];
  }
  return index;
}

// (result index, operand index) for every result element that reads operand `k`, by the
// reference: operand k holds its positions offset by `base`.
std::set<Pair> evaluated(const hlo::Instruction& root, const std::vector<Tensor>& operands,
                         const std::vector<int64_t>& operandShape, int64_t base) {
  Tensor result = HloReference::run(root, operands).at(0);
  std::set<Pair> pairs;
  int64_t n = static_cast<int64_t>(operandShape[0] * operandShape[1]);
  for (int64_t p = 0; p < result.elementCount(); ++p) {
    int64_t v = result.ints.at(static_cast<size_t>(p)) - base;
    if (v < 0 || v >= n) continue;
    Pair pair = unflatten(p, result.shape);
    for (int64_t i : unflatten(v, operandShape)) pair.push_back(i);
    pairs.insert(pair);
  }
  return pairs;
}

// The pairs the maps relate, with the runtime variable left (if any) at the given value.
std::set<Pair> mapped(const OperandIndexing& entry, const std::vector<int64_t>& runtime) {
  std::set<Pair> pairs;
  for (const IndexingMap& map : entry.maps) {
    if (map.knownEmpty) continue;
    size_t rt = map.runtimeVars.size();  // 0 where the map does not depend on the start
    EXPECT_LE(rt, runtime.size()) << printIndexingMap(map);
    for (const oracle::Tuple& t : oracle::bruteForceRelation(map))
      if (rt == 0 || t[0] == runtime.at(0))
        pairs.insert(Pair(t.begin() + static_cast<long>(rt), t.end()));
  }
  return pairs;
}

TEST(KnownOffsets, FoldedMapsReadWhatTheReferenceReads) {
  std::mt19937 rng(20261125);
  int folded = 0;
  for (int round = 0; round < 120; ++round) {
    std::string op = round % 3 == 0   ? "gather"
                     : round % 3 == 1 ? "dynamic-slice"
                                      : "dynamic-update-slice";
    Case c = randomCase(rng, op);
    hlo::Module module = hlo::parseHloModule(c.text, "case.hlo");
    const hlo::Instruction& root = *module.entry->root;
    InstructionIndexing indexing = computeOutputToInputIndexing(root, 0);
    const OperandIndexing& reads = indexing.entries.at(0);
    ASSERT_FALSE(reads.unknown) << c.text;
    std::vector<int64_t> runtime = c.unknownStarts;
    if (c.allKnown) {  // every start known: no runtime variable is left
      for (const IndexingMap& map : reads.maps)
        EXPECT_TRUE(map.runtimeVars.empty() || map.knownEmpty) << c.text;
      ++folded;
    }
    // The start left a runtime variable says which value it stands for: the parameter holding
    // it, read as a scalar at every result point.
    for (const IndexingMap& map : reads.maps)
      for (const Variable& var : map.knownEmpty ? std::vector<Variable>{} : map.runtimeVars) {
        ASSERT_TRUE(var.source && var.source->index) << c.text << printIndexingMap(map);
        EXPECT_EQ(var.source->tensor, c.unknownStartSource) << c.text;
        EXPECT_TRUE(var.source->index->results.empty()) << c.text;
        // Read at every point of the map's domain (which folding may have narrowed).
        ASSERT_EQ(var.source->index->dims.size(), map.dims.size()) << c.text;
        for (size_t d = 0; d < map.dims.size(); ++d)
          EXPECT_TRUE(var.source->index->dims[d].range.contains(map.dims[d].range)) << c.text;
      }
    const std::vector<int64_t>& shape = c.operands[0].shape;
    hlo::Module fusedModule = hlo::parseHloModule(c.fusedText, "fused.hlo");
    const hlo::Instruction& fusion = *fusedModule.entry->root;
    EXPECT_EQ(mapped(reads, runtime), evaluated(fusion, c.operands, shape, 0))
        << c.text << printIndexing(indexing, "operand");
    if (op == "dynamic-update-slice")
      EXPECT_EQ(mapped(indexing.entries.at(1), runtime),
                evaluated(fusion, c.operands, c.operands[1].shape, 100000))
          << c.text << printIndexing(indexing, "operand");
  }
  EXPECT_GE(folded, 40);
}

// The positional form (what kernels bind rt_k to) keeps every start a runtime variable.
TEST(KnownOffsets, PositionalMapsKeepEveryStart) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
ENTRY main {
  p0 = f32[100,32] parameter(0)
  c = s32[] constant(7)
  z = s32[] constant(0)
  ROOT d = f32[10,32] dynamic-slice(p0, c, z), dynamic_slice_sizes={10,32}
})",
                                           "positional.hlo");
  const hlo::Instruction& root = *module.entry->root;
  EXPECT_EQ(computeOutputToInputIndexing(root, 0, RuntimeVariables::kPositional)
                .entries[0]
                .maps[0]
                .runtimeVars.size(),
            2u);
  EXPECT_EQ(printIndexingMap(computeOutputToInputIndexing(root, 0).entries[0].maps[0]),
            "(d0, d1) -> (d0 + 7, d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 31]");
}

// A gather's start indices from a parameter, inside a fusion behind a transpose: rt_k stands
// for element k of the index vector that the result point reads, as XLA records it, and the
// record is re-rooted on the fusion's result dims. Oracle: gather's definition, written out.
TEST(RuntimeSources, GatherStartsNameTheIndexVectorElement) {
  hlo::Module module = hlo::parseHloModule(R"(HloModule m
fused {
  p0 = f32[8,6] parameter(0)
  p1 = s32[5,2] parameter(1)
  g = f32[5,2,3] gather(p0, p1), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,3}
  ROOT t = f32[3,5,2] transpose(g), dimensions={2,0,1}
}
ENTRY main {
  a = f32[8,6] parameter(0)
  b = s32[5,2] parameter(1)
  ROOT f = f32[3,5,2] fusion(a, b), kind=kLoop, calls=fused
})",
                                           "gather_sources.hlo");
  InstructionIndexing indexing = computeOutputToInputIndexing(*module.entry->root, 0);
  const OperandIndexing& reads = indexing.entries[0];
  ASSERT_EQ(reads.maps.size(), 1u);
  const IndexingMap& map = reads.maps[0];
  ASSERT_EQ(map.runtimeVars.size(), 2u) << printIndexingMap(map);
  for (int64_t k = 0; k < 2; ++k) {
    const RuntimeSource* source = map.runtimeVars[static_cast<size_t>(k)].source.get();
    ASSERT_TRUE(source && source->index) << printIndexingMap(map);
    EXPECT_EQ(source->tensor, "parameter(1)");
    // Result point (o1, b, o0) of the transposed gather reads start indices [b, k].
    std::set<oracle::Tuple> expected;
    for (int64_t o1 = 0; o1 < 3; ++o1)
      for (int64_t b = 0; b < 5; ++b)
        for (int64_t o0 = 0; o0 < 2; ++o0) expected.insert({o1, b, o0, b, k});
    EXPECT_EQ(oracle::bruteForceRelation(*source->index), expected)
        << printIndexingMap(*source->index);
  }
  std::string printed = printIndexing(indexing, "operand", PrintStyle::kXla);
  EXPECT_NE(printed.find("runtime variables:\n\nrt0: parameter(1); (d0, d1, d2) -> (d1, 0)"),
            std::string::npos)
      << printed;
  // idxmap's own style prints maps only, each readable back as one map.
  EXPECT_EQ(printIndexing(indexing, "operand").find("runtime variables"), std::string::npos);
}

}  // namespace
}  // namespace known_offsets_test
}  // namespace idxmap
