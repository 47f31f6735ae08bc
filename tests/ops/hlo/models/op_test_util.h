// Helpers for the op-model tests: HLO text in, maps compared by meaning (isl) and by brute
// force against an independent evaluation of each op's index semantics.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/bridges/isl_bridge.h"
#include "core/text.h"
#include "ops/hlo/models/model.h"
#include "ops/hlo/module.h"
#include "tests/support/map_oracle.h"

namespace idxmap::optest {

using Index = std::vector<int64_t>;
using Tuple = oracle::Tuple;
using Relation = std::set<Tuple>;

// An HLO module kept alive with the instruction under test (the entry's root by default).
struct Hlo {
  explicit Hlo(const std::string& text) : module(hlo::parseHloModule(text, "test.hlo")) {}
  const hlo::Instruction& root() const { return *module.entry->root; }
  const hlo::Instruction& operator[](const std::string& name) const {
    return *module.entry->find(name);
  }
  hlo::Module module;
};

inline const OpModel& modelOf(const hlo::Instruction& instruction) {
  const OpModel* model = findOpModel(instruction.opcode);
  if (!model) throw std::runtime_error("no model for " + instruction.opcode);
  return *model;
}

inline InstructionIndexing outToIn(const hlo::Instruction& instruction, int outputId = 0) {
  return modelOf(instruction).outputToInput(instruction, outputId, PointDims::kReplace);
}
inline InstructionIndexing inToOut(const hlo::Instruction& instruction, int inputId) {
  return modelOf(instruction).inputToOutput(instruction, inputId, PointDims::kReplace);
}

inline std::string describe(const OperandIndexing& entry) {
  if (entry.unknown) return "unknown indexing\n";
  std::string text;
  for (const IndexingMap& map : entry.maps) text += printIndexingMap(map) + "\n\n";
  return text;
}

// Each expected map (XLA text) equals one of the actual maps exactly, and vice versa.
inline void expectMaps(const OperandIndexing& entry, const std::vector<std::string>& expected) {
  ASSERT_FALSE(entry.unknown);
  ASSERT_EQ(entry.maps.size(), expected.size()) << describe(entry);
  for (const std::string& text : expected) {
    IndexingMap want = parseIndexingMap(text);
    bool found = false;
    for (const IndexingMap& map : entry.maps) found = found || islEqual(map, want).isProven();
    EXPECT_TRUE(found) << "expected\n" << text << "\namong\n" << describe(entry);
  }
}
inline void expectMap(const OperandIndexing& entry, const std::string& expected) {
  expectMaps(entry, {expected});
}

// The union of the maps' relations as (rt..., d..., results...) tuples, by brute force.
inline Relation relationOf(const OperandIndexing& entry) {
  Relation all;
  for (const IndexingMap& map : entry.maps) {
    Relation r = oracle::bruteForceRelation(map);
    all.insert(r.begin(), r.end());
  }
  return all;
}

inline void forEachIndex(const std::vector<int64_t>& dims, const std::function<void(Index)>& f) {
  std::vector<Interval> ranges;
  for (int64_t d : dims) ranges.push_back({0, d - 1});
  oracle::forEachAssignment(ranges, [&](const std::vector<int64_t>& v) { f(v); });
}

// The relation { (out, in) : computing out reads in } from a direct evaluation of the op:
// `reads(out)` lists the operand indices the result index reads.
inline Relation readsRelation(const std::vector<int64_t>& resultDims,
                              const std::function<std::vector<Index>(const Index&)>& reads) {
  Relation relation;
  forEachIndex(resultDims, [&](const Index& out) {
    for (const Index& in : reads(out)) {
      Tuple t = out;
      t.insert(t.end(), in.begin(), in.end());
      relation.insert(t);
    }
  });
  return relation;
}

// (rt..., a..., b...) -> (rt..., b..., a...).
inline Relation swapped(const Relation& relation, size_t runtimeVars, size_t aSize) {
  Relation out;
  for (const Tuple& t : relation) {
    Tuple s(t.begin(), t.begin() + runtimeVars);
    s.insert(s.end(), t.begin() + runtimeVars + aSize, t.end());
    s.insert(s.end(), t.begin() + runtimeVars, t.begin() + runtimeVars + aSize);
    out.insert(s);
  }
  return out;
}

// For every operand and result: operand->result is exactly result->operand read backwards.
inline void expectInputToOutputInvertsOutputToInput(const hlo::Instruction& instruction) {
  int results = instruction.shape.isTuple ? instruction.shape.tupleElements.size() : 1;
  for (int j = 0; j < results; ++j) {
    InstructionIndexing forward = outToIn(instruction, j);
    for (size_t k = 0; k < instruction.operands.size(); ++k) {
      InstructionIndexing backward = inToOut(instruction, static_cast<int>(k));
      const OperandIndexing& f = forward.entries.at(k);
      const OperandIndexing& b = backward.entries.at(j);
      ASSERT_FALSE(f.unknown || b.unknown);
      size_t runtimeVars = f.maps.empty() ? 0 : f.maps[0].runtimeVars.size();
      size_t resultRank = f.maps.empty() ? 0 : f.maps[0].dims.size();
      EXPECT_EQ(relationOf(b), swapped(relationOf(f), runtimeVars, resultRank))
          << "result " << j << ", operand " << k << "\nforward:\n"
          << describe(f) << "backward:\n"
          << describe(b);
    }
  }
}

// The diagnostic that `validate` raises for the root of `text` (which must parse).
inline std::optional<ParseError> validationError(const std::string& text) {
  Hlo hlo(text);
  try {
    modelOf(hlo.root()).validate(hlo.root());
  } catch (const ParseError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace idxmap::optest
