// Elementwise ops: the result at index i reads every operand at index i. A rank-0 operand
// (clamp's bounds, a scalar select predicate) is read at every index.
#include <map>
#include <string_view>

#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

// How the result's element type follows from the operands.
// Magnitude: the first operand's, or for a complex one its component type (abs of c64 is f32),
// as XLA's shape inference gives it.
enum class ResultType { FirstOperand, SecondOperand, Pred, Declared, Magnitude };

struct ElementwiseRule {
  int arity;  // -1: any number >= 1 (map)
  ResultType resultType;
  bool scalarOperandsAllowed;  // clamp, select
};

// Rules as data: one line per opcode.
const std::map<std::string_view, ElementwiseRule, std::less<>>& rules() {
  using enum ResultType;
  static const std::map<std::string_view, ElementwiseRule, std::less<>> table = {
      {"abs", {1, Magnitude, false}},
      {"acos", {1, FirstOperand, false}},
      {"acosh", {1, FirstOperand, false}},
      {"asin", {1, FirstOperand, false}},
      {"asinh", {1, FirstOperand, false}},
      {"atanh", {1, FirstOperand, false}},
      {"cbrt", {1, FirstOperand, false}},
      {"ceil", {1, FirstOperand, false}},
      {"cosh", {1, FirstOperand, false}},
      {"count-leading-zeros", {1, FirstOperand, false}},
      {"convert", {1, Declared, false}},
      {"cosine", {1, FirstOperand, false}},
      {"erf", {1, FirstOperand, false}},
      {"exponential", {1, FirstOperand, false}},
      {"exponential-minus-one", {1, FirstOperand, false}},
      {"floor", {1, FirstOperand, false}},
      {"imag", {1, Declared, false}},
      {"is-finite", {1, Pred, false}},
      {"log", {1, FirstOperand, false}},
      {"log-plus-one", {1, FirstOperand, false}},
      {"logistic", {1, FirstOperand, false}},
      {"negate", {1, FirstOperand, false}},
      {"not", {1, FirstOperand, false}},
      {"popcnt", {1, FirstOperand, false}},
      {"real", {1, Declared, false}},
      {"reduce-precision", {1, FirstOperand, false}},
      {"round-nearest-afz", {1, FirstOperand, false}},
      {"round-nearest-even", {1, FirstOperand, false}},
      {"rsqrt", {1, FirstOperand, false}},
      {"sign", {1, FirstOperand, false}},
      {"sine", {1, FirstOperand, false}},
      {"sinh", {1, FirstOperand, false}},
      {"sqrt", {1, FirstOperand, false}},
      {"tan", {1, FirstOperand, false}},
      {"tanh", {1, FirstOperand, false}},
      {"add", {2, FirstOperand, false}},
      {"and", {2, FirstOperand, false}},
      {"atan2", {2, FirstOperand, false}},
      {"compare", {2, Pred, false}},
      {"complex", {2, Declared, false}},
      {"divide", {2, FirstOperand, false}},
      {"maximum", {2, FirstOperand, false}},
      {"minimum", {2, FirstOperand, false}},
      {"multiply", {2, FirstOperand, false}},
      {"or", {2, FirstOperand, false}},
      {"power", {2, FirstOperand, false}},
      {"remainder", {2, FirstOperand, false}},
      {"shift-left", {2, FirstOperand, false}},
      {"shift-right-arithmetic", {2, FirstOperand, false}},
      {"shift-right-logical", {2, FirstOperand, false}},
      {"stochastic-convert", {2, Declared, false}},
      {"subtract", {2, FirstOperand, false}},
      {"xor", {2, FirstOperand, false}},
      {"clamp", {3, SecondOperand, true}},
      {"select", {3, SecondOperand, true}},
      {"map", {-1, Declared, false}},
  };
  return table;
}

class ElementwiseModel : public OpModelBase {
 public:
  Shape inferShape(const Instruction& instruction) const override {
    auto rule = rules().find(instruction.opcode);
    if (rule == rules().end()) hlo::failAtOpcode(instruction, "is not an elementwise op");
    const ElementwiseRule& r = rule->second;
    if (r.arity < 0)
      expectOperandCountAtLeast(instruction, 1);
    else
      expectOperandCount(instruction, static_cast<size_t>(r.arity));
    if (instruction.opcode == "compare")
      hlo::readComparisonDirection(hlo::requireAttribute(instruction, "direction"), "direction");
    if (instruction.opcode == "map") checkMapDimensions(instruction);

    // The result has the most specific shape compatible with every non-scalar operand.
    const Shape* first = nullptr;
    Shape shape;
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Shape& operand = arrayOperand(instruction, i);
      if (r.scalarOperandsAllowed && operand.rank() == 0) continue;
      if (!first) {
        first = &operand;
        shape = operand;
        shape.layout.reset();
        continue;
      }
      Shape sameType = operand;
      sameType.element_type = first->element_type;
      if (auto why = hlo::incompatibility(sameType, *first))
        hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " " + operand.toString() +
                                           " does not match operand 0 " + first->toString() + ": " +
                                           *why);
      shape = hlo::refine(shape, operand);
    }
    if (!first) shape = arrayShape("", {});  // every operand is a scalar
    checkElementTypes(instruction);
    switch (r.resultType) {
      case ResultType::FirstOperand:
        shape.element_type = instruction.operands[0]->shape.element_type;
        break;
      case ResultType::SecondOperand:
        shape.element_type = instruction.operands[1]->shape.element_type;
        break;
      case ResultType::Pred:
        shape.element_type = "pred";
        break;
      case ResultType::Declared:
        shape.element_type = instruction.shape.element_type;
        break;
      case ResultType::Magnitude: {
        const std::string& operand = instruction.operands[0]->shape.element_type;
        shape.element_type = operand == "c64" ? "f32" : operand == "c128" ? "f64" : operand;
        break;
      }
    }
    return shape;
  }

 protected:
  MapSets mapsToOperands(const Instruction& instruction, int) const override {
    const Shape& result = instruction.shape;
    MapSets sets;
    for (const hlo::Instruction* operand : instruction.operands) {
      if (operand->shape.rank() == 0 && result.rank() > 0) {
        sets.push_back({toScalar(result)});
      } else {
        IndexingMap domain = domainOf(result);
        sets.push_back({withResults(domain, dimExprs(domain))});
      }
    }
    return sets;
  }

  MapSets mapsToResults(const Instruction& instruction, int inputId) const override {
    const Shape& operand = instruction.operands[inputId]->shape;
    if (operand.rank() == 0 && instruction.shape.rank() > 0)
      return {{fromScalar(instruction.shape)}};
    IndexingMap domain = domainOf(operand);
    return {{withResults(domain, dimExprs(domain))}};
  }

 private:
  // map's dimensions= must list every dimension in order (XLA's only supported form).
  static void checkMapDimensions(const Instruction& instruction) {
    const hlo::Attribute* attribute = instruction.attribute("dimensions");
    if (!attribute) return;
    std::vector<int64_t> dims = hlo::readIntList(*attribute, "dimensions");
    int64_t rank = instruction.operands[0]->shape.rank();
    if (dims.empty()) return;  // XLA prints {} for "all dimensions"
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i] != static_cast<int64_t>(i) || static_cast<int64_t>(dims.size()) != rank)
        hlo::failInAttribute(
            *attribute, "dimensions", 0,
            "map must apply to every dimension in order, {0..." + std::to_string(rank - 1) + "}");
  }

  // Arithmetic needs operands of one element type; select's predicate is pred.
  static void checkElementTypes(const Instruction& instruction) {
    const std::string& op = instruction.opcode;
    if (op == "map" || op == "complex" || op == "stochastic-convert") return;
    size_t firstData = (op == "select") ? 1 : 0;
    if (op == "select" && instruction.operands[0]->shape.element_type != "pred")
      hlo::failAtOpcode(instruction, "operand 0 has element type " +
                                         instruction.operands[0]->shape.element_type +
                                         ", expected pred");
    const std::string& type = instruction.operands[firstData]->shape.element_type;
    for (size_t i = firstData + 1; i < instruction.operands.size(); ++i)
      if (instruction.operands[i]->shape.element_type != type)
        hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " has element type " +
                                           instruction.operands[i]->shape.element_type +
                                           ", expected " + type);
  }
};

}  // namespace

const OpModel& elementwiseModel() {
  static const ElementwiseModel model;
  return model;
}

std::vector<std::string_view> elementwiseOpcodes() {
  std::vector<std::string_view> opcodes;
  for (const auto& [opcode, rule] : rules()) opcodes.push_back(opcode);
  return opcodes;
}

}  // namespace idxmap::ops
