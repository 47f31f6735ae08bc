// Both directions walk the fused graph once, keeping per node the set of distinct maps from
// the start to it. Deduplicating at every node, not per path, keeps diamonds (softmax,
// p0 + transpose(p0)) from multiplying paths: the work grows with the number of distinct
// maps, not with the number of paths.
#include "ops/hlo/analysis/fusion.h"

#include <unordered_map>
#include <unordered_set>

#include "ops/hlo/analysis/distinct_maps.h"
#include "ops/hlo/analysis/indexing.h"
#include "ops/hlo/attributes.h"
#include "ops/hlo/models/common.h"
#include "simplifier/simplify.h"

namespace idxmap {
namespace {

using hlo::Computation;
using hlo::Instruction;

// One result of one instruction: tuple-shaped ops (variadic reduce) have several.
struct Node {
  const Instruction* instruction;
  int output;
  bool operator==(const Node& o) const = default;
};

struct NodeHash {
  size_t operator()(const Node& node) const {
    return std::hash<const void*>()(node.instruction) * 31 + static_cast<size_t>(node.output);
  }
};

using Reached = std::unordered_map<Node, OperandIndexing, NodeHash>;

[[noreturn]] void failAtFusion(const Instruction& fusion, const std::string& message) {
  throw ParseError(fusion.opcodeLocation, "fusion: " + message, "");
}

const Computation& fusedComputation(const Instruction& fusion) {
  if (fusion.calledComputations.size() != 1)
    failAtFusion(fusion, "needs exactly one fused computation (calls=)");
  const Computation& body = *fusion.calledComputations[0];
  size_t parameters = 0;
  for (const auto& instruction : body.instructions)
    parameters += instruction->opcode == "parameter" ? 1 : 0;
  if (parameters != fusion.operands.size())
    failAtFusion(fusion, "has " + std::to_string(fusion.operands.size()) + " operands but '" +
                             body.name + "' has " + std::to_string(parameters) + " parameters");
  for (size_t k = 0; k < fusion.operands.size(); ++k)
    if (!body.parameter(static_cast<int64_t>(k)))
      failAtFusion(fusion, "'" + body.name + "' has no parameter(" + std::to_string(k) + ")");
  return body;
}

// The result of operand `k` that `consumer` reads: a get-tuple-element reads element
// `index` of its tuple; every other op reads its operand's only result.
int resultRead(const Instruction& consumer) {
  if (consumer.opcode != "get-tuple-element" || consumer.operands.empty() ||
      !consumer.operands[0]->shape.isTuple)
    return 0;
  return static_cast<int>(hlo::readInt(hlo::requireAttribute(consumer, "index"), "index"));
}

// The identity on result `output` of `instruction`: where every walk starts.
OperandIndexing identityAt(const Instruction& instruction, int output) {
  try {
    IndexingMap domain = ops::domainOf(ops::resultShape(instruction, output));
    return {.maps = {ops::withResults(domain, ops::dimExprs(domain))},
            .unknown = false,
            .replicaIdMaps = {},
            .why = {}};
  } catch (const ops::Inexpressible&) {
    return OperandIndexing::unknownIndexing();  // an unbounded `?` dimension has no index space to
                                                // start from
  }
}

// Extends `to` by every `from` map followed by every `step` map. A replica id map rides
// along (composed with the path before it); two collectives on one path are unknown, as XLA
// leaves chained collectives undefined.
void extend(OperandIndexing& to, const OperandIndexing& from, const OperandIndexing& step) {
  if (from.unknown || step.unknown) to.unknown = true;
  if (!from.replicaIdMaps.empty() && !step.replicaIdMaps.empty()) {
    to.unknown = true;
    return;
  }
  for (const IndexingMap& first : from.maps)
    for (const IndexingMap& second : step.maps)
      insertDistinct(to.maps, withoutUnusedRuntimeVars(composeAndSimplify(first, second)));
  for (const IndexingMap& replica : from.replicaIdMaps) insertDistinct(to.replicaIdMaps, replica);
  for (const IndexingMap& first : from.maps)
    for (const IndexingMap& replica : step.replicaIdMaps)
      insertDistinct(to.replicaIdMaps,
                     withoutUnusedRuntimeVars(composeAndSimplify(first, replica)));
}

// Consumers before producers: the reverse post-order of a depth-first walk over operands,
// iterative so that a chain of any length cannot exhaust the stack.
std::vector<Node> consumersFirst(Node start) {
  std::vector<Node> postOrder;
  std::unordered_set<Node, NodeHash> seen = {start};
  std::vector<std::pair<Node, size_t>> stack = {{start, 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const Instruction& consumer = *node.instruction;
    if (next < consumer.operands.size()) {
      Node producer{consumer.operands[next++], resultRead(consumer)};
      if (seen.insert(producer).second) stack.push_back({producer, 0});
    } else {
      postOrder.push_back(node);
      stack.pop_back();
    }
  }
  return {postOrder.rbegin(), postOrder.rend()};
}

}  // namespace

InstructionIndexing fusionOutputToInput(const Instruction& fusion, int outputId) {
  const Computation& body = fusedComputation(fusion);
  if (outputId < 0 || outputId >= ops::resultCount(*body.root))
    failAtFusion(fusion, "has no result " + std::to_string(outputId));
  // A root tuple's elements are the fusion's roots (XLA flattens them): result k starts at
  // element k, and a parameter only the other roots read gets no map at all.
  Node start{body.root, body.root->shape.isTuple ? outputId : 0};
  while (start.instruction->opcode == "tuple" &&
         start.output < static_cast<int>(start.instruction->operands.size())) {
    const Instruction& element = *start.instruction->operands[start.output];
    start = {&element, 0};
  }
  Reached reached;  // node -> maps from the fusion's result to that node
  reached[start] = identityAt(*start.instruction, start.output);
  for (const Node& node : consumersFirst(start)) {
    OperandIndexing& here = reached[node];  // references survive rehashing
    dropEmptyPieces(here.maps);
    const Instruction& consumer = *node.instruction;
    if (consumer.opcode == "parameter" || (here.maps.empty() && !here.unknown)) continue;
    InstructionIndexing steps = computeOutputToInputIndexing(consumer, node.output);
    for (size_t k = 0; k < consumer.operands.size(); ++k) {
      OperandIndexing step =
          k < steps.entries.size() ? steps.entries[k] : OperandIndexing::unknownIndexing();
      extend(reached[Node{consumer.operands[k], resultRead(consumer)}], here, step);
    }
  }
  InstructionIndexing indexing;
  for (size_t k = 0; k < fusion.operands.size(); ++k) {
    OperandIndexing entry = reached[Node{body.parameter(static_cast<int64_t>(k)), 0}];
    dropEmptyPieces(entry.maps);
    indexing.entries.push_back(std::move(entry));
  }
  return indexing;
}

InstructionIndexing fusionInputToOutput(const Instruction& fusion, int inputId) {
  const Computation& body = fusedComputation(fusion);
  if (inputId < 0 || inputId >= static_cast<int>(fusion.operands.size()))
    failAtFusion(fusion, "has no operand " + std::to_string(inputId));
  const Instruction& parameter = *body.parameter(inputId);
  Reached reached;  // node -> maps from the fusion's operand to that node
  reached[Node{&parameter, 0}] = identityAt(parameter, 0);
  // Text order is a topological order: the reader only lets an instruction use instructions
  // written before it.
  for (const auto& owned : body.instructions) {
    const Instruction& consumer = *owned;
    for (size_t k = 0; k < consumer.operands.size(); ++k) {
      auto found = reached.find(Node{consumer.operands[k], resultRead(consumer)});
      if (found == reached.end()) continue;
      OperandIndexing from = found->second;
      dropEmptyPieces(from.maps);
      if (from.maps.empty() && !from.unknown) continue;
      InstructionIndexing steps = computeInputToOutputIndexing(consumer, static_cast<int>(k));
      int results = ops::resultCount(consumer);
      for (int r = 0; r < results; ++r) {
        OperandIndexing step = r < static_cast<int>(steps.entries.size())
                                   ? steps.entries[r]
                                   : OperandIndexing::unknownIndexing();
        extend(reached[Node{&consumer, r}], from, step);
      }
    }
  }
  InstructionIndexing indexing;
  int results = ops::resultCount(*body.root);
  for (int r = 0; r < results; ++r) {
    OperandIndexing entry = reached[Node{body.root, r}];
    dropEmptyPieces(entry.maps);
    indexing.entries.push_back(std::move(entry));
  }
  return indexing;
}

}  // namespace idxmap
