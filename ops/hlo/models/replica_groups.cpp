#include "ops/hlo/models/replica_groups.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ops/hlo/attributes.h"

namespace idxmap::ops {
namespace {

// XLA's mesh form `mesh['x'=2,'y'=4] {'y'}`: a group spans the named axes, the product of
// their sizes.
template <typename Fail>
int64_t meshGroupSize(const hlo::Attribute& attribute, const Fail& unreadable) {
  const std::string& text = attribute.value;
  const size_t close = text.find(']');
  const size_t open = text.find('{', close == std::string::npos ? 0 : close);
  if (close == std::string::npos || open == std::string::npos || text.back() != '}') unreadable();
  auto quoted = [](const std::string& part, size_t from, size_t& end) {
    const size_t first = part.find('\'', from);
    end = first == std::string::npos ? std::string::npos : part.find('\'', first + 1);
    return end == std::string::npos ? std::string() : part.substr(first + 1, end - first - 1);
  };
  std::map<std::string, int64_t> sizes;  // axis -> size
  const std::string axes = text.substr(5, close - 5);
  for (size_t at = 0, end = 0; (at = axes.find('\'', at)) != std::string::npos; at = end + 1) {
    std::string name = quoted(axes, at, end);
    int64_t size = 0;
    const char* first = axes.data() + std::min(end + 2, axes.size());
    auto [last, error] = std::from_chars(first, axes.data() + axes.size(), size);
    if (end == std::string::npos || axes[end + 1] != '=' || error != std::errc() || size <= 0)
      unreadable();
    sizes[name] = size;
    end = static_cast<size_t>(last - axes.data()) - 1;
  }
  const std::string named = text.substr(open + 1, text.size() - open - 2);
  int64_t product = 1;
  for (size_t at = 0, end = 0; (at = named.find('\'', at)) != std::string::npos; at = end + 1) {
    auto found = sizes.find(quoted(named, at, end));
    if (end == std::string::npos || found == sizes.end()) unreadable();
    if (__builtin_mul_overflow(product, found->second, &product))
      hlo::failInAttribute(attribute, "replica_groups", 0, "a group of more than 2^63 replicas");
  }
  return product;
}

// The list form's groups: `{{0,1},{2,3}}`, `{}` (none) or `{{}}`.
template <typename Fail>
std::vector<std::vector<int64_t>> listedGroups(const std::string& text, const Fail& unreadable) {
  std::vector<std::vector<int64_t>> groups;
  size_t at = 1;  // past the outer '{'
  auto skipSpace = [&] {
    while (at < text.size() && (text[at] == ' ' || text[at] == ',')) ++at;
  };
  for (skipSpace(); at < text.size() && text[at] == '{'; skipSpace()) {
    const size_t close = text.find('}', at);
    if (close == std::string::npos) unreadable();
    std::vector<int64_t>& group = groups.emplace_back();
    for (size_t item = at + 1; item < close;) {
      while (item < close && (text[item] == ' ' || text[item] == ',')) ++item;
      if (item == close) break;
      int64_t id = 0;
      auto [end, error] = std::from_chars(text.data() + item, text.data() + close, id);
      if (error != std::errc() || id < 0) unreadable();
      group.push_back(id);
      item = static_cast<size_t>(end - text.data());
    }
    at = close + 1;
  }
  if (at != text.size() - 1 || text.back() != '}') unreadable();
  if (groups.size() == 1 && groups[0].empty()) groups.clear();  // `{{}}`: every replica
  return groups;
}

}  // namespace

std::optional<int64_t> groupSize(const hlo::Instruction& instruction, bool uniform) {
  auto found = instruction.attributes.find("replica_groups");
  if (found == instruction.attributes.end()) return std::nullopt;
  const hlo::Attribute& attribute = found->second;
  const std::string& text = attribute.value;
  auto unreadable = [&]() {
    hlo::failInAttribute(attribute, "replica_groups", 0,
                         "expected {{0,1},...} or [groups,size]<=[n]");
  };
  if (text.rfind("mesh[", 0) == 0) return meshGroupSize(attribute, unreadable);
  if (text.rfind('[', 0) == 0) {  // [groups,size]<=[n]...
    size_t comma = text.find(',');
    size_t close = text.find(']');
    if (comma == std::string::npos || close == std::string::npos || comma > close) unreadable();
    int64_t size = 0;
    const char* first = text.data() + comma + 1;
    const char* last = text.data() + close;
    auto [end, error] = std::from_chars(first, last, size);
    if (error != std::errc() || end != last || size <= 0) unreadable();
    return size;
  }
  if (text.rfind('{', 0) != 0) unreadable();
  const std::vector<std::vector<int64_t>> groups = listedGroups(text, unreadable);
  std::set<int64_t> seen;
  for (const std::vector<int64_t>& group : groups) {
    for (int64_t id : group)
      if (!seen.insert(id).second)
        hlo::failInAttribute(attribute, "replica_groups", 0,
                             "replica " + std::to_string(id) + " is in two places");
    if (uniform && group.size() != groups[0].size())
      hlo::failInAttribute(attribute, "replica_groups", 0,
                           "groups of " + std::to_string(groups[0].size()) + " and " +
                               std::to_string(group.size()) +
                               " replicas: every group must have one size");
  }
  if (groups.empty()) return std::nullopt;
  return static_cast<int64_t>(groups[0].size());
}

}  // namespace idxmap::ops
