// Validation from the IR alone (issue 32, items 2 and 3): changes to a kernel's structure that
// the text-level mutants (validator_mutation_test.cpp) cannot express — threads or SIMD lanes
// put on points that may write one element, an ownership test dropped, a thread share that
// leaves part of its dim to no thread, a run-start move dropped, a shared loop that is not the
// split one, a statement run twice, a store or a copy dropped, a store moved out of its test —
// each made to the IR of every kernel of random gathers and scatters (random_kernel_cases.h)
// and of three scatters that meet every kind of change in every run (scatter_cases.h), between
// building and validating it (printCppKernel's seam). Each one breaks what the kernel
// promises for some index values or thread counts, so validation must refuse every one; the
// kernel as built must pass (the CUDA target's: cuda_ir_mutation_test.cpp). CI runs a sample of
// the ops; IDXMAP_TEST_FULL=1 all of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <map>

#include "codegen/cpp/cpp_kernel.h"
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

// Every node of the tree, parents before children.
void forEachNode(std::vector<ir::Node>& nodes, const std::function<void(ir::Node&)>& visit) {
  for (ir::Node& node : nodes) {
    visit(node);
    forEachNode(node.body, visit);
    forEachNode(node.orElse, visit);
  }
}

ir::Node* firstOf(ir::Function& function, const std::function<bool(const ir::Node&)>& is) {
  ir::Node* found = nullptr;
  forEachNode(function.body, [&](ir::Node& node) {
    if (!found && is(node)) found = &node;
  });
  return found;
}

// The list that holds the first node `is` accepts, and its place there.
std::pair<std::vector<ir::Node>*, size_t> placeOf(std::vector<ir::Node>& nodes,
                                                  const std::function<bool(const ir::Node&)>& is) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (is(nodes[i])) return {&nodes, i};
    for (std::vector<ir::Node>* children : {&nodes[i].body, &nodes[i].orElse})
      if (auto place = placeOf(*children, is); place.first) return place;
  }
  return {nullptr, 0};
}

bool isOwnershipTest(const ir::Node& node) {
  return node.kind == Kind::kIf && node.condition &&
         printCExpr(node.condition).find("idxmap_first") != std::string::npos;
}

bool isStatement(const ir::Node& node) { return node.kind == Kind::kBlock && node.scoped; }

// A named change to a kernel's IR; false where the kernel has nothing it applies to.
struct Mutation {
  std::string name;
  std::function<bool(ir::Function&, const Kernel&)> apply;
};

std::vector<Mutation> mutations() {
  return {
      {"threads over points that may collide",
       [](ir::Function& f, const Kernel& k) {
         if (k.strategy == Strategy::kIndependent) return false;
         ir::Node* loop = firstOf(f, [](const ir::Node& n) { return n.kind == Kind::kFor; });
         if (!loop) return false;
         loop->mapping = {ir::LoopMapping::Kind::kThreads, 1, false};
         return true;
       }},
      {"SIMD lanes over points that may collide",
       [](ir::Function& f, const Kernel& k) {
         if (k.strategy == Strategy::kIndependent) return false;
         ir::Node* loop = firstOf(f, [](const ir::Node& n) { return n.kind == Kind::kFor; });
         if (!loop) return false;
         loop->mapping.kind = ir::LoopMapping::Kind::kSimd;
         return true;
       }},
      {"the ownership test dropped",
       [](ir::Function& f, const Kernel&) {
         auto [list, at] = placeOf(f.body, isOwnershipTest);
         if (!list) return false;
         std::vector<ir::Node> stores = std::move((*list)[at].body);
         list->erase(list->begin() + static_cast<long>(at));
         list->insert(list->begin() + static_cast<long>(at), stores.begin(), stores.end());
         return true;
       }},
      {"a thread share one short",
       [](ir::Function& f, const Kernel&) {
         ir::Node* share =
             firstOf(f, [](const ir::Node& n) { return n.kind == Kind::kThreadShare; });
         if (!share || share->count < 2) return false;
         share->count -= 1;
         return true;
       }},
      {"thread shares moved one up",
       [](ir::Function& f, const Kernel&) {
         ir::Node* share =
             firstOf(f, [](const ir::Node& n) { return n.kind == Kind::kThreadShare; });
         if (!share) return false;
         share->lo += 1;
         return true;
       }},
      {"the run-start moves dropped",
       [](ir::Function& f, const Kernel&) {
         bool dropped = false;
         forEachNode(f.body, [&](ir::Node& node) {
           std::erase_if(node.body, [&](const ir::Node& n) {
             return n.kind == Kind::kToRunStart && (dropped = true);
           });
         });
         return dropped;
       }},
      {"the shared loop not the split one",
       [](ir::Function& f, const Kernel& k) {
         ir::Node* loop = firstOf(f, [](const ir::Node& n) {
           return n.kind == Kind::kFor && n.lower->op == COp::kVariable &&
                  n.lower->name == "idxmap_first";
         });
         if (!loop || k.map.dims.size() < 2) return false;
         loop->name = loop->name == "d0" ? "d1" : "d0";
         loop->condition = binary(COp::kLess, variable(loop->name, CWidth::k64),
                                  variable("idxmap_last", CWidth::k64));
         return true;
       }},
      {"a statement run twice",
       [](ir::Function& f, const Kernel&) {
         auto [list, at] = placeOf(f.body, isStatement);
         if (!list) return false;
         list->insert(list->begin() + static_cast<long>(at), (*list)[at]);
         return true;
       }},
      {"a store dropped",
       [](ir::Function& f, const Kernel&) {
         auto [list, at] =
             placeOf(f.body, [](const ir::Node& n) { return n.kind == Kind::kStore; });
         if (!list) return false;
         list->erase(list->begin() + static_cast<long>(at));
         return true;
       }},
      {"a store moved out of its test",
       [](ir::Function& f, const Kernel&) {
         auto [list, at] = placeOf(f.body, [](const ir::Node& n) {
           return n.kind == Kind::kIf && !n.body.empty() && n.body.back().kind == Kind::kStore;
         });
         if (!list) return false;
         ir::Node store = (*list)[at].body.back();
         (*list)[at].body.pop_back();
         list->insert(list->begin() + static_cast<long>(at) + 1, store);
         return true;
       }},
      {"the initial copy dropped",
       [](ir::Function& f, const Kernel&) {
         return std::erase_if(f.body, [](const ir::Node& n) { return n.kind == Kind::kCopy; }) > 0;
       }},
  };
}

// Each mutation that applies to `kernel` refused, counted by name; the kernel as built passes.
void expectRefused(const Kernel& kernel, std::map<std::string, int>& refusedBy, int& applied) {
  for (const Mutation& mutation : mutations()) {
    bool changed = false;
    try {
      printCppKernel(kernel, [&](ir::Function& f) { changed = mutation.apply(f, kernel); });
      EXPECT_FALSE(changed) << mutation.name << " is accepted in " << kernel.op << " at "
                            << kernel.location;
    } catch (const ValidationError&) {
      EXPECT_TRUE(changed) << "validation refuses an unchanged kernel";
      ++refusedBy[mutation.name];
    }
    applied += changed;
  }
}

TEST(IrMutation, RefusesEveryStructuralChange) {
  constexpr size_t kFull = 120;
  const sampling::Sample sample = sampling::sampleOf("IrMutation", kFull, 24);
  const int gathers = static_cast<int>(sample.count / 3);
  RandomCases random =
      randomKernelCases(gathers, static_cast<int>(sample.count) - gathers, sample.seed);
  // The table scatters first: with them every kind of change is met, whatever the sample.
  const std::vector<Kernel> kernels = mutationKernels(random);
  int validated = 0, applied = 0;
  std::map<std::string, int> refusedBy;
  for (const Kernel& kernel : kernels) {
    try {
      printCppKernel(kernel);  // as built: validated
    } catch (const ValidationError& e) {
      ADD_FAILURE() << "the kernel as built is refused: " << e.what();
      continue;
    } catch (const Error&) {
      continue;  // an update computation or element type C++ kernels do not take
    }
    ++validated;
    expectRefused(kernel, refusedBy, applied);
  }
  std::cout << "[ score ] structural IR mutants refused: " << applied << " applied to " << validated
            << " kernels\n";
  for (const auto& [name, count] : refusedBy) std::cout << "  " << name << ": " << count << "\n";
  EXPECT_EQ(refusedBy.size(), mutations().size()) << "a kind of change met no kernel";
}

// A scatter whose indices are assumed sorted: threads split d0 at runs of equal indices.
TEST(IrMutation, RefusesStructuralChangesOfASegmentedScatter) {
  const Kernel kernel = segmentedScatter();
  ASSERT_EQ(kernel.strategy, Strategy::kSegmented);
  std::map<std::string, int> refusedBy;
  int applied = 0;
  expectRefused(kernel, refusedBy, applied);
  EXPECT_EQ(refusedBy["the run-start moves dropped"], 1);
  EXPECT_EQ(refusedBy["threads over points that may collide"], 1);
  EXPECT_EQ(refusedBy["thread shares moved one up"], 1);
}

// Parallel plain stores rest on a proof that no two points write one element: a scatter whose
// kernel claims independent points (Strategy::kIndependent) with no proof cited, or citing one that
// is not proven, is refused; a gather's targets (dims alone) are proven distinct by isl.
TEST(IrMutation, RefusesParallelStoresWithoutAProofOfDistinctTargets) {
  RandomCases random = randomKernelCases(4, 8, 20261129);
  int scatters = 0, gathers = 0;
  for (const RandomCase& c : random.cases) {
    Kernel kernel;
    try {
      kernel = c.scatter ? scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"})
                         : gatherKernel(c.gather, {}, {"result", "operand", "start_indices"});
      printCppKernel(kernel);
    } catch (const Error&) {
      continue;
    }
    if (!c.scatter) {
      ASSERT_EQ(kernel.strategy, Strategy::kIndependent);
      EXPECT_NE(printCppKernel(kernel).text.find("sends distinct points of the domain to distinct"),
                std::string::npos);
      ++gathers;
      continue;
    }
    kernel.strategy = Strategy::kIndependent;
    // Refused where a loop runs points at once, unless validation itself proves the targets
    // distinct (a target of dims alone, its certificate in the header); a domain of one point has
    // no such loop.
    auto accepted = [&] {
      bool parallel = false;
      auto look = [&](ir::Function& f) {
        parallel =
            firstOf(f, [](const ir::Node& n) {
              return n.kind == Kind::kFor && n.mapping.kind != ir::LoopMapping::Kind::kSerial;
            }) != nullptr;
      };
      try {
        const std::string text = printCppKernel(kernel, look).text;
        const bool distinct = text.find("to distinct elements") != std::string::npos;
        EXPECT_TRUE(!parallel || distinct) << "parallel stores accepted with nothing proven";
        return true;
      } catch (const ValidationError&) {
        EXPECT_TRUE(parallel) << "a serial kernel refused";
        return false;
      }
    };
    const bool safe = accepted();  // nothing runs at once, or the targets proven distinct
    kernel.facts.push_back({"no two applied updates write one element -> parallel plain stores",
                            ProofResult::unknown("not proven")});
    kernel.distinctTargets = kernel.facts.size() - 1;
    EXPECT_EQ(accepted(), safe) << "an unproven proof cited";
    scatters += !safe;  // refused both times
  }
  EXPECT_GT(scatters, 0);
  EXPECT_GT(gathers, 0);
}

// A coupled update (Kernel::coupled: an update computation of the caller's that reads every
// input, HLO's argmax): every structural change above, and changes to its held values and their
// stores, are refused on random scatters of one and two inputs.
TEST(IrMutation, RefusesChangesToACoupledUpdate) {
  RandomCases random = randomKernelCases(0, 18, 20261130);
  auto held = [](const ir::Node& n) {
    return n.kind == Kind::kLet && n.name.starts_with("idxmap_new");
  };
  const std::vector<Mutation> coupled = {
      {"a store before every new value is held",
       [&](ir::Function& f, const Kernel&) {
         auto [list, at] = placeOf(f.body, held);
         auto [stores, first] =
             placeOf(f.body, [](const ir::Node& n) { return n.kind == Kind::kStore; });
         if (!list || stores != list || first <= at + 1) return false;
         std::rotate(list->begin() + static_cast<long>(at) + 1,
                     list->begin() + static_cast<long>(first),
                     list->begin() + static_cast<long>(first) + 1);
         return true;
       }},
      {"a new value from the current value and update swapped",
       [&](ir::Function& f, const Kernel&) {
         ir::Node* let = firstOf(f, held);
         if (!let) return false;
         std::vector<ir::Value> operands = let->value->operands;
         std::swap(operands[0], operands[operands.size() / 2]);
         let->value = ir::callValue(let->value->name, operands);
         return true;
       }},
      {"a store of another input's new value",
       [&](ir::Function& f, const Kernel&) {
         ir::Node* store = firstOf(f, [](const ir::Node& n) { return n.kind == Kind::kStore; });
         if (!store || store->value->name != "idxmap_new0") return false;
         store->value = ir::variableValue("idxmap_new1");
         return true;
       }},
      {"an update read at the target's offset",
       [&](ir::Function& f, const Kernel&) {
         ir::Node* let = firstOf(f, held);
         if (!let) return false;
         std::vector<ir::Value> operands = let->value->operands;
         const size_t n = operands.size() / 2;
         operands[n] = ir::loadValue(operands[n]->name, operands[0]->index);
         if (printCExpr(operands[n]->index) == printCExpr(let->value->operands[n]->index))
           return false;  // the same offset: no change
         let->value = ir::callValue(let->value->name, operands);
         return true;
       }},
  };
  int kernels = 0, applied = 0;
  std::map<std::string, int> refusedBy;
  for (const RandomCase& c : random.cases) {
    gather_scatter::ScatterOp op = c.scatterOp;
    op.update_computation = gather_scatter::UpdateComputation::kOther;
    std::vector<std::string> functions;
    for (size_t i = 0; i < op.inputs.size(); ++i)
      functions.push_back("idxmap_update" + std::to_string(i));
    Kernel kernel;
    try {
      kernel = scatterKernel(op, {}, {"updates", "result", "scatter_indices"}, functions);
      printCppKernel(kernel);  // as built: validated
    } catch (const ValidationError& e) {
      ADD_FAILURE() << "the kernel as built is refused: " << e.what();
      continue;
    }
    ASSERT_TRUE(kernel.coupled);
    ++kernels;
    expectRefused(kernel, refusedBy, applied);
    // The CUDA target's statements: a store moved before the new values are held is refused.
    bool moved = false;
    auto storeFirst = [&](ir::Node& node) {
      if (!isStatement(node)) return;  // a statement, as it is validated (not a loop around it)
      forEachNode(node.body, [&](ir::Node& n) {
        auto first = std::find_if(n.body.begin(), n.body.end(), held);
        auto store = std::find_if(n.body.begin(), n.body.end(),
                                  [](const ir::Node& m) { return m.kind == Kind::kStore; });
        if (moved || first == n.body.end() || store == n.body.end() || store < first) return;
        std::rotate(first, store, store + 1);
        moved = true;
      });
    };
    EXPECT_NO_THROW(printCudaKernel(kernel));
    try {
      printCudaKernel(kernel, {}, storeFirst);
      EXPECT_FALSE(moved) << "a CUDA store before its new values is accepted";
    } catch (const ValidationError&) {
      EXPECT_TRUE(moved);
      ++refusedBy["CUDA: a store before every new value is held"];
      ++applied;
    }
    for (const Mutation& mutation : coupled) {
      bool changed = false;
      try {
        printCppKernel(kernel, [&](ir::Function& f) { changed = mutation.apply(f, kernel); });
        EXPECT_FALSE(changed) << mutation.name << " is accepted at " << kernel.location;
      } catch (const ValidationError&) {
        EXPECT_TRUE(changed) << "validation refuses an unchanged kernel";
        ++refusedBy[mutation.name];
      }
      applied += changed;
    }
  }
  std::cout << "[ score ] coupled-update IR mutants refused: " << applied << " applied to "
            << kernels << " kernels\n";
  for (const auto& [name, count] : refusedBy) std::cout << "  " << name << ": " << count << "\n";
  EXPECT_GT(kernels, 0);
  for (const Mutation& mutation : coupled) EXPECT_GT(refusedBy[mutation.name], 0) << mutation.name;
  EXPECT_GT(refusedBy["CUDA: a store before every new value is held"], 0);
}

}  // namespace
}  // namespace idxmap::codegen
