// The library used from several threads at once, as a compiler service would: simplify with its
// isl certificate, validate and prove an MLIR module's index properties, analyze its gathers
// (maps and the proven batching decomposition), emit its kernels, and prove lowerings equal, each
// job run on 4 threads at once (each thread in its own order) and compared with what the same job
// gives on one thread. The MLIR modules are parsed once and read by every thread. What may be
// shared is documented in the README ("Threads"): expressions, maps and modules are values any
// thread may read; isl and Z3 contexts belong to one thread or one call.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <thread>

#include "codegen/emit.h"
#include "core/expr_context.h"
#include "core/text.h"
#include "ops/gather_analysis/gather_maps.h"
#include "ops/validate/mlir.h"
#include "simplifier/simplify.h"
#include "tests/support/op_chains.h"
#include "verify/equivalence.h"
#include "verify/op_properties.h"
#include "verify/replay/prove_equal.h"

namespace idxmap::concurrency_test {
namespace {

using Job = std::function<std::string()>;

std::string readFile(const std::string& path) {
  std::ifstream file(std::string(IDXMAP_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Simplify a random op chain, print it, and certify it with isl (or Z3).
Job simplifyJob(uint64_t seed) {
  return [seed] {
    testing::OpChainGenerator generator(seed);
    IndexingMap map = parseIndexingMap(printIndexingMap(generator.chain(1 + seed % 6, 4096).map));
    IndexingMap simplified = simplify(map);
    return printIndexingMap(simplified) + " | " +
           verdictName(proveEquivalent(map, simplified).verdict);
  };
}

// A module parsed once, before the threads start, and read by all of them.
std::shared_ptr<const mlir_ir::Module> parsed(const std::string& path) {
  return std::make_shared<const mlir_ir::Module>(mlir_ir::parseMlirModule(readFile(path), path));
}

// Validate a module and prove every op's index properties.
Job verifyJob(const std::string& path) {
  return [shared = parsed(path)] {
    const mlir_ir::Module& module = *shared;
    validation::Report report = validation::validateMlirModule(module);
    std::string out = std::to_string(report.findings.size()) + " findings";
    for (const validation::CheckedOp& checked : report.ops) {
      if (checked.findingCount || !checked.mlirOp) continue;
      std::optional<OpIndexProperties> properties =
          proveOpIndexProperties(*checked.mlirOp, *checked.block, {});
      if (!properties) continue;
      out += "; " + checked.location.toString() + " sorted " +
             verdictName(properties->sorted.result.verdict) + ", in bounds " +
             verdictName(properties->inBounds.result.verdict);
    }
    return out;
  };
}

// The maps `idxmap analyze` prints for every gather and scatter (index values folded in where
// provenance knows them), and the proven batching decomposition.
Job analyzeJob(const std::string& path) {
  return [shared = parsed(path)] {
    std::string out;
    for (const mlir_gather_analysis::AnalyzedOp& op : mlir_gather_analysis::analyzeGathers(*shared))
      for (const mlir_gather_analysis::OpMap& map : op.maps)
        out += op.name + " " + map.from + " -> " + map.to + ": " +
               (map.map ? printIndexingMap(*map.map) : map.isl) + "\n";
    for (const mlir_gather_analysis::DecomposedOp& op :
         mlir_gather_analysis::decomposeBatchingOps(*shared))
      out += op.name + " decomposed: " + verdictName(op.decomposition.proof.verdict) + "\n";
    return out;
  };
}

Job emitJob(const std::string& path) {
  return [shared = parsed(path)] { return codegen::emitMlirModule(*shared).source(); };
}

Job proveEqualJob(const std::string& first, const std::string& second,
                  const std::string& function) {
  return [first, second, function] {
    mlir_ir::Module a = mlir_ir::parseMlirModule(readFile(first), first);
    mlir_ir::Module b = mlir_ir::parseMlirModule(readFile(second), second);
    program_equality::EqualityVerdict verdict =
        program_equality::proveEqual({&a, a.function(function)}, {&b, b.function(function)});
    return std::string(verdictName(verdict.proof.verdict)) + " " + verdict.first;
  };
}

std::vector<Job> jobs() {
  std::vector<Job> all;
  for (uint64_t seed = 0; seed < 24; ++seed) all.push_back(simplifyJob(seed * 7919 + 5));
  for (const char* path : {"examples/gather.mlir", "examples/scatter_claims.mlir"})
    all.push_back(verifyJob(path));
  all.push_back(emitJob("examples/gather.mlir"));
  all.push_back(analyzeJob("examples/spec_example.mlir"));
  const std::string dir = "examples/prove_equal/";
  all.push_back(proveEqualJob(dir + "tf_gather.mlir", dir + "tf_gather_tcp.mlir", "main"));
  all.push_back(proveEqualJob(dir + "tf_gather.mlir", dir + "tf_gather_wrong_axis.mlir", "main"));
  all.push_back(proveEqualJob(dir + "batched.mlir", dir + "decomposed.mlir", "scatter_fn"));
  return all;
}

std::string run(const Job& job) {
  try {
    return job();
  } catch (const std::exception& error) {
    return std::string("error: ") + error.what();
  }
}

// Runs every job on four threads at once, each starting at another job so that different
// jobs overlap, and compares each result with `expected`.
void expectSameOnFourThreads(const std::vector<Job>& all, const std::vector<std::string>& expected,
                             const std::function<std::string(const Job&)>& runOne) {
  constexpr size_t kThreads = 4;
  std::vector<std::vector<std::string>> got(kThreads, std::vector<std::string>(all.size()));
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < all.size(); ++k) {
        size_t j = (k + t * all.size() / kThreads) % all.size();
        got[t][j] = runOne(all[j]);
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < kThreads; ++t)
    for (size_t j = 0; j < all.size(); ++j)
      EXPECT_EQ(got[t][j], expected[j]) << "thread " << t << ", job " << j;
}

TEST(Concurrency, EveryJobGivesOnFourThreadsWhatItGivesOnOne) {
  const std::vector<Job> all = jobs();
  std::vector<std::string> expected;
  for (const Job& job : all) expected.push_back(run(job));
  for (const std::string& result : expected)
    ASSERT_EQ(result.rfind("error: ", 0), std::string::npos) << result;
  // The jobs say something: proofs in the verify jobs, kernels in the emitted file.
  EXPECT_NE(expected[24].find("in bounds proven"), std::string::npos) << expected[24];
  EXPECT_NE(expected[26].find("idxmap_stablehlo_gather_"), std::string::npos);
  EXPECT_NE(expected[27].find("decomposed: proven"), std::string::npos) << expected[27];
  EXPECT_EQ(expected[29].rfind("refuted %input[", 0), 0u) << expected[29];

  expectSameOnFourThreads(all, expected, [](const Job& job) { return run(job); });
}

// Bounded memory (issue 14): each job in a context of its own, made and destroyed on its
// thread, gives what it gives in the process's table; so do jobs of four threads sharing
// one context. Under sanitizers this also checks that nothing a context freed is used
// again (a cache keyed by a freed node's address).
TEST(Concurrency, JobsInContextsGiveWhatTheyGiveInTheProcessTable) {
  const std::vector<Job> all = jobs();
  std::vector<std::string> expected;
  for (const Job& job : all) expected.push_back(run(job));
  expectSameOnFourThreads(all, expected, [](const Job& job) {
    ExprContext context;
    ExprContext::Use use(context);
    return run(job);
  });
  ExprContext shared;
  expectSameOnFourThreads(all, expected, [&](const Job& job) {
    ExprContext::Use use(shared);
    return run(job);
  });
}
}  // namespace
}  // namespace idxmap::concurrency_test
