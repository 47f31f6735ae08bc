// The HLO text reader: the syntax of spec 004 and XLA dumps, and located diagnostics.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "core/checked.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap::hlo {
namespace {

TEST(HloParser, ReadsSpecBroadcastExample) {
  Module module = parseHloModule(R"(HloModule m
ENTRY e {
  p0 = f32[20] parameter(0)
  ROOT bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}
})",
                                 "bc.hlo");
  EXPECT_EQ(module.name, "m");
  EXPECT_EQ(module.fileName, "bc.hlo");
  ASSERT_NE(module.entry, nullptr);
  EXPECT_EQ(module.entry->name, "e");
  EXPECT_TRUE(module.entry->isEntry);
  const Instruction* root = module.entry->root;
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(root->isRoot);
  EXPECT_EQ(root->name, "bc0");
  EXPECT_EQ(root->opcode, "broadcast");
  EXPECT_EQ(root->shape.toString(), "f32[10,20,30]");
  ASSERT_EQ(root->operands.size(), 1u);
  EXPECT_EQ(root->operands[0]->name, "p0");
  EXPECT_EQ(root->operands[0]->parameterNumber, 0);
  ASSERT_NE(root->attribute("dimensions"), nullptr);
  EXPECT_EQ(root->attribute("dimensions")->value, "{1}");
  EXPECT_EQ(root->attribute("dimensions")->location.line, 4);
  EXPECT_EQ(root->attribute("dimensions")->location.column, 56);
  EXPECT_EQ(root->location.line, 4);
  EXPECT_EQ(root->location.column, 8);
  EXPECT_EQ(root->opcodeLocation.column, 30);
  EXPECT_EQ(module.entry->find("p0"), module.entry->parameter(0));
  EXPECT_EQ(module.entry->find("nothing"), nullptr);
  EXPECT_EQ(module.find("e"), module.entry);
}

TEST(HloParser, ReadsShapesWithLayoutsBoundsAndTuples) {
  Module module = parseHloModule(R"(HloModule shapes
ENTRY e {
  a = f32[10,20]{1,0} parameter(0)
  b = f32[<=3,5] parameter(1)
  c = s32[?,4]{0,1} parameter(2)
  d = f32[] parameter(3)
  e = pred[2] parameter(4)
  t = (f32[2], s32[]) parameter(5)
  n = ((f32[1]{0}, (pred[])), bf16[3,3]) parameter(6)
  s = f32[51, 16] {0, 1} bitcast(a)
  k = s4[8,2]{1,0:T(8,128)E(4)S(1)} parameter(7)
  ROOT r = (f32[10,20]{1,0}, s32[?,4]) tuple(a, c)
})");
  const Computation& entry = *module.entry;
  const Shape& a = entry.find("a")->shape;
  EXPECT_EQ(a.element_type, "f32");
  EXPECT_EQ(a.extents(), (std::vector<int64_t>{10, 20}));
  ASSERT_TRUE(a.layout.has_value());
  EXPECT_EQ(*a.layout, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(a.elementCount(), 200);
  EXPECT_EQ(a.packedBits, 0);
  // An element size among the layout's attributes: sub-byte elements packed in bytes.
  EXPECT_EQ(entry.find("k")->shape.packedBits, 4);
  EXPECT_EQ(*entry.find("k")->shape.layout, (std::vector<int64_t>{1, 0}));

  const Shape& b = entry.find("b")->shape;
  EXPECT_EQ(b.extents(), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ((std::vector<bool>{b.isDynamic(0), b.isDynamic(1)}), (std::vector<bool>{true, false}));
  EXPECT_EQ(b.toString(), "f32[<=3,5]");
  EXPECT_EQ(b.elementCount(), 15);  // counted with the bound

  const Shape& c = entry.find("c")->shape;
  EXPECT_EQ(c.extents(), (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(c.toString(), "s32[?,4]{0,1}");
  EXPECT_THROW(c.elementCount(), Error);  // no bound to count with

  EXPECT_EQ(entry.find("d")->shape.rank(), 0);
  EXPECT_EQ(entry.find("d")->shape.elementCount(), 1);
  EXPECT_EQ(entry.find("d")->shape.toString(), "f32[]");
  EXPECT_EQ(entry.find("e")->shape.toString(), "pred[2]");
  EXPECT_TRUE(entry.find("t")->shape.isTuple);
  EXPECT_EQ(entry.find("t")->shape.toString(), "(f32[2], s32[])");
  EXPECT_EQ(entry.find("n")->shape.toString(), "((f32[1]{0}, (pred[])), bf16[3,3])");
  EXPECT_EQ(entry.find("s")->shape.toString(), "f32[51,16]{0,1}");
  EXPECT_EQ(entry.root->shape.toString(), "(f32[10,20]{1,0}, s32[?,4])");
}

TEST(HloParser, ReadsOperandsConstantsAndFreeFormAttributes) {
  Module module = parseHloModule(
      R"(HloModule m, entry_computation_layout={(f32[1024,514]{1,0})->f32[1024,3]{1,0}}, is_scheduled=true

%max (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %m = f32[] maximum(f32[] %x, f32[] %y)
}

ENTRY %e (p0: f32[1024,514]) -> f32[1024,3] {
  %c_inf = f32[] constant(-inf)
  %k = s32[3] constant({1, 2, 3})
  %k2 = s32[2,2] constant({ {1, 2}, {3, 4} })
  %p0 = f32[1024, 514] parameter(0)  // a comment
  /* another comment */
  ROOT %reduce-window.1 = f32[1024, 3] reduce-window(f32[1024,514]{1,0} %p0, %c_inf),
    window={size=1x512 pad=0_0x0_0}, to_apply=%max,
    metadata={op_type="ReduceWindow" op_name="a, b {c}"}, backend_config="{\"x\":1}"
}
)");
  ASSERT_EQ(module.computations.size(), 2u);
  const Computation& entry = *module.entry;
  EXPECT_EQ(entry.name, "e");
  EXPECT_EQ(entry.find("c_inf")->literal, "-inf");
  EXPECT_EQ(entry.find("k")->literal, "{1, 2, 3}");
  EXPECT_EQ(entry.find("k2")->literal, "{ {1, 2}, {3, 4} }");
  const Instruction& root = *entry.root;
  EXPECT_EQ(root.name, "reduce-window.1");
  EXPECT_EQ(root.opcode, "reduce-window");
  ASSERT_EQ(root.operands.size(), 2u);
  EXPECT_EQ(root.operands[0]->name, "p0");
  EXPECT_EQ(root.operands[1]->name, "c_inf");
  EXPECT_EQ(root.attribute("window")->value, "{size=1x512 pad=0_0x0_0}");
  EXPECT_EQ(root.attribute("to_apply")->value, "%max");
  EXPECT_EQ(root.attribute("metadata")->value, R"({op_type="ReduceWindow" op_name="a, b {c}"})");
  EXPECT_EQ(root.attribute("backend_config")->value, R"("{\"x\":1}")");
  ASSERT_EQ(root.calledComputations.size(), 1u);
  EXPECT_EQ(root.calledComputations[0]->name, "max");
}

TEST(HloParser, ResolvesFusionCallsDeclaredLaterAndDefaultsRootAndEntry) {
  Module module = parseHloModule(R"(HloModule m
e {
  p0 = f32[8, 16] parameter(0)
  fusion = f32[8, 16] fusion(p0), kind=kLoop, calls=f
}
f {
  p0 = f32[8, 16] parameter(0)
  collapse = f32[128] reshape(p0)
  expand = f32[8, 16] reshape(collapse)
})");
  // XLA: with no ENTRY the last computation is the entry; with no ROOT the last
  // instruction is the root.
  EXPECT_EQ(module.entry->name, "f");
  EXPECT_EQ(module.entry->root->name, "expand");
  const Instruction* fusion = module.find("e")->root;
  EXPECT_EQ(fusion->name, "fusion");
  EXPECT_TRUE(fusion->isRoot);
  EXPECT_EQ(fusion->attribute("kind")->value, "kLoop");
  ASSERT_EQ(fusion->calledComputations.size(), 1u);
  EXPECT_EQ(fusion->calledComputations[0], module.find("f"));
}

TEST(HloParser, ReadsDimLabelsAndBranchComputations) {
  Module module = parseHloModule(R"(HloModule m
a { ROOT x = f32[] parameter(0) }
b { ROOT x = f32[] parameter(0) }
ENTRY e {
  i = s32[] parameter(0)
  p = f32[] parameter(1)
  lhs = f32[1,8,8,3] parameter(2)
  rhs = f32[3,3,3,4] parameter(3)
  conv = f32[1,6,6,4] convolution(lhs, rhs), window={size=3x3}, dim_labels=b01f_01io->b01f
  ROOT c = f32[] conditional(i, p, p), branch_computations={a, %b}
})");
  const Computation& entry = *module.entry;
  EXPECT_EQ(entry.find("conv")->attribute("dim_labels")->value, "b01f_01io->b01f");
  ASSERT_EQ(entry.root->calledComputations.size(), 2u);
  EXPECT_EQ(entry.root->calledComputations[0]->name, "a");
  EXPECT_EQ(entry.root->calledComputations[1]->name, "b");
}

TEST(HloParser, ReadsEveryConformanceModule) {
  std::ifstream file(IDXMAP_CONFORMANCE_DIR "/xla/op_maps.jsonl");
  if (!file) GTEST_SKIP() << "no conformance data";
  std::string line;
  int parsed = 0;
  while (std::getline(file, line)) {
    if (line.empty()) continue;
    nlohmann::json record = nlohmann::json::parse(line);
    std::string id = record["id"];
    Module module = parseHloModule(record["hlo"].get<std::string>(), id);
    EXPECT_NE(module.entry, nullptr) << id;
    EXPECT_NE(module.entry->root, nullptr) << id;
    ++parsed;
  }
  EXPECT_GE(parsed, 50);
}

// The diagnostic names file:line:col, carries the message, shows the line and a caret.
void expectDiagnostic(std::string_view text, int line, int column, std::string_view message) {
  try {
    parseHloModule(text, "bad.hlo");
    ADD_FAILURE() << "parsed without a diagnostic:\n" << text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().file, "bad.hlo");
    EXPECT_EQ(e.location().line, line) << e.what();
    EXPECT_EQ(e.location().column, column) << e.what();
    EXPECT_NE(e.message().find(message), std::string::npos) << e.what();
    std::string what = e.what();
    std::string prefix =
        "bad.hlo:" + std::to_string(line) + ":" + std::to_string(column) + ": error: ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    EXPECT_NE(what.find("\n" + std::string(column - 1, ' ') + "^"), std::string::npos) << what;
  }
}

TEST(HloParserDiagnostics, UnknownOperand) {
  expectDiagnostic("HloModule m\nENTRY e {\n  ROOT a = f32[2] add(p0, p0)\n}", 3, 23,
                   "unknown operand 'p0'");
}

TEST(HloParserDiagnostics, OperandUsedBeforeItIsDefined) {
  expectDiagnostic("HloModule m\nENTRY e {\n  a = f32[2] negate(b)\n  b = f32[2] parameter(0)\n}",
                   3, 21, "unknown operand 'b'");
}

TEST(HloParserDiagnostics, UnknownComputation) {
  expectDiagnostic(
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT f = f32[2] fusion(p), "
      "kind=kLoop, calls=%nowhere\n}",
      4, 49, "unknown computation 'nowhere'");
}

TEST(HloParserDiagnostics, DuplicateNames) {
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  p = f32[2] negate(p)\n}",
                   4, 3, "instruction 'p' is defined twice");
  expectDiagnostic(
      "HloModule m\nc {\n ROOT p = f32[] parameter(0)\n}\nc {\n ROOT p = f32[] "
      "parameter(0)\n}",
      5, 1, "computation 'c' is defined twice");
  expectDiagnostic(
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  q = f32[2] parameter(0)\n}", 4, 24,
      "parameter(0) is already 'p'");
  expectDiagnostic(
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0), sharding={replicated}, "
      "sharding={maximal}\n}",
      3, 51, "attribute 'sharding' is given twice");
}

TEST(HloParserDiagnostics, RootsAndEntries) {
  expectDiagnostic(
      "HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n  ROOT q = f32[2] negate(p)\n}", 4,
      3, "a second ROOT");
  expectDiagnostic(
      "HloModule m\nENTRY a {\n ROOT p = f32[] parameter(0)\n}\nENTRY b {\n ROOT p "
      "= f32[] parameter(0)\n}",
      5, 1, "a second ENTRY");
  expectDiagnostic("HloModule m\nENTRY e {\n}", 2, 7, "computation 'e' has no instructions");
  expectDiagnostic("HloModule m\n", 2, 1, "the module has no computations");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n", 2, 9,
                   "computation 'e' is not closed");
  expectDiagnostic("HloModule a\nENTRY e {\n  p = f32[2] parameter(0)\n}\n// -----\nHloModule b\n",
                   6, 1,
                   "a second module starts here; a file of several modules is read one "
                   "module at a time with --split-input-file");
}

TEST(HloParserDiagnostics, MalformedShapes) {
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2 parameter(0)\n}", 3, 13,
                   "expected ']' to close the dimensions");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2,x] parameter(0)\n}", 3, 13,
                   "expected a dimension size");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = F32[2] parameter(0)\n}", 3, 7,
                   "malformed element type 'F32'");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[<3] parameter(0)\n}", 3, 12,
                   "expected '=' in a bounded dimension");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2,3]{1,1} parameter(0)\n}", 3, 15,
                   "layout is not a permutation");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = s4[8]{0:T(2)E(0)} parameter(0)\n}", 3, 19,
                   "layout element size E(0) is not a width from 1 to 64 bits");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = s4[8]{0:E(99999999999)} parameter(0)\n}", 3, 15,
                   "layout element size E(99999999999) is not a width");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = (f32[2], s32[] parameter(0)\n}", 3, 22,
                   "expected ')' to close the tuple shape");
  expectDiagnostic(
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(f32[3] p)\n}", 4,
      26, "operand 'p' has shape f32[2], written here as f32[3]");
}

TEST(HloParserDiagnostics, AbsurdSizesAreRefusedWithoutAllocating) {
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[4611686018427387905] parameter(0)\n}", 3, 11,
                   "dimension size 4611686018427387905 is too large");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[99999999999999999999] parameter(0)\n}", 3, 11,
                   "does not fit in 64 bits");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[4611686018427387904,4] parameter(0)\n}", 3, 7,
                   "has more elements than fit in 64 bits");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = " + std::string(100, '(') + "f32[]" +
                       std::string(100, ')') + " parameter(0)\n}",
                   3, 71, "nested deeper than 64 levels");
}

TEST(HloParserDiagnostics, RecursiveCallsAndBadAttributes) {
  expectDiagnostic(
      "HloModule m\nf {\n  p = f32[2] parameter(0)\n  ROOT g = f32[2] fusion(p), kind=kLoop, "
      "calls=f\n}\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT g = f32[2] fusion(p), calls=f\n}",
      4, 48, "computation 'f' calls itself");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2] parameter(0), sharding={a", 3, 37,
                   "unbalanced '{'");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2] parameter(0), sharding=\n}", 4, 1,
                   "expected a value for attribute 'sharding'");
  expectDiagnostic("HloModule m\nENTRY e {\n  p = f32[2] parameter(0), m=\"abc\n}", 3, 30,
                   "unterminated string");
}

// Never a crash or a foreign exception: every mangled module either reads (and is analyzed
// or diagnosed) or is a located diagnostic. Deterministic mutations (delete, duplicate, replace a
// byte) of every conformance module.
TEST(HloParserRobustness, MutatedConformanceModulesReadOrDiagnose) {
  std::ifstream file(IDXMAP_CONFORMANCE_DIR "/xla/op_maps.jsonl");
  if (!file) GTEST_SKIP() << "no conformance data";
  const std::string replacements = "{}()[],=%<?:-\"x0 \n";
  std::mt19937 random(42);
  std::string line;
  int diagnosed = 0, read = 0;
  while (std::getline(file, line)) {
    if (line.empty()) continue;
    std::string text = nlohmann::json::parse(line)["hlo"];
    for (int round = 0; round < 100; ++round) {
      std::string mutated = text;
      size_t at = random() % mutated.size();
      switch (random() % 3) {
        case 0:
          mutated.erase(at, 1 + random() % 8);
          break;
        case 1:
          mutated.insert(at, mutated.substr(at, 1 + random() % 8));
          break;
        default:
          mutated[at] = replacements[random() % replacements.size()];
          break;
      }
      try {
        Module module = parseHloModule(mutated, "mutated.hlo");
        ASSERT_NE(module.entry, nullptr);
        ASSERT_NE(module.entry->root, nullptr);
        ++read;
        try {
          computeOutputToInputIndexing(*module.entry->root);
        } catch (const Error&) {
          // A diagnostic about the op (exit 2 in the CLI): fine.
        }
      } catch (const ParseError& e) {
        EXPECT_EQ(e.location().file, "mutated.hlo");
        EXPECT_GE(e.location().line, 1);
        ++diagnosed;
      }
    }
  }
  EXPECT_GT(diagnosed, 0);
  EXPECT_GT(read, 0);
}

// A value of several words on one line (mesh replica groups, a literal) is one value; the
// line's end, a comma or a comment ends it.
TEST(HloParser, AttributeValuesOfSeveralWords) {
  Module module = parseHloModule(R"(ENTRY e {
  p = f32[2] parameter(0)
  c = f32[2] custom-call(p), literal=f32[2] {1, 2}, custom_call_target="x"
  ROOT r = f32[2] custom-call(c), replica_groups=mesh['x'=2] {'x'} /*note*/, literal=s32[] 1
})");
  const Instruction& c = *module.entry->find("c");
  EXPECT_EQ(c.attribute("literal")->value, "f32[2] {1, 2}");
  EXPECT_EQ(c.attribute("custom_call_target")->value, "\"x\"");
  const Instruction& r = *module.entry->root;
  EXPECT_EQ(r.attribute("replica_groups")->value, "mesh['x'=2] {'x'}");
  EXPECT_EQ(r.attribute("literal")->value, "s32[] 1");
  // Other white space (a vertical tab, a form feed) ends a value too: a diagnostic, not a loop.
  for (const char* space : {"\v", "\f"})
    EXPECT_THROW(parseHloModule(std::string("ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = "
                                            "f32[2] negate(p), metadata=x") +
                                space + " y\n}\n"),
                 ParseError)
        << int(space[0]);
}

// Without shape inference a result shape must be written; with it, the shape is inferred in
// text order (a later instruction's written operand shape is checked against it).
TEST(HloParser, LeftOutShapesNeedInference) {
  const std::string text = R"(sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = add(a, b)
}
ENTRY e {
  p = f32[3] parameter(0)
  q = negate(p)
  ROOT r = f32[3] abs(f32[3] q), to_apply=sum
})";
  try {
    parseHloModule(text, "left_out.hlo");
    ADD_FAILURE() << "a left-out shape read without inference";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.location().line, 4);
  }
  std::vector<std::string> inferred;
  Module module = parseHloModule(text, "left_out.hlo", [&](const Instruction& instruction) {
    inferred.push_back(instruction.name);
    return instruction.operands.at(0)->shape;
  });
  EXPECT_EQ(inferred, (std::vector<std::string>{"s", "q"}));
  EXPECT_EQ(module.entry->find("q")->shape.toString(), "f32[3]");
  // A callee must be read before a caller whose shape it decides.
  try {
    parseHloModule(
        "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = call(p), to_apply=g\n}\n"
        "g {\n  ROOT x = f32[] parameter(0)\n}\n",
        "order.hlo", [](const Instruction& i) { return i.operands.at(0)->shape; });
    ADD_FAILURE() << "a callee after its caller was read";
  } catch (const ParseError& error) {
    EXPECT_NE(std::string(error.what()).find("'g' must come before 'r'"), std::string::npos)
        << error.what();
  }
}

TEST(HloShape, ElementCountOverflowThrows) {
  Shape shape;
  shape.element_type = "f32";
  shape.shape = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_THROW(shape.elementCount(), OverflowError);
}

}  // namespace
// A cuBLAS call of XLA's GPU compiler that computes exactly a dot is read as that dot (its dims
// from backend_config's JSON, quoted or not); one that scales, adds or applies an epilogue, or
// whose config is not JSON, stays a custom call.
TEST(HloParser, ReadsPlainCublasGemmCallsAsDots) {
  auto read = [](const std::string& result, const std::string& config) {
    Module module = parseHloModule(
        "HloModule m\nENTRY e {\n  a = f32[2,3,5] parameter(0)\n"
        "  b = f32[2,5,4] parameter(1)\n  ROOT g = " +
        result +
        " custom-call(a, b), custom_call_target=\"__cublas$gemm\", "
        "backend_config=" +
        config + "\n}\n");
    return *module.entry->root;
  };
  const std::string dims =
      R"("dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":[1],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]})";
  const Instruction dot =
      read("f32[2,3,4]", "{\"gemm_backend_config\":{\"alpha_real\":1,\"beta\":0," + dims +
                             ",\"epilogue\":\"DEFAULT\"}}");
  EXPECT_EQ(dot.opcode, "dot");
  EXPECT_EQ(dot.attribute("lhs_contracting_dims")->value, "{2}");
  EXPECT_EQ(dot.attribute("rhs_contracting_dims")->value, "{1}");
  EXPECT_EQ(dot.attribute("lhs_batch_dims")->value, "{0}");
  EXPECT_EQ(dot.attribute("rhs_batch_dims")->value, "{0}");
  EXPECT_EQ(dot.attribute("custom_call_target")->value, "\"__cublas$gemm\"");
  // Older dumps quote the JSON: `backend_config="{\"gemm_backend_config\": ...}"`.
  std::string quoted = "\"";
  for (char c : "{\"gemm_backend_config\":{" + dims + "}}")
    quoted += c == '"' ? "\\\"" : std::string(1, c);
  EXPECT_EQ(read("f32[2,3,4]", quoted + "\"").opcode, "dot") << quoted;
  for (const std::string& config :
       {"{\"gemm_backend_config\":{\"alpha_real\":2," + dims + "}}",
        "{\"gemm_backend_config\":{\"beta\":1," + dims + "}}",
        "{\"gemm_backend_config\":{\"epilogue\":\"RELU\"," + dims + "}}",
        "{\"gemm_backend_config\":{\"alpha_imag\":1," + dims + "}}",
        std::string("{\"gemm_backend_config\":{\"alpha_real\":1}}"),  // no dims
        std::string("{\"gemm_backend_config\":{\"dot_dimension_numbers\":{\"lhs_contracting_"
                    "dimensions\":[\"x\"]}}}"),
        std::string("{not json}")})
    EXPECT_EQ(read("f32[2,3,4]", config).opcode, "custom-call") << config;
  // A tuple result (cuBLASLt's workspace beside the product) is not the dot's.
  EXPECT_EQ(read("(f32[2,3,4], s8[16])", "{\"gemm_backend_config\":{" + dims + "}}").opcode,
            "custom-call");
}

}  // namespace idxmap::hlo
