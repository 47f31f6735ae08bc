// Pretty op forms. Every op's custom syntax differs, so this reads the shapes they share
// rather than each op's grammar: operands `%a, %b` (and `%src[%idx]`), slice ranges
// `[1:3, 0:8:2]`, `name = value`
// clauses, `name(value)` clauses (`gather_dims([1, 2])`), bare keywords (`LT`, `across`,
// `unique`), `<{...}>` / `{...}` attributes, `dense<...>` literals typed by the op's
// type, `(...)` groups (`reduce(%x init: %y)`), then `:` and the types, then regions
// (`reducer(%a: t, %b: t) { ... }`, `cond { ... } do { ... }`); what follows the `:` is read
// in pretty_op_tail.cpp. Anything else is a diagnostic, never a guess that swallows the next
// op.
#include <optional>

#include "ops/mlir/parser.h"
#include "ops/mlir/type_parser.h"

namespace idxmap::mlir_ir {
namespace {

bool isReturnLike(std::string_view name) {
  return name == "return" || (name.size() > 7 && name.substr(name.size() - 7) == ".return");
}

// The type a pretty `dense<...>` literal takes: the result's for a constant, the other
// operand's for `check.expect_eq_const %x, dense<...> : type`.
const Type* denseLiteralType(const Operation& op) {
  if (!op.resultTypes.empty()) return &op.resultTypes.front();
  if (!op.operandTypes.empty()) return &op.operandTypes.back();
  return nullptr;
}

}  // namespace

void MlirParser::parsePrettyOp(Operation& op) {
  if (isReturnLike(op.name)) {
    parsePrettyReturn(op);
    return;
  }
  std::vector<std::pair<size_t, DenseLiteral>> pendingDense;  // attribute index, literal
  size_t typeOffset = 0;
  PrettyGroups groups;
  while (true) {
    char c = cursor_.peek();
    if (c == ':') {
      std::vector<Value>& inits = groups.initValues;
      op.operands.insert(op.operands.end(), inits.begin(), inits.end());
      inits.clear();
      const std::vector<Value>& loopValues = groups.loopValues;
      cursor_.accept(':');
      cursor_.skipSpace();
      typeOffset = cursor_.offset();
      parsePrettyTypes(op);
      skipLocation();
      parseTrailingAttributes(op);
      std::vector<BlockArgument> loopArguments;
      if (!loopValues.empty() && op.operandTypes.size() != loopValues.size())
        throw cursor_.error(typeOffset, "expected " + std::to_string(loopValues.size()) +
                                            " type(s), one per loop-carried value");
      for (size_t i = 0; i < loopValues.size(); ++i)
        loopArguments.push_back({loopValues[i], op.operandTypes[i], {}});
      parseTrailingRegions(op, loopArguments);
      break;
    }
    cursor_.skipSpace();
    size_t at = cursor_.offset();
    // `stablehlo.composite "my.op" %a ...`: a name on the op's own line, before its operands
    // (on a later line, a string starts the next op in the generic form).
    if (c == '"' && op.operands.empty() && cursor_.location(at).line == op.location.line) {
      Attribute name = attributes_.parseAttribute(TypeSuffix::Leave);
      op.attributes.push_back({"name", std::move(name), cursor_.location(at)});
      continue;
    }
    if (c == '\0' || c == '}' || c == ')' || c == ']' || c == '"' || c == '^') break;
    std::string_view word = cursor_.peekBareId();
    if (c == ',') {
      cursor_.accept(',');
    } else if (c == '%') {
      if (atStatementStart()) break;
      op.operands.push_back(parseValue());
    } else if (c == '[') {
      parsePrettyBracket(op);
    } else if (cursor_.startsWith("<{")) {
      cursor_.accept('<');
      for (NamedAttribute& attribute : attributes_.parseDictionary()) {
        op.attributes.push_back(std::move(attribute));
      }
      cursor_.expect('>', "to close the properties");
    } else if (c == '{') {
      if (atAttributeDictionary()) {
        for (NamedAttribute& attribute : attributes_.parseDictionary()) {
          op.attributes.push_back(std::move(attribute));
        }
      } else {
        op.regions.push_back(parseRegion({}));
      }
    } else if (c == '(') {
      parsePrettyParenGroup(op, groups);
    } else if (c == '@') {
      op.attributes.push_back(
          {"callee", attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
    } else if (word == "dense") {
      Attribute value;
      value.kind = Attribute::Kind::Dense;
      value.location = cursor_.location(at);
      pendingDense.emplace_back(op.attributes.size(), attributes_.parseDenseLiteral());
      op.attributes.push_back({"value", std::move(value), cursor_.location(at)});
    } else if (word == "loc") {
      skipLocation();
      if (cursor_.offset() == at) parsePrettyKeyword(op);
    } else if (!word.empty()) {
      parsePrettyKeyword(op);
    } else {
      op.attributes.push_back(
          {"", attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
    }
  }
  op.operands.insert(op.operands.end(), groups.initValues.begin(), groups.initValues.end());
  for (auto& [index, literal] : pendingDense) {
    const Type* type = denseLiteralType(op);
    if (type == nullptr) throw cursor_.error(literal.offset, "dense literal without a type");
    Attribute& value = op.attributes[index].value;
    value.dense = attributes_.resolveDense(literal, *type, typeOffset);
    value.type = *type;
  }
}

// `return`, `func.return %a, %b : t1, t2`, `stablehlo.return %x : t`.
void MlirParser::parsePrettyReturn(Operation& op) {
  while (cursor_.peek() == '%' && !atStatementStart()) {
    op.operands.push_back(parseValue());
    if (!cursor_.accept(',')) break;
  }
  if (op.operands.empty() || !cursor_.accept(':')) return;
  do {
    op.operandTypes.push_back(parseType(cursor_));
  } while (cursor_.accept(','));
}

// `[%indices]` of `%source[%indices]` (spec 001), the ranges of `stablehlo.slice %x [1:3,
// 0:8:2]` (as its generic attributes), or a positional list.
void MlirParser::parsePrettyBracket(Operation& op) {
  cursor_.skipSpace();
  size_t at = cursor_.offset();
  SourceLocation location = cursor_.location(at);
  cursor_.expect('[', "to open a list");
  if (cursor_.peek() == '%') {
    do {
      op.operands.push_back(parseValue());
    } while (cursor_.accept(','));
    cursor_.expect(']', "after the indices");
    return;
  }
  bool isSliceRanges = false;
  if (cursor_.atNumber()) {
    cursor_.number("a number");
    isSliceRanges = cursor_.peek() == ':';
  }
  cursor_.reset(at);
  if (!isSliceRanges) {
    op.attributes.push_back({"", attributes_.parseAttribute(TypeSuffix::Leave), location});
    return;
  }
  cursor_.expect('[', "to open the slice ranges");
  Attribute starts, limits, strides;
  for (Attribute* list : {&starts, &limits, &strides}) {
    list->kind = Attribute::Kind::IntArray;
    list->location = location;
  }
  do {
    starts.ints.push_back(cursor_.integer("a slice start"));
    cursor_.expect(':', "between a slice's start and limit");
    limits.ints.push_back(cursor_.integer("a slice limit"));
    strides.ints.push_back(cursor_.accept(':') ? cursor_.integer("a slice stride") : 1);
  } while (cursor_.accept(','));
  cursor_.expect(']', "to close the slice ranges");
  op.attributes.push_back({"start_indices", std::move(starts), location});
  op.attributes.push_back({"limit_indices", std::move(limits), location});
  op.attributes.push_back({"strides", std::move(strides), location});
}

// `(%a, %b)` operands, `(%x init: %y)`, `(%iterArg = %init)`, `(%x, k = 2)` attributes, or
// `(%a: t, %b: t)` block arguments of the region that follows.
void MlirParser::parsePrettyParenGroup(Operation& op, PrettyGroups& groups) {
  cursor_.expect('(', "to open a group");
  std::vector<BlockArgument> blockArguments;
  bool afterInit = false;  // the value after `init:`
  while (!cursor_.accept(')')) {
    if (cursor_.atEnd()) throw cursor_.expected("')' to close the group");
    cursor_.skipSpace();
    size_t at = cursor_.offset();
    char c = cursor_.peek();
    if (c == ',') {
      cursor_.accept(',');
    } else if (c == '%') {
      Value value = parseValue();
      if (cursor_.accept(':')) {
        BlockArgument argument{value, parseType(cursor_), {}};
        skipLocation();
        blockArguments.push_back(std::move(argument));
      } else if (cursor_.peek() == '=' && cursor_.accept('=')) {
        groups.loopValues.push_back(value);
        op.operands.push_back(parseValue());  // the initial value of a loop-carried value
      } else {
        (afterInit ? groups.initValues : op.operands).push_back(value);
      }
      afterInit = false;
    } else if (cursor_.atBareId()) {
      std::string word(cursor_.bareId("a keyword"));
      if (cursor_.peek() == '=' && cursor_.peek(1) != '=') {  // `chlo.top_k(%x, k = 2)`
        cursor_.accept('=');
        op.attributes.push_back(
            {word, attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
      } else if (!cursor_.accept(':')) {
        cursor_.reset(at);
        op.attributes.push_back(
            {"", attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
      } else {
        op.keywords.push_back(word);  // `init:`
        afterInit = word == "init";
      }
    } else {
      op.attributes.push_back(
          {"", attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
    }
  }
  if (blockArguments.empty()) return;
  if (cursor_.peek() != '{') throw cursor_.expected("the region these block arguments belong to");
  op.regions.push_back(parseRegion(std::move(blockArguments)));
}

// `name = value`, `name(value, ...)`, or a bare keyword (`LT`, `across`, `unique`).
void MlirParser::parsePrettyKeyword(Operation& op) {
  cursor_.skipSpace();
  size_t at = cursor_.offset();
  std::string word(cursor_.bareId("a keyword"));
  if (cursor_.peek() == '=' && cursor_.peek(1) != '=') {
    cursor_.accept('=');
    if (word == "dim_numbers") {
      op.attributes.push_back({word, parseConvolutionDimNumbers(), cursor_.location(at)});
      return;
    }
    if (word == "batching_dims" || word == "contracting_dims") {
      // dot_general's `[0] x [0]`: lhs's dims, then rhs's, named as the generic form's fields.
      std::string field =
          word == "batching_dims" ? "batching_dimensions" : "contracting_dimensions";
      op.attributes.push_back(
          {"lhs_" + field, attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
      cursor_.skipSpace();
      if (!cursor_.accept('x')) throw cursor_.expected("'x' between lhs's and rhs's dims");
      op.attributes.push_back(
          {"rhs_" + field, attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
      return;
    }
    op.attributes.push_back(
        {word, attributes_.parseAttribute(TypeSuffix::Leave), cursor_.location(at)});
    return;
  }
  if (cursor_.peek() == '(' && cursor_.peek(1) != '%' && cursor_.peek(1) != ')') {
    // `gather_dims([1, 2])`, `gather_along_dimensions(0, 2)`: integers become an IntArray.
    size_t open = cursor_.offset();
    cursor_.accept('(');
    std::vector<Attribute> values;
    do {
      values.push_back(attributes_.parseAttribute(TypeSuffix::Leave));
    } while (cursor_.accept(','));
    cursor_.expect(')', "to close the clause");
    Attribute value;
    value.location = cursor_.location(open);
    if (values.size() == 1 && values[0].kind != Attribute::Kind::Integer) {
      value = std::move(values[0]);
    } else {
      value.kind = Attribute::Kind::IntArray;
      for (Attribute& element : values) {
        if (element.kind != Attribute::Kind::Integer) {
          value.kind = Attribute::Kind::Array;
          value.ints.clear();
          value.elements = std::move(values);
          break;
        }
        value.ints.push_back(element.intValue);
      }
    }
    op.attributes.push_back({word, std::move(value), cursor_.location(at)});
    return;
  }
  op.keywords.push_back(word);
  if (word == "unique") {  // spec 001's unit attribute
    Attribute unit;
    unit.location = cursor_.location(at);
    op.attributes.push_back({word, std::move(unit), cursor_.location(at)});
  }
}

// Whether the `%` at the cursor starts the next op (`%a, %b:2 = ...`) rather than
// continuing this one's operands.
bool MlirParser::atStatementStart() {
  size_t begin = cursor_.offset();
  bool result = false;
  try {
    while (true) {
      parseValue();
      if (cursor_.peekRaw() == ':') {
        cursor_.reset(cursor_.offset() + 1);
        cursor_.integer("a result count");
      }
      if (!cursor_.accept(',') || cursor_.peek() != '%') break;
    }
    result = cursor_.peek() == '=' && cursor_.peek(1) != '=';
  } catch (const ParseError&) {
    result = false;
  }
  cursor_.reset(begin);
  return result;
}

// Whether the `{` at the cursor opens attributes (`{dim = 1}`) rather than a region.
bool MlirParser::atAttributeDictionary() {
  size_t begin = cursor_.offset();
  bool result = false;
  try {
    cursor_.expect('{', "");
    char c = cursor_.peek();
    if (c == '}') {
      result = true;
    } else if (c == '"') {
      cursor_.stringLiteral("");
      result = cursor_.peek() == '=';
    } else if (cursor_.atBareId()) {
      cursor_.bareId("");
      char next = cursor_.peek();
      result = next == '=' || next == ',' || next == '}';
    }
  } catch (const ParseError&) {
    result = false;
  }
  cursor_.reset(begin);
  return result;
}

// `word {` or `word(%a: t` at the cursor: a named region of a pretty form.
bool MlirParser::atKeywordRegion() {
  std::string_view word = cursor_.peekBareId();
  if (word.empty() || word == "module" || word == "func.func") return false;
  size_t begin = cursor_.offset();
  bool result = false;
  try {
    cursor_.bareId("");
    if (cursor_.peek() == '{') {
      result = true;
    } else if (cursor_.accept('(') && cursor_.peek() == '%') {
      parseValue();
      result = cursor_.peek() == ':';
    }
  } catch (const ParseError&) {
    result = false;
  }
  cursor_.reset(begin);
  return result;
}

}  // namespace idxmap::mlir_ir
