// NameTable: the one way idxmap dispatches on an op's name — HLO opcodes to op models, MLIR
// op names to interpreter evaluators and to index provenance rules. Rules are data: each
// family of ops writes its rows ({name, entry}, one a line) in its own file, and the table
// is built once from all of them. A name written twice is a programming error, caught when
// the table is built rather than resolved by whichever row came last.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace idxmap {

template <class Entry>
class NameTable {
 public:
  struct Row {
    std::string_view name;
    Entry entry;
  };

  // The rows of every group, each group a family's table.
  explicit NameTable(std::initializer_list<std::span<const Row>> groups) {
    for (std::span<const Row> group : groups) rows_.insert(rows_.end(), group.begin(), group.end());
    std::sort(rows_.begin(), rows_.end(),
              [](const Row& a, const Row& b) { return a.name < b.name; });
    for (size_t i = 1; i < rows_.size(); ++i)
      if (rows_[i].name == rows_[i - 1].name)
        throw std::logic_error{"NameTable: '" + std::string(rows_[i].name) + "' has two rows"};
  }

  // The entry of `name`, or nullptr when no row names it.
  const Entry* find(std::string_view name) const {
    auto it = std::lower_bound(rows_.begin(), rows_.end(), name,
                               [](const Row& row, std::string_view key) { return row.name < key; });
    return it != rows_.end() && it->name == name ? &it->entry : nullptr;
  }

  // Every name with a row, sorted.
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> names;
    for (const Row& row : rows_) names.push_back(row.name);
    return names;
  }

 private:
  std::vector<Row> rows_;  // sorted by name
};

}  // namespace idxmap
