// Internal to api/: the parsed module behind a Program, and the one place every library
// error becomes an ApiError.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include <idxmap/idxmap.h>
#include "core/text.h"
#include "ops/hlo/module.h"
#include "ops/mlir/module.h"

namespace idxmap {

struct Program::Parsed {
  std::string file, text;
  std::optional<hlo::Module> hlo;
  std::optional<mlir_ir::Module> mlir;
};

namespace api {

// The ApiError for the exception in flight. A located error in `source`'s file gets its
// source line and caret when it was thrown without them.
ApiError currentError(const Program::Parsed* source = nullptr,
                      const Program::Parsed* other = nullptr);

// Runs `body`, turning whatever it throws into an ApiError.
template <typename Body>
auto guarded(Body&& body, const Program::Parsed* source = nullptr,
             const Program::Parsed* other = nullptr) {
  try {
    return std::forward<Body>(body)();
  } catch (...) {
    throw currentError(source, other);
  }
}

// The ApiError for a finding at `location` of `source` (its line and caret added).
ApiError errorAt(const SourceLocation& location, const std::string& message,
                 const Program::Parsed& source);

}  // namespace api
}  // namespace idxmap
