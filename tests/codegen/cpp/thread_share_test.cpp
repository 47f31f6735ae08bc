// The shares ordered kernels split a loop's range into (cpp_file.cpp's idxmap_thread_range):
// for every n >= 0, every thread count and every thread, [first, last) is a partition of [0, n)
// in thread order. Validation proves each narrowed nest runs exactly the domain's points of any
// share (KernelValidator::checkLoopNest with a ThreadShare); this is the other half of "the
// threads together apply every update once". Z3 proves it for all values (nonlinear integer
// arithmetic, decided here); the file's C text is checked to be the formula proven.
#include <gtest/gtest.h>
#include <z3++.h>

#include "codegen/cpp/cpp_kernel.h"

namespace idxmap::codegen {
namespace {

TEST(ThreadShares, PartitionTheRangeForEveryCountAndThread) {
  const std::string file = cppFile({});
  EXPECT_NE(file.find("*first = n / parts * part + std::min<int64_t>(part, n % parts);"),
            std::string::npos);
  EXPECT_NE(file.find("*last = *first + n / parts + (part < n % parts ? 1 : 0);"),
            std::string::npos);
  z3::context ctx;
  z3::expr n = ctx.int_const("n"), parts = ctx.int_const("parts"), part = ctx.int_const("part");
  // C's / and % equal SMT's div and mod for n >= 0 and parts >= 1.
  z3::expr q = n / parts, r = z3::mod(n, parts);
  auto first = [&](const z3::expr& k) { return q * k + z3::ite(k < r, k, r); };
  auto last = [&](const z3::expr& k) {
    return first(k) + q + z3::ite(k < r, ctx.int_val(1), ctx.int_val(0));
  };
  z3::solver solver(ctx);
  solver.add(n >= 0 && parts >= 1 && part >= 0 && part < parts);
  solver.add(!(first(ctx.int_val(0)) == 0 && last(parts - 1) == n && first(part) <= last(part) &&
               z3::implies(part + 1 < parts, last(part) == first(part + 1))));
  EXPECT_EQ(solver.check(), z3::unsat);
}

}  // namespace
}  // namespace idxmap::codegen
