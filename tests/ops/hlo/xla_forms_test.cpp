// HLO as XLA's own tests write it: no `HloModule` line, operands written inline, a scalar's
// broadcast without `dimensions=`. Each form is checked against the same module written out
// in full: same structure, same indexing maps.
#include <gtest/gtest.h>

#include <string>

#include "core/checked.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap::hlo {
namespace xla_forms_test {
namespace {

// The ENTRY root's maps to its operands, as printed: equal text means equal maps.
std::string rootMaps(std::string_view text) {
  Module module = parseHloModule(text, "forms.hlo");
  return printIndexing(computeOutputToInputIndexing(*module.entry->root, 0), "operand");
}

TEST(HloXlaForms, ModuleWithoutHeaderIsItsComputations) {
  const char* body = R"(add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  p0 = f32[8,6] parameter(0)
  ROOT t = f32[6,8] transpose(p0), dimensions={1,0}
}
)";
  Module module = parseHloModule(body, "dir/gpu_transpose.hlo");
  EXPECT_EQ(module.name, "gpu_transpose");  // named after the file, as nothing else names it
  ASSERT_NE(module.entry, nullptr);
  EXPECT_EQ(module.entry->name, "main");
  EXPECT_EQ(module.computations.size(), 2u);
  EXPECT_EQ(rootMaps(body), rootMaps(std::string("HloModule m\n") + body));

  // Without ENTRY, the last computation is the entry, as with a header.
  Module last = parseHloModule(
      "f {\n  ROOT p = f32[2] parameter(0)\n}\n"
      "g {\n  ROOT q = f32[3] parameter(0)\n}\n",
      "<stdin>");
  EXPECT_EQ(last.name, "module");
  EXPECT_EQ(last.entry->name, "g");
}

TEST(HloXlaForms, InlineOperandsAreInstructionsBeforeTheirUser) {
  Module module = parseHloModule(R"(HloModule m
ENTRY main {
  ROOT r = f32[6,4] reshape(f32[4,6] transpose(f32[6,4] parameter(0)))
}
)",
                                 "inline.hlo");
  const Computation& entry = *module.entry;
  ASSERT_EQ(entry.instructions.size(), 3u);
  EXPECT_EQ(entry.instructions[0]->opcode, "parameter");
  EXPECT_EQ(entry.instructions[0]->parameterNumber, 0);
  EXPECT_EQ(entry.instructions[1]->opcode, "transpose");
  EXPECT_EQ(entry.instructions[1]->operands[0], entry.instructions[0].get());
  EXPECT_EQ(entry.root, entry.instructions[2].get());
  EXPECT_EQ(entry.root->operands[0], entry.instructions[1].get());
  EXPECT_EQ(entry.instructions[1]->name, "transpose.0");
  EXPECT_EQ(entry.instructions[1]->location.line, 3);
  EXPECT_EQ(entry.instructions[1]->location.column, 38);  // at its opcode

  // The same maps as the module written out, for an op with attributes on the outer one.
  EXPECT_EQ(rootMaps(R"(HloModule m
ENTRY main {
  ROOT s = f32[2,3] slice(f32[4,6] negate(f32[4,6] parameter(0))), slice={[1:3], [0:6:2]}
})"),
            rootMaps(R"(HloModule m
ENTRY main {
  p = f32[4,6] parameter(0)
  n = f32[4,6] negate(p)
  ROOT s = f32[2,3] slice(n), slice={[1:3], [0:6:2]}
})"));
}

TEST(HloXlaForms, AWrittenNameWinsOverAMadeUpOne) {
  Module module = parseHloModule(R"(HloModule m
ENTRY main {
  n = f32[4] negate(f32[4] parameter(0))
  parameter.0 = f32[4] parameter(1)
  ROOT a = f32[4] add(n, parameter.0)
}
)",
                                 "names.hlo");
  const Instruction* root = module.entry->root;
  ASSERT_EQ(root->operands.size(), 2u);
  EXPECT_EQ(root->operands[1]->parameterNumber, 1);
  EXPECT_EQ(module.entry->find("parameter.0")->parameterNumber, 1);
  EXPECT_EQ(module.entry->instructions[0]->name, "parameter.1");
}

TEST(HloXlaForms, ScalarBroadcastWithoutDimensions) {
  EXPECT_EQ(rootMaps(R"(HloModule m
ENTRY main {
  c = f32[] constant(1)
  ROOT b = f32[4,5] broadcast(c)
})"),
            rootMaps(R"(HloModule m
ENTRY main {
  c = f32[] constant(1)
  ROOT b = f32[4,5] broadcast(c), dimensions={}
})"));
  // An array operand still needs them: which dimensions it maps to is not implied.
  EXPECT_THROW(rootMaps(R"(HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  ROOT b = f32[4,5] broadcast(p)
})"),
               ParseError);
}

// 100,000 inline operands, one inside the other: a diagnostic, not a stack overflow; 200 read.
TEST(HloXlaForms, DeeplyNestedInlineOperandsAreBounded) {
  auto nested = [](int depth) {
    std::string text = "HloModule m\nENTRY e {\n  ROOT r = f32[2] negate(";
    for (int i = 0; i < depth; ++i) text += "f32[2] negate(";
    text += "f32[2] parameter(0)";
    for (int i = 0; i < depth; ++i) text += ")";
    return text + ")\n}\n";
  };
  try {
    parseHloModule(nested(100000), "deep.hlo");
    ADD_FAILURE() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("nest more than 256 deep"), std::string::npos) << e.message();
  }
  Module module = parseHloModule(nested(200), "deep.hlo");
  EXPECT_EQ(module.entry->instructions.size(), 202u);
}

TEST(HloXlaForms, InlineOperandErrorsAreLocated) {
  try {
    parseHloModule("HloModule m\nENTRY e {\n  ROOT r = f32[2] negate(f32[2] frob(q))\n}\n",
                   "bad.hlo");
    ADD_FAILURE() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 3);
    EXPECT_EQ(e.location().column, 38) << e.what();  // the unknown operand q
  }
}

}  // namespace
}  // namespace xla_forms_test
}  // namespace idxmap::hlo
