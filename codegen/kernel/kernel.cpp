#include "codegen/kernel/kernel.h"

#include "core/checked.h"

namespace idxmap::codegen {

int64_t KernelBuffer::elements() const {
  int64_t count = 1;
  for (int64_t size : shape) count = checkedMul(count, size);
  return count;
}

}  // namespace idxmap::codegen
