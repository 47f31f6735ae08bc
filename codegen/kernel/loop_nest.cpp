#include "codegen/kernel/loop_nest.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include "codegen/kernel/isl_expressions.h"
#include "core/bridges/isl_bridge.h"

namespace idxmap::codegen {
namespace {

using isl_bridge::own;

class AstReader {
 public:
  explicit AstReader(CWidth width) : width_(width) {}

  CExpr expression(isl_ast_expr* expr) {
    isl::ast_expr owned = own(expr);
    switch (isl_ast_expr_get_type(owned.get())) {
      case isl_ast_expr_int: {
        isl::val value = own(isl_ast_expr_get_val(owned.get()));
        return literal(isl_bridge::toInt64(value));
      }
      case isl_ast_expr_id: {
        isl::id id = own(isl_ast_expr_get_id(owned.get()));
        return variable(isl_id_get_name(id.get()), width_);
      }
      case isl_ast_expr_op:
        return operation(owned.get());
      default:
        throw Error("isl generated an AST expression kernels do not print");
    }
  }

 private:
  CExpr argument(isl_ast_expr* expr, int position) {
    return expression(isl_ast_expr_op_get_arg(expr, position));
  }

  CExpr operation(isl_ast_expr* expr) {
    int count = isl_bridge::checked(isl_ast_expr_op_get_n_arg(expr));
    auto fold = [&](const char* function) {
      CExpr out = argument(expr, 0);
      for (int i = 1; i < count; ++i) out = call(function, width_, {out, argument(expr, i)});
      return out;
    };
    switch (isl_ast_expr_op_get_type(expr)) {
      case isl_ast_expr_op_add:
        return binary(COp::kAdd, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_sub:
        return binary(COp::kSub, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_mul: {
        CExpr a = argument(expr, 0), b = argument(expr, 1);
        return a->op == COp::kLiteral ? binary(COp::kMul, b, a) : binary(COp::kMul, a, b);
      }
      case isl_ast_expr_op_minus:
        return negate(argument(expr, 0));
      case isl_ast_expr_op_div:     // exact division: truncation agrees
      case isl_ast_expr_op_pdiv_q:  // isl knows the dividend is non-negative
        return binary(COp::kDiv, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_pdiv_r:
      case isl_ast_expr_op_zdiv_r:
        return binary(COp::kRem, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_fdiv_q:
        return call("idxmap_floordiv", width_, {argument(expr, 0), argument(expr, 1)});
      case isl_ast_expr_op_min:
        return fold("idxmap_min");
      case isl_ast_expr_op_max:
        return fold("idxmap_max");
      case isl_ast_expr_op_and:
      case isl_ast_expr_op_and_then:
        return binary(COp::kAnd, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_le:
        return binary(COp::kLessEqual, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_lt:
        return binary(COp::kLess, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_ge:
        return binary(COp::kGreaterEqual, argument(expr, 0), argument(expr, 1));
      case isl_ast_expr_op_gt:
        return binary(COp::kLess, argument(expr, 1), argument(expr, 0));
      case isl_ast_expr_op_eq:
        return binary(COp::kEqual, argument(expr, 0), argument(expr, 1));
      default:
        throw Error("isl generated an AST operation kernels do not print");
    }
  }

  CWidth width_;
};

std::vector<LoopNode> readNodes(isl_ast_node* node, AstReader& reader);

LoopNode readNode(isl_ast_node* raw, AstReader& reader) {
  isl::ast_node node = own(raw);
  LoopNode out;
  switch (isl_ast_node_get_type(node.get())) {
    case isl_ast_node_for: {
      CExpr step = reader.expression(isl_ast_node_for_get_inc(node.get()));
      if (step->op != COp::kLiteral || step->value <= 0)
        throw Error("isl generated a loop whose step is not a positive constant");
      out.kind = LoopNode::Kind::kFor;
      out.step = step->value;
      out.iterator = printCExpr(reader.expression(isl_ast_node_for_get_iterator(node.get())));
      out.lower = reader.expression(isl_ast_node_for_get_init(node.get()));
      out.condition = reader.expression(isl_ast_node_for_get_cond(node.get()));
      out.body = readNodes(isl_ast_node_for_get_body(node.get()), reader);
      return out;
    }
    case isl_ast_node_if:
      out.kind = LoopNode::Kind::kIf;
      out.condition = reader.expression(isl_ast_node_if_get_cond(node.get()));
      out.body = readNodes(isl_ast_node_if_get_then_node(node.get()), reader);
      if (isl_bridge::checked(isl_ast_node_if_has_else_node(node.get())))
        out.orElse = readNodes(isl_ast_node_if_get_else_node(node.get()), reader);
      return out;
    case isl_ast_node_block: {
      out.kind = LoopNode::Kind::kBlock;
      isl::ast_node_list children = own(isl_ast_node_block_get_children(node.get()));
      int count = isl_bridge::checked(isl_ast_node_list_n_ast_node(children.get()));
      for (int i = 0; i < count; ++i)
        out.body.push_back(readNode(isl_ast_node_list_get_at(children.get(), i), reader));
      return out;
    }
    case isl_ast_node_mark:
      out.body = readNodes(isl_ast_node_mark_get_node(node.get()), reader);
      return out;
    case isl_ast_node_user: {
      out.kind = LoopNode::Kind::kStatement;
      isl::ast_expr call = own(isl_ast_node_user_get_expr(node.get()));
      int count = isl_bridge::checked(isl_ast_expr_op_get_n_arg(call.get()));
      for (int i = 1; i < count; ++i)  // argument 0 is the statement's name
        out.point.push_back(reader.expression(isl_ast_expr_op_get_arg(call.get(), i)));
      return out;
    }
    default:
      throw Error("isl generated an AST node kernels do not print");
  }
}

std::vector<LoopNode> readNodes(isl_ast_node* node, AstReader& reader) {
  return {readNode(node, reader)};
}

void loopsOver(LoopNode& node, const std::string& iterator, std::vector<LoopNode*>& found) {
  if (node.kind == LoopNode::Kind::kFor && node.iterator == iterator) found.push_back(&node);
  for (LoopNode& child : node.body) loopsOver(child, iterator, found);
  for (LoopNode& child : node.orElse) loopsOver(child, iterator, found);
}

size_t statementCount(const LoopNode& node) {
  size_t count = node.kind == LoopNode::Kind::kStatement ? 1 : 0;
  for (const LoopNode& child : node.body) count += statementCount(child);
  for (const LoopNode& child : node.orElse) count += statementCount(child);
  return count;
}

}  // namespace

bool usesOnlyDims(Expr expr) {
  bool only = true;
  expr.walk([&](Expr e) {
    if (e.kind() == ExprKind::RangeVar || e.kind() == ExprKind::RuntimeVar) only = false;
  });
  return only;
}

std::optional<std::pair<int64_t, int64_t>> narrowLoop(LoopNest& nest, const std::string& iterator,
                                                      const std::string& first,
                                                      const std::string& last) {
  std::vector<LoopNode*> found;
  loopsOver(nest.root, iterator, found);
  if (found.size() != 1) return std::nullopt;
  LoopNode& loop = *found[0];
  // A statement outside the loop would run in every thread.
  if (statementCount(loop) != statementCount(nest.root)) return std::nullopt;
  if (loop.step != 1 || loop.lower->op != COp::kLiteral || loop.condition->op != COp::kLessEqual ||
      loop.condition->operands[1]->op != COp::kLiteral ||
      loop.condition->operands[0]->op != COp::kVariable ||
      loop.condition->operands[0]->name != iterator)
    return std::nullopt;
  std::pair<int64_t, int64_t> range{loop.lower->value, loop.condition->operands[1]->value};
  loop.lower = variable(first, CWidth::k64);
  loop.condition = binary(COp::kLess, variable(iterator, nest.width), variable(last, CWidth::k64));
  return range;
}

std::vector<Constraint> dimConstraints(const IndexingMap& map) {
  std::vector<Constraint> out;
  for (const Constraint& c : map.constraints)
    if (usesOnlyDims(c.expr)) out.push_back(c);
  return out;
}

size_t threadedCollapse(const std::vector<int64_t>& trips) {
  size_t collapse = 0;
  int64_t chunks = 1;
  while (collapse < trips.size() && chunks < 64) chunks *= trips[collapse++];
  return collapse;
}

LoopNest buildLoopNest(const IndexingMap& map, CWidth width) {
  LoopNest nest;
  nest.dims = map.dims.size();
  nest.width = width;
  nest.dimConstraints = dimConstraints(map);
  if (nest.dims == 0) {  // a 0-d domain: one point, no loop
    nest.root.kind = LoopNode::Kind::kStatement;
    return nest;
  }
  return isl_bridge::withIslBudget([&] {
    IslExpressions expressions(nest.dims, 0);
    isl::set domain = expressions.universe();
    for (size_t i = 0; i < nest.dims; ++i)
      domain = domain.intersect(expressions.inRange(i, map.dims[i].range));
    for (const Constraint& c : nest.dimConstraints)
      domain = domain.intersect(expressions.valueIn(expressions.fromExpr(c.expr), c.range));
    isl_set* named = isl_set_set_tuple_name(domain.release(), "S");
    isl_map* schedule = isl_map_reset_tuple_id(isl_set_identity(named), isl_dim_out);
    isl_ast_build* build =
        isl_ast_build_from_context(isl_set_universe(isl_space_params_alloc(islContext().get(), 0)));
    isl_id_list* iterators = isl_id_list_alloc(islContext().get(), static_cast<int>(nest.dims));
    for (size_t i = 0; i < nest.dims; ++i)
      iterators = isl_id_list_add(
          iterators, isl_id_alloc(islContext().get(), ("d" + std::to_string(i)).c_str(), nullptr));
    build = isl_ast_build_set_iterators(build, iterators);
    isl_ast_node* root = isl_ast_build_node_from_schedule_map(
        build, isl_union_map_from_map(own(schedule).release()));
    isl_ast_build_free(build);
    if (!root) isl_bridge::throwLastIslError();
    AstReader reader(width);
    nest.root = readNode(root, reader);
    return nest;
  });
}

}  // namespace idxmap::codegen
