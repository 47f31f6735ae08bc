// Values as isl relations, op by op. Each op's relation is built from the relations of its
// operands by the op's rule (movement_rules.cpp, arithmetic_rules.cpp, logic_rules.cpp); what
// no rule follows is a leaf.
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <functional>
#include <set>

#include "core/bridges/isl_bridge.h"
#include "ops/provenance/index_values.h"
#include "ops/provenance/relations_internal.h"
#include "ops/provenance/tracer_internal.h"

namespace idxmap::index_provenance {

using isl_bridge::checked;
using isl_bridge::own;
using mlir_ir::Operation;

namespace {

constexpr size_t kMaxFrames = 16;  // calls followed into callees, one inside another

std::string parameterName(const isl::map& map, int position) {
  isl_id* id = isl_map_get_dim_id(map.get(), isl_dim_param, static_cast<unsigned>(position));
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  return name;
}

}  // namespace

Tracer::Tracer(const std::vector<Operation>& scope, const ValueContext& context)
    : frames_{Frame{&scope, nullptr, nullptr}}, context_(context), user_(context.user) {
  if (context.module)
    for (const mlir_ir::Function& function : context.module->functions)
      if (!function.body.blocks.empty() && &function.body.blocks.front().operations == &scope)
        function_ = &function;
}

IndexValues Tracer::trace(const mlir_ir::Value& value, const mlir_ir::Type& type, int depth) {
  static const Rules rules({movementRules(), arithmeticRules(), logicRules(), orderRules()});
  if (!type.isTensor || !followed(type))
    return unknown({}, value.toString() + " has no static tensor type");
  const std::vector<int64_t>& shape = type.shape;
  if (!valueRange(type.elementType()))
    return unknown(shape, value.toString() + " has elements of type " +
                              type.elementType().toString() + ", not integers");
  const std::string name = value.toString();
  if (frames_.size() == 1)
    for (const auto& [assumed, range] : context_.assumed)
      if ("%" + assumed == name) return leaf(name, type, "assumed", range);
  const Operation* op = definition(value, user_);
  if (!op) {
    // A callee's argument is the call's operand, in the caller's frame.
    if (frame().callee)
      for (size_t i = 0; i < frame().callee->arguments.size(); ++i) {
        if (!(frame().callee->arguments[i].value == value)) continue;
        if (i >= frame().call->operands.size()) break;
        Frame callee = frame();
        frames_.pop_back();
        IndexValues bound = traceUse(callee.call, callee.call->operands[i], type, depth + 1);
        frames_.push_back(callee);
        return bound;
      }
    std::string where = frames_.size() == 1 ? "" : " of @" + frame().callee->name;
    return leaf(scoped(name), type, "an argument" + where + ", known at run time only");
  }
  // Rules read which result they compute (a call's) from result_; traces of their operands
  // set it for their own ops and give it back.
  const size_t outer = result_;
  result_ = 0;
  for (size_t i = 0; i < op->results.size(); ++i)
    if (op->results[i] == value) result_ = i;
  const Rule* rule = rules.find(op->name);
  const std::string sizes = rule ? sizesNeeded(*op, type) : "";
  IndexValues values =
      depth > kMaxDepth
          ? opaque(*op, type, "more than " + std::to_string(kMaxDepth) + " ops to follow")
      : !rule          ? opaque(*op, type, op->name + " is not followed")
      : !sizes.empty() ? opaque(*op, type, sizes)
                       : (this->**rule)(*op, type, depth);
  result_ = outer;
  return finish(std::move(values), type.elementType());
}

const Operation* Tracer::definition(const mlir_ir::Value& value, const Operation* user) const {
  // An argument is defined by no op: not worth a walk over the whole scope.
  if (const mlir_ir::Function* function = frames_.size() == 1 ? function_ : frame().callee)
    if (function->argument(value)) return nullptr;
  const std::vector<Operation>& ops = *frame().ops;
  const Operation* begin = ops.data();
  const Operation* end = begin + ops.size();
  // std::less: a total order even on pointers into other frames' ops.
  const std::less<const Operation*> before;
  const Operation* from = user && !before(user, begin) && before(user, end) ? user : end;
  auto defines = [&](const Operation& op) {
    return std::find(op.results.begin(), op.results.end(), value) != op.results.end();
  };
  for (const Operation* op = from; op != begin;)
    if (defines(*--op)) return op;
  for (const Operation* op = from; op != end; ++op)  // a use before its definition
    if (defines(*op)) return op;
  return nullptr;
}

IndexValues Tracer::traceUse(const Operation* user, const mlir_ir::Value& value,
                             const mlir_ir::Type& type, int depth) {
  const Operation* outer = user_;
  user_ = user;
  IndexValues values = trace(value, type, depth);
  user_ = outer;
  return values;
}

std::optional<mlir_ir::Type> Tracer::operandType(const Operation& op, size_t i) {
  const mlir_ir::Value& value = op.operands[i];
  // The definition's results are `%0#1` or named one by one (`%values, %indices = ...`).
  if (const Operation* def = definition(value, &op))
    for (size_t r = 0; r < def->results.size() && r < def->resultTypes.size(); ++r)
      if (def->results[r] == value) return def->resultTypes[r];
  if (i < op.operandTypes.size()) return op.operandTypes[i];
  if (const mlir_ir::Function* function = frames_.size() == 1 ? function_ : frame().callee)
    if (const mlir_ir::BlockArgument* argument = function->argument(value)) return argument->type;
  return std::nullopt;
}

bool Tracer::followed(const mlir_ir::Type& type) const {
  return !type.isOpaque() && (type.isStatic() || context_.followDynamicShapes);
}

std::string Tracer::sizesNeeded(const Operation& op, const mlir_ir::Type& type) {
  if (!context_.followDynamicShapes) return "";  // no `?` value is represented
  static const std::set<std::string, std::less<>> kSizeFree = {
      "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.negate",
      "stablehlo.abs", "stablehlo.minimum", "stablehlo.maximum", "stablehlo.clamp",
      "stablehlo.divide", "stablehlo.remainder", "stablehlo.convert", "stablehlo.shift_left",
      "stablehlo.compare", "stablehlo.shift_right_arithmetic", "stablehlo.select",
      "stablehlo.shift_right_logical", "stablehlo.and", "stablehlo.or", "stablehlo.not",
      "stablehlo.xor", "stablehlo.iota", "stablehlo.dynamic_iota", "stablehlo.constant",
      "stablehlo.transpose", "stablehlo.concatenate", "stablehlo.broadcast_in_dim",
      "stablehlo.dynamic_broadcast_in_dim", "func.call", "call",
      // their rules read the sizes
      "stablehlo.slice", "stablehlo.reverse", "stablehlo.pad", "stablehlo.reshape",
      "stablehlo.dynamic_reshape", "stablehlo.get_dimension_size", "stablehlo.sort"};
  if (kSizeFree.count(op.name)) return "";
  bool dynamic = !type.isStatic();
  for (size_t i = 0; i < op.operands.size() && !dynamic; ++i) {
    std::optional<mlir_ir::Type> operandType = this->operandType(op, i);
    dynamic = !operandType || !operandType->isStatic();
  }
  return dynamic ? op.name + " of `?` dims (its values depend on sizes)" : "";
}

std::optional<IndexValues> Tracer::operand(const Operation& op, size_t i, int depth) {
  if (i >= op.operands.size()) return std::nullopt;
  std::optional<mlir_ir::Type> type = operandType(op, i);
  if (!type) return std::nullopt;
  IndexValues values = traceUse(&op, op.operands[i], *type, depth + 1);
  // An integer operand the analysis cannot represent is a leaf: any value of its type.
  if (!values.represented() && followed(*type) && valueRange(type->elementType())) {
    std::string tensor = scoped(op.operands[i].toString());
    IndexValues any = leaf(tensor, *type, values.provenance);
    any.provenance = tensor + " (" + values.provenance + ")";
    return any;
  }
  return values;
}

size_t Tracer::leafIndex(const Leaf& leaf) {
  // A leaf of the same tensor that reads this one's elements, or reads at other points only,
  // is the same leaf: a parameter stands for the element read at each point, so one read
  // here and another there are one parameter (fewer parameters, less for isl to eliminate).
  isl::set points = own(isl_map_domain(leaf.access.copy()));
  for (size_t i = 0; i < leaves_.size(); ++i) {
    Leaf& known = leaves_[i];
    if (known.tensor != leaf.tensor || known.range != leaf.range ||
        known.distinct != leaf.distinct ||
        isl_map_dim(known.access.get(), isl_dim_in) != isl_map_dim(leaf.access.get(), isl_dim_in))
      continue;
    if (checked(isl_map_is_subset(leaf.access.get(), known.access.get()))) return i;
    isl::set knownPoints = own(isl_map_domain(known.access.copy()));
    if (checked(isl_set_is_disjoint(points.get(), knownPoints.get()))) {
      known.access = own(isl_map_union(known.access.release(), leaf.access.copy()));
      return i;
    }
  }
  leaves_.push_back(leaf);
  return leaves_.size() - 1;
}

const SizeClasses& Tracer::sizeClasses() {
  const std::vector<Operation>* ops = frame().ops;
  auto classes = classes_.find(ops);
  if (classes == classes_.end())
    classes =
        classes_.emplace(ops, SizeClasses(*ops, frames_.size() == 1 ? function_ : frame().callee))
            .first;
  return classes->second;
}

std::string Tracer::size(const mlir_ir::Value& value, size_t dim) {
  return size(value.toString(), dim);
}

std::string Tracer::size(const std::string& value, size_t dim) {
  std::vector<SizedDim> members = sizeClasses().members({value, dim});
  for (SizedDim& member : members) member.first = scoped(member.first);
  for (size_t i = 0; i < sizes_.size(); ++i)
    if (sizes_[i] == members) return sizeParameter(i);
  sizes_.push_back(std::move(members));
  return sizeParameter(sizes_.size() - 1);
}

std::vector<std::string> Tracer::sizeFacts(const mlir_ir::Value& root, const mlir_ir::Type& type) {
  for (size_t d = 0; d < type.shape.size(); ++d)
    if (type.shape[d] == kDynamic) size(root, d);
  std::vector<std::string> facts;
  // Sizes met so far, and the parts of their sums in turn (sizes_ grows as they are met).
  for (size_t i = 0; i < sizes_.size() && i < kMaxSizes; ++i) {
    const SizedDim named = sizes_[i].front();
    if (named.first.front() == '@') continue;  // a callee's: its scope's classes are not these
    for (const SizeClasses::Sum& sum : sizeClasses().sumsOf(named)) {
      std::vector<std::string> parts;
      for (const SizedDim& part : sum.parts) parts.push_back(size(part.first, part.second));
      const std::string z = sizeParameter(i), constant = std::to_string(sum.constant);
      if (sum.interior == 0) {
        facts.push_back(z + " = " + constant + (parts.empty() ? "" : " + " + join(parts, " + ")));
      } else if (parts.size() == 1) {
        const std::string in = std::to_string(sum.interior);
        facts.push_back("((" + parts[0] + " >= 1 and " + z + " = " + constant + " + " +
                        std::to_string(sum.interior + 1) + " * " + parts[0] + " - " + in +
                        ") or (" + parts[0] + " = 0 and " + z + " = " + constant + "))");
      }
    }
  }
  return facts;
}

IndexValues Tracer::leaf(const std::string& tensor, const mlir_ir::Type& type,
                         const std::string& why, std::optional<std::pair<int64_t, int64_t>> assumed,
                         bool distinct) {
  const std::vector<int64_t>& shape = type.shape;
  std::pair<int64_t, int64_t> range = *valueRange(type.elementType());
  if (assumed)
    range = {std::max(range.first, assumed->first), std::min(range.second, assumed->second)};
  std::string p = tuple('p', shape.size());
  Leaf read{tensor,
            type.elementType().toString(),
            shape,
            relation(p, tuple('a', shape.size()),
                     concat(box('p', shape),
                            [&] {
                              std::vector<std::string> same;
                              for (size_t d = 0; d < shape.size(); ++d)
                                same.push_back(var('a', d) + " = " + var('p', d));
                              return same;
                            }())),
            range,
            why,
            distinct};
  std::string l = leafParameter(leafIndex(read));
  IndexValues values = unknown(shape, tensor + " (" + why + ")");
  values.symbolic = readMap("[" + l + "] -> { " + p +
                            " -> [v] : " + join(concat(box('p', shape), {"v = " + l}), " and ") +
                            " and " + std::to_string(range.first) + " <= " + l +
                            " <= " + std::to_string(range.second) + " }");
  values.provenance = tensor;
  return values;
}

IndexValues Tracer::opaque(const Operation& op, const mlir_ir::Type& type, const std::string& why) {
  std::string tensor = resultName(op);
  IndexValues values = leaf(tensor, type, why);
  values.provenance = tensor + " (" + why + ")";
  return values;
}

IndexValues Tracer::pulled(const IndexValues& source, const std::vector<int64_t>& shape,
                           const isl::map& pull, const std::string& what) {
  if (!source.represented()) return unknown(shape, what + " of " + source.provenance);
  IndexValues out = unknown(shape, what + "(" + source.provenance + ")");
  out.provenance = what + "(" + source.provenance + ")";
  out.complete = source.complete;
  isl::map values = applyRange(pull, *source.symbolic);
  std::vector<std::pair<size_t, size_t>> renames;
  for (int i = 0; i < checked(isl_map_dim(values.get(), isl_dim_param)); ++i) {
    if (isSizeParameter(parameterName(values, i))) continue;  // one number everywhere
    size_t from = leafOfParameter(parameterName(values, i));
    Leaf moved = leaves_.at(from);
    moved.access = applyRange(pull, moved.access);
    renames.emplace_back(from, leafIndex(moved));
  }
  out.symbolic = renamedLeaves(values, renames);
  return out;
}

IndexValues Tracer::call(const Operation& op, const mlir_ir::Type& type, int depth) {
  const mlir_ir::Attribute* callee = op.attribute("callee");
  const mlir_ir::Function* function =
      callee && context_.module ? context_.module->function(callee->text) : nullptr;
  if (!function || function->body.blocks.empty()) {
    // Name the callee: the reason is what a user reads to see which function to add.
    const std::string name = callee ? "@" + callee->text : "a function";
    return opaque(op, type,
                  "func.call of " + name + ", which the module does not define (with a body)");
  }
  if (frames_.size() >= kMaxFrames)
    return opaque(op, type, "calls nested more than " + std::to_string(kMaxFrames) + " deep");
  const Operation* returned = function->returnOp();
  const size_t result = result_;
  if (!returned || result >= returned->operands.size())
    return opaque(op, type, "func.call of @" + function->name + " without its result");
  frames_.push_back(Frame{&function->body.blocks.front().operations, function, &op});
  IndexValues values = traceUse(returned, returned->operands[result], type, depth + 1);
  frames_.pop_back();
  values.provenance = "@" + function->name + "(" + values.provenance + ")";
  return values;
}

std::string Tracer::scoped(const std::string& tensor) const {
  return frames_.size() == 1 ? tensor : "@" + frame().callee->name + ":" + tensor;
}

std::string Tracer::resultName(const Operation& op) const {
  return scoped(result_ < op.results.size() ? op.results[result_].toString() : op.name);
}

const mlir_ir::Attribute* firstAttribute(const Operation& op, const char* generic,
                                         const char* pretty) {
  if (const mlir_ir::Attribute* a = op.attribute(generic)) return a;
  return op.attribute(pretty);
}

IndexValues Tracer::finished(IndexValues values) const {
  if (!values.represented()) return values;
  // Only the leaves the relation uses, numbered from 0.
  std::vector<std::pair<size_t, size_t>> renames;
  for (int i = 0; i < checked(isl_map_dim(values.symbolic->get(), isl_dim_param)); ++i) {
    if (isSizeParameter(parameterName(*values.symbolic, i))) continue;
    size_t from = leafOfParameter(parameterName(*values.symbolic, i));
    renames.emplace_back(from, values.leaves.size());
    values.leaves.push_back(leaves_.at(from));
  }
  values.symbolic = renamedLeaves(*values.symbolic, renames);
  values.sizes = sizes_;  // z<i> keep their numbers: a leaf's access may name them too
  if (!values.leaves.empty()) values.known = knownPart(*values.symbolic, values.leaves);
  return values;
}

bool IndexValues::anyKnown() const { return !checked(isl_map_is_empty(known.get())); }

bool IndexValues::allKnown() const {
  if (complete) return true;
  isl::set domain = own(isl_map_domain(known.copy()));
  isl::map all = relation(tuple('p', shape.size()), "[]", box('p', shape));
  isl::set points = own(isl_map_domain(all.release()));
  return checked(isl_set_is_subset(points.get(), domain.get()));
}

IndexValues indexValues(const std::vector<Operation>& scope, const mlir_ir::Value& value,
                        const mlir_ir::Type& type, const ValueContext& context) {
  try {
    Tracer tracer(scope, context);
    IndexValues values = tracer.trace(value, type, 0);
    // The index tensor's own `?` sizes, and the sums they are (before finished() lists sizes).
    std::vector<std::string> facts;
    if (context.followDynamicShapes && values.represented()) facts = tracer.sizeFacts(value, type);
    values = tracer.finished(std::move(values));
    values.sizeFacts = std::move(facts);
    return values;
  } catch (const Error& error) {  // isl gave up, or an int64 overflow in a stride
    return unknown(
        type.hasStaticShape() || context.followDynamicShapes ? type.shape : std::vector<int64_t>{},
        std::string("not representable: ") + error.what());
  }
}

}  // namespace idxmap::index_provenance
