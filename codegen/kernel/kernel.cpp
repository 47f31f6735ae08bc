#include "codegen/kernel/kernel.h"

#include "core/checked.h"
#include "core/text.h"

namespace idxmap::codegen {

int64_t KernelBuffer::elements() const {
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  return count;
}

std::string oneLine(const IndexingMap& map) {
  std::string text = printIndexingMap(map), out;
  for (char c : text) {
    if (c != '\n')
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  return out;
}

}  // namespace idxmap::codegen
