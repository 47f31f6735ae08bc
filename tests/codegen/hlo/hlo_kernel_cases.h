// What the HLO kernel tests share (hlo_kernels_test, hlo_dot_kernels_test): random operands,
// bit-for-bit agreement (any NaN matching any NaN), a case's kernel compiled and run, and the
// comparison with the op-by-op reference evaluator (hlo_reference.h) on both targets.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "codegen/emit.h"
#include "codegen/hlo/hlo_kernel.h"
#include "codegen/run/jit.h"
#include "codegen/run/tensor_buffers.h"
#include "tests/codegen/hlo/hlo_reference.h"
#include "tests/codegen/kernel_test_support.h"
#include "tests/codegen/nvcc_check.h"

namespace idxmap::codegen::hlo_kernel_tests {

using namespace testing;

// Values for a parameter: small numbers with the float specials now and then; start index
// parameters (s32 scalars) in [-2, 6], so that clamping happens; preds 0 or 1.
inline Tensor randomTensor(const hlo::Shape& shape, std::mt19937& rng, bool specials) {
  const std::string type = tensorType(shape.element_type);
  Tensor t = gather_scatter::zeros(type, shape.shape);
  std::uniform_int_distribution<int> small(-5, 5), special(0, 19);
  auto value = [&] {
    int s = specials ? special(rng) : 19;
    return s == 0 ? NAN : s == 1 ? -0.0 : s == 2 ? INFINITY : small(rng) * 0.75;
  };
  // A complex element's parts are values of its part type (multiples of 0.75: exact in f32).
  const std::string part = type == "complex<f64>" ? "f64" : type == "complex<f32>" ? "f32" : type;
  for (double& v : t.floats) v = gather_scatter::roundToElementType(part, value());
  for (double& v : t.imags) v = gather_scatter::roundToElementType(part, value());
  for (int64_t& v : t.ints) v = shape.shape.empty() ? small(rng) + 1 : small(rng);
  if (type == "i1")  // a pred holds 0 or 1, as XLA stores it
    for (int64_t& v : t.ints) v = v > 0;
  else if (!t.ints.empty() && widthOf(type) < 8)  // a sub-byte type's range: u4, s2 wrap some
    for (int64_t& v : t.ints) v = wrapTo(type, v);
  return t;
}

inline bool agree(const Tensor& a, const Tensor& b) {
  if (a.shape != b.shape || a.element_type != b.element_type) return false;
  if (a.ints != b.ints || a.floats.size() != b.floats.size() || a.imags.size() != b.imags.size())
    return false;
  auto same = [](double x, double y) {
    return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
  };
  for (size_t i = 0; i < a.floats.size(); ++i)
    if (!same(a.floats[i], b.floats[i])) return false;
  for (size_t i = 0; i < a.imags.size(); ++i)
    if (!same(a.imags[i], b.imags[i])) return false;
  return true;
}

struct Case {
  std::string text;
  std::unique_ptr<hlo::Module> module;
  const hlo::Instruction* instruction = nullptr;
  HloKernel kernel;
};

// A case for each entry instruction of `module` whose opcode is in `opcodes` (empty: every one
// but parameters and tuples), its kernel's symbol `prefix` and the instruction's name.
inline std::vector<Case> entryCases(const hlo::Module& module, const std::set<std::string>& opcodes,
                                    const std::string& prefix, bool cuda) {
  std::vector<Case> cases;
  for (const auto& instruction : module.entry->instructions) {
    const std::string& op = instruction->opcode;
    if (opcodes.empty() ? op == "parameter" || op == "tuple" : !opcodes.count(op)) continue;
    Case c;
    c.text = instruction->name;
    c.instruction = instruction.get();
    c.kernel = hloKernel(*instruction, prefix + instruction->name, cuda);
    cases.push_back(std::move(c));
  }
  return cases;
}

// Sub-byte elements held one to a byte (`unpacked`, as toBuffer writes them) packed 8 / bits to a
// byte as XLA's util.h PackIntN packs them: element i in byte i / (8 / bits), at bit
// bits * (8 / bits - 1 - i % (8 / bits)), the first of a byte's elements in its high bits; and
// back (the bits sign- or zero-extended as toBuffer's bytes hold them).
inline Buffer packedBuffer(const Buffer& unpacked, int bits, int64_t elements) {
  const int64_t perByte = 8 / bits;
  Buffer out(static_cast<size_t>((elements + perByte - 1) / perByte));
  auto* to = static_cast<uint8_t*>(out.data());
  const auto* from = static_cast<const uint8_t*>(unpacked.data());
  for (int64_t i = 0; i < elements; ++i) {
    const int shift = static_cast<int>(bits * (perByte - 1 - i % perByte));
    if (i % perByte == 0) to[i / perByte] = 0;
    to[i / perByte] |= static_cast<uint8_t>((from[i] & ((1 << bits) - 1)) << shift);
  }
  return out;
}

inline Buffer unpackedBuffer(const Buffer& packed, int bits, int64_t elements, bool isSigned) {
  const int64_t perByte = 8 / bits;
  Buffer out(static_cast<size_t>(elements));
  auto* to = static_cast<uint8_t*>(out.data());
  const auto* from = static_cast<const uint8_t*>(packed.data());
  for (int64_t i = 0; i < elements; ++i) {
    const int shift = static_cast<int>(bits * (perByte - 1 - i % perByte));
    int value = (from[i / perByte] >> shift) & ((1 << bits) - 1);
    if (isSigned && value >> (bits - 1)) value -= 1 << bits;
    to[i] = static_cast<uint8_t>(value);
  }
  return out;
}

// `instruction` gets no kernel: UnsupportedHlo, located in `file`, saying `expected`.
inline void expectRefused(const hlo::Instruction& instruction, bool cuda, const std::string& file,
                          const std::string& expected) {
  try {
    hloKernel(instruction, "refused", cuda);
    ADD_FAILURE() << instruction.name << " got a kernel";
  } catch (const UnsupportedHlo& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find(expected), std::string::npos) << what;
    EXPECT_NE(what.find(file + ":"), std::string::npos) << what;
  }
}

// Runs a kernel on the operands; the results in the kernel's output order.
inline std::vector<Tensor> runHloKernel(const LoadedLibrary& library, const HloKernel& kernel,
                                        const std::vector<Tensor>& operands) {
  using Entry = int (*)(void* const*, const int64_t*);
  std::vector<Buffer> buffers;
  std::vector<void*> pointers;
  std::vector<int64_t> elements;
  size_t next = 0;
  for (const KernelBuffer& b : kernel.buffers) {
    std::string type = tensorType(b.elementType);
    buffers.push_back(b.written
                          ? Buffer(bufferElementBytes(type) * static_cast<size_t>(b.elements()))
                          : toBuffer(inLayout(operands.at(next++), b.layout, true)));
    if (b.packedBits) buffers.back() = packedBuffer(buffers.back(), b.packedBits, b.elements());
    // A packed result's bytes start as garbage: its stores must set every bit of an element.
    if (b.packedBits && b.written) std::memset(buffers.back().data(), 0xA5, buffers.back().size());
    elements.push_back(b.elements());
  }
  for (Buffer& buffer : buffers) pointers.push_back(buffer.data());
  auto entry = reinterpret_cast<Entry>(library.symbol(kernel.symbol + "_packed"));
  EXPECT_EQ(entry(pointers.data(), elements.data()), 0) << kernel.symbol;
  std::vector<Tensor> out;
  for (size_t i = 0; i < kernel.buffers.size(); ++i)
    if (const KernelBuffer& b = kernel.buffers[i]; b.written && b.packedBits)
      buffers[i] = unpackedBuffer(buffers[i], b.packedBits, b.elements(), b.elementType[0] == 's');
  for (size_t i = 0; i < kernel.buffers.size(); ++i)
    if (kernel.buffers[i].written)
      out.push_back(
          inLayout(fromBuffer(buffers[i], tensorType(kernel.buffers[i].elementType),
                              physicalShape(kernel.buffers[i].shape, kernel.buffers[i].layout)),
                   kernel.buffers[i].layout, false, kernel.buffers[i].shape));
  return out;
}

// On a GPU machine (IDXMAP_CUDA_DEVICE=1, set by the device script) CUDA kernels run there.
inline bool onTheGpu(bool cuda) { return cuda && std::getenv("IDXMAP_CUDA_DEVICE"); }

// Every case's kernel in one file, compiled once (cached by content); CUDA kernels as host C++
// (the .cu file's emulation), or with nvcc on a GPU machine.
inline std::shared_ptr<LoadedLibrary> compileCases(const std::vector<Case>& cases,
                                                   bool cuda = false) {
  std::vector<PrintedKernel> printed;
  for (const Case& c : cases) printed.push_back(c.kernel.printed);
  return compileAndLoad(cuda ? cudaFile(printed) : cppFile(printed),
                        onTheGpu(cuda) ? cudaJitOptions() : testJitOptions());
}

// Where nvcc is installed: the cases' CUDA file compiles for sm_80 and sm_90 (one of them a CI
// run) without spills or local memory.
inline void expectNvccClean(const std::vector<Case>& cases, const std::string& what) {
  std::vector<PrintedKernel> printed;
  for (const Case& c : cases) printed.push_back(c.kernel.printed);
  const std::string source = cudaFile(printed);
  for (int arch : testing::nvccArchitectures())
    expectCompiledWithoutSpillsOrLocalMemory(nvccCompile(source, arch, "hlo"),
                                             what + ", sm_" + std::to_string(arch));
}

// The math functions CUDA computes within a few ULP of the correctly rounded value, where the
// host's libm (and so the reference) may round otherwise; +, -, *, /, sqrt round alike (the
// JIT compiles with --fmad=false).
inline bool usesDeviceMath(const hlo::Instruction& instruction) {
  static const std::set<std::string> math = {"cbrt",  "exponential",  "exponential-minus-one",
                                             "log",   "log-plus-one", "logistic",
                                             "sine",  "cosine",       "tan",
                                             "tanh",  "erf",          "power",
                                             "atan2", "sinh",         "cosh",
                                             "asin",  "acos",         "asinh",
                                             "acosh", "atanh"};
  if (math.count(instruction.opcode)) return true;
  for (const hlo::Computation* called : instruction.calledComputations)
    for (const auto& inner : called->instructions)
      if (usesDeviceMath(*inner)) return true;
  return false;
}

// An operand's value for one run: random for a parameter; the reference's value of any other
// instruction (an iota, a constant, what is computed from them and from random parameters), as
// the module computes it, since a kernel may rely on facts proven about it (a scatter's
// indices from an iota are unique and in range).
inline Tensor operandValue(const hlo::Instruction& operand, std::mt19937& rng, bool specials,
                           std::map<const hlo::Instruction*, Tensor>& values) {
  if (auto found = values.find(&operand); found != values.end()) return found->second;
  Tensor value;
  if (operand.opcode == "parameter") {
    value = randomTensor(operand.shape, rng, specials);
  } else {
    std::vector<Tensor> inputs;
    for (const hlo::Instruction* input : operand.operands)
      inputs.push_back(operandValue(*input, rng, specials, values));
    value = HloReference::run(operand, inputs).at(0);
  }
  return values[&operand] = value;
}

// `specials`: NaN, -0 and infinities among the inputs (a softmax row with one is NaN
// throughout, which would hide its arithmetic).
inline void expectAgreement(const std::vector<Case>& cases, const LoadedLibrary& library,
                            int rounds, bool specials = true, bool gpu = false) {
  std::mt19937 rng(7);
  int exact = 0, deviceMath = 0;
  for (const Case& c : cases) {
    for (int round = 0; round < rounds; ++round) {
      std::vector<Tensor> operands;
      std::map<const hlo::Instruction*, Tensor> values;
      for (const hlo::Instruction* operand : c.instruction->operands)
        operands.push_back(operandValue(*operand, rng, specials, values));
      std::vector<Tensor> expected = HloReference::run(*c.instruction, operands);
      std::vector<Tensor> actual = runHloKernel(library, c.kernel, operands);
      ASSERT_EQ(actual.size(), expected.size()) << c.text;
      bool same = true;
      for (size_t k = 0; k < actual.size(); ++k) same &= agree(actual[k], expected[k]);
      if (gpu && !same && usesDeviceMath(*c.instruction)) {
        ++deviceMath;
        continue;
      }
      ++exact;
      for (size_t k = 0; k < actual.size(); ++k)
        ASSERT_TRUE(agree(actual[k], expected[k])) << c.text << "\nresult " << k << "\n"
                                                   << c.kernel.printed.text;
    }
  }
  if (gpu)
    std::cout << "on the GPU: " << exact << " runs bit for bit, " << deviceMath
              << " differ where CUDA's math functions round otherwise\n";
}

}  // namespace idxmap::codegen::hlo_kernel_tests
