// Validation from the IR alone (issue 32, items 2 and 3): changes to a kernel's structure that
// the text-level mutants (validator_mutation_test.cpp) cannot express — threads or SIMD lanes
// put on points that may write one element, an ownership test dropped, a thread share that
// leaves part of its dim to no thread, a run-start move dropped, a shared loop that is not the
// split one, a statement run twice, a store or a copy dropped, a store moved out of its test —
// each made to the IR of every kernel of random gathers and scatters (random_kernel_cases.h)
// between building and validating it (printCppKernel's seam). Each one breaks what the kernel
// promises for some index values or thread counts, so validation must refuse every one; the
// kernel as built must pass. For the CUDA target (its statements are IR): an atomic update made
// a plain store, and a 16-byte copy where points may collide. CI runs a sample of the ops;
// IDXMAP_TEST_FULL=1 all of them.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>

#include "codegen/cpp/cpp_kernel.h"
#include "codegen/cuda/cuda_kernel.h"
#include "codegen/emit.h"
#include "codegen/lower/gather_scatter_kernels.h"
#include "tests/codegen/random_kernel_cases.h"
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
  int kernels = 0, applied = 0;
  std::map<std::string, int> refusedBy;
  for (const RandomCase& c : random.cases) {
    Kernel kernel;
    try {
      kernel = c.scatter ? scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"})
                         : gatherKernel(c.gather, {}, {"result", "operand", "start_indices"});
      printCppKernel(kernel);  // as built: validated
    } catch (const ValidationError& e) {
      ADD_FAILURE() << "the kernel as built is refused: " << e.what();
      continue;
    } catch (const Error&) {
      continue;  // an update computation or element type kernels do not take
    }
    ++kernels;
    expectRefused(kernel, refusedBy, applied);
  }
  ASSERT_GT(kernels, 0);
  std::cout << "[ score ] structural IR mutants refused: " << applied << " applied to " << kernels
            << " kernels\n";
  for (const auto& [name, count] : refusedBy) std::cout << "  " << name << ": " << count << "\n";
  // Every kind met but the run-start moves (no random case proves its indices sorted: below).
  EXPECT_GE(refusedBy.size(), mutations().size() - 1);
}

// A scatter whose indices are assumed sorted: threads split d0 at runs of equal indices.
TEST(IrMutation, RefusesStructuralChangesOfASegmentedScatter) {
  const std::string text =
      R"(func.func @main(%table: tensor<16x8xf32>, %rows: tensor<64x1xi32>, %updates: tensor<64x8xf32>) -> tensor<16x8xf32> {
  %0 = "stablehlo.scatter"(%table, %rows, %updates) ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    %s = "stablehlo.add"(%old, %new) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<16x8xf32>, tensor<64x1xi32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  func.return %0 : tensor<16x8xf32>
})";
  mlir_ir::Module module = mlir_ir::parseMlirModule(text, "sorted.mlir");
  EmittedModule emitted = emitMlirModule(module, parseAssumptions({"%rows: sorted"}));
  ASSERT_EQ(emitted.kernels.size(), 1u);
  const Kernel& kernel = emitted.kernels[0].kernel;
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

// CUDA: threads take a point each, so where points may write one element every update is the
// transfer's atomic one. Each atomic store of each statement made plain, or turned into a 16-byte
// copy, must be refused.
TEST(IrMutation, RefusesAPlainCudaStoreWherePointsMayCollide) {
  const sampling::Sample sample = sampling::sampleOf("IrMutationCuda", 60, 12);
  RandomCases random = randomKernelCases(0, static_cast<int>(sample.count), sample.seed);
  int atomic = 0;
  for (const RandomCase& c : random.cases) {
    Kernel kernel;
    try {
      kernel = scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"});
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
  int kernels = 0;
  for (const RandomCase& c : random.cases) {
    {
      Kernel kernel;
      try {
        kernel = c.scatter
                     ? scatterKernel(c.scatterOp, {}, {"updates", "result", "scatter_indices"})
                     : gatherKernel(c.gather, {}, {"result", "operand", "start_indices"});
        if (printCudaKernel(kernel, {}).text.find("idxmap_point") == std::string::npos) continue;
      } catch (const ValidationError& e) {
        ADD_FAILURE() << "the kernel as built is refused: " << e.what();
        continue;
      } catch (const Error&) {
        continue;  // an update computation, element type or domain CUDA kernels do not take
      }
      ++kernels;
      for (const auto& [name, edit] : edits) {
        bool changed = false;
        auto onGrid = [&](ir::Node& node) {
          if (!changed && node.kind == Kind::kFor &&
              node.mapping.kind == ir::LoopMapping::Kind::kGrid)
            changed = edit(node);
        };
        try {
          printCudaKernel(kernel, {}, onGrid);
          EXPECT_FALSE(changed) << name << " accepted";
        } catch (const ValidationError&) {
          EXPECT_TRUE(changed) << name << ": the kernel as built is refused";
        }
        refused[name] += changed;
      }
    }
  }
  std::cout << "[ score ] CUDA thread decodings changed and refused, of " << kernels << " kernels:";
  for (const auto& [name, count] : refused) std::cout << " " << name << " " << count << ";";
  std::cout << "\n";
  EXPECT_GT(kernels, 0);
  for (const auto& [name, count] : refused) EXPECT_GT(count, 0) << name;
}

}  // namespace
}  // namespace idxmap::codegen
