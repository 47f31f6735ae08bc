// all-gather(x), dimensions={g}, replica_groups=...: the replicas of a group concatenate their
// shards along g. Result index i of dimension g reads the shard's element i mod n (n the
// operand's extent of g) on replica i floordiv n, as XLA's indexing analysis models it: the
// operand map (.., d_g mod n, ..) and a replica id map (..) -> (d_g floordiv n).
// Input to output is unknown (as in XLA): the result position of an element depends on
// which replica holds it, which the operand index alone does not say.
#include <algorithm>
#include <charconv>
#include <optional>

#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

// The size of every group, when replica_groups says it: `{{0,1},{2,3}}` (the first group's
// length) or XLA's iota form `[2,4]<=[8]` (the second size). Absent or `{}`: every replica,
// a count the module does not give. A form it cannot read is a located error.
std::optional<int64_t> groupSize(const Instruction& instruction) {
  auto found = instruction.attributes.find("replica_groups");
  if (found == instruction.attributes.end()) return std::nullopt;
  const hlo::Attribute& attribute = found->second;
  const std::string& text = attribute.value;
  auto unreadable = [&]() {
    hlo::failInAttribute(attribute, "replica_groups", 0,
                         "expected {{0,1},...} or [groups,size]<=[n]");
  };
  if (text.rfind('[', 0) == 0) {  // [groups,size]<=[n]...
    size_t comma = text.find(',');
    size_t close = text.find(']');
    if (comma == std::string::npos || close == std::string::npos || comma > close) unreadable();
    int64_t size = 0;
    const char* first = text.data() + comma + 1;
    const char* last = text.data() + close;
    auto [end, error] = std::from_chars(first, last, size);
    if (error != std::errc() || end != last || size <= 0) unreadable();
    return size;
  }
  if (text.rfind('{', 0) != 0) unreadable();
  size_t open = text.find('{', 1);
  if (open == std::string::npos) return std::nullopt;  // `{}`
  size_t close = text.find('}', open);
  if (close == std::string::npos) unreadable();
  if (close == open + 1) return std::nullopt;
  std::string group = text.substr(open + 1, close - open - 1);
  return static_cast<int64_t>(std::count(group.begin(), group.end(), ',')) + 1;
}

class AllGatherModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    expectOperandCount(instruction, 1);
    const Shape& operand = arrayOperand(instruction, 0);
    int64_t dim = gatherDim(instruction);
    const Shape& declared = instruction.shape;
    if (declared.isTuple || declared.rank() != operand.rank())
      failAtInstruction(instruction, "result " + declared.toString() +
                                         " must be an array of the operand's rank " +
                                         std::to_string(operand.rank()));
    int64_t shard = operand.extent(dim), whole = declared.extent(dim);
    if (shard <= 0 || whole % shard != 0)
      failAtInstruction(instruction, "dimension " + std::to_string(dim) + " of the result (" +
                                         std::to_string(whole) +
                                         ") must be a multiple of the operand's (" +
                                         std::to_string(shard) + ")");
    if (std::optional<int64_t> size = groupSize(instruction); size && whole != shard * *size)
      failAtInstruction(instruction, "replica_groups of " + std::to_string(*size) +
                                         " replicas gather " + std::to_string(shard * *size) +
                                         " elements along dimension " + std::to_string(dim) +
                                         ", the result has " + std::to_string(whole));
    Shape shape = operand;
    shape.layout.reset();
    shape.setDim(static_cast<size_t>(dim), whole, hlo::isDynamicDim(declared, dim));
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    IndexingMap map = domainOf(instruction.shape);
    map.results = dimExprs(map);
    int64_t dim = gatherDim(instruction);
    map.results[dim] = map.results[dim].mod(shardSize(instruction, dim));
    return {{map}};
  }
  MapSets replicaIdMaps(const Instruction& instruction, int) const override {
    IndexingMap map = domainOf(instruction.shape);
    int64_t dim = gatherDim(instruction);
    map.results = {dimExprs(map)[dim].floorDiv(shardSize(instruction, dim))};
    return {{map}};
  }
  MapSets mapsToResults(const Instruction&, int) const override {
    throw Inexpressible("all-gather: a result position depends on the replica");
  }

 private:
  static int64_t gatherDim(const Instruction& instruction) {
    const hlo::Attribute& attribute = hlo::requireAttribute(instruction, "dimensions");
    std::vector<int64_t> dims = hlo::readIntList(attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (dims.size() != 1 || dims[0] < 0 || dims[0] >= rank)
      hlo::failInAttribute(
          attribute, "dimensions", 0,
          "must name one dimension of the rank-" + std::to_string(rank) + " operand");
    return dims[0];
  }
  static int64_t shardSize(const Instruction& instruction, int64_t dim) {
    const Shape& operand = instruction.operands[0]->shape;
    if (hlo::isDynamicDim(operand, dim)) throw Inexpressible("all-gather of a dynamic dimension");
    return operand.extent(dim);
  }
};

}  // namespace

const OpModel& allGatherModel() {
  static const AllGatherModel model;
  return model;
}

}  // namespace idxmap::ops
