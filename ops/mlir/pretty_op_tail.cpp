// Pretty op forms after the op's `:`: the types (operands', results', `into`), attributes
// written after them (check ops' tolerance), and the regions that follow (pretty_op.cpp reads
// what comes before).
#include <optional>

#include "ops/mlir/parser.h"
#include "ops/mlir/type_parser.h"

namespace idxmap::mlir_ir {

// After the `:`: `(T, T) -> R`, `T[T] -> R` (spec 001), `T into T[T]` (spec 001 scatter),
// or a list `T, T` that MLIR's pretty forms give to operands and results by their counts.
void MlirParser::parsePrettyTypes(Operation& op) {
  std::vector<Type> written;
  std::optional<size_t> intoIndex;
  if (cursor_.accept('(')) {
    if (!cursor_.accept(')')) {
      do {
        written.push_back(parseType(cursor_));
      } while (cursor_.accept(','));
      cursor_.expect(')', "to close the operand types");
    }
  } else {
    while (true) {
      written.push_back(parseType(cursor_));
      if (cursor_.accept('[')) {
        written.push_back(parseType(cursor_));
        cursor_.expect(']', "after the indices type");
      }
      if (cursor_.acceptWord("into")) {
        intoIndex = written.size();
        continue;
      }
      size_t comma = cursor_.offset();
      if (!cursor_.accept(',')) break;
      if (!atType(cursor_)) {
        cursor_.reset(comma);
        break;
      }
    }
  }
  if (cursor_.accept("->")) {
    op.operandTypes = std::move(written);
    op.resultTypes = parseResultTypes(cursor_);
    return;
  }
  size_t results = op.results.size(), operands = op.operands.size(), count = written.size();
  if (count == operands) {
    op.operandTypes = written;
  } else if (count == 1) {
    op.operandTypes.assign(operands, written[0]);
  }
  if (results == 0) return;
  if (intoIndex && *intoIndex < count) {
    op.resultTypes.assign(results, written[*intoIndex]);
  } else if (count == results) {
    op.resultTypes = written;
  } else if (count == 1) {
    op.resultTypes.assign(results, written[0]);
  } else if (count > results) {
    op.resultTypes.assign(written.end() - static_cast<std::ptrdiff_t>(results), written.end());
  }
}

// Attributes written after the types, as StableHLO's check ops write their tolerance:
// `..., tolerance = 0.2` and `... {tolerance = 0.1 : f64}`.
void MlirParser::parseTrailingAttributes(Operation& op) {
  while (true) {
    size_t before = cursor_.offset();
    if (cursor_.accept(',')) {
      cursor_.skipSpace();
      std::string_view word = cursor_.peekBareId();
      size_t wordAt = cursor_.offset();
      cursor_.reset(wordAt + word.size());
      bool clause = !word.empty() && cursor_.peek() == '=' && cursor_.peek(1) != '=';
      cursor_.reset(wordAt);
      if (!clause) {
        cursor_.reset(before);
        return;
      }
      parsePrettyKeyword(op);
    } else if (cursor_.peek() == '{' && atAttributeDictionary()) {
      for (NamedAttribute& attribute : attributes_.parseDictionary())
        op.attributes.push_back(std::move(attribute));
    } else {
      return;
    }
    skipLocation();
  }
}

// Pretty convolution's `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, kept as written (no model
// reads it).
Attribute MlirParser::parseConvolutionDimNumbers() {
  cursor_.skipSpace();
  size_t begin = cursor_.offset();
  Attribute value;
  value.location = cursor_.location(begin);
  value.kind = Attribute::Kind::Opaque;
  for (int part = 0; part < 3; ++part) {
    if (part == 1 && !cursor_.accept('x')) throw cursor_.expected("'x' between the dim numbers");
    if (part == 2 && !cursor_.accept("->")) throw cursor_.expected("'->' before the result's");
    if (cursor_.peek() != '[') throw cursor_.expected("'[' to open the dim numbers");
    cursor_.balanced("dim numbers");
  }
  value.text = std::string(cursor_.source().text().substr(begin, cursor_.offset() - begin));
  return value;
}

// Regions written after the type: `{ ... }`, `({ ... })`, `reducer(%a: t) { ... }`,
// `cond { ... } do { ... }` (whose blocks take `loopArguments`, the names the op's
// `(%iterArg = %init)` gave).
void MlirParser::parseTrailingRegions(Operation& op,
                                      const std::vector<BlockArgument>& loopArguments) {
  while (true) {
    if (cursor_.peek() == '{') {
      op.regions.push_back(parseRegion({}));
    } else if (cursor_.startsWith("({")) {
      cursor_.accept('(');
      do {
        op.regions.push_back(parseRegion({}));
      } while (cursor_.accept(','));
      cursor_.expect(')', "to close the regions");
    } else if (atKeywordRegion()) {
      op.keywords.emplace_back(cursor_.bareId("a region keyword"));
      std::vector<BlockArgument> arguments = loopArguments;
      if (cursor_.accept('(')) arguments = parseBlockArgumentList();
      // A variadic reduce writes one `(%lhs: t, %rhs: t)` group per input; its block takes
      // every lhs, then every rhs.
      if (cursor_.peek() == '(') {
        std::vector<std::vector<BlockArgument>> pairs = {std::move(arguments)};
        std::vector<size_t> offsets = {cursor_.offset()};
        while (cursor_.peek() == '(') {
          offsets.push_back(cursor_.offset());
          cursor_.accept('(');
          pairs.push_back(parseBlockArgumentList());
        }
        std::vector<BlockArgument> lhs, rhs;
        for (size_t i = 0; i < pairs.size(); ++i) {
          if (pairs[i].size() != 2)
            throw cursor_.error(offsets[i], "a reducer's argument groups are (lhs, rhs) pairs");
          lhs.push_back(std::move(pairs[i][0]));
          rhs.push_back(std::move(pairs[i][1]));
        }
        lhs.insert(lhs.end(), rhs.begin(), rhs.end());
        arguments = std::move(lhs);
      }
      op.regions.push_back(parseRegion(std::move(arguments)));
    } else {
      return;
    }
  }
}

}  // namespace idxmap::mlir_ir
