// Validation of CUDA kernels from their IR alone (issue 32, items 2 and 3): a thread's statement,
// its grid-stride loop and the point it decodes, a segmented thread's tile of runs, each changed
// between building and validating (printCudaKernel's seam) in a way that breaks what the kernel
// promises, must be refused; the kernel as built must pass. CI runs a sample of random ops;
// IDXMAP_TEST_FULL=1 all of them.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>

#include "codegen/cuda/cuda_kernel.h"
#include "codegen/emit.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "tests/codegen/random_kernel_cases.h"
#include "tests/codegen/validate/scatter_cases.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using namespace testing;
using Kind = ir::Node::Kind;

// CUDA: threads take a point each, so where points may write one element every update is the
// transfer's atomic one. Each atomic store of each statement made plain, or turned into a 16-byte
// copy, must be refused.
TEST(IrMutation, RefusesAPlainCudaStoreWherePointsMayCollide) {
  const sampling::Sample sample = sampling::sampleOf("IrMutationCuda", 60, 12);
  RandomCases random = randomKernelCases(0, static_cast<int>(sample.count), sample.seed);
  int atomic = 0;
  for (const Kernel& kernel : mutationKernels(random)) {
    try {
      printCudaKernel(kernel, {});  // as built: validated
    } catch (const ValidationError& e) {
      ADD_FAILURE() << "the kernel as built is refused: " << e.what();
      continue;
    } catch (const Error&) {
      continue;  // an update computation, element type or domain CUDA kernels do not take
    }
    for (bool vector : {false, true}) {
      bool changed = false;
      auto plain = [&](ir::Node& statement) {
        std::function<void(ir::Node&)> walk = [&](ir::Node& node) {
          if (node.kind == Kind::kStore && !node.atomic.empty() && !changed) {
            node.atomic.clear();
            if (vector) node.kind = Kind::kVectorCopy;
            changed = true;
          }
          for (ir::Node& child : node.body) walk(child);
          for (ir::Node& child : node.orElse) walk(child);
        };
        walk(statement);
      };
      try {
        printCudaKernel(kernel, {}, plain);
        EXPECT_FALSE(changed) << (vector ? "a 16-byte copy" : "a plain store")
                              << " replaced an atomic update and was accepted";
      } catch (const ValidationError&) {
        EXPECT_TRUE(changed);
      }
      atomic += changed;
    }
  }
  std::cout << "[ score ] CUDA atomic updates made plain or 16-byte copies, refused: " << atomic
            << "\n";
  EXPECT_GT(atomic, 0);
}

// CUDA: each thread decodes its point from its number in a grid-stride loop, read back from the
// IR and proven to give the threads each point of the domain once. A loop one number short or
// one long, a loop that does not start at 0 or is no longer spread over the grid, a dim's digit
// shifted by one or taken modulo one more than its extent: each leaves a point to no thread, or
// gives a thread a point outside the domain, and must be refused.
TEST(IrMutation, RefusesAWrongCudaThreadDecoding) {
  const sampling::Sample sample = sampling::sampleOf("IrMutationCudaThreads", 60, 12);
  const int gathers = static_cast<int>(sample.count) / 2;
  RandomCases random =
      randomKernelCases(gathers, static_cast<int>(sample.count) - gathers, sample.seed);
  using Edit = std::function<bool(ir::Node&)>;  // false: nothing it applies to
  auto lets = [](ir::Node& loop, const std::function<bool(ir::Node&)>& change) {
    for (ir::Node& node : loop.body)
      if (node.kind == Kind::kLet && node.name.starts_with("d") && change(node)) return true;
    return false;
  };
  // The first kRem of `e` with its divisor plus one; null when it has none.
  std::function<CExpr(const CExpr&)> widerRem = [&](const CExpr& e) -> CExpr {
    if (e->op == COp::kRem)
      return binary(COp::kRem, e->operands[0], literal(e->operands[1]->value + 1));
    for (size_t i = 0; i < e->operands.size(); ++i)
      if (CExpr changed = widerRem(e->operands[i])) {
        CExprNode copy = *e;
        copy.operands[i] = changed;
        return std::make_shared<const CExprNode>(std::move(copy));
      }
    return nullptr;
  };
  const std::vector<std::pair<std::string, Edit>> edits = {
      {"one number short",
       [](ir::Node& loop) {
         CExpr count = loop.condition->operands[1];
         loop.condition =
             binary(COp::kLess, loop.condition->operands[0], literal(count->value - 1));
         return true;
       }},
      {"one number long",
       [](ir::Node& loop) {
         CExpr count = loop.condition->operands[1];
         loop.condition =
             binary(COp::kLess, loop.condition->operands[0], literal(count->value + 1));
         return true;
       }},
      {"starting at 1",
       [](ir::Node& loop) {
         loop.lower = literal(1);
         return true;
       }},
      {"not spread over the grid",
       [](ir::Node& loop) {
         loop.mapping.kind = ir::LoopMapping::Kind::kSerial;
         return true;
       }},
      {"a digit shifted by one",
       [&](ir::Node& loop) {
         return lets(loop, [](ir::Node& let) {
           if (let.value->index->op == COp::kLiteral) return false;  // a dim of one value
           let.value = ir::indexValue(binary(COp::kAdd, let.value->index, literal(1)));
           return true;
         });
       }},
      {"a digit modulo one more",
       [&](ir::Node& loop) {
         // A digit's remainder matters only where the quotient reaches its extent: where an
         // earlier dim (more significant) takes more than one value.
         bool moreSignificant = false;
         return lets(loop, [&](ir::Node& let) {
           CExpr changed = moreSignificant ? widerRem(let.value->index) : nullptr;
           moreSignificant = moreSignificant || let.value->index->op != COp::kLiteral;
           if (changed) let.value = ir::indexValue(changed);
           return changed != nullptr;
         });
       }},
  };
  std::map<std::string, int> refused;
  int kernels = 0, lanes = 0;
  for (const Kernel& kernel : mutationKernels(random)) {
    // A segmented kernel's threads take tiles, where a number past the last is an empty tile:
    // RefusesAWrongCudaTileOfRuns changes those.
    if (kernel.strategy == Strategy::kSegmented) continue;
    try {
      if (printCudaKernel(kernel, {}).text.find("idxmap_point") == std::string::npos) continue;
    } catch (const ValidationError& e) {
      ADD_FAILURE() << "the kernel as built is refused: " << e.what();
      continue;
    } catch (const Error&) {
      continue;  // an update computation, element type or domain CUDA kernels do not take
    }
    ++kernels;
    // The first grid loop (a thread a point), then the second where there is one (a plain
    // kernel's 16-byte rows: a thread a lane group).
    for (int target : {0, 1}) {
      for (const auto& [name, change] : edits) {
        const Edit& edit = change;  // a lambda may not capture a structured binding (C++17)
        bool changed = false;
        int seen = 0;
        auto onGrid = [&](ir::Node& node) {
          if (!changed && node.kind == Kind::kFor &&
              node.mapping.kind == ir::LoopMapping::Kind::kGrid && seen++ == target)
            changed = edit(node);
        };
        try {
          printCudaKernel(kernel, {}, onGrid);
          EXPECT_FALSE(changed) << name << " accepted";
        } catch (const ValidationError&) {
          EXPECT_TRUE(changed) << name << ": the kernel as built is refused";
        }
        refused[name] += changed;
        lanes += changed && target == 1;
      }
    }
  }
  std::cout << "[ score ] CUDA thread decodings changed and refused, of " << kernels << " kernels:";
  for (const auto& [name, count] : refused) std::cout << " " << name << " " << count << ";";
  std::cout << " (" << lanes << " of them of lane groups)\n";
  EXPECT_GT(kernels, 0);
  for (const auto& [name, count] : refused) EXPECT_GT(count, 0) << name;
}

// CUDA's segmented kernel: a thread takes a tile of rows and applies the runs that start in it
// (kTileRuns). A tile one row short or long, a tile that stops before d0's last row, a run-start
// test dropped, a fetched source read one element off, a statement at the wrong row: each applies
// some update twice or never, or adds the wrong one, and must be refused.
TEST(IrMutation, RefusesAWrongCudaTileOfRuns) {
  const Kernel kernel = segmentedScatter();
  ASSERT_EQ(kernel.strategy, Strategy::kSegmented);
  ASSERT_NO_THROW(printCudaKernel(kernel, {}));
  auto tileOf = [](ir::Node& loop) -> ir::Node* {
    for (ir::Node& node : loop.body)
      if (node.kind == Kind::kTileRuns) return &node;
    return nullptr;
  };
  using Edit = std::function<void(ir::Node & loop)>;
  const std::vector<std::pair<std::string, Edit>> edits = {
      {"a tile one row short", [&](ir::Node& loop) { tileOf(loop)->count -= 1; }},
      {"a tile one row long", [&](ir::Node& loop) { tileOf(loop)->count += 1; }},
      {"a tile stopping a row early", [&](ir::Node& loop) { tileOf(loop)->hi -= 1; }},
      {"the run-start test dropped",
       [](ir::Node& loop) {
         std::erase_if(loop.body, [](const ir::Node& n) { return n.kind == Kind::kRunStarts; });
       }},
      {"a fetched source one element off",
       [&](ir::Node& loop) {
         ir::Node& source = tileOf(loop)->body.front();
         source.value =
             ir::loadValue(source.value->name, binary(COp::kAdd, source.value->index, literal(1)));
       }},
      {"a statement a row off",
       [&](ir::Node& loop) {
         for (ir::Node& let : tileOf(loop)->orElse.at(0).body)
           if (ir::isLet(let, "d0"))
             let.value = ir::indexValue(binary(COp::kAdd, let.value->index, literal(1)));
       }},
  };
  for (const auto& [name, change] : edits) {
    const Edit& edit = change;  // a lambda may not capture a structured binding (C++17)
    bool applied = false;
    auto onGrid = [&](ir::Node& node) {
      if (applied || node.kind != Kind::kFor || node.mapping.kind != ir::LoopMapping::Kind::kGrid)
        return;
      ASSERT_NE(tileOf(node), nullptr);
      edit(node);
      applied = true;
    };
    try {
      printCudaKernel(kernel, {}, onGrid);
      ADD_FAILURE() << name << " accepted";
    } catch (const ValidationError& e) {
      std::cout << name << ": " << e.what() << "\n";
    }
    EXPECT_TRUE(applied) << name;
  }
}

}  // namespace
}  // namespace idxmap::codegen
