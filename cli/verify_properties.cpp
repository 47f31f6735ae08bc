#include "cli/verify_properties.h"

namespace idxmap::cli {
namespace {

// The properties of an op with the words its messages use.
struct Named {
  const char* name;  // "unique", "sorted", "in bounds"
  const IndexProperty* property;
};

std::vector<Named> named(const OpIndexProperties& properties) {
  std::vector<Named> all;
  if (properties.unique) all.push_back({"unique", &*properties.unique});
  all.push_back({"sorted", &properties.sorted});
  all.push_back({"in bounds", &properties.inBounds});
  all.push_back({"int32 safe", &properties.int32Safe});
  return all;
}

// "; it fails at %idx[0] = 8 (...): ..." for a replayed witness, else nothing.
std::string failsAt(const ProofResult& result) {
  if (!result.witness || !result.witness->replayed) return "";
  return "; it fails at " + result.witness->explanation;
}

// `unique_indices = true`: an attribute's claim as the text would write it.
std::string claimText(const IndexProperty& property) {
  bool attribute = !property.claim.empty() && property.claim.front() != '`' &&
                   property.claim.find(' ') == std::string::npos;
  return attribute ? property.claim + " = true" : property.claim;
}

// Argument values that break a property stated on them, once replayed (null otherwise): the
// elements listed, `others` every other element of their tensors, every other argument 0.
nlohmann::ordered_json witnessJson(const ProofResult& result) {
  if (!result.witness || !result.witness->replayed) return nullptr;
  nlohmann::ordered_json elements = nlohmann::ordered_json::array();
  for (const ArgumentWitness::Element& element : result.witness->elements)
    elements.push_back(
        {{"tensor", element.tensor}, {"index", element.index}, {"value", element.value}});
  const ArgumentWitness& witness = *result.witness;
  return {{"elements", elements},
          {"others", witness.fill.value_or(witness.elements.front().value)},
          {"explanation", witness.explanation}};
}

nlohmann::ordered_json propertyJson(const IndexProperty& property) {
  const ProofResult& result = property.result;
  auto orNull = [](const std::string& text) {
    return text.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(text);
  };
  nlohmann::ordered_json counterexample = nullptr;
  if (result.counterexample) {
    nlohmann::ordered_json elements = nlohmann::ordered_json::array();
    for (const Counterexample::Element& element : result.counterexample->elements)
      elements.push_back({{"tensor", element.tensor}, {"index", element.index}});
    counterexample = {{"explanation", result.counterexample->explanation}, {"elements", elements}};
  }
  return {{"claimed", property.claimed ? nlohmann::ordered_json(*property.claimed)
                                       : nlohmann::ordered_json(nullptr)},
          {"verdict", verdictName(result.verdict)},
          {"certificate", result.isUnknown() ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json(result.method)},
          {"counterexample", counterexample},
          {"condition", orNull(result.condition)},
          {"condition_on", orNull(result.conditionOn)},
          {"reason", orNull(result.reason)},
          {"assumptions", result.assumptions},
          {"witness", witnessJson(result)}};
}

}  // namespace

std::string certificate(const ProofResult& result) {
  std::string text = result.method;
  if (!result.assumptions.empty()) {
    text += ", assuming";
    for (size_t i = 0; i < result.assumptions.size(); ++i)
      text += (i ? "; " : " ") + result.assumptions[i];
  }
  return text;
}

std::string refutedClaim(const OpIndexProperties& properties, const IndexProperty& property) {
  const ProofResult& result = property.result;
  std::string explanation =
      result.counterexample ? result.counterexample->explanation : result.reason;
  // A required claim (in-range indices) is a rule, an optional one an attribute's value.
  std::string claim = &property == &properties.inBounds ? "indices must be in range"
                                                        : claimText(property) + " is false";
  return claim + ": " + explanation;
}

void printPropertyDiagnostics(const SourceLocation& location, const std::string& op,
                              const OpIndexProperties& properties, std::ostream& diagnostics) {
  for (const auto& [name, property] : named(properties)) {
    const ProofResult& result = property->result;
    if (property->claimed == true && result.isRefuted()) {
      diagnostics << formatDiagnostic(location, "error",
                                      op + ": " + refutedClaim(properties, *property))
                  << '\n';
    } else if (property->claimed == true && result.isUnknown()) {
      diagnostics << formatDiagnostic(
                         location, "warning",
                         op + ": " + claimText(*property) + " is not proven: " + result.reason)
                  << '\n';
      if (!result.condition.empty())
        diagnostics << formatDiagnostic(location, "remark",
                                        op + ": " + name + " holds if and only if " +
                                            result.condition + failsAt(result))
                    << '\n';
    } else if (!property->claimed && result.isUnknown() && result.conditionOn == "arguments") {
      // A rule no attribute claims (StableHLO's in bounds), when what it takes is a condition on
      // the function's arguments: for the user to check, or to assume.
      diagnostics << formatDiagnostic(location, "remark",
                                      op + ": " + name + " holds if and only if " +
                                          result.condition + failsAt(result))
                  << '\n';
    } else if (property->claimed == false && result.isProven()) {
      diagnostics << formatDiagnostic(location, "note",
                                      op + ": " + property->claim + " could be set: proven (" +
                                          certificate(result) + ")")
                  << '\n';
    }
  }
}

nlohmann::ordered_json propertiesJson(const OpIndexProperties& properties) {
  nlohmann::ordered_json int32 = propertyJson(properties.int32Safe);
  nlohmann::ordered_json expressions = nlohmann::ordered_json::array();
  for (const ExpressionSafety& expression : properties.int32Expressions)
    expressions.push_back(
        {{"map", expression.map},
         {"expression", expression.expression},
         {"min", expression.min},
         {"max", expression.max},
         {"verdict", verdictName(expression.verdict.verdict)},
         {"certificate", expression.verdict.isUnknown()
                             ? nlohmann::ordered_json(nullptr)
                             : nlohmann::ordered_json(expression.verdict.method)}});
  int32["expressions"] = expressions;
  return {{"unique",
           properties.unique ? propertyJson(*properties.unique) : nlohmann::ordered_json(nullptr)},
          {"sorted", propertyJson(properties.sorted)},
          {"in_bounds", propertyJson(properties.inBounds)},
          {"int32_safe", int32},
          {"indices", properties.indices}};
}

void tally(const OpIndexProperties& properties, PropertyTally& tally) {
  ++tally.ops;
  for (const auto& [name, property] : named(properties)) {
    const ProofResult& result = property->result;
    (result.isProven() ? tally.proven : result.isRefuted() ? tally.refuted : tally.unknown)++;
    if (property->claimed == true && result.isRefuted()) ++tally.claimsRefuted;
    if (property->claimed == true && result.isUnknown()) ++tally.claimsUnknown;
  }
}

}  // namespace idxmap::cli
