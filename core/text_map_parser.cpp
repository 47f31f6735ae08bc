#include "core/text_map_parser.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/text_expr_parser.h"
#include "core/text_lexer.h"

namespace idxmap {
namespace {

constexpr ExprKind kVariableKinds[] = {ExprKind::Dim, ExprKind::RangeVar, ExprKind::RuntimeVar};
constexpr size_t kReservedVariables = 6;
constexpr const char* kBlankLineHint = " (maps are separated by a blank line)";

// The declared variables by name (views into the source text). A map has a handful: a scan
// of the names beats hashing every variable the expressions mention; past kScanned names a
// hash table takes over.
class VariableNames {
 public:
  // False when `name` is declared already.
  bool add(std::string_view name, Expr variable) {
    if (!find(name).isNull()) return false;
    names_.push_back({name, variable});
    if (names_.size() == kScanned + 1)  // from now on, find() asks the index
      for (const auto& [declared, expr] : names_) index_.emplace(declared, expr);
    else if (names_.size() > kScanned + 1)
      index_.emplace(name, variable);
    return true;
  }

  void reserve(size_t names) { names_.reserve(names); }
  // The name declared `position`-th.
  std::string_view nameAt(size_t position) const { return names_[position].first; }

  // The variable declared as `name`; the null Expr when there is none.
  Expr find(std::string_view name) const {
    if (names_.size() > kScanned) {
      auto it = index_.find(name);
      return it == index_.end() ? Expr() : it->second;
    }
    for (const auto& [declared, variable] : names_)
      if (sameName(declared, name)) return variable;
    return Expr();
  }

 private:
  // Names are a few bytes long: a loop the compiler inlines, not a call to memcmp.
  static bool sameName(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

  static constexpr size_t kScanned = 16;
  std::vector<std::pair<std::string_view, Expr>> names_;
  std::unordered_map<std::string_view, Expr> index_;
};

class MapParser {
 public:
  MapParser(const SourceText& source, size_t begin, size_t end) : tokens_(source, begin, end) {
    // A map has about one constraint a line: reserving for them, and for a few variables,
    // spares the vectors' regrowth (13 allocations for a generated chain's map became 5).
    std::string_view text = source.text().substr(begin, end - begin);
    size_t lines = 0;
    for (size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1))
      ++lines;
    map_.constraints.reserve(lines);
    map_.dims.reserve(kReservedVariables);
    names_.reserve(kReservedVariables);
  }

  IndexingMap parseXla() {
    if (atKnownEmpty()) {
      takeKnownEmpty();
      return map_;
    }
    tokens_.expect(TokenKind::LParen, "'(' opening the dimension list");
    parseVariableList(ExprKind::Dim, TokenKind::RParen, "')'");
    if (tokens_.accept(TokenKind::LBracket))
      parseVariableList(ExprKind::RangeVar, TokenKind::RBracket, "']'");
    if (tokens_.accept(TokenKind::LBrace))
      parseVariableList(ExprKind::RuntimeVar, TokenKind::RBrace, "'}'");
    tokens_.expect(TokenKind::Arrow, "'->'");
    parseResults();
    parseDomain(
        "the map has variables, so it needs a 'domain:' section giving every "
        "variable's range");
    return finish();
  }

  IndexingMap parseMlir() {
    tokens_.expectIdentifier("affine_map");
    tokens_.expect(TokenKind::Less, "'<'");
    tokens_.expect(TokenKind::LParen, "'(' opening the dimension list");
    parseVariableList(ExprKind::Dim, TokenKind::RParen, "')'");
    if (tokens_.accept(TokenKind::LBracket))
      parseVariableList(ExprKind::RangeVar, TokenKind::RBracket, "']'");
    tokens_.expect(TokenKind::Arrow, "'->'");
    parseResults();
    tokens_.expect(TokenKind::Greater, "'>' closing affine_map<...>");
    parseDomain(
        "an MLIR affine_map carries no variable ranges: follow it with a 'domain:' "
        "section giving every variable's range");
    return finish();
  }

 private:
  bool atKnownEmpty() const {
    return tokens_.current().isIdentifier("KNOWN") && tokens_.peekNext().isIdentifier("EMPTY");
  }

  // KNOWN EMPTY ends the map.
  void takeKnownEmpty() {
    tokens_.advance();
    tokens_.advance();
    tokens_.accept(TokenKind::Comma);
    if (!tokens_.atEnd()) throw tokens_.expectedError("the end of the map after KNOWN EMPTY");
    map_.knownEmpty = true;
  }

  bool hasVariables() const {
    return !map_.dims.empty() || !map_.rangeVars.empty() || !map_.runtimeVars.empty();
  }

  // After the opening bracket: `name, name, ...` and the closing bracket.
  void parseVariableList(ExprKind kind, TokenKind close, std::string_view closeText) {
    std::vector<Variable>& vars = map_.variables(kind);
    if (tokens_.accept(close)) return;
    do {
      Token name = tokens_.expect(TokenKind::Identifier, "a variable name");
      if (isKeyword(name.text))
        throw tokens_.error(name.offset,
                            name.describe() + " is reserved and cannot name a variable");
      unsigned index = static_cast<unsigned>(vars.size());
      if (!names_.add(name.text, Expr::variable(kind, index)))
        throw tokens_.error(name.offset, "duplicate variable name " + name.describe());
      // A name equal to the default for its position is stored as "unnamed" (XLA does too).
      vars.push_back({Interval{},
                      name.text == defaultVariableName(kind, index) ? "" : std::string(name.text)});
    } while (tokens_.accept(TokenKind::Comma));
    if (!tokens_.current().is(close))
      throw tokens_.expectedError("',' or " + std::string(closeText));
    tokens_.advance();
  }

  Expr parseExpr() { return ExprParser(tokens_, resolveName_).parse(); }

  void parseResults() {
    tokens_.expect(TokenKind::LParen, "'(' opening the result list");
    if (tokens_.accept(TokenKind::RParen)) return;
    do map_.results.push_back(parseExpr());
    while (tokens_.accept(TokenKind::Comma));
    tokens_.expect(TokenKind::RParen, "',' or ')'");
  }

  void parseDomain(const char* missingDomainMessage) {
    bool comma = tokens_.accept(TokenKind::Comma);
    if (tokens_.atEnd()) {
      if (hasVariables()) throw tokens_.errorAtCurrent(missingDomainMessage);
      return;
    }
    if (!tokens_.acceptIdentifier("domain"))
      throw tokens_.expectedError((comma ? "'domain:'" : "',' or 'domain:'") + blankLineHint());
    tokens_.expect(TokenKind::Colon, "':' after 'domain'");
    size_t declared = 0;  // the variables' declaration order is the domain's
    for (ExprKind kind : kVariableKinds)
      for (unsigned i = 0; i < map_.variables(kind).size(); ++i) {
        parseVariableRange(kind, i, names_.nameAt(declared++));
        tokens_.accept(TokenKind::Comma);
      }
    while (!tokens_.atEnd()) {
      if (atKnownEmpty()) return takeKnownEmpty();
      Expr expr = parseExpr();
      if (!tokens_.acceptIdentifier("in"))
        throw tokens_.expectedError(std::string("'in'") +
                                    (tokens_.current().is(TokenKind::Arrow) ? kBlankLineHint : ""));
      map_.constraints.push_back({expr, parseInterval()});
      tokens_.accept(TokenKind::Comma);
    }
  }

  // A token that begins its line where the map cannot continue most likely starts the next
  // map, written without the blank line that separates maps.
  std::string blankLineHint() const {
    const Token& t = tokens_.current();
    if (t.is(TokenKind::End)) return "";
    std::string_view before = tokens_.sourceText().text().substr(0, t.offset);
    size_t lastNonBlank = before.find_last_not_of(" \t");
    bool startsLine = lastNonBlank == std::string_view::npos || before[lastNonBlank] == '\n';
    return startsLine ? kBlankLineHint : "";
  }

  // The range of the variable declared as `name`.
  void parseVariableRange(ExprKind kind, unsigned index, std::string_view name) {
    constexpr std::string_view kOrder =
        " (the domain gives every variable's range first, in declaration order)";
    Token first = tokens_.current();
    if (!first.is(TokenKind::Identifier) || !tokens_.peekNext().isIdentifier("in"))
      throw tokens_.error(first.offset, "missing range for variable '" + std::string(name) + "'" +
                                            std::string(kOrder));
    if (first.text != name)
      throw tokens_.error(first.offset, "domain entry names " + first.describe() +
                                            " where the range of '" + std::string(name) +
                                            "' belongs" + std::string(kOrder));
    tokens_.advance();
    tokens_.advance();
    Interval range = parseInterval();
    emptyRange_ = emptyRange_ || range.isEmpty();
    map_.variables(kind)[index].range = range;
  }

  Interval parseInterval() {
    tokens_.expect(TokenKind::LBracket, "'['");
    int64_t lo = parseBound();
    tokens_.expect(TokenKind::Comma, "','");
    int64_t hi = parseBound();
    tokens_.expect(TokenKind::RBracket, "']'");
    return {lo, hi};
  }

  int64_t parseBound() {
    bool negative = tokens_.accept(TokenKind::Minus);
    if (!tokens_.current().is(TokenKind::Integer)) throw tokens_.expectedError("an integer");
    int64_t value = readInteger(tokens_, tokens_.current(), negative);
    tokens_.advance();
    return value;
  }

  // A variable with an empty range (`d0 in [10, 0]`, as XLA writes it) has no value: the
  // map is KNOWN EMPTY, as XLA reads it.
  IndexingMap finish() {
    if (map_.knownEmpty || emptyRange_) map_.markKnownEmpty();
    return std::move(map_);
  }

  TokenStream tokens_;
  IndexingMap map_;
  VariableNames names_;
  const NameResolver resolveName_ = [this](std::string_view name) { return names_.find(name); };
  bool emptyRange_ = false;
};

}  // namespace

IndexingMap parseXlaMap(const SourceText& source, size_t begin, size_t end) {
  return MapParser(source, begin, end).parseXla();
}

IndexingMap parseMlirMap(const SourceText& source, size_t begin, size_t end) {
  return MapParser(source, begin, end).parseMlir();
}

}  // namespace idxmap
