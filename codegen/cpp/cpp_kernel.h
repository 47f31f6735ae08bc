// A Kernel (codegen/kernel/kernel.h) printed as C++ and validated as it is printed: every loop
// bound, index expression and guard that goes into the text is read back and proven against
// the kernel's map (codegen/validate/validation.h) before the text is returned.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "codegen/ir/kernel_ir.h"
#include "codegen/kernel/kernel.h"
#include "core/checked.h"
#include "core/verdict.h"

namespace idxmap::codegen {

// Validation refuted (or could not prove) something the kernel would compute: nothing may be
// written. `result` says what and where.
class ValidationError : public Error {
 public:
  ValidationError(const std::string& message, ProofResult result)
      : Error(message), result_(std::move(result)) {}
  const ProofResult& result() const { return result_; }

 private:
  ProofResult result_;
};

struct PrintedKernel {
  std::string text;                       // the header comment and the function
  std::vector<std::string> certificates;  // what validation proved
};

// `extern "C" int SYMBOL(const T* __restrict name, int64_t name_elements, ...)` (no body). It
// returns 0, 1 when an element count is not the emitted one, 2 when a checked kernel
// (Kernel::check) met an index value out of range.
// `used`, where given: the buffers the body reads or writes; any other's name is left out (a
// body need not touch a buffer: an empty kernel's, an input whose values no result depends on).
std::string entrySignature(const std::string& symbol, const std::vector<EntryBuffer>& buffers,
                           const std::set<std::string>* used = nullptr);
// The same entry with its buffers in arrays, SYMBOL_packed(void* const*, const int64_t*): one
// signature for every kernel, which a runtime (and the JIT runner) calls without knowing the
// kernel's parameter list.
std::string packedEntry(const std::string& symbol, const std::vector<EntryBuffer>& buffers);
// `SYMBOL_launch_in_packed(void* const* buffers, const int64_t* elements, void* workspace,
// cudaStream_t stream)`, calling a CUDA kernel's SYMBOL_launch_in (device buffers).
std::string packedLaunchInEntry(const std::string& symbol, const std::vector<EntryBuffer>& buffers);
// The body's first statement: sizes other than the emitted ones return 1.
std::string sizeChecks(const std::vector<EntryBuffer>& buffers);

// Throws ValidationError when a check fails, Error for a kernel outside what the printer
// supports (an element type without storage, a range variable in an expression).
PrintedKernel printCppKernel(const Kernel& kernel);
// The same with `edit` applied to the kernel's IR between building and validating it: the
// mutation test's seam (tests/codegen/validate/ir_mutation_test.cpp), which asks whether
// validation refuses a changed kernel.
PrintedKernel printCppKernel(const Kernel& kernel, const std::function<void(ir::Function&)>& edit);

// One self-contained file: the prelude, then every kernel, then idxmap_set_num_threads.
std::string cppFile(const std::vector<PrintedKernel>& kernels);

}  // namespace idxmap::codegen
