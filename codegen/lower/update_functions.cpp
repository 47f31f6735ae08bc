#include "codegen/lower/update_functions.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

#include "codegen/prelude/element_code.h"
#include "codegen/prelude/prelude.h"
#include "core/checked.h"
#include "core/text.h"

namespace idxmap::codegen {
namespace {

using mlir_ir::Operation;

std::string where(const Operation& op) { return op.name + " at " + op.location.toString(); }

// A problem with one op of the region, located there (the caret under that op).
LocatedError atOp(const Operation& op, const std::string& message) {
  return LocatedError(op.location, op.name + " in a scatter's update computation: " + message);
}

ElementCode codeOf(const mlir_ir::Type& type, const std::string& what) {
  std::optional<ElementCode> code = type.isOpaque() || type.rank() != 0
                                        ? std::nullopt
                                        : elementCode(hloTypeName(type.element_type));
  if (!code)
    throw Error(what + ": a scatter's update computation computes scalars of kernel types, not " +
                type.toString());
  return *code;
}

// A dense scalar as HLO literal text: integers as they are, floats exactly (17 digits round-trip
// a double, which holds the literal's value exactly), inf and nan by name.
std::string literalText(const mlir_ir::DenseElements& dense) {
  if (!dense.ints.empty()) return std::to_string(dense.ints[0]);
  if (dense.floats.empty()) return "";
  const double v = dense.floats[0];
  if (v != v) return "nan";
  if (v == std::numeric_limits<double>::infinity()) return "inf";
  if (v == -std::numeric_limits<double>::infinity()) return "-inf";
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// One function's body: each op the result reaches, once, as a local of its compute type.
class RegionBody {
 public:
  RegionBody(const mlir_ir::Block& block, size_t inputs) : block_(block) {
    for (size_t k = 0; k < block.arguments.size(); ++k)
      arguments_[block.arguments[k].value.toString()] = k;
    inputs_ = inputs;
  }

  // The value's local (its code in `type`).
  std::string value(const mlir_ir::Value& v, ElementCode& type) {
    const std::string key = v.toString();
    if (const auto* local = locals_.find(key)) {
      type = local->second;
      return local->first;
    }
    std::string expression;
    if (auto argument = arguments_.find(key); argument != arguments_.end()) {
      type = codeOf(block_.arguments[argument->second].type, "argument %" + key);
      expression = loadElement(type, updateParameter(argument->second, inputs_));
    } else {
      const Operation* op = definingOp(block_.operations, v);
      if (!op) throw Error("the update computation reads " + key + ", which it does not define");
      expression = operation(*op, type);
    }
    return locals_.define(key, type, expression).first;
  }

  const std::string& text() const { return locals_.text(); }

 private:
  std::string operation(const Operation& op, ElementCode& type) {
    if (op.resultTypes.size() != 1) throw atOp(op, "one result of a known type expected");
    try {
      type = codeOf(op.resultTypes[0], where(op));
    } catch (const Error&) {
      throw atOp(op, "it computes " + op.resultTypes[0].toString() +
                         ", and kernels compute scalars of their element types only");
    }
    // StableHLO's (and MHLO's) ops are HLO's opcodes: another dialect's op of the same name may
    // mean something else (tosa.maximum's nan_mode), and an attribute kernels do not read may
    // change what an op computes.
    const size_t dot = op.name.find('.');
    const std::string dialect = op.name.substr(0, dot);
    if (dot == std::string::npos || (dialect != "stablehlo" && dialect != "mhlo"))
      throw atOp(op, "kernels compute StableHLO's ops only");
    std::string opcode = op.name.substr(dot + 1);
    std::replace(opcode.begin(), opcode.end(), '_', '-');
    // Attributes: a constant's value and a comparison's direction and type are read; any other
    // could change what the op computes (refused once the op is known to be computed).
    std::string unread;
    for (const mlir_ir::NamedAttribute& attribute : op.attributes) {
      const bool read = (opcode == "constant" && attribute.name == "value") ||
                        (opcode == "compare" && (attribute.name == "comparison_direction" ||
                                                 attribute.name == "compare_type"));
      if (!read) unread = attribute.name;
    }
    if (opcode == "constant") {
      const mlir_ir::Attribute* value = op.attribute("value");
      std::optional<std::string> literal;
      if (value && value->dense) literal = literalElement(type, literalText(*value->dense));
      if (!literal) throw atOp(op, "a constant kernels cannot read");
      if (!unread.empty()) throw atOp(op, "its attribute `" + unread + "` is not read by kernels");
      return *literal;
    }
    std::vector<std::string> operands;
    std::vector<ElementCode> types;
    for (const mlir_ir::Value& operand : op.operands) {
      ElementCode operandType{};
      operands.push_back(value(operand, operandType));
      types.push_back(operandType);
    }
    requireSameTypes(op, opcode, types, type);
    std::string direction;
    if (opcode == "compare") {
      // A word the attribute writes but no kernel knows is refused, not taken for the default.
      const std::optional<std::string> written =
          op.namedWord("comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"});
      const std::optional<std::string> compareType =
          op.namedWord("compare_type", {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"});
      if (!written || !compareType)
        throw atOp(op, "its comparison direction or type is not one kernels know");
      direction = *written;
      // The type the operands' own type implies; TOTALORDER (or another) is not computed.
      const std::string implied = types.at(0).kind == ElementCode::Kind::kFloat ||
                                          types.at(0).kind == ElementCode::Kind::kHalf
                                      ? "FLOAT"
                                  : types.at(0).isSigned ? "SIGNED"
                                                         : "UNSIGNED";
      if (!compareType->empty() && *compareType != implied)
        throw atOp(op,
                   *compareType + " comparisons of " + types.at(0).hloType + " are not computed");
    }
    std::optional<std::string> result = elementwiseValue(opcode, direction, types, type, operands);
    if (!result) {
      std::string on;
      for (const ElementCode& t : types) on += (on.empty() ? "" : ", ") + t.hloType;
      throw atOp(op, "kernels do not compute it on (" + on + ") giving " + type.hloType);
    }
    if (!unread.empty()) throw atOp(op, "its attribute `" + unread + "` is not read by kernels");
    return *result;
  }

  // StableHLO's type rules of the elementwise ops (an invalid op is refused, not computed as
  // the C++ would convert it): operands of one type, the result of theirs, except a compare's
  // and is_finite's (pred), a select's predicate, and a convert's.
  static void requireSameTypes(const Operation& op, const std::string& opcode,
                               const std::vector<ElementCode>& types, const ElementCode& result) {
    if (opcode == "convert" || opcode == "bitcast-convert") return;
    const bool select = opcode == "select";
    const bool predResult = opcode == "compare" || opcode == "is-finite";
    if (select && (types.empty() || types[0].kind != ElementCode::Kind::kPred))
      throw atOp(op, "its predicate is not i1");
    const size_t first = select ? 1 : 0;
    for (size_t k = first; k < types.size(); ++k)
      if (types[k].hloType != types[first].hloType ||
          (!predResult && types[k].hloType != result.hloType))
        throw atOp(op, "operands and result of one type expected (" + types[k].hloType + ", " +
                           types[first].hloType + " -> " + result.hloType + ")");
    if (predResult && result.kind != ElementCode::Kind::kPred)
      throw atOp(op, "its result is not i1");
  }

  const mlir_ir::Block& block_;
  size_t inputs_ = 0;
  std::map<std::string, size_t> arguments_;
  UpdateLocals<std::string> locals_;
};

}  // namespace

std::string UpdateFunctions::note() const {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return "update computation: the kernel's own functions " + list +
         " (its ops as element_code writes them, each new value computed before any is stored; "
         "their bodies are held against the reference by tests, not read by kernel validation)";
}

std::string updateParameter(size_t k, size_t inputs) {
  return k < inputs ? "current" + std::to_string(k) : "update" + std::to_string(k - inputs);
}

std::string updateFunction(const std::string& name, const std::vector<std::string>& storage,
                           const std::string& body, const std::string& resultStorage,
                           const std::string& result) {
  std::string parameters, unused;
  for (size_t k = 0; k < storage.size(); ++k) {
    const std::string argument = updateParameter(k, storage.size() / 2);
    parameters += (k ? ", " : "") + storage[k] + " " + argument;
    unused += "  (void)" + argument + ";\n";  // a function reads only what it needs
  }
  return "static inline " + resultStorage + " " + name + "(" + parameters + ") {\n" + unused +
         body + "  return " + result + ";\n}\n";
}

UpdateFunctions regionUpdateFunctions(const Operation& scatter, const std::string& symbol,
                                      bool cuda) {
  const size_t n = (scatter.operands.size() - 1) / 2;
  if (scatter.regions.size() != 1 || scatter.regions[0].blocks.size() != 1)
    throw Error(where(scatter) + ": one update computation region expected");
  const mlir_ir::Block& block = scatter.regions[0].blocks[0];
  if (block.arguments.size() != 2 * n || block.operations.empty() ||
      block.operations.back().operands.size() != n)
    throw Error(where(scatter) + ": the update computation takes " + std::to_string(2 * n) +
                " scalars and returns " + std::to_string(n));
  std::vector<std::string> storage, types;  // of each parameter
  for (const mlir_ir::BlockArgument& argument : block.arguments) {
    const ElementCode code = codeOf(argument.type, where(scatter));
    storage.push_back(code.storage);
    types.push_back(code.hloType);
  }
  UpdateFunctions out;
  for (size_t i = 0; i < n; ++i) {
    RegionBody body(block, n);
    ElementCode type{};
    const std::string value = body.value(block.operations.back().operands[i], type);
    if (type.hloType != types[i])  // the scatter's validation says which constraint (C23)
      throw Error(where(scatter) + ": the update computation returns " + type.hloType +
                  " for input " + std::to_string(i));
    out.names.push_back(symbol + "_update" + std::to_string(i));
    out.text += updateFunction(out.names.back(), storage, body.text(), type.storage,
                               storeElement(type, value));
  }
  out.text = "// " + where(scatter) +
             ": its update computation, each input's new value from every input's current value "
             "and update\n" +
             out.text;
  if (cuda) out.text = deviceAnnotated(out.text);
  return out;
}

}  // namespace idxmap::codegen
