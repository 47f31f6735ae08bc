// all-gather and all-reduce against a direct evaluation: a replica group concatenates its
// shards along the gather dimension, so result index o reads element o mod n of replica
// o floordiv n's shard; on one device all-reduce reads its operand where it writes.
#include <gtest/gtest.h>

#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/models/model.h"
#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace collectives_test {
namespace {

std::string module(const std::string& body) { return "HloModule m\nENTRY e {\n" + body + "\n}"; }

// The replica id maps' relation (out..., replica), by brute force.
Relation replicaRelation(const OperandIndexing& entry) {
  Relation all;
  for (const IndexingMap& map : entry.replicaIdMaps) {
    Relation r = oracle::bruteForceRelation(map);
    all.insert(r.begin(), r.end());
  }
  return all;
}

TEST(AllGatherOp, ReadsTheShardOfTheReplicaThatHoldsTheIndex) {
  for (int dim : {0, 1}) {
    // Shards of 3x2 gathered four times along `dim`.
    std::vector<int64_t> shard = {3, 2}, whole = shard;
    whole[dim] *= 4;
    Hlo hlo(module("p0 = f32[3,2] parameter(0)\nROOT ag = f32[" + std::to_string(whole[0]) + "," +
                   std::to_string(whole[1]) +
                   "] all-gather(p0), replica_groups={{0,1,2,3}}, dimensions={" +
                   std::to_string(dim) + "}"));
    OperandIndexing entry = outToIn(hlo.root()).entries.at(0);
    ASSERT_FALSE(entry.unknown);
    EXPECT_EQ(relationOf(entry), readsRelation(whole, [&](const Index& o) {
                Index in = o;
                in[dim] = o[dim] % shard[dim];
                return std::vector<Index>{in};
              }));
    Relation replicas;
    forEachIndex(whole, [&](const Index& o) {
      Tuple t = o;
      t.push_back(o[dim] / shard[dim]);
      replicas.insert(t);
    });
    EXPECT_EQ(replicaRelation(entry), replicas);
    EXPECT_TRUE(inToOut(hlo.root(), 0).entries.at(0).unknown) << "as in XLA";
  }
}

TEST(AllGatherOp, ThroughAFusionTheReplicaMapComposesAndAChainIsUnknown) {
  hlo::Module m = hlo::parseHloModule(R"(HloModule m
f {
  p0 = f32[8] parameter(0)
  ag = f32[16] all-gather(p0), replica_groups={{0,1}}, dimensions={0}
  ROOT s = f32[5] slice(ag), slice={[3:13:2]}
}
g {
  p0 = f32[8] parameter(0)
  a0 = f32[16] all-gather(p0), replica_groups={{0,1}}, dimensions={0}
  ROOT a1 = f32[32] all-gather(a0), replica_groups={{0,1}}, dimensions={0}
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[5] fusion(x), kind=kLoop, calls=f
  z = f32[32] fusion(x), kind=kLoop, calls=g
  ROOT t = (f32[5], f32[32]) tuple(y, z)
})",
                                      "test.hlo");
  OperandIndexing sliced = computeOutputToInputIndexing(*m.entry->find("y"), 0).entries.at(0);
  // Result o reads gathered element 3 + 2o: element (3 + 2o) mod 8 of replica (3 + 2o) div 8.
  EXPECT_EQ(relationOf(sliced), readsRelation({5}, [](const Index& o) {
              return std::vector<Index>{{(3 + 2 * o[0]) % 8}};
            }));
  Relation replicas;
  for (int64_t o = 0; o < 5; ++o) replicas.insert({o, (3 + 2 * o) / 8});
  EXPECT_EQ(replicaRelation(sliced), replicas);
  EXPECT_TRUE(computeOutputToInputIndexing(*m.entry->find("z"), 0).entries.at(0).unknown);
}

// Several operands: result k gathers operand k, and reads none of the others.
TEST(AllGatherOp, SeveralOperandsGatherEachItsOwn) {
  Hlo hlo(module(
      "a = f32[2,2] parameter(0)\nb = f32[2,3] parameter(1)\n"
      "ROOT ag = (f32[2,4], f32[2,6]) all-gather(a, b), replica_groups={{0,1}}, dimensions={1}"));
  for (int k : {0, 1}) {
    const int64_t shard = k == 0 ? 2 : 3;
    InstructionIndexing indexing = outToIn(hlo.root(), k);
    ASSERT_EQ(indexing.entries.size(), 2u);
    EXPECT_EQ(relationOf(indexing.entries[k]), readsRelation({2, 2 * shard}, [&](const Index& o) {
                return std::vector<Index>{{o[0], o[1] % shard}};
              }));
    const OperandIndexing& other = indexing.entries[1 - k];
    ASSERT_EQ(other.maps.size(), 1u);
    EXPECT_TRUE(other.maps[0].knownEmpty);
  }
  auto error = validationError(module(
      "a = f32[2,2] parameter(0)\nb = f32[2,3] parameter(1)\n"
      "ROOT ag = (f32[2,4], f32[2,4]) all-gather(a, b), replica_groups={{0,1}}, dimensions={1}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "all-gather: dimension 1 of the result 1 (4) must be a multiple of the operand's (3)");
}

// all-gather-start: result 0 is its operand, result 1 the gathered value (with the replica id
// map); through a fusion's get-tuple-element of element 1 it reads as all-gather does. Several
// operands make each side a tuple: shapes checked, maps unknown.
TEST(AllGatherOp, StartPairsTheOperandWithTheGatheredValue) {
  hlo::Module m = hlo::parseHloModule(R"(HloModule m
f {
  p = f32[3] parameter(0)
  s = (f32[3], f32[6]) all-gather-start(p), replica_groups={{0,1}}, dimensions={0}
  ROOT g = f32[6] get-tuple-element(s), index=1
}
ENTRY e {
  x = f32[3] parameter(0)
  y = f32[2] parameter(1)
  s = (f32[3], f32[6]) all-gather-start(x), replica_groups={{0,1}}, dimensions={0}
  v = ((f32[3], f32[2]), (f32[6], f32[4])) all-gather-start(x, y), replica_groups={{0,1}}, dimensions={0}
  ROOT z = f32[6] fusion(x), kind=kLoop, calls=f
})",
                                      "test.hlo");
  const hlo::Instruction& start = *m.entry->find("s");
  EXPECT_EQ(relationOf(computeOutputToInputIndexing(start, 0).entries.at(0)),
            readsRelation({3}, [](const Index& o) { return std::vector<Index>{o}; }));
  auto gathered = [](const Index& o) { return std::vector<Index>{{o[0] % 3}}; };
  Relation replicas;
  for (int64_t o = 0; o < 6; ++o) replicas.insert({o, o / 3});
  for (const hlo::Instruction* from :
       {&start, static_cast<const hlo::Instruction*>(m.entry->find("z"))}) {
    OperandIndexing entry =
        computeOutputToInputIndexing(*from, from == &start ? 1 : 0).entries.at(0);
    EXPECT_EQ(relationOf(entry), readsRelation({6}, gathered)) << from->name;
    EXPECT_EQ(replicaRelation(entry), replicas) << from->name;
  }
  EXPECT_TRUE(computeOutputToInputIndexing(*m.entry->find("v"), 1).entries.at(0).unknown);
  auto error = validationError(
      module("x = f32[3] parameter(0)\n"
             "ROOT s = f32[6] all-gather-start(x), replica_groups={{0,1}}, dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "all-gather-start: result f32[6] must be the pair (operands, gathered results)");
  error = validationError(module(
      "x = f32[3] parameter(0)\n"
      "ROOT s = (f32[3], f32[9]) all-gather-start(x), replica_groups={{0,1}}, dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "all-gather-start: replica_groups of 2 replicas gather 6 elements along dimension 0, "
            "the result has 9");
}

// A result shape left out is inferred as XLA infers it: the operand times the group size; a
// group size the module does not give is a diagnostic.
TEST(AllGatherOp, ALeftOutShapeIsTheOperandTimesTheGroup) {
  hlo::Module m = readHloModule(
      "HloModule m\nENTRY e {\n  p = f32[2,3] parameter(0)\n"
      "  ROOT ag = all-gather(p), replica_groups={{0,1,2}}, dimensions={1}\n}\n",
      "test.hlo");
  EXPECT_EQ(m.entry->root->shape.toString(), "f32[2,9]");
  try {
    readHloModule(
        "HloModule m\nENTRY e {\n  p = f32[2,3] parameter(0)\n"
        "  ROOT ag = all-gather(p), replica_groups={}, dimensions={1}\n}\n",
        "test.hlo");
    ADD_FAILURE() << "an all-gather of every replica got a shape";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("replica_groups does not say how many replicas gather"),
              std::string::npos)
        << e.message();
  }
}

// XLA's mesh form: a group spans the named axes, the product of their sizes.
TEST(AllGatherOp, MeshGroupsSpanTheirAxes) {
  auto gather = [](const std::string& axes, int64_t size) {
    return module("p0 = f32[2] parameter(0)\nROOT ag = f32[" + std::to_string(size) +
                  "] all-gather(p0), replica_groups=mesh['x'=2,'y'=3] {" + axes +
                  "}, dimensions={0}");
  };
  EXPECT_FALSE(validationError(gather("'x','y'", 12)));
  EXPECT_FALSE(validationError(gather("'y'", 6)));
  auto error = validationError(gather("'x'", 6));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("replica_groups of 2 replicas gather 4"), std::string::npos);
  error = validationError(gather("'z'", 6));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("expected {{0,1},...}"), std::string::npos);
  // Sizes whose product, or the elements gathered, do not fit in int64: diagnostics.
  error = validationError(
      module("p0 = f32[2] parameter(0)\nROOT ag = f32[4] all-gather(p0), "
             "replica_groups=mesh['x'=4294967296,'y'=4294967296] {'x','y'}, dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("a group of more than 2^63 replicas"), std::string::npos);
  error =
      validationError(module("p0 = f32[2] parameter(0)\nROOT ag = f32[4] all-gather(p0), "
                             "replica_groups=mesh['x'=4611686018427387904] {'x'}, "
                             "dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("gather more than 2^63 elements"), std::string::npos);
}

TEST(AllGatherOp, Validation) {
  auto error = validationError(
      module("p0 = f32[8] parameter(0)\n"
             "ROOT ag = f32[12] all-gather(p0), replica_groups={{0,1}}, dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "all-gather: dimension 0 of the result (12) must be a multiple of the operand's (8)");
  error = validationError(
      module("p0 = f32[8] parameter(0)\n"
             "ROOT ag = f32[24] all-gather(p0), replica_groups=[2,2]<=[4], dimensions={0}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "all-gather: replica_groups of 2 replicas gather 16 elements along dimension 0, the "
            "result has 24");
  error = validationError(
      module("p0 = f32[8] parameter(0)\n"
             "ROOT ag = f32[16] all-gather(p0), replica_groups={}, dimensions={1}"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "dimensions={1}: must name one dimension of the rank-1 operand");
  for (const char* groups : {"[2,x]<=[4]", "[2,99999999999999999999]<=[4]"}) {
    error =
        validationError(module("p0 = f32[8] parameter(0)\nROOT ag = f32[16] all-gather(p0), "
                               "replica_groups=" +
                               std::string(groups) + ", dimensions={0}"));
    ASSERT_TRUE(error) << groups;
    EXPECT_NE(error->message().find("expected {{0,1},...} or [groups,size]<=[n]"),
              std::string::npos)
        << error->message();
  }
}

TEST(AllReduceOp, IsTheIdentityOnOneDevice) {
  Hlo hlo(
      module("p0 = f32[4,3] parameter(0)\n"
             "ROOT ar = f32[4,3] all-reduce(p0), replica_groups={}, to_apply=add") +
      "\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}");
  EXPECT_EQ(relationOf(outToIn(hlo.root()).entries.at(0)),
            readsRelation({4, 3}, [](const Index& o) { return std::vector<Index>{o}; }));
  expectInputToOutputInvertsOutputToInput(hlo.root());
}

// Several operands: a tuple of results, result k from operand k only (the others are not read
// for it), as XLA's all-reduce gives them; all-reduce-done hands its tuple back element for
// element. Worked out from the operation semantics: on one device nothing moves.
TEST(AllReduceOp, SeveralOperandsGiveATupleReadElementForElement) {
  const std::string add =
      "\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}";
  Hlo hlo(module("p0 = f32[4] parameter(0)\np1 = f32[2,3] parameter(1)\n"
                 "ars = (f32[4], f32[2,3]) all-reduce-start(p0, p1), replica_groups={}, "
                 "to_apply=add\n"
                 "ROOT ard = (f32[4], f32[2,3]) all-reduce-done(ars)") +
          add);
  const hlo::Instruction& done = hlo.root();
  const hlo::Instruction& start = *done.operands.at(0);
  auto same = [](const Index& o) { return std::vector<Index>{o}; };
  for (int k : {0, 1}) {
    Index shape = k == 0 ? Index{4} : Index{2, 3};
    InstructionIndexing started = outToIn(start, k);
    ASSERT_EQ(started.entries.size(), 2u);
    EXPECT_EQ(relationOf(started.entries.at(static_cast<size_t>(k))), readsRelation(shape, same));
    EXPECT_TRUE(relationOf(started.entries.at(static_cast<size_t>(1 - k))).empty());
    EXPECT_EQ(relationOf(outToIn(done, k).entries.at(0)), readsRelation(shape, same));
  }
  expectInputToOutputInvertsOutputToInput(start);

  // Each operand is an array; the declared tuple must be the operands' shapes.
  auto error = validationError(module("p0 = f32[4] parameter(0)\n"
                                      "ROOT ar = (f32[4], f32[4]) all-reduce(p0, p0), "
                                      "replica_groups={}, to_apply=add") +
                               add);
  EXPECT_FALSE(error) << error->message();
  error = validationError(module("p0 = f32[4] parameter(0)\np1 = f32[3] parameter(1)\n"
                                 "ROOT ar = (f32[4], f32[4]) all-reduce(p0, p1), "
                                 "replica_groups={}, to_apply=add") +
                          add);
  ASSERT_TRUE(error);
}

}  // namespace
}  // namespace collectives_test
}  // namespace idxmap::optest
