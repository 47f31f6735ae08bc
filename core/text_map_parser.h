// One map in XLA's syntax (FORMAT.md, section 1) or as an MLIR `affine_map<...>` followed by
// the same `domain:` section, read from source.text()[begin, end).
//
// Decisions beyond FORMAT.md:
//  - Commas between domain entries are optional, so the pre-2024-09 newline-separated
//    domain is read too; a trailing comma is accepted.
//  - A variable range with lo > hi is an error ("empty range"), unless the map is
//    KNOWN EMPTY. A constraint interval may be empty: it states that the domain is empty,
//    which the simplifier turns into KNOWN EMPTY.
//  - `KNOWN EMPTY` alone is XLA's printed form; it reads as a map with no variables and no
//    results. `KNOWN EMPTY` as the last domain entry keeps the arity (printIndexingMap
//    writes that form); the map is normalized with IndexingMap::markKnownEmpty().
#pragma once

#include <cstddef>

#include "core/indexing_map.h"
#include "core/text_source.h"

namespace idxmap {

IndexingMap parseXlaMap(const SourceText& source, size_t begin, size_t end);
IndexingMap parseMlirMap(const SourceText& source, size_t begin, size_t end);

}  // namespace idxmap
