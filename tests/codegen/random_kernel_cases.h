// The random gathers and scatters of kernel_random_test and cuda_kernels_test (seeded: a test's
// sample seed, tests/support/sampling.h, gives the same ops to every test of a run): each with
// its read tensors, the reference evaluator's results, and,
// where the index values are known, what brute force says of them (the proofs' oracle).
#pragma once

#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops/eval/reference_evaluator.h"
#include "tests/codegen/random_mlir.h"

namespace idxmap::codegen::testing {

using gather_scatter::testing::asGatherOp;
using gather_scatter::testing::asScatterOp;
using gather_scatter::testing::randomIndices;
using gather_scatter::testing::randomOp;
using gather_scatter::testing::RandomOp;

struct RandomCase {
  bool scatter = false;
  GatherOp gather;
  ScatterOp scatterOp;
  std::vector<Tensor> reads;  // the kernel's read buffers, in parameter order
  std::vector<Tensor> expected;
  // Known index values only: what brute force says of them, the oracle of the proofs.
  std::optional<bool> clampsOrSkips;
  std::optional<bool> collides;
};

// Brute force over known values: does gather clamp a start index, does scatter skip an
// update, do two applied updates share a target?
inline bool gatherClamps(const GatherOp& op, const Tensor& indices) {
  const auto& dn = op.dimension_numbers;
  std::vector<int64_t> index(indices.shape.size(), 0);
  for (size_t position = 0; position < indices.ints.size(); ++position) {
    size_t k = dn.index_vector_dim < static_cast<int64_t>(index.size())
                   ? static_cast<size_t>(index[dn.index_vector_dim])
                   : 0;
    int64_t d = dn.start_index_map.at(k), v = indices.ints[position];
    if (v < 0 || v > op.operand.shape[d] - op.slice_sizes[d]) return true;
    gather_scatter::nextIndex(indices.shape, index);
  }
  return false;
}

inline void scatterTargets(const ScatterOp& op, const Tensor& indices, RandomCase& c) {
  int64_t applied = 0, updatePoints = 1;
  for (int64_t size : op.updates[0].shape) updatePoints *= size;
  std::set<int64_t> targets;
  bool collides = false;
  gather_scatter::forEachReferenceScatterTarget(op, indices, op.updates[0].shape,
                                                op.inputs[0].shape, [&](int64_t, int64_t target) {
                                                  ++applied;
                                                  collides |= !targets.insert(target).second;
                                                });
  c.clampsOrSkips = applied < updatePoints;
  c.collides = collides;
}

struct RandomCases {
  std::vector<RandomCase> cases;
  std::string module;  // one MLIR function per case, f<i>
};

// `gathers` gathers, then `scatters` scatters.
inline RandomCases randomKernelCases(int gathers, int scatters, uint32_t seed) {
  RandomCases out;
  std::vector<RandomCase>& cases = out.cases;
  std::string& module = out.module;
  std::mt19937 rng(seed);
  const char* gatherTypes[] = {"f32", "f16", "bf16", "i32", "f64", "i8", "ui16", "i1", "i64", "i4"};
  const char* indexTypes[] = {"i32", "i64", "i16"};
  const std::vector<std::vector<std::string>> scatterTypes = {
      {"f32"}, {"f16"}, {"bf16"}, {"i32"}, {"i64", "f64"}, {"ui8"}, {"i1"}, {"i4"}, {"ui2", "i32"}};
  const UpdateComputation computations[] = {UpdateComputation::kAdd, UpdateComputation::kMul,
                                            UpdateComputation::kMin, UpdateComputation::kMax,
                                            UpdateComputation::kReplace};
  for (int trial = 0; trial < gathers + scatters; ++trial) {
    RandomOp random = randomOp(rng);
    RandomCase c;
    c.scatter = trial >= gathers;
    std::string indexType = indexTypes[trial % 3];
    Tensor indices = randomIndices(rng, random);
    indices.element_type = indexType;
    if (trial % 3 == 1)
      indices = inRangeIndices(rng, indices, random.dims.index_vector_dim,
                               random.dims.start_index_map, random.operandShape, random.sliceSizes);
    std::optional<Tensor> known;
    if (trial % 3 != 2) known = indices;
    std::string name = "f" + std::to_string(trial);
    if (!c.scatter) {
      c.gather = asGatherOp(random);
      std::string type = gatherTypes[trial % std::size(gatherTypes)];
      c.gather.operand.element_type = type;
      c.gather.result->element_type = type;
      c.gather.start_indices.element_type = indexType;
      Tensor operand = randomTensor(rng, type, random.operandShape);
      c.reads = {operand, indices};  // a kernel takes its indices even when they are known
      c.expected = {gather_scatter::referenceGather(c.gather, operand, indices)};
      if (known && !c.expected[0].shape.empty() && c.expected[0].elementCount() > 0)
        c.clampsOrSkips = gatherClamps(c.gather, indices);
      module += gatherFunction(name, c.gather, known);
    } else {
      c.scatterOp = asScatterOp(random, computations[trial % 5]);
      const std::vector<std::string>& types = scatterTypes[trial % scatterTypes.size()];
      c.scatterOp.inputs.resize(types.size());
      c.scatterOp.updates.resize(types.size());
      std::vector<Tensor> inputs, updates;
      for (size_t i = 0; i < types.size(); ++i) {
        c.scatterOp.inputs[i] = {random.operandShape, types[i]};
        c.scatterOp.updates[i] = {random.resultShape, types[i]};
        inputs.push_back(randomTensor(rng, types[i], random.operandShape));
        updates.push_back(randomTensor(rng, types[i], random.resultShape));
      }
      c.scatterOp.scatter_indices.element_type = indexType;
      c.reads = inputs;
      c.reads.push_back(indices);
      c.reads.insert(c.reads.end(), updates.begin(), updates.end());
      c.expected = gather_scatter::referenceScatter(c.scatterOp, inputs, indices, updates);
      if (known) scatterTargets(c.scatterOp, indices, c);
      module += scatterFunction(name, c.scatterOp, known);
    }
    cases.push_back(std::move(c));
  }
  return out;
}

}  // namespace idxmap::codegen::testing
