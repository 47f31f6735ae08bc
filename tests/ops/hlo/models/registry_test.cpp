// The registry, and robustness: every model answers any instruction, however malformed, with
// maps or a located diagnostic, never a crash or a stray exception.
#include <gtest/gtest.h>

#include <memory>

#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"

namespace idxmap {
namespace {

TEST(OpRegistry, ModelsEveryOpOfXlasIndexingAnalysis) {
  for (const char* opcode : {"add",
                             "subtract",
                             "multiply",
                             "divide",
                             "maximum",
                             "minimum",
                             "compare",
                             "select",
                             "clamp",
                             "convert",
                             "exponential",
                             "log",
                             "negate",
                             "abs",
                             "map",
                             "broadcast",
                             "constant",
                             "iota",
                             "transpose",
                             "reverse",
                             "reduce",
                             "slice",
                             "reshape",
                             "bitcast",
                             "concatenate",
                             "dot",
                             "pad",
                             "reduce-window",
                             "convolution",
                             "dynamic-slice",
                             "dynamic-update-slice",
                             "copy",
                             "tuple",
                             "get-tuple-element",
                             "get-dimension-size",
                             "set-dimension-size",
                             "all-gather",
                             "all-reduce",
                             "scan"})
    EXPECT_NE(findOpModel(opcode), nullptr) << opcode;
  EXPECT_EQ(findOpModel("triangular-solve"), nullptr);
  EXPECT_EQ(findOpModel("collective-permute"), nullptr);
  std::vector<std::string_view> opcodes = modeledOpcodes();
  EXPECT_TRUE(std::is_sorted(opcodes.begin(), opcodes.end()));
  for (std::string_view opcode : opcodes) EXPECT_NE(findOpModel(opcode), nullptr) << opcode;
}

// readHloModule: a shape left out is the one the op's model infers (checked against an
// independent reading: the same module with every shape written); an op without a model
// must write its shape.
TEST(OpRegistry, ReadsShapesLeftOutAsTheModelsInferThem) {
  const char* body = R"(sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = %s add(a, b)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  t = %s transpose(x), dimensions={1,0}
  z = f32[] constant(0)
  r = %s reduce(t, z), dimensions={0}, to_apply=sum
  c = %s concatenate(r, r), dimensions={0}
  ROOT p = %s tuple(c, t)
})";
  auto with = [&](const std::vector<std::string>& shapes) {
    std::string text = body;
    for (const std::string& shape : shapes) text.replace(text.find("%s"), 2, shape);
    return text;
  };
  hlo::Module left = readHloModule(with({"", "", "", "", ""}), "left.hlo");
  hlo::Module written = hlo::parseHloModule(
      with({"f32[]", "f32[6,4]", "f32[4]", "f32[8]", "(f32[8], f32[6,4])"}), "written.hlo");
  for (const char* name : {"t", "r", "c", "p"})
    EXPECT_EQ(left.entry->find(name)->shape.toString(), written.entry->find(name)->shape.toString())
        << name;
  try {
    readHloModule("ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT c = custom-call(p)\n}\n");
    ADD_FAILURE() << "custom-call's shape inferred";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.location().line, 3);
    EXPECT_EQ(error.location().column, 12);
    EXPECT_NE(std::string(error.what()).find("no model of 'custom-call'"), std::string::npos);
  }
}

hlo::Shape array(std::vector<int64_t> dims, std::string type = "f32") {
  hlo::Shape shape;
  shape.element_type = std::move(type);
  shape.shape = std::move(dims);
  return shape;
}

TEST(OpRegistry, MalformedInstructionsGetDiagnosticsNotCrashes) {
  const std::vector<std::vector<hlo::Shape>> operandSets = {
      {},
      {array({2, 3})},
      {array({2, 3}), array({})},
      {array({2, 3}), array({3, 2})},
      {array({2, 3}), array({2, 3}), array({}), array({})},
      {array({2, 3}), array({1, 1}), array({}, "s32"), array({}, "s32")},
  };
  const std::vector<std::map<std::string, std::string>> attributeSets = {
      {},
      {{"dimensions", "{0}"}},
      {{"dimensions", "{1,0}"}},
      {{"dimensions", "{7}"}},
      {{"dimensions", "{x"}},
      {{"slice", "{[0:2:1], [0:9]}"}},
      {{"padding", "0_0x0_0"}},
      {{"window", "{size=2x2}"}},
      {{"window", "{size=1x1}"}, {"dim_labels", "bf_io->bf"}},
      {{"lhs_contracting_dims", "{1}"}, {"rhs_contracting_dims", "{0}"}},
      {{"dynamic_slice_sizes", "{1,1}"}},
      {{"index", "0"}},
      {{"iota_dimension", "1"}},
      {{"direction", "LT"}},
  };
  const std::vector<hlo::Shape> resultShapes = {array({2, 3}), array({}), array({3, 2}),
                                                array({2, 3}, "pred")};
  for (std::string_view opcode : modeledOpcodes()) {
    const OpModel& model = *findOpModel(opcode);
    for (const auto& operandShapes : operandSets) {
      std::vector<std::unique_ptr<hlo::Instruction>> operands;
      for (const hlo::Shape& shape : operandShapes) {
        operands.push_back(std::make_unique<hlo::Instruction>());
        operands.back()->shape = shape;
        operands.back()->opcode = "parameter";
      }
      for (const auto& attributes : attributeSets) {
        for (const hlo::Shape& result : resultShapes) {
          hlo::Instruction instruction;
          instruction.opcode = std::string(opcode);
          instruction.shape = result;
          for (const auto& operand : operands) instruction.operands.push_back(operand.get());
          for (const auto& [name, value] : attributes)
            instruction.attributes[name] = {value, {"t.hlo", 1, 1}};
          try {
            model.outputToInput(instruction, 0, PointDims::kReplace);
            for (size_t k = 0; k < operands.size(); ++k)
              model.inputToOutput(instruction, static_cast<int>(k), PointDims::kReplace);
          } catch (const ParseError&) {
            // A diagnostic is the right answer to a malformed instruction.
          } catch (const std::exception& e) {
            ADD_FAILURE() << opcode << " with " << operands.size()
                          << " operands: unexpected exception " << e.what();
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace idxmap
