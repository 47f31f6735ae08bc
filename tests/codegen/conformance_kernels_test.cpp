// StableHLO's own gather / scatter / dynamic_gather cases as kernels, C++ and CUDA (run in the
// .cu file's host emulation): every values-complete testdata op (a third of them in the
// sanitizer tree) and every interpret case is emitted; the testdata kernels (in CI a sample of
// them) are compiled in one file and run;
// each result must equal the record's expected value and, bit for bit, the reference
// evaluator's. Skips cleanly when the conformance folder is absent.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iostream>

#include "codegen/run/kernel_engine.h"
#include "codegen/run/tensor_buffers.h"
#include "ops/interp/check_comparisons.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"
#include "tests/ops/interp/conformance_cases.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::Tensor;
using gather_scatter::testing::tensorFrom;
using mlir_interpreter::Engine;
using mlir_interpreter::Interpreter;
using nlohmann::json;

using conformance_cases::boundOperands;
using conformance_cases::conformancePath;
using conformance_cases::readRecords;
using conformance_cases::tensorOfType;

struct SingleOp {
  json record;
  std::unique_ptr<mlir_ir::Module> module;
  Kernel kernel;
};

// Both targets: C++, and CUDA compiled as host C++ (the .cu file's emulation).
class KernelConformance : public ::testing::TestWithParam<EmitTarget::Kind> {};

TEST_P(KernelConformance, TestdataOpsAgreeWithExpectedAndReference) {
  if (!std::ifstream(conformancePath("testdata_cases.jsonl")).good())
    GTEST_SKIP() << "no conformance data";
  const bool cuda = GetParam() == EmitTarget::Kind::kCuda;
  std::vector<json> records;
  for (json& record : readRecords("testdata_cases.jsonl"))
    if (record.value("values_complete", true)) records.push_back(std::move(record));
  // Every record is emitted (the CI count is all of them); a third in the sanitizer tree.
  const std::string target = cuda ? "Cuda" : "Cpp";
  const sampling::Sample emittedSample = sampling::sampleOf(
      "KernelConformance.TestdataEmitted/" + target, records.size(), records.size());
  const std::vector<size_t> emittedPositions =
      sampling::sampledPositions(records.size(), emittedSample);
  std::vector<SingleOp> ops;
  std::vector<PrintedKernel> printed;
  for (size_t position : emittedPositions) {
    json& record = records[position];
    SingleOp op{record,
                std::make_unique<mlir_ir::Module>(mlir_ir::parseMlirModule(
                    record.at("mlir").get<std::string>(), record.at("id").get<std::string>())),
                {}};
    EmittedModule emitted = emitMlirModule(*op.module);
    for (const EmitProblem& problem : emitted.problems)
      ADD_FAILURE() << record.at("id") << ": " << problem.message;
    if (emitted.kernels.size() != 1) continue;
    op.kernel = emitted.kernels[0].kernel;
    // One file for every case: symbols made distinct by the case's position.
    op.kernel.symbol = "case" + std::to_string(ops.size()) + "_" + op.kernel.symbol;
    printed.push_back(cuda ? printCudaKernel(op.kernel) : printCppKernel(op.kernel));
    ops.push_back(std::move(op));
  }
  if (emittedPositions.size() == records.size())
    EXPECT_EQ(ops.size(), 269u);  // every values-complete record
  const sampling::Sample sample =
      sampling::sampleOf("KernelConformance.TestdataOps/" + target, ops.size(), 80);
  std::vector<SingleOp> sampled;
  std::vector<PrintedKernel> sampledPrinted;
  for (size_t position : sampling::sampledPositions(ops.size(), sample)) {
    sampled.push_back(std::move(ops[position]));
    sampledPrinted.push_back(std::move(printed[position]));
  }
  ops = std::move(sampled);
  printed = std::move(sampledPrinted);
  std::shared_ptr<LoadedLibrary> library =
      compileAndLoad(cuda ? cudaFile(printed) : cppFile(printed), testing::testJitOptions());
  if (cuda && testing::nvccInstalled())
    for (int arch : testing::nvccArchitectures())
      testing::expectCompiledWithoutSpillsOrLocalMemory(
          testing::nvccCompile(cudaFile(printed), arch, "testdata"),
          "testdata kernels, sm_" + std::to_string(arch));
  for (const SingleOp& op : ops) {
    const std::string id = op.record.at("id");
    const mlir_ir::Operation& mlirOp = op.module->operations.back();
    std::vector<Tensor> operands = boundOperands(op.record, mlirOp);
    std::vector<const Tensor*> reads;
    for (const Tensor& t : operands) reads.push_back(&t);
    if (op.record.at("op") == "dynamic_gather") reads.pop_back();  // its slice sizes are emitted in
    std::vector<Tensor> result = runKernel(*library, op.kernel, reads);
    ASSERT_FALSE(result.empty()) << id;
    Tensor expected = tensorOfType(mlirOp.resultTypes.at(0), op.record.at("expected"));
    bool close = op.record.value("expected_check", json()) == "check.expect_close";
    std::optional<std::string> failure =
        close ? mlir_interpreter::expectClose(result[0], expected, 1, 0)
              : mlir_interpreter::expectEqual(result[0], expected);
    EXPECT_FALSE(failure) << id << ": " << *failure;
    Interpreter reference(*op.module, Engine::kReference);
    std::vector<Tensor> oracle = reference.evaluate(mlirOp, operands);
    EXPECT_TRUE(testing::sameBits(result[0], oracle[0]))
        << id << ": the kernel and the reference differ";
  }
}

TEST_P(KernelConformance, InterpretCasesPassWithKernels) {
  if (!std::ifstream(conformancePath("interpret_cases.jsonl")).good())
    GTEST_SKIP() << "no conformance data";
  const EmitTarget target{GetParam(), {}};
  int functions = 0;
  for (const json& record : readRecords("interpret_cases.jsonl")) {
    std::string mlir = record.at("mlir");
    if (mlir.find("func.func") == std::string::npos) continue;  // bare ops: as testdata above
    const std::string id = record.at("id");
    mlir_ir::Module module = mlir_ir::parseMlirModule(mlir, id);
    KernelEngine kernels(module, testing::testJitOptions(), 2, {}, target);
    Interpreter interpreter(module, Engine::kReference, &kernels);
    for (const mlir_ir::Function* function : mlir_interpreter::entryFunctions(module))
      interpreter.call(*function, {});
    EXPECT_FALSE(interpreter.checks().empty()) << id;
    for (const mlir_interpreter::CheckOutcome& check : interpreter.checks())
      EXPECT_FALSE(check.failure) << id << " line " << check.location.line << ": "
                                  << *check.failure;
    ++functions;
  }
  EXPECT_EQ(functions, 5);
}

INSTANTIATE_TEST_SUITE_P(Targets, KernelConformance,
                         ::testing::Values(EmitTarget::Kind::kCpp, EmitTarget::Kind::kCuda),
                         [](const auto& info) {
                           return info.param == EmitTarget::Kind::kCuda ? "Cuda" : "Cpp";
                         });

}  // namespace
}  // namespace idxmap::codegen
