// XLA conformance: every record of ../shared/conformance/xla/op_maps.jsonl whose API is
// ComputeOutputToInputIndexing / ComputeInputToOutputIndexing is run on its module's ENTRY
// root and compared with XLA's maps BY MEANING (exact isl equality, as sets per operand).
// Records that need a model not written yet, or an API idxmap does not offer, are skipped
// with the reason; the summary test prints the counts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/module.h"

namespace idxmap {
namespace {

// IDXMAP_OP_MAPS names another file of such records (a larger set taken from XLA).
std::string recordsPath() {
  const char* path = std::getenv("IDXMAP_OP_MAPS");
  return path ? path : IDXMAP_CONFORMANCE_DIR "/xla/op_maps.jsonl";
}

std::vector<nlohmann::json> loadRecords() {
  std::vector<nlohmann::json> records;
  std::ifstream file(recordsPath());
  std::string line;
  while (std::getline(file, line))
    if (!line.empty()) records.push_back(nlohmann::json::parse(line));
  return records;
}

const std::vector<nlohmann::json>& records() {
  static const std::vector<nlohmann::json> all = loadRecords();
  return all;
}

// Opcodes the analysis of `instruction` dispatches on: its own, or a fusion's fused ones.
void analyzedOpcodes(const hlo::Instruction& instruction, std::set<std::string>& opcodes) {
  if (instruction.opcode != "fusion") {
    opcodes.insert(instruction.opcode);
    return;
  }
  for (const hlo::Computation* body : instruction.calledComputations)
    for (const auto& fused : body->instructions) analyzedOpcodes(*fused, opcodes);
}

// Why a record is not compared, or "" when it is.
std::string skipReason(const nlohmann::json& record, const hlo::Module& module) {
  std::string api = record["api"];
  if (api != "ComputeOutputToInputIndexing" && api != "ComputeInputToOutputIndexing")
    return "API " + api + " is not idxmap's (only output-to-input / input-to-output)";
  if (record["call"].value("use_physical_layout", false))
    return "use_physical_layout (indexing over physical layouts) is not modeled";
  // XLA's 2024 folding of `42 + p1` gives d0 + rt0 + 42 with rt0 in the clamped range of
  // the whole offset: elements up to 4137 of a 4096-element operand, and never 0..41, which
  // are read when p1 is negative. idxmap folds only offsets it knows entirely (constants,
  // iotas), and keeps this one a runtime variable over the clamped range: exact.
  if (std::string(record["id"]).rfind("FusionWithRTVarsSimplification_Add", 0) == 0)
    return "XLA folds a constant out of a clamped offset that also depends on a parameter "
           "(not exact; idxmap keeps the offset a runtime variable)";
  std::set<std::string> opcodes;
  analyzedOpcodes(*module.entry->root, opcodes);
  bool expectsUnknown =
      record["expected"].get<std::string>().find("unknown indexing") != std::string::npos;
  for (const std::string& opcode : opcodes)
    if (!findOpModel(opcode) && !expectsUnknown) return "no model for '" + opcode + "' yet";
  return "";
}

// XLA's text without the "runtime variables:" section (which only says where each runtime
// variable comes from: the relation is the same without it).
std::string withoutRuntimeSection(const std::string& text) {
  size_t at = text.find("runtime variables:");
  return at == std::string::npos ? text : text.substr(0, at);
}

testing::AssertionResult sameEntry(const OperandIndexing& actual, const nlohmann::json& expected) {
  std::vector<std::string> texts = expected["maps"];
  std::string actualText;
  for (const IndexingMap& map : actual.maps) actualText += printIndexingMap(map) + "\n\n";
  if (texts.size() == 1 && texts[0] == "unknown indexing") {
    if (actual.unknown) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "expected unknown indexing, got\n" << actualText;
  }
  if (actual.unknown) return testing::AssertionFailure() << "unknown indexing, expected a map";
  if (texts.size() != actual.maps.size())
    return testing::AssertionFailure() << "expected " << texts.size() << " maps, got\n"
                                       << actualText;
  for (const std::string& text : texts) {
    bool found = false;
    if (text == "KNOWN EMPTY") {
      for (const IndexingMap& map : actual.maps) found = found || map.knownEmpty;
    } else {
      IndexingMap want = parseIndexingMap(withoutRuntimeSection(text));
      for (const IndexingMap& map : actual.maps) found = found || islEqual(map, want).isProven();
    }
    if (!found)
      return testing::AssertionFailure() << "no map means XLA's\n"
                                         << text << "\namong\n"
                                         << actualText;
  }
  return testing::AssertionSuccess();
}

// Records where idxmap deliberately differs from XLA, by id prefix (a record's id may carry
// the XLA commit it was taken at), and how the two must still agree.
enum class Divergence {
  // idxmap is more precise: every element it says is read, XLA says too (with runtime
  // variables existential: a known start idxmap folds is one of XLA's values).
  kRefines,
  // XLA does not clamp a folded start index as the op does and reads past the operand; at
  // the points where XLA stays in bounds the two agree, and idxmap never leaves them.
  kClamps,
};
struct KnownDivergence {
  Divergence kind;
  std::string why;
};
const std::map<std::string, KnownDivergence>& divergences() {
  static const std::map<std::string, KnownDivergence> records = {
      {"DynamicUpdateSliceOp",
       {Divergence::kRefines,
        "idxmap excludes the updated window exactly (issue 3); XLA reads the whole operand and "
        "the update over the whole output"}},
      {"FusionWithRTVarsSimplification_ScalarConstantOutsideOfRangeIsKept",
       {Divergence::kRefines,
        "idxmap folds a known start outside its range to the end the op clamps it to; XLA "
        "keeps it a runtime variable over the whole range"}},
      {"FusionWithRTVarsSimplification_Iota",
       {Divergence::kClamps,
        "XLA folds an iota of 42 rows into a gather over 33 without the clamp; idxmap reads "
        "row 32 where the op clamps"}},
  };
  return records;
}

const KnownDivergence* divergenceOf(const nlohmann::json& record) {
  const std::string id = record["id"];
  for (const auto& [prefix, divergence] : divergences())
    if (id == prefix || id.rfind(prefix + "@", 0) == 0 || id.rfind(prefix + "/", 0) == 0)
      return &divergence;
  // Wherever a dynamic-update-slice is composed (a fusion), its exact maps refine XLA's.
  if (record["hlo"].get<std::string>().find("dynamic-update-slice(") != std::string::npos)
    return &divergences().at("DynamicUpdateSliceOp");
  return nullptr;
}

// The union of `maps` as one isl relation from the result's index to the operand's, runtime
// variables existential (all maps of an entry share their dims).
isl::map readRelation(const std::vector<IndexingMap>& maps) {
  isl::map all;
  for (const IndexingMap& map : maps) {
    isl::map relation = toIslMap(map);
    const isl_size parameters = isl_map_dim(relation.get(), isl_dim_param);  // before release
    relation = isl::manage(isl_map_project_out(relation.release(), isl_dim_param, 0,
                                               static_cast<unsigned>(parameters)));
    all = all.is_null() ? relation : all.unite(relation);
  }
  return all;
}

// The elements of an operand of this shape.
isl::set elementsOf(const hlo::Shape& shape) {
  std::string tuple, box;
  for (size_t d = 0; d < shape.shape.size(); ++d) {
    const std::string a = "a" + std::to_string(d);
    tuple += (d ? ", " : "") + a;
    box += (d ? " and 0 <= " : "0 <= ") + a + " < " + std::to_string(shape.shape[d]);
  }
  return isl_bridge::parsedSet("{ [" + tuple + "]" + (box.empty() ? "" : " : " + box) + " }");
}

testing::AssertionResult divergesAsDeclared(const OperandIndexing& actual,
                                            const nlohmann::json& expected, Divergence kind,
                                            const hlo::Shape& operand) {
  std::vector<IndexingMap> xla;
  for (const std::string& text : expected["maps"])
    xla.push_back(parseIndexingMap(withoutRuntimeSection(text)));
  if (actual.unknown || actual.maps.empty() || xla.empty())
    return testing::AssertionFailure() << "no maps to compare";
  isl::map ours = readRelation(actual.maps), theirs = readRelation(xla);
  if (kind == Divergence::kRefines) {
    if (!ours.is_subset(theirs)) return testing::AssertionFailure() << "idxmap reads more";
    return testing::AssertionSuccess();
  }
  isl::set elements = elementsOf(operand);
  isl::map inBounds = theirs.intersect_range(elements);
  if (!ours.range().is_subset(elements))
    return testing::AssertionFailure() << "idxmap reads outside the operand";
  if (!ours.intersect_domain(inBounds.domain()).is_equal(inBounds))
    return testing::AssertionFailure() << "idxmap differs where XLA stays in bounds";
  return testing::AssertionSuccess();
}

class OpMapsConformance : public testing::TestWithParam<size_t> {};

TEST_P(OpMapsConformance, MatchesXlaByMeaning) {
  const nlohmann::json& record = records()[GetParam()];
  std::string id = record["id"];
  hlo::Module module = hlo::parseHloModule(record["hlo"].get<std::string>(), id);
  if (std::string reason = skipReason(record, module); !reason.empty()) GTEST_SKIP() << reason;

  const hlo::Instruction& root = *module.entry->root;
  bool outToIn = record["api"] == "ComputeOutputToInputIndexing";
  InstructionIndexing indexing =
      outToIn ? computeOutputToInputIndexing(root, record["call"].value("output_id", 0))
              : computeInputToOutputIndexing(root, record["call"].value("input_id", 0));
  const nlohmann::json& expected = record["expected_by_operand"];
  ASSERT_EQ(indexing.entries.size(), expected.size()) << printIndexing(indexing, "operand");
  const KnownDivergence* divergence = divergenceOf(record);
  for (const nlohmann::json& entry : expected) {
    size_t operand = entry["operand_id"];
    ASSERT_LT(operand, indexing.entries.size());
    const OperandIndexing& actual = indexing.entries[operand];
    if (!divergence || sameEntry(actual, entry)) {
      EXPECT_TRUE(sameEntry(actual, entry)) << "operand id = " << operand;
    } else {
      const hlo::Shape& shape = outToIn ? root.operands.at(operand)->shape : root.shape;
      EXPECT_TRUE(divergesAsDeclared(actual, entry, divergence->kind, shape))
          << "operand id = " << operand << " (" << divergence->why << ")";
    }
  }
}

std::string recordName(const testing::TestParamInfo<size_t>& info) {
  std::string name =
      std::to_string(info.param) + "_" + records()[info.param]["id"].get<std::string>();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

std::vector<size_t> recordIndices() {
  std::vector<size_t> indices(records().size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

INSTANTIATE_TEST_SUITE_P(Xla, OpMapsConformance, testing::ValuesIn(recordIndices()), recordName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpMapsConformance);

// How many records are compared and why the others are not, so that a rerun after new op
// models land shows the progress.
TEST(OpMapsConformanceSummary, CountsComparedAndSkippedRecords) {
  if (records().empty()) GTEST_SKIP() << "no conformance data at " << recordsPath();
  std::map<std::string, int> skipped;
  int compared = 0;
  for (const nlohmann::json& record : records()) {
    hlo::Module module = hlo::parseHloModule(record["hlo"].get<std::string>(), "record");
    std::string reason = skipReason(record, module);
    if (reason.empty()) {
      ++compared;
    } else {
      ++skipped[reason];
    }
  }
  std::cout << "[ conformance ] " << compared << " of " << records().size()
            << " records compared\n";
  for (const auto& [reason, count] : skipped)
    std::cout << "[ conformance ] skipped " << count << ": " << reason << "\n";
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace idxmap
