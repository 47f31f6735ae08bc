// HLO stages validated from their IR (issue 32, items 2 and 3): each stage of random loop
// fusions (random_hlo.h) changed between building and validating it (hloKernel's seam), in a way
// that changes what the kernel writes — a load or a store one element off, a store dropped, a
// branch taken where it is not, a reduced dim's loop one short, a loop starting one iteration
// late, a CUDA grid one thread short, a thread's dim shifted by one —
// must be refused, on both targets; the kernel as built must pass. CI runs a sample of the
// fusions; IDXMAP_TEST_FULL=1 all of them.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>

#include "codegen/hlo/hlo_kernel.h"
#include "tests/codegen/hlo/random_hlo.h"
#include "tests/support/sampling.h"

namespace idxmap::codegen {
namespace {

using namespace testing;
using Kind = ir::Node::Kind;

// Every node of the tree, parents before children, until `visit` returns true.
bool anyNode(std::vector<ir::Node>& nodes, const std::function<bool(ir::Node&)>& visit) {
  for (ir::Node& node : nodes)
    if (visit(node) || anyNode(node.body, visit) || anyNode(node.orElse, visit)) return true;
  return false;
}

bool isStageStatement(const ir::Node& node) { return node.kind == Kind::kBlock && node.scoped; }

// A named change to a stage's nodes; false where the stage has nothing it applies to.
struct StageMutation {
  std::string name;
  std::function<bool(std::vector<ir::Node>&)> apply;
};

// `value` with its first load's offset one element on; null when it loads nothing.
ir::Value loadShifted(const ir::Value& value) {
  if (!value) return nullptr;
  if (value->kind == ir::ValueNode::Kind::kLoad)
    return ir::loadValue(value->name, binary(COp::kAdd, value->index, literal(1)));
  for (size_t k = 0; k < value->operands.size(); ++k)
    if (ir::Value shifted = loadShifted(value->operands[k])) {
      ir::ValueNode copy = *value;
      copy.operands[k] = shifted;
      return std::make_shared<const ir::ValueNode>(std::move(copy));
    }
  return nullptr;
}

std::vector<StageMutation> stageMutations() {
  return {
      {"a load one element off",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           ir::Value shifted = node.kind == Kind::kLet ? loadShifted(node.value) : nullptr;
           if (shifted) node.value = shifted;
           return shifted != nullptr;
         });
       }},
      {"a branch taken where it is not",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (node.kind != Kind::kIf || node.orElse.empty()) return false;
           node.condition = binary(COp::kEqual, node.condition, literal(0));
           return true;
         });
       }},
      {"a reduced loop one short",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (!isStageStatement(node)) return false;
           return anyNode(node.body, [](ir::Node& loop) {
             if (loop.kind != Kind::kFor || loop.condition->op != COp::kLessEqual ||
                 loop.condition->operands[1]->op != COp::kLiteral)
               return false;
             const int64_t hi = loop.condition->operands[1]->value;
             if (printCExpr(loop.lower) == printCExpr(literal(hi))) return false;  // one value
             loop.condition = binary(COp::kLessEqual, loop.condition->operands[0], literal(hi - 1));
             return true;
           });
         });
       }},
      {"a store dropped",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (!isStageStatement(node)) return false;
           return std::erase_if(node.body,
                                [](const ir::Node& n) { return n.kind == Kind::kStore; }) > 0;
         });
       }},
      {"a store one element off",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (node.kind != Kind::kStore) return false;
           node.offset = binary(COp::kAdd, node.offset, literal(1));
           return true;
         });
       }},
      {"a loop starting one iteration late",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (node.kind != Kind::kFor || node.mapping.kind == ir::LoopMapping::Kind::kGrid ||
               !node.name.starts_with("d"))
             return false;
           node.lower = binary(COp::kAdd, node.lower, literal(1));
           return true;
         });
       }},
      {"a grid one thread short",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (node.kind != Kind::kFor || node.mapping.kind != ir::LoopMapping::Kind::kGrid)
             return false;
           const CExpr count = node.condition->operands[1];
           node.condition =
               binary(COp::kLess, node.condition->operands[0], literal(count->value - 1));
           return true;
         });
       }},
      {"a thread's dim shifted by one",
       [](std::vector<ir::Node>& stage) {
         return anyNode(stage, [](ir::Node& node) {
           if (node.kind != Kind::kFor || node.mapping.kind != ir::LoopMapping::Kind::kGrid)
             return false;
           for (ir::Node& let : node.body)
             if (let.kind == Kind::kLet && let.name.starts_with("d") &&
                 let.value->index->op != COp::kLiteral) {
               let.value = ir::indexValue(binary(COp::kAdd, let.value->index, literal(1)));
               return true;
             }
           return false;
         });
       }},
  };
}

class HloIrMutation : public ::testing::TestWithParam<bool> {};

TEST_P(HloIrMutation, RefusesStagesThatWriteOtherElements) {
  const bool cuda = GetParam();
  constexpr size_t kFull = 60;
  const sampling::Sample sample =
      sampling::sampleOf(std::string("HloIrMutation/") + (cuda ? "Cuda" : "Cpp"), kFull, 8);
  RandomHlo generator(sample.seed);
  std::map<std::string, int> refused;
  int kernels = 0;
  for (size_t id = 0; id < sample.count; ++id) {
    const std::string text = generator.module(static_cast<int>(id));
    hlo::Module module = hlo::parseHloModule(text, "random.hlo");
    const hlo::Instruction& root = *module.entry->root;
    const std::string symbol = "mutated_" + std::to_string(id);
    try {
      hloKernel(root, symbol, cuda);  // as built: validated
    } catch (const UnsupportedHlo&) {
      continue;
    }
    ++kernels;
    for (const StageMutation& mutation : stageMutations()) {
      bool changed = false;  // made to every stage it applies to
      StageEdit edit = [&](std::vector<ir::Node>& nodes) { changed |= mutation.apply(nodes); };
      try {
        hloKernel(root, symbol, cuda, edit);
        EXPECT_FALSE(changed) << mutation.name << " is accepted in\n" << text;
      } catch (const ValidationError& e) {
        EXPECT_TRUE(changed) << "the kernel as built is refused: " << e.what();
      }
      refused[mutation.name] += changed;
    }
  }
  ASSERT_GT(kernels, 0);
  std::cout << "[ score ] HLO stage mutants refused, of " << kernels << " kernels:";
  for (const auto& [name, count] : refused) std::cout << " " << name << " " << count << ";";
  std::cout << "\n";
}

INSTANTIATE_TEST_SUITE_P(Targets, HloIrMutation, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Cuda" : "Cpp"; });

}  // namespace
}  // namespace idxmap::codegen
