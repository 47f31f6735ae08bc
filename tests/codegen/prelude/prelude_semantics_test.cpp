// The prelude's update computations and floor helpers against ops/eval's ElementCombiner and
// floor semantics, on the values where implementations differ: NaN, -0 and +0, infinities,
// subnormal and largest finite f16 / bf16 values, sums that overflow the format, integer
// extremes that wrap. One file of drivers, compiled once, calls every (computation, type).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "codegen/prelude/prelude.h"
#include "codegen/run/jit.h"
#include "ops/eval/tensor.h"
#include "tests/codegen/kernel_test_support.h"

namespace idxmap::codegen {
namespace {

using gather_scatter::ElementCombiner;
using gather_scatter::Tensor;
using gather_scatter::UpdateComputation;

const UpdateComputation kComputations[] = {UpdateComputation::kAdd, UpdateComputation::kMul,
                                           UpdateComputation::kMin, UpdateComputation::kMax,
                                           UpdateComputation::kReplace};
const char* kTypes[] = {"f32", "f64",  "f16",  "bf16", "i1", "i8", "i16", "i32", "i64",
                        "ui8", "ui16", "ui32", "ui64", "i2", "i4", "ui2", "ui4"};

// The width of a sub-byte integer type (i2, i4, ui2, ui4); 0 for any other.
int subByteBits(const std::string& type) {
  for (const char* narrow : {"i2", "i4", "ui2", "ui4"})
    if (type == narrow) return type.back() - '0';
  return 0;
}

// Every pair of interesting values of the type, as two tensors (a[i], b[i]).
std::pair<Tensor, Tensor> pairs(const std::string& type) {
  std::vector<double> floats;
  std::vector<int64_t> ints;
  if (gather_scatter::isFloatType(type)) {
    double inf = std::numeric_limits<double>::infinity();
    floats = {0.0,
              -0.0,
              1.0,
              -1.5,
              3.25,
              inf,
              -inf,
              std::nan(""),
              65504.0,
              60000.0,
              5.960464477539063e-08,
              6.103515625e-05,
              3.3895313892515355e38,
              1e-40,
              2.5,
              1024.75};
    for (double& v : floats) v = gather_scatter::roundToElementType(type, v);
  } else if (type == "i1") {
    ints = {0, 1};
  } else {
    const int bits = std::stoi(type.substr(type[0] == 'u' ? 2 : 1));
    const bool isUnsigned = type[0] == 'u';
    int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max()
                             : (int64_t{1} << (bits - (isUnsigned ? 0 : 1))) - 1;
    int64_t min = isUnsigned ? 0
                             : (bits == 64 ? std::numeric_limits<int64_t>::min()
                                           : -(int64_t{1} << (bits - 1)));
    ints = {0, 1, -1, 2, 7, max, min, max - 1, min + 1, 100, -100};
    if (isUnsigned)
      for (int64_t& v : ints) v = bits == 64 ? v : (v & ((int64_t{1} << bits) - 1));
    else if (bits < 8)  // a sub-byte type's values, wrapped to its width
      for (int64_t& v : ints)
        v = (v & ((int64_t{1} << bits) - 1)) - (v & (int64_t{1} << (bits - 1))) * 2;
  }
  Tensor a = gather_scatter::zeros(type, {0}), b = a;
  size_t n = floats.empty() ? ints.size() : floats.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (floats.empty()) {
        a.ints.push_back(ints[i]);
        b.ints.push_back(ints[j]);
      } else {
        a.floats.push_back(floats[i]);
        b.floats.push_back(floats[j]);
      }
    }
  a.shape = b.shape = {static_cast<int64_t>(n * n)};
  return {a, b};
}

TEST(Prelude, UpdateComputationsMatchTheEvaluatorsBitForBit) {
  std::string source(kernelPrelude());
  for (const char* type : kTypes)
    for (UpdateComputation computation : kComputations) {
      std::string f = *combineFunction(computation, type), t = *storageType(type);
      source += "extern \"C\" void drive_" + f + "(" + t + "* a, const " + t +
                "* b, int64_t n) {\n  for (int64_t i = 0; i < n; ++i) a[i] = " + f +
                "(a[i], b[i]);\n}\n";
    }
  std::shared_ptr<LoadedLibrary> library = compileAndLoad(source, testing::testJitOptions());
  for (const char* type : kTypes)
    for (UpdateComputation computation : kComputations) {
      auto [a, b] = pairs(type);
      Tensor expected = a;
      ElementCombiner combiner(computation, type);
      for (size_t i = 0; i < expected.floats.size(); ++i)
        expected.floats[i] = combiner.combine(a.floats[i], b.floats[i]);
      for (size_t i = 0; i < expected.ints.size(); ++i)
        expected.ints[i] = combiner.combine(a.ints[i], b.ints[i]);
      Buffer current = toBuffer(a), updates = toBuffer(b);
      // A sub-byte element is its byte's low bits: the others (garbage here) must not count.
      const int bits = *storageBytes(type) == 1 && type[0] != 'f' ? subByteBits(type) : 0;
      if (bits)
        for (Buffer* buffer : {&current, &updates})
          for (size_t i = 0; i < buffer->size(); ++i) {
            uint8_t& byte = static_cast<uint8_t*>(buffer->data())[i];
            byte = static_cast<uint8_t>((byte & ((1u << bits) - 1)) | (0xA5u << bits & 0xFFu));
          }
      std::string f = *combineFunction(computation, type);
      reinterpret_cast<void (*)(void*, const void*, int64_t)>(library->symbol("drive_" + f))(
          current.data(), updates.data(), a.shape[0]);
      Tensor actual = fromBuffer(current, type, a.shape);
      if (bits) {  // a result is in the narrow form: the high bits its sign (or zero)
        const Buffer narrow = toBuffer(actual);
        EXPECT_EQ(std::memcmp(narrow.data(), current.data(), current.size()), 0) << f;
      }
      for (int64_t i = 0; i < a.shape[0]; ++i) {
        Tensor x = gather_scatter::scalarAt(actual, i), y = gather_scatter::scalarAt(expected, i);
        bool bothNan = x.isFloat() && std::isnan(x.floats[0]) && std::isnan(y.floats[0]);
        EXPECT_TRUE(bothNan || testing::sameBits(x, y))
            << f << "(" << a.valueAt(i) << ", " << b.valueAt(i) << ") = " << x.valueAt(0)
            << ", the evaluator gives " << y.valueAt(0);
      }
    }
}

TEST(Prelude, FloorHelpersRoundTowardMinusInfinity) {
  std::string source(kernelPrelude());
  source += R"(extern "C" int64_t drive(int which, int64_t a, int64_t b) {
  switch (which) {
    case 0: return idxmap_floordiv<int64_t>(a, b);
    case 1: return idxmap_floormod<int64_t>(a, b);
    case 2: return idxmap_ceildiv<int64_t>(a, b);
    case 3: return idxmap_floordiv<int32_t>(static_cast<int32_t>(a), static_cast<int32_t>(b));
    default: return idxmap_floormod<int32_t>(static_cast<int32_t>(a), static_cast<int32_t>(b));
  }
}
)";
  std::shared_ptr<LoadedLibrary> library = compileAndLoad(source, testing::testJitOptions());
  auto drive = reinterpret_cast<int64_t (*)(int, int64_t, int64_t)>(library->symbol("drive"));
  std::vector<int64_t> dividends;
  for (int64_t a = -50; a <= 50; ++a) dividends.push_back(a);
  for (int64_t a : {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min() + 1})
    dividends.push_back(a);
  for (int64_t a : dividends)
    for (int64_t b = 1; b <= 9; ++b) {
      long double exact = static_cast<long double>(a) / b;
      int64_t floor = static_cast<int64_t>(std::floor(exact)),
              ceil = static_cast<int64_t>(std::ceil(exact));
      if (a % b == 0)
        floor = ceil = a / b;  // exact where long double would round
      else if (a > (int64_t{1} << 60) || a < -(int64_t{1} << 60))  // std::abs(INT64_MIN) overflows
        floor = a / b - (a < 0), ceil = a / b + (a > 0);
      // a - floor * b is in [0, b), but floor * b alone may pass INT64_MIN: 128 bits.
      const int64_t mod =
          static_cast<int64_t>(static_cast<__int128>(a) - static_cast<__int128>(floor) * b);
      EXPECT_EQ(drive(0, a, b), floor) << a << " floordiv " << b;
      EXPECT_EQ(drive(1, a, b), mod) << a << " mod " << b;
      EXPECT_EQ(drive(2, a, b), ceil) << a << " ceildiv " << b;
      if (a >= -50 && a <= 50) {
        EXPECT_EQ(drive(3, a, b), floor);
        EXPECT_EQ(drive(4, a, b), mod);
      }
    }
}

}  // namespace
}  // namespace idxmap::codegen
