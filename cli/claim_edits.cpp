#include "cli/claim_edits.h"

#include <algorithm>
#include <cctype>

namespace idxmap::cli {
namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

size_t skipSpace(std::string_view text, size_t at) {
  while (at < text.size() && isSpace(text[at])) ++at;
  return at;
}

// After `name` (at `at`), `=` and spaces: `false` becomes `true`; nullopt for any other
// value.
std::optional<TextEdit> falseToTrue(std::string_view text, size_t at, size_t nameLength) {
  size_t i = skipSpace(text, at + nameLength);
  if (i >= text.size() || text[i] != '=') return std::nullopt;
  i = skipSpace(text, i + 1);
  if (text.substr(i, 5) != "false") return std::nullopt;
  return TextEdit{i, 5, "true"};
}

// The `}` closing the dictionary that holds the text at `from`: the first closing bracket
// with no opening one after `from` (strings skipped; `<` and `>` are not brackets here, since
// `->` appears inside attribute values). nullopt when that bracket is not a `}`.
std::optional<size_t> closingBrace(std::string_view text, size_t from) {
  int depth = 0;
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return c == '}' ? std::optional<size_t>(i) : std::nullopt;
      --depth;
    }
  }
  return std::nullopt;
}

// Whether the text at `at` starts the word `word` (no identifier character before it).
bool wordAt(std::string_view text, size_t at, std::string_view word) {
  if (text.substr(at, word.size()) != word) return false;
  if (at == 0) return true;
  char before = text[at - 1];
  return !(std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.');
}

}  // namespace

std::optional<size_t> offsetOf(std::string_view text, const SourceLocation& location) {
  size_t at = 0;
  for (int line = 1; line < location.line; ++line) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  at += static_cast<size_t>(std::max(location.column, 1) - 1);
  if (at >= text.size()) return std::nullopt;
  return at;
}

std::optional<TextEdit> mlirClaimEdit(std::string_view text, const mlir_ir::Operation& op,
                                      const std::string& attribute) {
  if (const mlir_ir::NamedAttribute* written = op.namedAttribute(attribute)) {
    std::optional<size_t> at = offsetOf(text, written->location);
    if (!at || !wordAt(text, *at, attribute)) return std::nullopt;
    return falseToTrue(text, *at, attribute.size());
  }
  // Another attribute of the op's dictionary shows where the dictionary is.
  for (const mlir_ir::NamedAttribute& anchor : op.attributes) {
    if (anchor.name.empty()) continue;
    std::optional<size_t> at = offsetOf(text, anchor.location);
    if (!at || !wordAt(text, *at, anchor.name)) continue;
    std::optional<size_t> close = closingBrace(text, *at);
    if (!close) continue;
    size_t end = *close;
    while (end > *at && isSpace(text[end - 1])) --end;
    return TextEdit{end, 0, ", " + attribute + " = true"};
  }
  return std::nullopt;
}

std::optional<TextEdit> hloClaimEdit(std::string_view text, const hlo::Instruction& instruction,
                                     const std::string& attribute) {
  // Where the reader found the attribute's value (spaces, comments and line breaks allowed
  // around `=`): `false` there becomes `true`.
  if (auto written = instruction.attributes.find(attribute);
      written != instruction.attributes.end()) {
    std::optional<size_t> value = offsetOf(text, written->second.location);
    if (!value || text.substr(*value, 5) != "false") return std::nullopt;
    return TextEdit{*value, 5, "true"};
  }
  std::optional<size_t> at = offsetOf(text, instruction.opcodeLocation);
  if (!at || !wordAt(text, *at, instruction.opcode)) return std::nullopt;
  size_t lineEnd = std::min(text.find('\n', *at), text.size());
  std::string_view line = text.substr(0, lineEnd);
  // After the operand list: `scatter(%a, %b, %c)`, shapes with parentheses inside.
  size_t i = *at + instruction.opcode.size();
  if (i >= line.size() || line[i] != '(') return std::nullopt;
  int depth = 0;
  for (; i < line.size(); ++i) {
    if (line[i] == '(') ++depth;
    if (line[i] == ')' && --depth == 0) return TextEdit{i + 1, 0, ", " + attribute + "=true"};
  }
  return std::nullopt;
}

std::string withEdits(std::string text, std::vector<TextEdit> edits) {
  // From the end, so that offsets stay true; insertions at one offset in the order given.
  std::vector<size_t> order(edits.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return edits[a].offset != edits[b].offset ? edits[a].offset > edits[b].offset : a > b;
  });
  for (size_t i : order) text.replace(edits[i].offset, edits[i].length, edits[i].text);
  return text;
}

}  // namespace idxmap::cli
