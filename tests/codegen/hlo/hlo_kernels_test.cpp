// HLO kernels against an op-by-op evaluator written from XLA's operation semantics
// (tests/codegen/hlo/hlo_reference.h, no indexing maps): random loop fusions of every op the
// kernels compute, the bundled softmax fusion, and single ops of an entry computation, all
// compiled in one translation unit and run with threads on; results must agree bit for bit
// (any NaN matching any NaN). Unsupported ops are located problems, never kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/run/jit.h"
#include "codegen/run/tensor_buffers.h"
#include "tests/codegen/hlo/hlo_kernel_cases.h"
#include "tests/codegen/hlo/hlo_reference.h"
#include "tests/codegen/hlo/random_hlo.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace hlo_kernel_tests {  // named: the folder's tests share one unity file

using namespace testing;

// Both targets: C++, and CUDA run in its emulation (a stage a launch, a thread an element).
class HloKernelTargets : public ::testing::TestWithParam<bool> {};

TEST_P(HloKernelTargets, RandomFusionsAgreeWithTheReference) {
  const bool cuda = GetParam();
  // 150 fusions generated; in CI a sample of them is emitted, compiled and run.
  constexpr size_t kFull = 150;
  const sampling::Sample sample = sampling::sampleOf(
      std::string("HloKernelTargets.RandomFusions/") + (cuda ? "Cuda" : "Cpp"), kFull, 40);
  RandomHlo generator(sample.seed);
  std::vector<Case> cases;
  std::map<std::string, int> opcodes;
  for (size_t id = 0; id < kFull; ++id) {
    Case c;
    c.text = generator.module(static_cast<int>(id));
    c.module = std::make_unique<hlo::Module>(hlo::parseHloModule(c.text, "random.hlo"));
    c.instruction = c.module->entry->root;
    for (const auto& i : c.instruction->calledComputations[0]->instructions) ++opcodes[i->opcode];
    if (id >= sample.count) continue;
    try {
      c.kernel = hloKernel(*c.instruction, "random_" + std::to_string(id), cuda);
    } catch (const UnsupportedHlo& error) {
      ADD_FAILURE() << error.what() << "\n" << c.text;
      continue;
    }
    cases.push_back(std::move(c));
  }
  // The generator reaches every op family (counted over all it generated).
  for (const char* op :
       {"pad", "concatenate", "dynamic-slice", "dynamic-update-slice", "reduce", "transpose",
        "reshape", "slice", "reverse", "select", "convert", "gather", "reduce-window"})
    EXPECT_GT(opcodes[op], 3) << op;
  auto library = compileCases(cases, cuda);
  expectAgreement(cases, *library, 3, true, onTheGpu(cuda));
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "random fusions");
}

TEST(HloKernels, SoftmaxExampleAgreesWithTheReference) {
  std::ifstream in(std::string(IDXMAP_SOURCE_DIR) + "/examples/softmax.hlo");
  std::stringstream text;
  text << in.rdbuf();
  Case c;
  c.text = text.str();
  c.module = std::make_unique<hlo::Module>(hlo::parseHloModule(c.text, "softmax.hlo"));
  EmittedHloModule emitted = emitHloModule(*c.module);
  ASSERT_TRUE(emitted.problems.empty());
  ASSERT_EQ(emitted.kernels.size(), 1u);
  c.kernel = emitted.kernels[0];
  c.instruction = c.module->entry->root;
  // Two reduces, each computed once into a buffer of its own.
  EXPECT_NE(c.kernel.printed.text.find("std::vector<float> t1(130)"), std::string::npos);
  std::vector<Case> cases;
  cases.push_back(std::move(c));
  auto library = compileCases(cases);
  expectAgreement(cases, *library, 2, /*specials=*/false);
}

TEST(HloKernels, SingleOpsOfAnEntryAgreeWithTheReference) {
  const std::string text = R"(HloModule ops
ENTRY e {
  p0 = f16[4,6] parameter(0)
  p1 = s32[] parameter(1)
  p2 = s32[] parameter(2)
  c = f16[] constant(0.5)
  pd = f16[7,12] pad(p0, c), padding=1_2_0x0_1_1
  t = f16[12,7] transpose(pd), dimensions={1,0}
  ds = f16[3,2] dynamic-slice(t, p1, p2), dynamic_slice_sizes={3,2}
  i = s32[3,2] iota(), iota_dimension=1
  cv = f16[3,2] convert(i)
  a = f16[3,2] add(ds, cv)
  cc = f16[6,2] concatenate(a, ds), dimensions={0}
  r = f16[12] reshape(cc)
  k = s32[3] constant({1, -2, 3})
  rv = s32[3] reverse(k), dimensions={0}
  q = s32[3] divide(rv, k)
  z = s32[0] constant({})
  qz = s32[3] concatenate(q, z), dimensions={0}
  ROOT tup = (f16[12], s32[3]) tuple(r, qz)
})";
  auto module = std::make_unique<hlo::Module>(hlo::parseHloModule(text, "ops.hlo"));
  EmittedHloModule emitted = emitHloModule(*module);
  ASSERT_TRUE(emitted.problems.empty());
  std::vector<Case> cases;
  for (const HloKernel& kernel : emitted.kernels) {
    Case c;
    c.text = kernel.op;
    c.kernel = kernel;
    for (const auto& i : module->entry->instructions)
      if (kernel.symbol == kernelSymbol(i->opcode, i->location)) c.instruction = i.get();
    ASSERT_NE(c.instruction, nullptr);
    cases.push_back(std::move(c));
  }
  EXPECT_EQ(cases.size(), 11u);  // every instruction but parameters, constants, the tuple
  auto library = compileCases(cases);
  expectAgreement(cases, *library, 4);
}

// XLA's indexing-analysis modules (../shared/conformance/xla/op_maps.jsonl): every entry
// instruction is a kernel that agrees with the reference, physical layouts included, or a
// problem located in the module.
TEST_P(HloKernelTargets, XlaModulesAgreeWithTheReference) {
  const bool cuda = GetParam();
  std::ifstream in(std::string(IDXMAP_CONFORMANCE_DIR) + "/xla/op_maps.jsonl");
  if (!in) GTEST_SKIP() << "no conformance data";
  std::vector<std::string> records;
  for (std::string line; std::getline(in, line);) records.push_back(line);
  // Every module (the CI count is the whole corpus); a third of them in the sanitizer tree.
  const sampling::Sample sample =
      sampling::sampleOf(std::string("HloKernelTargets.XlaModules/") + (cuda ? "Cuda" : "Cpp"),
                         records.size(), records.size());
  const std::vector<size_t> positions = sampling::sampledPositions(records.size(), sample);
  const bool whole = positions.size() == records.size();
  std::vector<Case> cases;
  std::vector<std::unique_ptr<hlo::Module>> modules;
  int problems = 0, layouts = 0;
  for (size_t n : positions) {
    nlohmann::json record = nlohmann::json::parse(records[n]);
    modules.push_back(std::make_unique<hlo::Module>(
        hlo::parseHloModule(record.at("hlo").get<std::string>(), "xla.hlo")));
    for (const auto& instruction : modules.back()->entry->instructions) {
      const std::string& op = instruction->opcode;
      if (op == "parameter" || op == "constant" || op == "tuple" || op == "get-tuple-element")
        continue;
      Case c;
      c.text = record.at("id").get<std::string>();
      c.instruction = instruction.get();
      try {
        c.kernel = hloKernel(*instruction,
                             "xla_" + std::to_string(n) + "_" + std::to_string(cases.size()), cuda);
      } catch (const UnsupportedHlo& error) {
        EXPECT_GT(error.location().line, 1) << c.text;
        ++problems;
        continue;
      }
      for (const KernelBuffer& b : c.kernel.buffers) layouts += !b.layout.empty();
      cases.push_back(std::move(c));
    }
  }
  if (whole) {
    EXPECT_GE(cases.size(), 36u);
    EXPECT_GT(layouts, 3);   // XLA's physical layouts are honored, not refused
    EXPECT_GE(problems, 5);  // located problems remain (custom calls, collectives, ...)
  }
  // All are emitted and compiled; those of up to 2^18 elements a buffer are run (a few have
  // hundreds of millions, which the element-by-element reference would take minutes over).
  auto library = compileCases(cases, cuda);
  std::vector<Case> small;
  for (Case& c : cases) {
    bool fits = true;
    for (const KernelBuffer& b : c.kernel.buffers) fits &= b.elements() <= (1 << 18);
    if (fits) small.push_back(std::move(c));
  }
  if (cuda && !onTheGpu(cuda) && nvccInstalled()) expectNvccClean(cases, "XLA modules");
  if (whole) EXPECT_GE(small.size(), 25u);
  expectAgreement(small, *library, 1, true, onTheGpu(cuda));
}

INSTANTIATE_TEST_SUITE_P(Targets, HloKernelTargets, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

// Spec 004's HLO snippets (../shared/spec/004_*.txt): instruction lists become an entry
// (each op a kernel), computations `f { ... }` a loop fusion; every kernel agrees with the
// reference where its buffers are small enough to run; what kernels do not compute is a
// located problem.
TEST(HloKernels, Spec004ExamplesAgreeWithTheReference) {
  std::string specText;
  const std::filesystem::path specs = std::string(IDXMAP_SOURCE_DIR) + "/../shared/spec";
  std::error_code missing;
  for (const auto& entry : std::filesystem::directory_iterator(specs, missing))
    if (entry.path().filename().string().rfind("004_", 0) == 0) {
      std::ifstream in(entry.path());
      specText.assign(std::istreambuf_iterator<char>(in), {});
    }
  if (specText.empty()) GTEST_SKIP() << "no spec 004";
  const std::string reducers =
      "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] "
      "add(a, b)\n}\nmax {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] "
      "maximum(a, b)\n}\nmin {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = "
      "f32[] minimum(a, b)\n}\n";
  std::vector<std::unique_ptr<hlo::Module>> modules;
  std::vector<Case> cases;
  int snippets = 0, problems = 0, kernels = 0;
  for (size_t at = specText.find("```"); at != std::string::npos;) {
    size_t start = specText.find('\n', at) + 1, end = specText.find("```", start);
    if (end == std::string::npos) break;
    std::string block = specText.substr(start, end - start);
    at = specText.find("```", end + 3);
    if (block.find("parameter(") == std::string::npos) continue;
    ++snippets;
    std::string text;
    if (block.rfind("f {", 0) == 0) {  // a fused computation: called by a fusion
      hlo::Module probe = hlo::parseHloModule(reducers + "ENTRY " + block, "spec004.hlo");
      std::string params, args;
      for (const auto& i : probe.entry->instructions)
        if (i->opcode == "parameter") {
          params += "  a" + std::to_string(i->parameterNumber) + " = " + i->shape.toString() +
                    " parameter(" + std::to_string(i->parameterNumber) + ")\n";
          args += std::string(args.empty() ? "" : ", ") + "a" + std::to_string(i->parameterNumber);
        }
      text = reducers + block + "\nENTRY e {\n" + params +
             "  ROOT r = " + probe.entry->root->shape.toString() + " fusion(" + args +
             "), kind=kLoop, calls=f\n}\n";
    } else {
      text = reducers + "ENTRY e {\n" + block + "}\n";
    }
    modules.push_back(std::make_unique<hlo::Module>(hlo::parseHloModule(text, "spec004.hlo")));
    for (const auto& instruction : modules.back()->entry->instructions) {
      const std::string& op = instruction->opcode;
      if (op == "parameter" || op == "constant" || op == "tuple") continue;
      Case c;
      c.text = block;
      c.instruction = instruction.get();
      try {
        c.kernel = hloKernel(*instruction, "spec_" + std::to_string(kernels++));
      } catch (const LocatedError& error) {  // not computed, or rejected by its op model
        EXPECT_GT(error.location().line, 1) << block;
        ++problems;
        continue;
      }
      bool small = true;
      for (const KernelBuffer& b : c.kernel.buffers) small &= b.elements() <= (1 << 18);
      if (small) cases.push_back(std::move(c));
    }
  }
  EXPECT_GE(snippets, 15);
  EXPECT_GE(cases.size(), 10u);
  auto library = compileCases(cases);
  expectAgreement(cases, *library, 1);
  EXPECT_GT(problems, 0);  // the variadic reduce
}

// int32_t index arithmetic only where validation proves it, int64_t past 2^31 elements (shape
// only: emitted and validated, not run).
TEST(HloKernels, IndexWidthFollowsTheProof) {
  const std::string text = R"(HloModule w
ENTRY e {
  small = f32[100,300] parameter(0)
  a = f32[300,100] transpose(small), dimensions={1,0}
  huge = f32[65536,65536] parameter(1)
  b = f32[65536,65536] negate(huge)
  ROOT t = (f32[300,100], f32[65536,65536]) tuple(a, b)
})";
  hlo::Module module = hlo::parseHloModule(text, "width.hlo");
  EmittedHloModule emitted = emitHloModule(module);
  ASSERT_TRUE(emitted.problems.empty());
  ASSERT_EQ(emitted.kernels.size(), 2u);
  const std::string& narrow = emitted.kernels[0].printed.text;
  const std::string& wide = emitted.kernels[1].printed.text;
  EXPECT_NE(narrow.find("-> int32_t index arithmetic"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("for (int32_t d0"), std::string::npos);
  EXPECT_NE(wide.find("a buffer has 2^31 elements or more -> int64_t"), std::string::npos) << wide;
  EXPECT_NE(wide.find("for (int64_t d0"), std::string::npos);
}

TEST(HloKernels, UnsupportedOpsAreLocatedProblems) {
  const std::string text = R"(HloModule bad
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT
}
ENTRY e {
  p0 = f32[4,4] parameter(0)
  q = f32[4,4,4,2] parameter(1)
  k = f32[2,2,2,4] parameter(2)
  d = f32[2,3,3,4] convolution(q, k), window={size=2x2}, dim_labels=b01f_01io->b01f, batch_group_count=2
  ROOT s = f32[4,4] sort(p0), dimensions={1}, to_apply=lt
})";
  hlo::Module module = hlo::parseHloModule(text, "bad.hlo");
  EmittedHloModule emitted = emitHloModule(module);
  EXPECT_TRUE(emitted.kernels.empty());
  ASSERT_EQ(emitted.problems.size(), 2u);
  EXPECT_EQ(emitted.problems[0].location.line, 11);
  EXPECT_NE(emitted.problems[0].message.find("batch groups are not computed"), std::string::npos)
      << emitted.problems[0].message;
  EXPECT_EQ(emitted.problems[1].location.line, 12);
  // A fused parameter that does not match the fusion's operand.
  const std::string mismatch = R"(HloModule m
fused {
  p = f32[3] parameter(0)
  ROOT n = f32[3] negate(p)
}
ENTRY e {
  a = f32[4] parameter(0)
  ROOT f = f32[3] fusion(a), kind=kLoop, calls=fused
})";
  hlo::Module wrong = hlo::parseHloModule(mismatch, "mismatch.hlo");
  EmittedHloModule refused = emitHloModule(wrong);
  ASSERT_EQ(refused.problems.size(), 1u);
  EXPECT_EQ(refused.problems[0].location.line, 3);
  EXPECT_NE(refused.problems[0].message.find("does not match"), std::string::npos);
  // A collective: its values are other replicas', whatever its element type.
  const std::string collective = R"(HloModule m
add {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
ENTRY e {
  x = bf16[4] parameter(0)
  ROOT r = bf16[4] all-reduce(x), replica_groups={}, to_apply=add
})";
  hlo::Module replicas = hlo::parseHloModule(collective, "collective.hlo");
  EmittedHloModule combined = emitHloModule(replicas);
  ASSERT_EQ(combined.problems.size(), 1u);
  EXPECT_NE(combined.problems[0].message.find(
                "kernels do not compute collectives (`all-reduce` combines the values of other "
                "replicas)"),
            std::string::npos)
      << combined.problems[0].message;
}

}  // namespace hlo_kernel_tests
}  // namespace idxmap::codegen
