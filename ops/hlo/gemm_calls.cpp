#include "ops/hlo/gemm_calls.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace idxmap::hlo {
namespace {

// An attribute's text as a string: a quoted one unquoted, its C escapes read (XLA quotes
// backend_config's JSON in older dumps); nullopt for a quoted one left open.
std::optional<std::string> unquoted(const std::string& value) {
  if (value.empty() || value.front() != '"') return value;
  std::string out;
  for (size_t i = 1; i < value.size(); ++i) {
    if (value[i] == '"')
      return i + 1 == value.size() ? std::optional<std::string>(out) : std::nullopt;
    if (value[i] == '\\' && i + 1 < value.size()) {
      const char c = value[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      out += value[i];
    }
  }
  return std::nullopt;
}

// A list of dims as the config's JSON holds one (int64 fields are written as strings), as the
// dot's attribute text `{0,1}`; nullopt for anything else.
std::optional<std::string> dimList(const nlohmann::json& dims) {
  if (!dims.is_array()) return std::nullopt;
  std::string out = "{";
  for (const nlohmann::json& d : dims) {
    std::string text;
    if (d.is_number_integer())
      text = std::to_string(d.get<int64_t>());
    else if (d.is_string() && !d.get<std::string>().empty() &&
             d.get<std::string>().find_first_not_of("0123456789") == std::string::npos)
      text = d.get<std::string>();
    else
      return std::nullopt;
    out += (out.size() > 1 ? "," : "") + text;
  }
  return out + "}";
}

// Whether field `name` of `config` is absent or the number `expected`.
bool numberIs(const nlohmann::json& config, const char* name, double expected) {
  auto found = config.find(name);
  return found == config.end() || (found->is_number() && found->get<double>() == expected);
}

}  // namespace

bool readGemmCall(Instruction& instruction) {
  // The reader calls this for every instruction: the opcode first, before any attribute lookup.
  if (instruction.opcode != "custom-call" || instruction.operands.size() != 2 ||
      instruction.shape.isTuple)
    return false;
  const Attribute* target = instruction.attribute("custom_call_target");
  const Attribute* backend = instruction.attribute("backend_config");
  if (!target || !backend ||
      (target->value != "\"__cublas$gemm\"" && target->value != "\"__cublas$lt$matmul\""))
    return false;
  std::optional<std::string> text = unquoted(backend->value);
  if (!text) return false;
  const nlohmann::json json = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("gemm_backend_config")) return false;
  const nlohmann::json& config = json["gemm_backend_config"];
  if (!config.is_object() || !numberIs(config, "alpha_real", 1) ||
      !numberIs(config, "alpha_imag", 0) || !numberIs(config, "beta", 0))
    return false;
  if (auto epilogue = config.find("epilogue"); epilogue != config.end() && *epilogue != "DEFAULT")
    return false;
  auto numbers = config.find("dot_dimension_numbers");
  if (numbers == config.end() || !numbers->is_object()) return false;
  const std::pair<const char*, const char*> fields[] = {
      {"lhs_contracting_dimensions", "lhs_contracting_dims"},
      {"rhs_contracting_dimensions", "rhs_contracting_dims"},
      {"lhs_batch_dimensions", "lhs_batch_dims"},
      {"rhs_batch_dimensions", "rhs_batch_dims"}};
  std::map<std::string, Attribute> dims;
  for (const auto& [field, attribute] : fields) {
    auto found = numbers->find(field);
    std::optional<std::string> list =
        found == numbers->end() ? std::optional<std::string>("{}") : dimList(*found);
    if (!list) return false;
    dims[attribute] = Attribute{*list, backend->location};
  }
  instruction.opcode = "dot";
  for (auto& [name, attribute] : dims) instruction.attributes[name] = attribute;
  return true;
}

}  // namespace idxmap::hlo
