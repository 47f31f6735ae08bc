// Elementwise ops: the result at index i reads every operand at index i. A rank-0 operand
// (clamp's bounds, a scalar select predicate) is read at every index.
#include <map>
#include <string_view>

#include "ops/hlo/element_types.h"
#include "ops/hlo/models/common.h"
#include "ops/hlo/shape_compat.h"

namespace idxmap::ops {
namespace {

// Which element types an op takes, as XLA's shape inference checks them.
enum class Operands {
  Any,
  Floating,           // floor, ceil, rounding, is-finite, cbrt, reduce-precision
  FloatingOrComplex,  // sqrt, exponential, sine, ...: also real and imag
  SignedOrComplex,    // abs: signed integers and floating types, or complex
  SignOf,             // sign: the same classes, XLA's own message
  Numeric,            // negate: anything but pred
  NotPred,            // subtract, divide, remainder, power, shifts
  Integral,           // count-leading-zeros, popcnt
  PredOrIntegral,     // not, and, or, xor
  ComplexParts,       // complex: f32 or f64 parts
  Stochastic,  // stochastic-convert: a floating operand and unsigned random bits of its width
};

// How the result's element type follows from the operands: the first's, the second's (select,
// clamp), pred, a complex operand's component type (abs, real, imag of c64 are f32), the complex
// type of two parts (complex of f32 is c64), the computation's (map), or as declared (convert).
enum class Result { FirstOperand, SecondOperand, Pred, Component, Composed, Computed, Declared };

// Which operands may be rank 0 where the others are not: select's predicate, clamp's bounds.
enum class Scalars { None, Predicate, Bounds };

struct ElementwiseRule {
  int arity;  // -1: any number >= 1 (map)
  Operands operands;
  Result result;
  Scalars scalars = Scalars::None;
};

// Rules as data: one line per opcode.
const std::map<std::string_view, ElementwiseRule, std::less<>>& rules() {
  using enum Operands;
  using enum Result;
  static const std::map<std::string_view, ElementwiseRule, std::less<>> table = {
      {"abs", {1, SignedOrComplex, Component}},
      {"acos", {1, FloatingOrComplex, FirstOperand}},
      {"acosh", {1, FloatingOrComplex, FirstOperand}},
      {"asin", {1, FloatingOrComplex, FirstOperand}},
      {"asinh", {1, FloatingOrComplex, FirstOperand}},
      {"atanh", {1, FloatingOrComplex, FirstOperand}},
      {"cbrt", {1, Floating, FirstOperand}},
      {"ceil", {1, Floating, FirstOperand}},
      {"cosh", {1, FloatingOrComplex, FirstOperand}},
      {"count-leading-zeros", {1, Integral, FirstOperand}},
      {"convert", {1, Any, Declared}},
      {"cosine", {1, FloatingOrComplex, FirstOperand}},
      {"erf", {1, FloatingOrComplex, FirstOperand}},
      {"exponential", {1, FloatingOrComplex, FirstOperand}},
      {"exponential-minus-one", {1, FloatingOrComplex, FirstOperand}},
      {"floor", {1, Floating, FirstOperand}},
      {"imag", {1, FloatingOrComplex, Component}},
      {"is-finite", {1, Floating, Pred}},
      {"log", {1, FloatingOrComplex, FirstOperand}},
      {"log-plus-one", {1, FloatingOrComplex, FirstOperand}},
      {"logistic", {1, FloatingOrComplex, FirstOperand}},
      {"negate", {1, Numeric, FirstOperand}},
      {"not", {1, PredOrIntegral, FirstOperand}},
      {"popcnt", {1, Integral, FirstOperand}},
      {"real", {1, FloatingOrComplex, Component}},
      {"reduce-precision", {1, Floating, FirstOperand}},
      {"round-nearest-afz", {1, Floating, FirstOperand}},
      {"round-nearest-even", {1, Floating, FirstOperand}},
      {"rsqrt", {1, FloatingOrComplex, FirstOperand}},
      {"sign", {1, SignOf, FirstOperand}},
      {"sine", {1, FloatingOrComplex, FirstOperand}},
      {"sinh", {1, FloatingOrComplex, FirstOperand}},
      {"sqrt", {1, FloatingOrComplex, FirstOperand}},
      {"tan", {1, FloatingOrComplex, FirstOperand}},
      {"tanh", {1, FloatingOrComplex, FirstOperand}},
      {"add", {2, Any, FirstOperand}},
      {"and", {2, PredOrIntegral, FirstOperand}},
      {"atan2", {2, FloatingOrComplex, FirstOperand}},
      {"compare", {2, Any, Pred}},
      {"complex", {2, ComplexParts, Composed}},
      {"divide", {2, NotPred, FirstOperand}},
      {"maximum", {2, Any, FirstOperand}},
      {"minimum", {2, Any, FirstOperand}},
      {"multiply", {2, Any, FirstOperand}},
      {"or", {2, PredOrIntegral, FirstOperand}},
      {"power", {2, NotPred, FirstOperand}},
      {"remainder", {2, NotPred, FirstOperand}},
      {"shift-left", {2, NotPred, FirstOperand}},
      {"shift-right-arithmetic", {2, NotPred, FirstOperand}},
      {"shift-right-logical", {2, NotPred, FirstOperand}},
      {"stochastic-convert", {2, Stochastic, Declared}},
      {"subtract", {2, NotPred, FirstOperand}},
      {"xor", {2, PredOrIntegral, FirstOperand}},
      {"clamp", {3, Any, SecondOperand, Scalars::Bounds}},
      {"select", {3, Any, SecondOperand, Scalars::Predicate}},
      {"map", {-1, Any, Computed}},
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
    if (instruction.opcode == "compare") checkComparison(instruction);
    if (instruction.opcode == "map") checkMapDimensions(instruction);
    if (instruction.opcode == "reduce-precision") checkPrecisionBits(instruction);

    // Every operand has the reference operand's shape (select's and clamp's middle one), but
    // for the rank-0 operands the rule allows: a select predicate, clamp bounds.
    const size_t reference = r.scalars == Scalars::None ? 0 : 1;
    const Shape& referenceShape = arrayOperand(instruction, reference);
    Shape shape = referenceShape;
    shape.layout.reset();
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      const Shape& operand = arrayOperand(instruction, i);
      if (i == reference) continue;
      const bool scalarAllowed =
          (r.scalars == Scalars::Predicate && i == 0) || (r.scalars == Scalars::Bounds && i != 1);
      if (scalarAllowed && operand.rank() == 0) continue;
      Shape sameType = operand;
      sameType.element_type = referenceShape.element_type;
      if (auto why = hlo::incompatibility(sameType, referenceShape))
        hlo::failAtOpcode(instruction, "operand " + std::to_string(i) + " " + operand.toString() +
                                           " does not match operand " + std::to_string(reference) +
                                           " " + referenceShape.toString() + ": " + *why);
      shape = hlo::refine(shape, operand);
    }
    checkElementTypes(instruction);
    checkOperandClass(instruction, r.operands);
    const std::string& first = instruction.operands[0]->shape.element_type;
    switch (r.result) {
      case Result::FirstOperand:
        shape.element_type = first;
        break;
      case Result::SecondOperand:
        shape.element_type = instruction.operands[1]->shape.element_type;
        break;
      case Result::Pred:
        shape.element_type = "pred";
        break;
      case Result::Component:
        shape.element_type = hlo::componentType(first);
        break;
      case Result::Composed:
        shape.element_type = *hlo::complexOf(first);  // checkOperandClass: f32 or f64
        break;
      case Result::Computed:
        shape.element_type = mappedType(instruction);
        break;
      case Result::Declared:
        shape.element_type = instruction.shape.element_type;
        break;
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
    if (op == "map" || op == "stochastic-convert") return;
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

  // The element type classes XLA's shape inference allows the op (its operand 0; the others
  // have its type, checkElementTypes).
  static void checkOperandClass(const Instruction& instruction, Operands operands) {
    const std::string& type = instruction.operands[0]->shape.element_type;
    auto expect = [&](bool allowed, const std::string& what) {
      if (!allowed)
        hlo::failAtOpcode(instruction, "operand element type " + type + " must be " + what);
    };
    const bool pred = type == "pred";
    switch (operands) {
      case Operands::Any:
        return;
      case Operands::Floating:
        return expect(hlo::isFloating(type), "floating");
      case Operands::FloatingOrComplex:
        return expect(hlo::isFloating(type) || hlo::isComplex(type), "floating or complex");
      case Operands::SignedOrComplex:
        return expect(hlo::isSigned(type) || hlo::isComplex(type),
                      "floating, a signed integer or complex");
      case Operands::SignOf:
        return expect(hlo::isSigned(type) || hlo::isComplex(type), "signed or complex");
      case Operands::Numeric:
        return expect(hlo::isIntegral(type) || hlo::isFloating(type) || hlo::isComplex(type),
                      "integral, floating or complex");
      case Operands::NotPred:
        return expect(!pred, "an arithmetic type, not pred");
      case Operands::Integral:
        return expect(hlo::isIntegral(type), "integral");
      case Operands::PredOrIntegral:
        return expect(pred || hlo::isIntegral(type), "pred or integral");
      case Operands::ComplexParts:
        expect(hlo::isFloating(type), "floating");
        return expect(hlo::complexOf(type).has_value(),
                      "f32 or f64 (XLA has no complex type of " + type + " parts)");
      case Operands::Stochastic: {
        expect(hlo::isFloating(type), "floating");
        const std::string& random = instruction.operands[1]->shape.element_type;
        std::optional<hlo::ElementType> bits = hlo::elementType(random);
        if (!bits || bits->kind != hlo::ElementKind::Unsigned ||
            bits->bits != hlo::elementType(type)->bits)
          hlo::failAtOpcode(instruction, "random operand element type " + random +
                                             " must be an unsigned integer of " + type +
                                             "'s width");
        return;
      }
    }
  }

  // compare's type=, where given, is the one XLA allows for the operands' element type.
  static void checkComparison(const Instruction& instruction) {
    hlo::readComparisonDirection(hlo::requireAttribute(instruction, "direction"), "direction");
    const hlo::Attribute* attribute = instruction.attribute("type");
    if (!attribute) return;
    const std::string& type = instruction.operands[0]->shape.element_type;
    const bool floating = hlo::isFloating(type) || hlo::isComplex(type);
    const bool signedIntegral = hlo::isIntegral(type) && hlo::isSigned(type);
    const std::string expected = floating         ? "FLOAT or TOTALORDER"
                                 : signedIntegral ? "SIGNED"
                                                  : "UNSIGNED";
    const std::string& given = attribute->value;
    const bool allowed = floating ? given == "FLOAT" || given == "TOTALORDER" : given == expected;
    if (!allowed)
      hlo::failInAttribute(
          *attribute, "type", 0,
          "comparison type " + given + " does not compare " + type + " (" + expected + ")");
  }

  // reduce-precision keeps at least one exponent bit (to tell 0 from infinity).
  static void checkPrecisionBits(const Instruction& instruction) {
    const hlo::Attribute& exponent = hlo::requireAttribute(instruction, "exponent_bits");
    if (hlo::readInt(exponent, "exponent_bits") < 1)
      hlo::failInAttribute(exponent, "exponent_bits", 0, "must be at least 1");
    const hlo::Attribute& mantissa = hlo::requireAttribute(instruction, "mantissa_bits");
    if (hlo::readInt(mantissa, "mantissa_bits") < 0)
      hlo::failInAttribute(mantissa, "mantissa_bits", 0, "must not be negative");
  }

  // map's computation takes one scalar per operand, of its element type, and returns a scalar:
  // the result's element type.
  static std::string mappedType(const Instruction& instruction) {
    if (instruction.calledComputations.size() != 1)
      failAtInstruction(instruction, "map calls one computation (to_apply=)");
    const hlo::Computation& computation = *instruction.calledComputations[0];
    for (size_t k = 0; k < instruction.operands.size(); ++k) {
      const hlo::Instruction* parameter = computation.parameter(static_cast<int64_t>(k));
      const std::string& type = instruction.operands[k]->shape.element_type;
      // Floating types of another precision pass, as XLA's reducers do (where in doubt, accept).
      const std::string& own = parameter ? parameter->shape.element_type : type;
      if (!parameter || parameter->shape.isTuple || parameter->shape.rank() != 0 ||
          (own != type && !(hlo::isFloating(own) && hlo::isFloating(type))))
        failAtInstruction(instruction, "to_apply's parameter " + std::to_string(k) + " must be " +
                                           type + "[] (operand " + std::to_string(k) +
                                           "'s element)");
    }
    if (computation.parameter(static_cast<int64_t>(instruction.operands.size())))
      failAtInstruction(instruction, "to_apply takes more parameters than the " +
                                         std::to_string(instruction.operands.size()) + " operands");
    const Shape& returned = computation.root->shape;
    if (returned.isTuple || returned.rank() != 0)
      failAtInstruction(instruction, "to_apply returns " + returned.toString() + ", not a scalar");
    return returned.element_type;
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
