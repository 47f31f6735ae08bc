// `idxmap verify` on HLO follows index values through the instructions that compute them, as
// it does in StableHLO: random chains of the ops JAX's plumbing puts before a scatter (iota,
// constants, an argument; adding, multiplying and taking the remainder by constants, negate,
// reverse, the negative-index fix-up, clamp, maximum, slice and pad) are written in both
// syntaxes, and each property gets the same verdict from both. The StableHLO verdicts are held
// to brute force by tests/verify (ProgramProperties, SizedPrograms); this test holds the HLO
// reading to them. Plus the fix-up by hand: proven where every value is known, a condition on
// the argument where one is not, proven under an assumption about it.
#include <nlohmann/json.hpp>

#include <random>

#include "tests/cli/cli_runner.h"
#include "tests/support/sampling.h"

namespace idxmap::cli_test {
namespace {

constexpr int kLength = 6;  // every value of a chain is s32[6]

// One program in two syntaxes, built a step at a time.
struct TwoPrograms {
  std::string mlir, hlo;
  int next = 0;
  std::string value = "v0";  // the current value's name (MLIR adds the %)

  std::string fresh() { return "v" + std::to_string(++next); }
  // A scalar constant broadcast to the value's shape; its name.
  std::string spread(int64_t c) {
    const std::string scalar = fresh(), all = fresh(), text = std::to_string(c);
    mlir += "  %" + all + " = stablehlo.constant dense<" + text + "> : tensor<6xi32>\n";
    hlo += "  " + scalar + " = s32[] constant(" + text + ")\n  " + all + " = s32[6] broadcast(" +
           scalar + "), dimensions={}\n";
    return all;
  }
  // value = opcode(value, other), elementwise.
  void binary(const std::string& mlirName, const std::string& hloName, const std::string& other) {
    const std::string out = fresh();
    mlir += "  %" + out + " = stablehlo." + mlirName + " %" + value + ", %" + other +
            " : tensor<6xi32>\n";
    hlo += "  " + out + " = s32[6] " + hloName + "(" + value + ", " + other + ")\n";
    value = out;
  }
};

void addStep(TwoPrograms& p, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  switch (pick(0, 8)) {
    case 0:
      p.binary("add", "add", p.spread(pick(-6, 6)));
      break;
    case 1:
      p.binary("multiply", "multiply", p.spread(pick(-2, 3)));
      break;
    case 2:
      p.binary("remainder", "remainder", p.spread(pick(2, 7)));
      break;
    case 3:
      p.binary("maximum", "maximum", p.spread(pick(-3, 3)));
      break;
    case 4: {
      const std::string out = p.fresh();
      p.mlir += "  %" + out + " = stablehlo.negate %" + p.value + " : tensor<6xi32>\n";
      p.hlo += "  " + out + " = s32[6] negate(" + p.value + ")\n";
      p.value = out;
      break;
    }
    case 5: {
      const std::string out = p.fresh();
      p.mlir += "  %" + out + " = stablehlo.reverse %" + p.value + ", dims = [0] : tensor<6xi32>\n";
      p.hlo += "  " + out + " = s32[6] reverse(" + p.value + "), dimensions={0}\n";
      p.value = out;
      break;
    }
    case 6: {  // JAX's negative-index fix-up: x < 0 ? x + 10 : x
      const std::string zeros = p.spread(0), tens = p.spread(10);
      const std::string negative = p.fresh(), wrapped = p.fresh(), out = p.fresh();
      p.mlir += "  %" + negative + " = stablehlo.compare LT, %" + p.value + ", %" + zeros +
                ", SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>\n";
      p.mlir +=
          "  %" + wrapped + " = stablehlo.add %" + p.value + ", %" + tens + " : tensor<6xi32>\n";
      p.mlir += "  %" + out + " = stablehlo.select %" + negative + ", %" + wrapped + ", %" +
                p.value + " : tensor<6xi1>, tensor<6xi32>\n";
      p.hlo +=
          "  " + negative + " = pred[6] compare(" + p.value + ", " + zeros + "), direction=LT\n";
      p.hlo += "  " + wrapped + " = s32[6] add(" + p.value + ", " + tens + ")\n";
      p.hlo +=
          "  " + out + " = s32[6] select(" + negative + ", " + wrapped + ", " + p.value + ")\n";
      p.value = out;
      break;
    }
    case 7: {  // clip mode: clamp(0, x, 9) with scalar bounds
      const std::string lo = p.fresh(), hi = p.fresh(), out = p.fresh();
      p.mlir += "  %" + lo + " = stablehlo.constant dense<0> : tensor<i32>\n";
      p.mlir += "  %" + hi + " = stablehlo.constant dense<9> : tensor<i32>\n";
      p.mlir += "  %" + out + " = stablehlo.clamp %" + lo + ", %" + p.value + ", %" + hi +
                " : (tensor<i32>, tensor<6xi32>, tensor<i32>) -> tensor<6xi32>\n";
      p.hlo += "  " + lo + " = s32[] constant(0)\n  " + hi + " = s32[] constant(9)\n";
      p.hlo += "  " + out + " = s32[6] clamp(" + lo + ", " + p.value + ", " + hi + ")\n";
      p.value = out;
      break;
    }
    default: {  // drop the first element, put a constant in front: slice then pad
      const int64_t front = pick(-2, 9);
      const std::string cut = p.fresh(), padding = p.fresh(), out = p.fresh();
      p.mlir += "  %" + cut + " = stablehlo.slice %" + p.value +
                " [1:6] : (tensor<6xi32>) -> tensor<5xi32>\n";
      p.mlir += "  %" + padding + " = stablehlo.constant dense<" + std::to_string(front) +
                "> : tensor<i32>\n";
      p.mlir += "  %" + out + " = stablehlo.pad %" + cut + ", %" + padding +
                ", low = [1], high = [0], interior = [0] : (tensor<5xi32>, tensor<i32>) -> "
                "tensor<6xi32>\n";
      p.hlo += "  " + cut + " = s32[5] slice(" + p.value + "), slice={[1:6]}\n";
      p.hlo += "  " + padding + " = s32[] constant(" + std::to_string(front) + ")\n";
      p.hlo += "  " + out + " = s32[6] pad(" + cut + ", " + padding + "), padding=1_0\n";
      p.value = out;
      break;
    }
  }
}

// A chain from an iota, a constant or the argument %a, then a scatter-add of its values as
// rows of a 10x3 table.
TwoPrograms randomPrograms(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  TwoPrograms p;
  const int start = pick(0, 2);
  if (start == 0) {
    p.mlir += "  %v0 = stablehlo.iota dim = 0 : tensor<6xi32>\n";
    p.hlo += "  v0 = s32[6] iota(), iota_dimension=0\n";
  } else if (start == 1) {
    std::string values;
    for (int i = 0; i < kLength; ++i) values += (i ? ", " : "") + std::to_string(pick(-4, 12));
    p.mlir += "  %v0 = stablehlo.constant dense<[" + values + "]> : tensor<6xi32>\n";
    p.hlo += "  v0 = s32[6] constant({" + values + "})\n";
  } else {
    p.value = "a";
  }
  for (int steps = pick(1, 4); steps > 0; --steps) addStep(p, rng);
  const std::string& v = p.value;
  p.mlir =
      "func.func @main(%x: tensor<10x3xf32>, %u: tensor<6x3xf32>, %a: tensor<6xi32>) -> "
      "tensor<10x3xf32> {\n" +
      p.mlir + "  %col = stablehlo.reshape %" + v + " : (tensor<6xi32>) -> tensor<6x1xi32>\n" +
      "  %r = \"stablehlo.scatter\"(%x, %col, %u) ({\n"
      "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
      "    %s = stablehlo.add %p, %q : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = "
      "1>} : (tensor<10x3xf32>, tensor<6x1xi32>, tensor<6x3xf32>) -> tensor<10x3xf32>\n"
      "  return %r : tensor<10x3xf32>\n}\n";
  p.hlo =
      "HloModule m\nadd {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(p, q)\n}\nENTRY main {\n  x = f32[10,3] parameter(0)\n"
      "  u = f32[6,3] parameter(1)\n  a = s32[6] parameter(2)\n" +
      p.hlo + "  col = s32[6,1] reshape(" + v + ")\n" +
      "  ROOT r = f32[10,3] scatter(x, col, u), update_window_dims={1}, "
      "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
      "to_apply=add\n}\n";
  return p;
}

// The verdict and what its condition is on, per property, of the op `verify --json` found
// them for ("unique: proven", "in_bounds: unknown on arguments").
std::vector<std::string> verdictsOf(const CliResult& result) {
  std::vector<std::string> out;
  for (const nlohmann::json& record : nlohmann::json::parse(result.out)) {
    const nlohmann::json& properties = record.value("properties", nlohmann::json());
    if (!properties.is_object()) continue;
    for (const char* name : {"unique", "sorted", "in_bounds"}) {
      const nlohmann::json& property = properties.value(name, nlohmann::json());
      if (!property.is_object()) continue;
      std::string line = std::string(name) + ": " + property.value("verdict", "");
      const nlohmann::json& on = property.value("condition_on", nlohmann::json());
      if (on.is_string()) line += " on " + on.get<std::string>();
      out.push_back(line);
    }
  }
  return out;
}

TEST(VerifyHloValuesCli, HloAndStablehloAgreeOnRandomChains) {
  const sampling::Sample sample = sampling::sampleOf("VerifyHloValuesCli", 200, 24);
  std::mt19937 rng(sample.seed);
  size_t decided = 0;  // verdicts that are not unknown: the HLO reading reached the values
  for (size_t n = 0; n < sample.count; ++n) {
    const TwoPrograms p = randomPrograms(rng);
    // Half the time with what JAX's caller would promise about %a.
    const bool assumed = rng() % 2 == 0;
    std::vector<std::string> mlirArgs = {"verify", "--json"}, hloArgs = {"verify", "--json"};
    if (assumed) {
      for (auto* args : {&mlirArgs, &hloArgs})
        args->insert(args->end(), {"--assume", "%a: in [-3, 8], unique"});
    }
    mlirArgs.push_back("-");
    hloArgs.push_back("-");
    CliResult mlir = runIdxmap(mlirArgs, p.mlir);
    CliResult hlo = runIdxmap(hloArgs, p.hlo);
    ASSERT_NE(mlir.exitCode, 2) << mlir.err << p.mlir;
    ASSERT_NE(hlo.exitCode, 2) << hlo.err << p.hlo;
    const std::vector<std::string> expected = verdictsOf(mlir);
    ASSERT_EQ(expected.size(), 3u) << p.mlir;
    const std::vector<std::string> got = verdictsOf(hlo);
    EXPECT_EQ(got, expected) << p.mlir << p.hlo;
    for (const std::string& verdict : got) decided += verdict.find("unknown") == std::string::npos;
  }
  EXPECT_GT(decided, sample.count);  // most programs start from an iota or constants
}

// JAX's x.at[arange(5) * 2].add(v) with the fix-up, in HLO.
constexpr const char* kFixUp = R"(HloModule jax_scatter
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[10,3] parameter(0)
  v = f32[5,3] parameter(1)
  idx = s32[5] iota(), iota_dimension=0
  two = s32[] constant(2)
  twos = s32[5] broadcast(two), dimensions={}
  doubled = s32[5] multiply(idx, twos)
  zero = s32[] constant(0)
  zeros = s32[5] broadcast(zero), dimensions={}
  negative = pred[5] compare(doubled, zeros), direction=LT
  ten = s32[] constant(10)
  tens = s32[5] broadcast(ten), dimensions={}
  wrapped = s32[5] add(doubled, tens)
  fixed = s32[5] select(negative, wrapped, doubled)
  col = s32[5,1] reshape(fixed)
  ROOT r = f32[10,3] scatter(x, col, v), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}
)";

TEST(VerifyHloValuesCli, TheFixUpIsFollowedToTheArgument) {
  CliResult known = runIdxmap({"verify", "--json", "-"}, kFixUp);
  EXPECT_EQ(known.exitCode, 0) << known.err;
  EXPECT_EQ(verdictsOf(known),
            (std::vector<std::string>{"unique: proven", "sorted: proven", "in_bounds: proven"}));
  // The iota replaced by an argument: in bounds is a condition on it, proven under a range.
  std::string text = kFixUp;
  const std::string iota = "idx = s32[5] iota(), iota_dimension=0";
  text.replace(text.find(iota), iota.size(), "idx = s32[5] parameter(2)");
  CliResult unknown = runIdxmap({"verify", "-"}, text);
  EXPECT_EQ(unknown.exitCode, 0) << unknown.err;
  EXPECT_NE(unknown.err.find("in bounds holds if and only if every element of %idx is in"),
            std::string::npos)
      << unknown.err;
  CliResult assumed =
      runIdxmap({"verify", "--json", "--assume", "%idx: in [0, 4], unique", "-"}, text);
  EXPECT_EQ(assumed.exitCode, 0) << assumed.err;
  const std::vector<std::string> verdicts = verdictsOf(assumed);
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0], "unique: proven");
  EXPECT_EQ(verdicts[2], "in_bounds: proven");
}

// What verify proves of HLO, annotate writes: XLA then takes its unique, sorted scatter path.
TEST(VerifyHloValuesCli, AnnotateWritesTheProvenClaims) {
  CliResult annotated = runIdxmap({"annotate", "-"}, kFixUp);
  EXPECT_EQ(annotated.exitCode, 0) << annotated.err;
  std::string expected = kFixUp;
  const std::string scatter = "scatter(x, col, v), ";
  expected.insert(expected.find(scatter) + scatter.size(),
                  "unique_indices=true, indices_are_sorted=true, ");
  EXPECT_EQ(annotated.out, expected);
  CliResult again = runIdxmap({"annotate", "-"}, annotated.out);
  EXPECT_EQ(again.out, annotated.out);  // idempotent
}

}  // namespace
}  // namespace idxmap::cli_test
