// The API's maps and errors (include/idxmap/idxmap.h).
#include "api/api_internal.h"
#include "core/bridges/isl_bridge.h"
#include "core/text_source.h"
#include "simplifier/simplify.h"
#include "verify/equivalence.h"

namespace idxmap {

ApiError::ApiError(std::string diagnostic, std::string message, std::string file, int line,
                   int column)
    : std::runtime_error(diagnostic),
      message_(std::move(message)),
      file_(std::move(file)),
      line_(line),
      column_(column) {}

namespace api {

ApiError errorAt(const SourceLocation& location, const std::string& message,
                 const Program::Parsed& source) {
  LocatedError located(location, message,
                       std::string(SourceText(source.text, source.file).line(location.line)));
  return ApiError(located.what(), message, location.file, location.line, location.column);
}

ApiError currentError(const Program::Parsed* source, const Program::Parsed* other) {
  try {
    throw;
  } catch (const ApiError& error) {
    return error;
  } catch (const LocatedError& error) {
    const SourceLocation& at = error.location();
    // Errors thrown below the readers (op models, the provers) carry no source line, or an
    // empty one: the program's text has it.
    for (const Program::Parsed* program : {source, other})
      if (program && program->file == at.file) return errorAt(at, error.message(), *program);
    return ApiError(error.what(), error.message(), at.file, at.line, at.column);
  } catch (const std::exception& error) {
    return ApiError(std::string("error: ") + error.what(), error.what());
  }
}

}  // namespace api

IndexingMap parseMap(std::string_view text, std::string_view file) {
  return api::guarded([&] { return parseIndexingMap(text, file); });
}

std::vector<IndexingMap> parseEveryMap(std::string_view text, std::string_view file) {
  return api::guarded([&] {
    std::vector<IndexingMap> maps;
    for (ParsedMap& parsed : parseMaps(text, file)) maps.push_back(std::move(parsed.map));
    return maps;
  });
}

std::string printMap(const IndexingMap& map, Notation notation) {
  return api::guarded([&] {
    switch (notation) {
      case Notation::kIsl:
        return printIsl(map);
      case Notation::kXla:
        return printIndexingMap(map, PrintStyle::kXla);
      case Notation::kIdxmap:
        break;
    }
    return printIndexingMap(map, PrintStyle::kIdxmap);
  });
}

IndexingMap simplifyMap(const IndexingMap& map) {
  return api::guarded([&] { return simplify(map); });
}

IndexingMap composeMaps(const IndexingMap& first, const IndexingMap& second) {
  return api::guarded([&] { return composeAndSimplify(first, second); });
}

ProofResult proveMapsEqual(const IndexingMap& a, const IndexingMap& b, unsigned timeoutMs) {
  return api::guarded([&] { return proveEquivalent(a, b, {.z3TimeoutMs = timeoutMs}); });
}

}  // namespace idxmap
