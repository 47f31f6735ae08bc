// The StableHLO MLIR reader: modules, functions, regions and operations in generic form
// (`"stablehlo.gather"(%a, %b) <{...}> {...} : (...) -> ...`). Pretty forms are read by
// ops/mlir/pretty_op.cpp; types, attributes and dense literals by their own files.
#include "ops/mlir/parser.h"

#include <utility>

#include "ops/mlir/type_parser.h"

namespace idxmap::mlir_ir {
namespace {

// More results than any real op has; bounds what `%0:N =` may allocate.
constexpr int64_t kMaxResults = 1 << 16;

}  // namespace

Module MlirParser::parseModule() {
  Module module;
  module.fileName = fileName_;
  parseModuleBody(module, /*insideBraces=*/false);
  if (!cursor_.atEnd()) throw cursor_.expected("an operation or a function");
  return module;
}

void MlirParser::parseModuleBody(Module& module, bool insideBraces) {
  while (!cursor_.atEnd() && !(insideBraces && cursor_.peek() == '}')) {
    std::string_view word = cursor_.peekBareId();
    char c = cursor_.peek();
    if (word == "module") {
      parseNestedModule(module);
    } else if (word == "func.func") {
      module.functions.push_back(parseFunction());
    } else if (c == '#' && !atAliasDefinition()) {
      // A bare attribute (a test snippet such as `#stablehlo.gather<...>`).
      cursor_.skipSpace();
      SourceLocation location = cursor_.location(cursor_.offset());
      module.attributes.push_back(
          {"", attributes_.parseAttribute(TypeSuffix::Consume), std::move(location)});
    } else if (c == '#' || c == '!') {
      parseAliasDefinition();
    } else {
      module.operations.push_back(parseOperation());
    }
  }
}

// `module @name attributes {...} { ... }`: its functions and ops join the outer module.
void MlirParser::parseNestedModule(Module& module) {
  cursor_.bareId("module");
  if (cursor_.peek() == '@') cursor_.suffixId('@', "a module name");
  if (cursor_.acceptWord("attributes")) {
    for (NamedAttribute& attribute : attributes_.parseDictionary()) {
      module.attributes.push_back(std::move(attribute));
    }
  }
  NestingGuard guard(cursor_, attributes_.depth());
  cursor_.expect('{', "to open the module body");
  parseModuleBody(module, /*insideBraces=*/true);
  cursor_.expect('}', "to close the module body");
  skipLocation();
}

bool MlirParser::atAliasDefinition() {
  size_t begin = cursor_.offset();
  cursor_.suffixId(cursor_.peek(), "an alias name");
  bool result = cursor_.peek() == '=';
  cursor_.reset(begin);
  return result;
}

// `#alias = attribute` and `!alias = type`: read so that they are checked, then dropped
// (uses of an alias stay opaque text).
void MlirParser::parseAliasDefinition() {
  char sigil = cursor_.peek();
  cursor_.suffixId(sigil, "an alias name");
  cursor_.expect('=', "after the alias name");
  if (sigil == '#') {
    if (cursor_.peekBareId() == "loc") {
      skipLocation();
    } else {
      attributes_.parseAttribute(TypeSuffix::Consume);
    }
  } else {
    parseType(cursor_);
  }
}

Function MlirParser::parseFunction() {
  cursor_.bareId("func.func");
  Function function;
  std::string_view visibility = cursor_.peekBareId();
  if (visibility == "public" || visibility == "private" || visibility == "nested") {
    function.visibility = std::string(cursor_.bareId("a visibility"));
  }
  cursor_.skipSpace();
  function.location = cursor_.location(cursor_.offset());
  function.name = cursor_.suffixId('@', "the function name '@name'");
  cursor_.expect('(', "to open the function's arguments");
  if (!cursor_.accept(')')) {
    do {
      function.arguments.push_back(parseFunctionArgument());
    } while (cursor_.accept(','));
    cursor_.expect(')', "to close the function's arguments");
  }
  if (cursor_.accept("->")) function.resultTypes = parseResultTypes(cursor_);
  if (cursor_.acceptWord("attributes")) function.attributes = attributes_.parseDictionary();
  if (cursor_.peek() == '{') function.body = parseRegion({});
  skipLocation();
  return function;
}

// `%arg0: tensor<2xf32> {attrs} loc(...)`, or just a type in a declaration.
BlockArgument MlirParser::parseFunctionArgument() {
  BlockArgument argument;
  cursor_.skipSpace();
  argument.value.location = cursor_.location(cursor_.offset());
  if (cursor_.peek() == '%') {
    argument.value = parseValue();
    cursor_.expect(':', "before the argument's type");
  }
  argument.type = parseType(cursor_);
  if (cursor_.peek() == '{') argument.attributes = attributes_.parseDictionary();
  skipLocation();
  return argument;
}

// `%a: type, ...` up to `)` (the '(' already taken).
std::vector<BlockArgument> MlirParser::parseBlockArgumentList() {
  std::vector<BlockArgument> arguments;
  if (cursor_.accept(')')) return arguments;
  do {
    BlockArgument argument;
    argument.value = parseValue();
    cursor_.expect(':', "before the block argument's type");
    argument.type = parseType(cursor_);
    skipLocation();
    arguments.push_back(std::move(argument));
  } while (cursor_.accept(','));
  cursor_.expect(')', "to close the block arguments");
  return arguments;
}

// `{ ops }` or `{ ^bb0(%a: t): ops ^bb1: ops }`; `entryArguments` are those a pretty
// form wrote before the braces (`reducer(%a: t, %b: t) { ... }`).
Region MlirParser::parseRegion(std::vector<BlockArgument> entryArguments) {
  NestingGuard guard(cursor_, attributes_.depth());
  Region region;
  cursor_.expect('{', "to open a region");
  if (cursor_.accept('}')) return region;
  bool first = true;
  while (cursor_.peek() != '}') {
    Block block;
    if (cursor_.peek() == '^') {
      block.label = cursor_.suffixId('^', "a block label");
      if (cursor_.accept('(')) block.arguments = parseBlockArgumentList();
      cursor_.expect(':', "after the block label");
    } else if (!first) {
      throw cursor_.expected("a block label '^bb'");
    }
    if (first && !entryArguments.empty()) {
      if (!block.arguments.empty()) {
        throw cursor_.errorHere("block arguments written twice");
      }
      block.arguments = std::exchange(entryArguments, {});
    }
    first = false;
    while (cursor_.peek() != '}' && cursor_.peek() != '^') {
      if (cursor_.atEnd()) throw cursor_.expected("'}' to close the region");
      block.operations.push_back(parseOperation());
    }
    region.blocks.push_back(std::move(block));
  }
  cursor_.expect('}', "to close the region");
  return region;
}

Value MlirParser::parseValue() {
  cursor_.skipSpace();
  Value value;
  value.location = cursor_.location(cursor_.offset());
  value.name = cursor_.suffixId('%', "a value '%name'");
  if (cursor_.peekRaw() == '#') {
    cursor_.reset(cursor_.offset() + 1);
    size_t at = cursor_.offset();
    value.resultNumber = cursor_.integer("a result number after '#'");
    if (value.resultNumber < 0 || value.resultNumber >= kMaxResults) {
      throw cursor_.error(at, "result number out of range");
    }
  }
  return value;
}

// `%a, %b:2 =` before an op: one Value per result.
void MlirParser::parseResultList(Operation& op) {
  do {
    Value value = parseValue();
    int64_t count = 1;
    if (cursor_.peekRaw() == ':') {
      cursor_.reset(cursor_.offset() + 1);
      cursor_.skipSpace();
      size_t at = cursor_.offset();
      count = cursor_.integer("a result count after ':'");
      if (count < 1 || count > kMaxResults) throw cursor_.error(at, "result count out of range");
    }
    for (int64_t i = 0; i < count; ++i) {
      op.results.push_back(value);
      op.results.back().resultNumber = i;
    }
  } while (cursor_.accept(','));
  cursor_.expect('=', "after the op's results");
}

Operation MlirParser::parseOperation() {
  NestingGuard guard(cursor_, attributes_.depth());
  Operation op;
  if (cursor_.peek() == '%') parseResultList(op);
  cursor_.skipSpace();
  size_t nameOffset = cursor_.offset();
  op.location = cursor_.location(nameOffset);
  if (cursor_.peek() == '"') {
    op.name = cursor_.stringLiteral("an op name");
    op.genericForm = true;
    parseGenericOp(op);
  } else {
    op.name = std::string(cursor_.bareId("an operation"));
    parsePrettyOp(op);
  }
  skipLocation();
  return op;
}

void MlirParser::parseGenericOp(Operation& op) {
  cursor_.expect('(', "to open the operands");
  if (!cursor_.accept(')')) {
    do {
      op.operands.push_back(parseValue());
    } while (cursor_.accept(','));
    cursor_.expect(')', "to close the operands");
  }
  if (cursor_.peek() == '[') cursor_.balanced("successors");
  if (cursor_.accept('<')) {
    op.attributes = attributes_.parseDictionary();
    cursor_.expect('>', "to close the properties");
  }
  if (cursor_.accept('(')) {
    do {
      op.regions.push_back(parseRegion({}));
    } while (cursor_.accept(','));
    cursor_.expect(')', "to close the regions");
  }
  if (cursor_.peek() == '{') {
    for (NamedAttribute& attribute : attributes_.parseDictionary()) {
      op.attributes.push_back(std::move(attribute));
    }
  }
  cursor_.expect(':', "and the op's function type");
  cursor_.expect('(', "to open the operand types");
  if (!cursor_.accept(')')) {
    do {
      op.operandTypes.push_back(parseType(cursor_));
    } while (cursor_.accept(','));
    cursor_.expect(')', "to close the operand types");
  }
  cursor_.expect("->", "before the result types");
  op.resultTypes = parseResultTypes(cursor_);
}

void MlirParser::skipLocation() {
  if (cursor_.peekBareId() != "loc") return;
  size_t begin = cursor_.offset();
  cursor_.bareId("loc");
  if (cursor_.peekRaw() != '(') {
    cursor_.reset(begin);  // a name `loc` that is no location
    return;
  }
  cursor_.balanced("location");
}

Module parseMlirModule(std::string_view text, std::string_view fileName) {
  SourceText source(text, fileName);
  MlirParser parser(source, fileName);
  return parser.parseModule();
}

std::vector<Attribute> parseMlirValueList(std::string_view text, std::string_view fileName) {
  SourceText source(text, fileName);
  MlirCursor cursor(source);
  MlirAttributeParser attributes(cursor);
  const char* kForm = "a list of values `[dense<1> : tensor<2xi32>, ...]`";
  if (cursor.peek() != '[') throw cursor.expected(kForm);
  cursor.accept('[');
  std::vector<Attribute> values;
  if (!cursor.accept(']')) {
    do {
      cursor.skipSpace();
      size_t at = cursor.offset();
      if (!cursor.startsWith("dense"))
        throw cursor.expected("a typed dense value `dense<...> : tensor<...>`");
      values.push_back(attributes.parseAttribute(TypeSuffix::Consume));
      if (values.back().kind != Attribute::Kind::Dense)
        throw cursor.error(at, "expected a typed dense value `dense<...> : tensor<...>`");
    } while (cursor.accept(','));
    cursor.expect(']', "to close the list of values");
  }
  if (!cursor.atEnd()) throw cursor.expected(std::string("the end of ") + kForm);
  return values;
}

}  // namespace idxmap::mlir_ir
