// StableHLO's own verifier tests (../shared/conformance/stablehlo/verifier_cases.jsonl), each
// test function read by the MLIR reader and checked by validateMlirModule, the walk behind
// `idxmap verify`: valid ops give no finding; an invalid op gives findings, among them the
// constraint the test exercises, located on the line StableHLO's `expected-error` points at.
// Attribute syntax errors must be the reader's diagnostics, at that line too. Skips cleanly
// when the conformance folder is absent.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ops/validate/mlir.h"

namespace idxmap::validation {
namespace {

using nlohmann::json;

const std::string kDir = std::string(IDXMAP_CONFORMANCE_DIR) + "/stablehlo/";

std::vector<json> readRecords(const std::string& name) {
  std::vector<json> records;
  std::ifstream in(kDir + name);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) records.push_back(json::parse(line));
  return records;
}

// The records name dynamic_gather's constraints by gather's labels (StableHLO's tests share
// gather's verifier); the spec numbers dynamic_gather's own list. Each gather label, as the
// dynamic_gather label(s) that say the same. dynamic_gather has no batching dims at all, so
// what gather says about them is dynamic_gather's C1 (rank(operand) = size(offset_dims) +
// size(collapsed_slice_dims)).
const std::map<std::string, std::set<std::string>>& dynamicGatherLabels() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"C1", {"C1"}},   {"C2", {"C2"}},        {"C3", {"C3"}},   {"C4", {"C4"}},
      {"C5", {"C5"}},   {"C6", {"C6", "C1"}},  {"C7", {"C6"}},   {"C8", {"C7"}},
      {"C9", {"C8"}},   {"C10", {"C1"}},       {"C11", {"C1"}},  {"C12", {"C1"}},
      {"C13", {"C1"}},  {"C14", {"C1"}},       {"C15", {"C1"}},  {"C16", {"C1"}},
      {"C17", {"C1"}},  {"C18", {"C9", "C1"}}, {"C19", {"C10"}}, {"C20", {"C11"}},
      {"C21", {"C12"}}, {"C22", {"C13"}},      {"C23", {"C14"}},
  };
  return table;
}

// The table's entries for constraints the spec words identically for both ops: their texts
// must be equal (the others differ where gather names batching dims or reads slice_sizes'
// values rather than their shape).
TEST(VerifierConformance, DynamicGatherLabelTableMatchesTheSpecTexts) {
  if (!std::ifstream(kDir + "spec_constraints.jsonl").good()) GTEST_SKIP() << "no conformance data";
  std::map<std::pair<std::string, std::string>, std::string> texts;
  for (const json& record : readRecords("spec_constraints.jsonl"))
    if (record.contains("label")) texts[{record.at("op"), record.at("label")}] = record.at("text");
  const std::pair<const char*, const char*> sameText[] = {
      {"C2", "C2"}, {"C3", "C3"},   {"C4", "C4"},   {"C5", "C5"},   {"C8", "C7"},
      {"C9", "C8"}, {"C19", "C10"}, {"C20", "C11"}, {"C21", "C12"}, {"C23", "C14"}};
  for (const auto& [gather, dynamic] : sameText) {
    EXPECT_EQ(dynamicGatherLabels().at(gather), std::set<std::string>{dynamic}) << gather;
    EXPECT_EQ(texts.at({"gather", gather}), texts.at({"dynamic_gather", dynamic}))
        << gather << " vs " << dynamic;
  }
}

// The 1-based line StableHLO's `expected-error` comment for `message` points at: the
// comment's own line plus its @+N offset.
std::optional<int> expectedLine(const json& record) {
  if (record.at("valid") || !record.contains("expected_errors")) return std::nullopt;
  std::string message = record.at("expected_error");
  for (const json& expected : record.at("expected_errors")) {
    if (expected.at("message") != message || !expected.contains("at_line_offset_from_comment"))
      continue;
    std::istringstream lines(record.at("test_mlir").get<std::string>());
    std::string line;
    std::string fragment = message.substr(0, std::min<size_t>(message.size(), 30));
    for (int number = 1; std::getline(lines, line); ++number)
      if (line.find("expected-error") != std::string::npos &&
          line.find(fragment) != std::string::npos)
        return number + expected.at("at_line_offset_from_comment").get<int>();
  }
  return std::nullopt;
}

std::set<std::string> expectedLabels(const json& record) {
  std::set<std::string> labels;
  for (const json& label : record.at("constraint")) {
    std::string text = label;
    if (record.at("op") == "dynamic_gather" && dynamicGatherLabels().count(text))
      for (const std::string& dynamic : dynamicGatherLabels().at(text)) labels.insert(dynamic);
    else
      labels.insert(text);
  }
  return labels;
}

std::string describe(const Report& report) {
  std::string text;
  for (const Finding& finding : report.findings)
    text += "  " + std::to_string(finding.location.line) + ":" +
            std::to_string(finding.location.column) + " " + finding.message + "\n";
  return text;
}

struct Tally {
  std::map<std::string, int> counts;  // by outcome
  void add(const std::string& outcome) { ++counts[outcome]; }
};

void checkRecord(const json& record, Tally& tally) {
  std::string id = record.at("id");
  SCOPED_TRACE(id);
  std::string text = record.at("test_mlir");
  bool valid = record.at("valid");
  std::optional<int> line = expectedLine(record);

  mlir_ir::Module module;
  try {
    module = mlir_ir::parseMlirModule(text, id);
  } catch (const ParseError& error) {
    // Only the attribute-syntax tests may fail to read, with StableHLO's message and line.
    EXPECT_FALSE(valid) << error.what();
    std::string constraint = record.at("constraint").dump();
    EXPECT_NE(constraint.find("attribute syntax"), std::string::npos) << error.what();
    EXPECT_NE(error.message().find(record.at("expected_error").get<std::string>()),
              std::string::npos)
        << error.what();
    ASSERT_TRUE(line.has_value());
    EXPECT_EQ(error.location().line, *line) << error.what();
    tally.add("invalid, rejected by the reader");
    return;
  }
  Report report = validateMlirModule(module);
  if (valid) {
    EXPECT_TRUE(report.findings.empty()) << describe(report);
    tally.add(report.checkedOps ? "valid, accepted" : "valid attribute, nothing to check");
    return;
  }
  ASSERT_FALSE(report.findings.empty()) << "no finding for an invalid op";
  std::set<std::string> labels = expectedLabels(record);
  bool found = false;
  for (const Finding& finding : report.findings) {
    if (!labels.count(finding.label)) continue;
    found = true;
    if (line) EXPECT_EQ(finding.location.line, *line) << finding.message;
  }
  EXPECT_TRUE(found) << "expected one of " << record.at("constraint").dump() << ", got\n"
                     << describe(report);
  tally.add(report.findings.size() == 1 ? "invalid, rejected with the expected label"
                                        : "invalid, rejected with the expected label and more");
}

TEST(VerifierConformance, StablehloVerifierCases) {
  if (!std::ifstream(kDir + "verifier_cases.jsonl").good()) GTEST_SKIP() << "no conformance data";
  std::vector<json> records = readRecords("verifier_cases.jsonl");
  Tally tally;
  for (const json& record : records) checkRecord(record, tally);
  int total = 0;
  std::cout << "verifier_cases.jsonl: " << records.size() << " records\n";
  for (const auto& [outcome, count] : tally.counts) {
    std::cout << "  " << count << " " << outcome << "\n";
    total += count;
  }
  EXPECT_EQ(total, static_cast<int>(records.size()));
  EXPECT_GE(total, 68);  // every record checked, none skipped
}

// Bad input is a diagnostic, never a crash or a huge allocation: every record's text cut short
// at many points, and with each number in turn made absurdly large, either fails to read
// (ParseError) or verifies.
TEST(VerifierConformance, DamagedTextsAreDiagnosticsNotCrashes) {
  if (!std::ifstream(kDir + "verifier_cases.jsonl").good()) GTEST_SKIP() << "no conformance data";
  int read = 0, rejected = 0;
  auto attempt = [&](const std::string& text) {
    try {
      validateMlirModule(mlir_ir::parseMlirModule(text, "damaged.mlir"));
      ++read;
    } catch (const ParseError&) {
      ++rejected;
    }
  };
  for (const json& record : readRecords("verifier_cases.jsonl")) {
    std::string text = record.at("test_mlir");
    for (size_t cut = 0; cut < text.size(); cut += 13) attempt(text.substr(0, cut));
    for (size_t at = text.find_first_of("0123456789"); at != std::string::npos;
         at = text.find_first_of("0123456789", text.find_first_not_of("0123456789", at))) {
      size_t end = text.find_first_not_of("0123456789", at);
      attempt(text.substr(0, at) + "987654321987654321" +
              (end == std::string::npos ? "" : text.substr(end)));
      if (end == std::string::npos) break;
    }
  }
  std::cout << "damaged texts: " << read << " read and verified, " << rejected
            << " rejected by the reader\n";
  EXPECT_GT(read, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace idxmap::validation
