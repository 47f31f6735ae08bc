// Builds spec 004's first simplifier example through the installed headers and library:
// (d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16) on [0, 6] x [0, 14] is the identity.
#include <iostream>

#include "core/expr.h"
#include "core/indexing_map.h"
#include "core/text.h"
#include "simplifier/simplify.h"

int main() {
  using idxmap::Expr;
  idxmap::IndexingMap map = idxmap::IndexingMap::identity({7, 15});
  Expr d0 = Expr::dim(0), d1 = Expr::dim(1);
  map.results = {d0 + d1.floorDiv(16), d1.mod(16)};
  std::cout << "input:\n" << idxmap::printIndexingMap(map) << "\n";
  std::cout << "simplified:\n" << idxmap::printIndexingMap(idxmap::simplify(map)) << "\n";
}
