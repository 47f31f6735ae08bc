// The MLIR reader's parser state, shared by the generic-form reader (ops/mlir/parser.cpp)
// and the pretty-form reader (ops/mlir/pretty_op.cpp). Users call parseMlirModule
// (ops/mlir/module.h); nothing else here is meant for them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ops/mlir/attribute_parser.h"
#include "ops/mlir/lexer.h"
#include "ops/mlir/module.h"

namespace idxmap::mlir_ir {

class MlirParser {
 public:
  MlirParser(const SourceText& source, std::string_view fileName)
      : cursor_(source), attributes_(cursor_), fileName_(fileName) {}

  Module parseModule();

 private:
  void parseModuleBody(Module& module, bool insideBraces);
  void parseNestedModule(Module& module);
  bool atAliasDefinition();
  void parseAliasDefinition();
  Function parseFunction();
  BlockArgument parseFunctionArgument();
  std::vector<BlockArgument> parseBlockArgumentList();
  Region parseRegion(std::vector<BlockArgument> entryArguments);
  Value parseValue();
  void parseResultList(Operation& op);
  Operation parseOperation();
  void parseGenericOp(Operation& op);
  void skipLocation();

  // Pretty forms (ops/mlir/pretty_op.cpp).
  void parsePrettyOp(Operation& op);
  void parsePrettyReturn(Operation& op);
  void parsePrettyBracket(Operation& op);
  // What `(...)` groups give besides operands: the names of `(%iterArg = %init)` (the block
  // arguments of the `cond { } do { }` regions that follow the types) and the values of
  // `(%x init: %y)` (operands after every input, as the generic form orders them).
  struct PrettyGroups {
    std::vector<Value> loopValues;
    std::vector<Value> initValues;
  };
  void parsePrettyParenGroup(Operation& op, PrettyGroups& groups);
  void parsePrettyKeyword(Operation& op);
  void parsePrettyTypes(Operation& op);
  void parseTrailingAttributes(Operation& op);
  Attribute parseConvolutionDimNumbers();
  void parseTrailingRegions(Operation& op, const std::vector<BlockArgument>& loopArguments);
  bool atStatementStart();
  bool atAttributeDictionary();
  bool atKeywordRegion();

  MlirCursor cursor_;
  MlirAttributeParser attributes_;
  std::string fileName_;
};

}  // namespace idxmap::mlir_ir
