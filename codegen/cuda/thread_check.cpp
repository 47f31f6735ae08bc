#include "codegen/cuda/thread_check.h"

#include <algorithm>
#include <optional>

#include "codegen/kernel/loop_nest.h"

namespace idxmap::codegen {
namespace {

constexpr int64_t kInt32Numbers = int64_t{1} << 30;

std::optional<CWidth> widthNamed(const std::string& type) {
  if (type == typeName(CWidth::k32)) return CWidth::k32;
  if (type == typeName(CWidth::k64)) return CWidth::k64;
  return std::nullopt;
}

bool usesOnly(const CExpr& e, const std::string& name) {
  if (e->op == COp::kVariable) return e->name == name;
  return std::all_of(e->operands.begin(), e->operands.end(),
                     [&](const CExpr& operand) { return usesOnly(operand, name); });
}

// The point `nodes` declare first: a kLet d<i> per dim, each of `number` alone, all of one
// width; nullopt (with `why`) otherwise.
struct Declared {
  std::vector<CExpr> point;
  CWidth width = CWidth::k64;
};
std::optional<Declared> readDims(std::span<const ir::Node> nodes, size_t dims,
                                 const std::string& number, std::string& why) {
  Declared out;
  for (size_t i = 0; i < dims; ++i) {
    const std::string d = "d" + std::to_string(i);
    if (i >= nodes.size() || !ir::isLet(nodes[i], d) ||
        nodes[i].value->kind != ir::ValueNode::Kind::kIndex ||
        !usesOnly(nodes[i].value->index, number)) {
      why = "the thread's " + d + " is not a declared function of " + number;
      return std::nullopt;
    }
    std::optional<CWidth> width = widthNamed(nodes[i].type);
    if (!width || (i > 0 && *width != out.width)) {
      why = "the thread's " + d + " has no index type";
      return std::nullopt;
    }
    out.width = *width;
    out.point.push_back(nodes[i].value->index);
  }
  return out;
}

LoopNode forLoop(CWidth width, int64_t count, LoopNode body) {
  LoopNode loop;
  loop.kind = LoopNode::Kind::kFor;
  loop.iterator = "d0";
  loop.lower = literal(0);
  loop.condition = binary(COp::kLess, variable("d0", width), literal(count));
  loop.body.push_back(std::move(body));
  return loop;
}

// The nest the validator proves (its iterator named d0, as it names iterators): for d0 in
// [0, count) the statement at the declared point of number d0; with a group, d0 numbers its
// members (number * size + member) and the member adds to the grouped dim.
ProofResult provePoints(KernelValidator& validator, const Declared& declared,
                        const std::string& number, CWidth numberWidth, int64_t count,
                        const IndexingMap& map, ThreadGroup group) {
  if (numberWidth == CWidth::k32 && count > kInt32Numbers)
    return ProofResult::unknown("a 32-bit thread number over " + std::to_string(count) +
                                " points may overflow its grid stride");
  LoopNest nest;
  nest.dims = map.dims.size();
  nest.width = numberWidth;
  nest.dimConstraints = dimConstraints(map);
  LoopNode statement;
  statement.kind = LoopNode::Kind::kStatement;
  auto pointOf = [&](const CExpr& n) {
    std::vector<CExpr> point;
    for (const CExpr& coordinate : declared.point)
      point.push_back(replaceVariable(coordinate, number, n));
    return point;
  };
  if (nest.dims == 0) {
    if (count != 1) return ProofResult::refuted("isl", "a map of no dims has one point");
    statement.point = {};
    nest.root.body.push_back(statement);
    return validator.checkLoopNest(nest);
  }
  const int64_t size = std::max(group.rows, group.lanes);
  if (size == 1) {
    statement.point = pointOf(variable("d0", numberWidth));
    nest.root.body.push_back(forLoop(numberWidth, count, statement));
    return validator.checkLoopNest(nest);
  }
  if (group.rows > 1 && group.lanes > 1)
    return ProofResult::unknown("a thread takes a tile or a lane group, not both");
  nest.width = CWidth::k64;
  const CExpr member64 = binary(COp::kRem, variable("d0", CWidth::k64), literal(size));
  statement.point = pointOf(binary(COp::kDiv, variable("d0", CWidth::k64), literal(size)));
  const CExpr member = declared.width == CWidth::k64 ? member64 : cast(declared.width, member64);
  const size_t dim = group.rows > 1 ? 0 : nest.dims - 1;
  const CExpr first = statement.point[dim];
  statement.point[dim] = binary(COp::kAdd, first, member);
  LoopNode inGroup = statement;
  if (group.rows > 1) {  // a tile's rows while they stay in d0's range
    inGroup = LoopNode{};
    inGroup.kind = LoopNode::Kind::kIf;
    inGroup.condition =
        binary(COp::kLessEqual, member, binary(COp::kSub, literal(map.dims[0].range.hi), first));
    inGroup.body.push_back(statement);
  }
  if (count > INT64_MAX / size) return ProofResult::unknown("too many points to enumerate");
  nest.root.body.push_back(forLoop(CWidth::k64, count * size, inGroup));
  return validator.checkLoopNest(nest);
}

}  // namespace

ProofResult checkGridPoints(KernelValidator& validator, const ir::Node& loop,
                            const IndexingMap& map, ThreadGroup group) {
  const std::optional<CWidth> width = widthNamed(loop.type);
  const CExpr& test = loop.condition;
  const bool shaped = loop.kind == ir::Node::Kind::kFor &&
                      loop.mapping.kind == ir::LoopMapping::Kind::kGrid && width &&
                      loop.step == 1 && loop.lower->op == COp::kLiteral && loop.lower->value == 0 &&
                      test->op == COp::kLess && test->operands[0]->op == COp::kVariable &&
                      test->operands[0]->name == loop.name && test->operands[0]->width == *width &&
                      test->operands[1]->op == COp::kLiteral;
  if (!shaped) return ProofResult::unknown("the threads' loop is not a grid-stride loop from 0");
  std::string why;
  std::optional<Declared> declared = readDims(loop.body, map.dims.size(), loop.name, why);
  if (!declared) return ProofResult::unknown(why);
  return provePoints(validator, *declared, loop.name, *width, test->operands[1]->value, map, group);
}

ProofResult checkDecodedPoints(KernelValidator& validator, std::span<const ir::Node> nodes,
                               const std::string& number, CWidth width, int64_t count,
                               const IndexingMap& map) {
  std::string why;
  std::optional<Declared> declared = readDims(nodes, map.dims.size(), number, why);
  if (!declared) return ProofResult::unknown(why);
  return provePoints(validator, *declared, number, width, count, map, {});
}

}  // namespace idxmap::codegen
