#include "codegen/ir/kernel_ir.h"

#include <utility>

namespace idxmap::codegen::ir {
namespace {

Value valueOf(ValueNode node) { return std::make_shared<const ValueNode>(std::move(node)); }

Node nodeOf(Node::Kind kind) {
  Node node;
  node.kind = kind;
  return node;
}

}  // namespace

Value indexValue(CExpr index) {
  return valueOf({ValueNode::Kind::kIndex, {}, std::move(index), {}});
}

Value variableValue(std::string name) {
  return valueOf({ValueNode::Kind::kVariable, std::move(name), {}, {}});
}

Value loadValue(std::string buffer, CExpr offset) {
  return valueOf({ValueNode::Kind::kLoad, std::move(buffer), std::move(offset), {}});
}

Value addressValue(std::string buffer, CExpr offset) {
  return valueOf({ValueNode::Kind::kAddress, std::move(buffer), std::move(offset), {}});
}

Value castValue(std::string type, Value operand) {
  return valueOf({ValueNode::Kind::kCast, std::move(type), {}, {std::move(operand)}});
}

Value callValue(std::string function, std::vector<Value> arguments) {
  return valueOf({ValueNode::Kind::kCall, std::move(function), {}, std::move(arguments)});
}

Value literalValue(std::string text) {
  return valueOf({ValueNode::Kind::kLiteral, std::move(text), {}, {}});
}

Value elementValue(std::string code, std::vector<Value> from) {
  return valueOf({ValueNode::Kind::kElement, std::move(code), {}, std::move(from)});
}

Node block(std::vector<Node> body, bool scoped) {
  Node node = nodeOf(Node::Kind::kBlock);
  node.scoped = scoped;
  node.body = std::move(body);
  return node;
}

Node comment(std::string text) {
  Node node = nodeOf(Node::Kind::kComment);
  node.name = std::move(text);
  return node;
}

Node forLoop(std::string iterator, CExpr lower, CExpr condition, int64_t step,
             std::vector<Node> body) {
  Node node = nodeOf(Node::Kind::kFor);
  node.name = std::move(iterator);
  node.lower = std::move(lower);
  node.condition = std::move(condition);
  node.step = step;
  node.body = std::move(body);
  return node;
}

Node gridLoop(CWidth width, std::string iterator, int64_t count, std::vector<Node> body) {
  CExpr condition = binary(COp::kLess, variable(iterator, width), literal(count));
  Node node = forLoop(std::move(iterator), literal(0), std::move(condition), 1, std::move(body));
  node.type = typeName(width);
  node.mapping.kind = LoopMapping::Kind::kGrid;
  return node;
}

Node ifThen(CExpr condition, std::vector<Node> body, std::vector<Node> orElse) {
  Node node = nodeOf(Node::Kind::kIf);
  node.condition = std::move(condition);
  node.body = std::move(body);
  node.orElse = std::move(orElse);
  return node;
}

Node let(std::string type, std::string name, Value value) {
  Node node = nodeOf(Node::Kind::kLet);
  node.type = std::move(type);
  node.name = std::move(name);
  node.value = std::move(value);
  return node;
}

Node var(std::string type, std::string name, Value value) {
  Node node = let(std::move(type), std::move(name), std::move(value));
  node.kind = Node::Kind::kVar;
  return node;
}

Node assign(std::string name, Value value) {
  Node node = nodeOf(Node::Kind::kAssign);
  node.name = std::move(name);
  node.value = std::move(value);
  return node;
}

Node store(std::string buffer, CExpr offset, Value value, std::string atomic) {
  Node node = nodeOf(Node::Kind::kStore);
  node.name = std::move(buffer);
  node.offset = std::move(offset);
  node.value = std::move(value);
  node.atomic = std::move(atomic);
  return node;
}

Node vectorCopy(std::string buffer, CExpr offset, Value source) {
  Node node = store(std::move(buffer), std::move(offset), std::move(source));
  node.kind = Node::Kind::kVectorCopy;
  return node;
}

Node threads(std::vector<Node> body) {
  Node node = nodeOf(Node::Kind::kThreads);
  node.body = std::move(body);
  return node;
}

Node threadShare(std::string first, std::string last, int64_t lo, int64_t count) {
  Node node = nodeOf(Node::Kind::kThreadShare);
  node.name = std::move(first);
  node.from = std::move(last);
  node.lo = lo;
  node.count = count;
  return node;
}

Node runStarts(int64_t lo, int64_t hi, std::vector<Value> loads) {
  Node node = nodeOf(Node::Kind::kRunStarts);
  node.lo = lo;
  node.hi = hi;
  node.loads = std::move(loads);
  return node;
}

Node toRunStart(std::string variable) {
  Node node = nodeOf(Node::Kind::kToRunStart);
  node.name = std::move(variable);
  return node;
}

Node prefetch(Value address, int64_t bytes) {
  Node node = nodeOf(Node::Kind::kPrefetch);
  node.value = std::move(address);
  node.count = bytes;
  return node;
}

Node copy(std::string into, std::string from, std::string type, int64_t count, bool packed) {
  Node node = nodeOf(Node::Kind::kCopy);
  node.name = std::move(into);
  node.from = std::move(from);
  node.type = std::move(type);
  node.count = count;
  node.packed = packed;
  return node;
}

Node badIndexFlag() { return nodeOf(Node::Kind::kBadIndexFlag); }
Node badIndex() { return nodeOf(Node::Kind::kBadIndex); }
Node returnIfBad() { return nodeOf(Node::Kind::kReturnIfBad); }

Node tileRuns(int64_t rows, int64_t hi, std::vector<Node> body, std::vector<Node> pastTile) {
  Node node = nodeOf(Node::Kind::kTileRuns);
  node.count = rows;
  node.hi = hi;
  node.body = std::move(body);
  node.orElse = std::move(pastTile);
  return node;
}

Node constants(std::string type, std::string name, std::vector<Value> values) {
  Node node = nodeOf(Node::Kind::kConstants);
  node.type = std::move(type);
  node.name = std::move(name);
  node.loads = std::move(values);
  return node;
}

Node buffer(std::string type, std::string name, int64_t elements) {
  Node node = nodeOf(Node::Kind::kBuffer);
  node.type = std::move(type);
  node.name = std::move(name);
  node.count = elements;
  return node;
}

Node launch(std::string kernel, int64_t threads, std::vector<std::string> arguments) {
  Node node = nodeOf(Node::Kind::kLaunch);
  node.name = std::move(kernel);
  node.count = threads;
  for (std::string& argument : arguments) node.loads.push_back(variableValue(std::move(argument)));
  return node;
}

Node region(std::string type, std::string name, std::vector<std::string> offsets) {
  Node node = nodeOf(Node::Kind::kRegion);
  node.type = std::move(type);
  node.name = std::move(name);
  for (std::string& offset : offsets) node.loads.push_back(literalValue(std::move(offset)));
  return node;
}

Node ifAligned(std::vector<std::string> buffers, int64_t bytes, std::vector<Node> body,
               std::vector<Node> orElse) {
  Node node = nodeOf(Node::Kind::kIfAligned);
  for (std::string& b : buffers) node.loads.push_back(variableValue(std::move(b)));
  node.count = bytes;
  node.body = std::move(body);
  node.orElse = std::move(orElse);
  return node;
}

Node sortPairs(int64_t pairs, int bits, int64_t scratch, std::string workspaceBytes) {
  Node node = nodeOf(Node::Kind::kSortPairs);
  node.count = pairs;
  node.hi = bits;
  node.lo = scratch;
  node.name = std::move(workspaceBytes);
  return node;
}

Node sortedRun(std::string keyType, std::string pointType, int64_t skippedKey, int64_t positions,
               std::vector<Node> body) {
  Node node = nodeOf(Node::Kind::kSortedRun);
  node.type = std::move(keyType);
  node.from = std::move(pointType);
  node.hi = skippedKey;
  node.count = positions;
  node.body = std::move(body);
  return node;
}

namespace {

void addBuffersOf(const Value& value, std::set<std::string>& used) {
  if (!value) return;
  if (value->kind == ValueNode::Kind::kLoad || value->kind == ValueNode::Kind::kAddress)
    used.insert(value->name);
  for (const Value& operand : value->operands) addBuffersOf(operand, used);
}

void addBuffersOf(const std::vector<Node>& nodes, std::set<std::string>& used) {
  for (const Node& node : nodes) {
    switch (node.kind) {
      case Node::Kind::kStore:
      case Node::Kind::kVectorCopy:
        used.insert(node.name);
        break;
      case Node::Kind::kCopy:
        used.insert(node.name);
        used.insert(node.from);
        break;
      case Node::Kind::kLaunch:
      case Node::Kind::kIfAligned:
        for (const Value& argument : node.loads) used.insert(argument->name);
        break;
      default:
        break;
    }
    addBuffersOf(node.value, used);
    for (const Value& load : node.loads) addBuffersOf(load, used);
    addBuffersOf(node.body, used);
    addBuffersOf(node.orElse, used);
  }
}

}  // namespace

std::set<std::string> buffersUsed(const std::vector<Node>& nodes) {
  std::set<std::string> used;
  addBuffersOf(nodes, used);
  return used;
}

}  // namespace idxmap::codegen::ir
