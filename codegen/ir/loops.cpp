#include "codegen/ir/loops.h"

namespace idxmap::codegen::ir {
namespace {

Node fromLoopNode(const LoopNode& loop,
                  const std::function<Node(const std::vector<CExpr>&)>& statement) {
  auto all = [&](const std::vector<LoopNode>& loops) {
    std::vector<Node> out;
    for (const LoopNode& child : loops) out.push_back(fromLoopNode(child, statement));
    return out;
  };
  switch (loop.kind) {
    case LoopNode::Kind::kFor:
      return forLoop(loop.iterator, loop.lower, loop.condition, loop.step, all(loop.body));
    case LoopNode::Kind::kIf:
      return ifThen(loop.condition, all(loop.body), all(loop.orElse));
    case LoopNode::Kind::kBlock:
      return block(all(loop.body));
    case LoopNode::Kind::kStatement:
      return statement(loop.point);
  }
  return block({});
}

// The trip counts of the loops from `node` down that are perfectly nested with constant
// bounds: what an OpenMP collapse clause may cover.
std::vector<int64_t> collapsibleTrips(const Node& node) {
  std::vector<int64_t> trips;
  const Node* current = &node;
  while (current->kind == Node::Kind::kFor && current->step == 1 &&
         current->lower->op == COp::kLiteral && current->condition->op == COp::kLessEqual &&
         current->condition->operands.size() == 2 &&
         current->condition->operands[1]->op == COp::kLiteral) {
    trips.push_back(current->condition->operands[1]->value - current->lower->value + 1);
    if (current->body.size() != 1) break;
    current = &current->body[0];
    if (current->kind == Node::Kind::kBlock && current->body.size() == 1)
      current = &current->body[0];
  }
  return trips;
}

// A statement (a scoped block) is one point of the nest: loops inside it (an HLO stage's
// reduction) are its own, never the nest's, and get no threads or lanes.
bool isStatement(const Node& node) { return node.kind == Node::Kind::kBlock && node.scoped; }

bool containsLoop(const std::vector<Node>& nodes) {
  for (const Node& node : nodes)
    if (!isStatement(node) &&
        (node.kind == Node::Kind::kFor || containsLoop(node.body) || containsLoop(node.orElse)))
      return true;
  return false;
}

// Visits loops in the order they are printed: the first one met is the outer loop threads
// share, and the `covered` loops after it are those its collapse clause joins.
struct Mapper {
  bool vectorize;
  const std::string& bodyStartIterator;
  const std::vector<Node>& bodyStart;
  bool outerMapped = false;
  size_t covered = 0;

  void map(std::vector<Node>& nodes) {
    for (Node& node : nodes) map(node);
  }

  void map(Node& node) {
    if (isStatement(node)) return;
    if (node.kind != Node::Kind::kFor) {
      map(node.body);
      map(node.orElse);
      return;
    }
    const bool innermost = !containsLoop(node.body);
    if (!outerMapped) {
      outerMapped = true;
      std::vector<int64_t> trips = collapsibleTrips(node);
      const Node* last = &node;
      for (size_t i = 1; i < trips.size(); ++i) {
        last = &last->body[0];
        if (last->kind == Node::Kind::kBlock) last = &last->body[0];
      }
      const size_t collapse = threadedCollapse(trips);
      if (collapse > 0) {
        const bool simd = vectorize && collapse == trips.size() && !containsLoop(last->body);
        node.mapping = {LoopMapping::Kind::kThreads, collapse, simd};
        covered = collapse;
      }
    }
    if (covered > 0) {
      --covered;
    } else if (innermost && vectorize) {
      node.mapping.kind = LoopMapping::Kind::kSimd;
    }
    const bool starts = !bodyStart.empty() && node.name == bodyStartIterator && covered == 0;
    map(node.body);
    if (starts) node.body.insert(node.body.begin(), bodyStart.begin(), bodyStart.end());
  }
};

}  // namespace

namespace {

// Reads nodes back as loop nodes, gathering the statements and the nodes set aside.
struct NestReader {
  size_t dims;
  CWidth width;
  const std::function<bool(const Node&)>& isAside;
  NestParts& parts;
  std::string& why;

  std::optional<std::vector<LoopNode>> children(const std::vector<Node>& nodes) {
    std::vector<LoopNode> out;
    for (const Node& child : nodes) {
      if (child.kind == Node::Kind::kComment) continue;
      if (isAside && isAside(child)) {
        parts.aside.push_back(&child);
        continue;
      }
      std::optional<LoopNode> read = node(child);
      if (!read) return std::nullopt;
      out.push_back(std::move(*read));
    }
    return out;
  }

  std::optional<LoopNode> node(const Node& node) {
    LoopNode out;
    std::optional<std::vector<LoopNode>> body, orElse;
    switch (node.kind) {
      case Node::Kind::kFor:
        if (!node.type.empty() || node.mapping.kind == LoopMapping::Kind::kGrid) break;
        out.kind = LoopNode::Kind::kFor;
        out.iterator = node.name;
        out.lower = node.lower;
        out.step = node.step;
        out.condition = node.condition;
        if (!(body = children(node.body))) return std::nullopt;
        out.body = std::move(*body);
        return out;
      case Node::Kind::kIf:
        out.kind = LoopNode::Kind::kIf;
        out.condition = node.condition;
        if (!(body = children(node.body)) || !(orElse = children(node.orElse))) return std::nullopt;
        out.body = std::move(*body);
        out.orElse = std::move(*orElse);
        return out;
      case Node::Kind::kBlock:
        if (!node.scoped) {
          if (!(body = children(node.body))) return std::nullopt;
          out.body = std::move(*body);
          return out;
        }
        // A statement: its point is the dims' iterators, or the values its lets fix them to.
        out.kind = LoopNode::Kind::kStatement;
        for (size_t i = 0; i < dims; ++i) {
          const std::string d = "d" + std::to_string(i);
          CExpr value = variable(d, width);
          for (const Node& let : node.body)
            if (isLet(let, d) && let.value->kind == ValueNode::Kind::kIndex)
              value = let.value->index;
          out.point.push_back(value);
        }
        parts.statements.push_back(&node);
        return out;
      default:
        break;
    }
    why = "a node of the loop nest that is not a loop, a guard or a statement";
    return std::nullopt;
  }
};

}  // namespace

std::optional<LoopNest> readLoopNest(const std::vector<const Node*>& nodes, const IndexingMap& map,
                                     CWidth width, std::string& why, NestParts* parts,
                                     const std::function<bool(const Node&)>& isAside) {
  NestParts unused;
  NestReader reader{map.dims.size(), width, isAside, parts ? *parts : unused, why};
  LoopNest nest;
  nest.dims = map.dims.size();
  nest.width = width;
  nest.dimConstraints = dimConstraints(map);
  std::vector<LoopNode> roots;
  for (const Node* node : nodes) {
    if (node->kind == Node::Kind::kComment) continue;
    std::optional<LoopNode> read = reader.node(*node);
    if (!read) return std::nullopt;
    roots.push_back(std::move(*read));
  }
  if (roots.size() == 1)
    nest.root = std::move(roots[0]);
  else
    nest.root.body = std::move(roots);
  return nest;
}

std::optional<LoopNest> readLoopNest(const std::vector<Node>& nodes, const IndexingMap& map,
                                     CWidth width, std::string& why) {
  std::vector<const Node*> roots;
  for (const Node& node : nodes) roots.push_back(&node);
  return readLoopNest(roots, map, width, why);
}

std::vector<Node> fromLoopNest(const LoopNest& nest,
                               const std::function<Node(const std::vector<CExpr>&)>& statement) {
  return {fromLoopNode(nest.root, statement)};
}

void mapIndependentLoops(std::vector<Node>& nest, bool vectorize,
                         const std::string& bodyStartIterator, const std::vector<Node>& bodyStart) {
  Mapper{vectorize, bodyStartIterator, bodyStart}.map(nest);
}

}  // namespace idxmap::codegen::ir
