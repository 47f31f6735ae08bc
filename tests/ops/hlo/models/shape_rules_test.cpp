// XLA's shape inference rules (ShapeInference and HloVerifier), each on both sides: a module XLA
// accepts is valid here, one it rejects for that rule is a located diagnostic on the root
// instruction's line naming what is wrong. The modules are written from the rules, one row a
// rule; the root is the op under test.
#include <gtest/gtest.h>

#include "tests/ops/hlo/models/op_test_util.h"

namespace idxmap::optest {
namespace shape_rules_test {
namespace {

// Computations rows may call: a scalar adder per type, a 3-parameter and a 1-parameter one.
constexpr const char* kComputations = R"(add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
three_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  ROOT s = f32[] add(a, b)
}
negate_f32 {
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a)
}
to_s32 {
  a = f32[] parameter(0)
  ROOT c = s32[] convert(a)
}
)";

struct Rule {
  const char* label;
  const char* accepted;  // entry body XLA accepts ("" where the row shows only a rejection)
  const char* rejected;  // entry body XLA rejects for this rule ("": only an acceptance)
  const char* message;   // a part of idxmap's diagnostic for the rejection
};

std::string moduleOf(const std::string& body) {
  return std::string("HloModule m\n") + kComputations + "ENTRY e {\n" + body + "\n}\n";
}

// Rules as data, one a rule.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = {
      // Element type classes of elementwise ops (InferUnaryOpShape, InferBinaryOpShape).
      {"floor/floating", "p = f32[2] parameter(0)\nROOT r = f32[2] floor(p)",
       "p = s32[2] parameter(0)\nROOT r = s32[2] floor(p)",
       "operand element type s32 must be floating"},
      {"sqrt/floating-or-complex", "p = c64[2] parameter(0)\nROOT r = c64[2] sqrt(p)",
       "p = s32[2] parameter(0)\nROOT r = s32[2] sqrt(p)", "must be floating or complex"},
      {"cbrt/floating", "p = f32[2] parameter(0)\nROOT r = f32[2] cbrt(p)",
       "p = c64[2] parameter(0)\nROOT r = c64[2] cbrt(p)", "c64 must be floating"},
      {"abs/signed-integer", "p = s32[2] parameter(0)\nROOT r = s32[2] abs(p)",
       "p = u32[2] parameter(0)\nROOT r = u32[2] abs(p)", "floating, a signed integer or complex"},
      {"abs/complex-magnitude", "p = c64[2] parameter(0)\nROOT r = f32[2] abs(p)",
       "p = c64[2] parameter(0)\nROOT r = c64[2] abs(p)", "f32"},
      {"sign/signed-or-complex", "p = s8[2] parameter(0)\nROOT r = s8[2] sign(p)",
       "p = u8[2] parameter(0)\nROOT r = u8[2] sign(p)", "signed or complex"},
      {"negate/not-pred", "p = u8[2] parameter(0)\nROOT r = u8[2] negate(p)",
       "p = pred[2] parameter(0)\nROOT r = pred[2] negate(p)", "integral, floating or complex"},
      {"not/pred-or-integral", "p = pred[2] parameter(0)\nROOT r = pred[2] not(p)",
       "p = f32[2] parameter(0)\nROOT r = f32[2] not(p)", "pred or integral"},
      {"count-leading-zeros/integral",
       "p = s32[2] parameter(0)\nROOT r = s32[2] count-leading-zeros(p)",
       "p = f32[2] parameter(0)\nROOT r = f32[2] count-leading-zeros(p)", "must be integral"},
      {"popcnt/integral", "p = u16[2] parameter(0)\nROOT r = u16[2] popcnt(p)",
       "p = bf16[2] parameter(0)\nROOT r = bf16[2] popcnt(p)", "must be integral"},
      {"is-finite/floating", "p = f16[2] parameter(0)\nROOT r = pred[2] is-finite(p)",
       "p = s32[2] parameter(0)\nROOT r = pred[2] is-finite(p)", "must be floating"},
      {"real/component", "p = c128[2] parameter(0)\nROOT r = f64[2] real(p)",
       "p = c64[2] parameter(0)\nROOT r = c64[2] real(p)", "f32"},
      {"imag/floating-keeps-type", "p = f32[2] parameter(0)\nROOT r = f32[2] imag(p)",
       "p = f32[2] parameter(0)\nROOT r = f64[2] imag(p)", "f32"},
      {"real/not-integral", "", "p = s32[2] parameter(0)\nROOT r = s32[2] real(p)",
       "must be floating or complex"},
      {"reduce-precision/floating",
       "p = f32[2] parameter(0)\nROOT r = f32[2] reduce-precision(p), exponent_bits=5, "
       "mantissa_bits=10",
       "p = s32[2] parameter(0)\nROOT r = s32[2] reduce-precision(p), exponent_bits=5, "
       "mantissa_bits=10",
       "must be floating"},
      {"reduce-precision/exponent-bits", "",
       "p = f32[2] parameter(0)\nROOT r = f32[2] reduce-precision(p), exponent_bits=0, "
       "mantissa_bits=10",
       "exponent_bits=0: must be at least 1"},
      {"reduce-precision/mantissa-bits",
       "p = f32[2] parameter(0)\nROOT r = f32[2] reduce-precision(p), exponent_bits=1, "
       "mantissa_bits=0",
       "p = f32[2] parameter(0)\nROOT r = f32[2] reduce-precision(p), exponent_bits=1, "
       "mantissa_bits=-1",
       "must not be negative"},
      {"add/pred-allowed", "p = pred[2] parameter(0)\nROOT r = pred[2] add(p, p)", "", ""},
      {"subtract/not-pred", "p = s32[2] parameter(0)\nROOT r = s32[2] subtract(p, p)",
       "p = pred[2] parameter(0)\nROOT r = pred[2] subtract(p, p)", "not pred"},
      {"shift-left/floating-allowed", "p = f32[2] parameter(0)\nROOT r = f32[2] shift-left(p, p)",
       "p = pred[2] parameter(0)\nROOT r = pred[2] shift-left(p, p)", "not pred"},
      {"and/pred-or-integral", "p = u8[2] parameter(0)\nROOT r = u8[2] and(p, p)",
       "p = f32[2] parameter(0)\nROOT r = f32[2] and(p, p)", "pred or integral"},
      {"atan2/floating-or-complex", "p = f64[2] parameter(0)\nROOT r = f64[2] atan2(p, p)",
       "p = s32[2] parameter(0)\nROOT r = s32[2] atan2(p, p)", "floating or complex"},
      {"complex/composed-type", "p = f32[2] parameter(0)\nROOT r = c64[2] complex(p, p)",
       "p = f32[2] parameter(0)\nROOT r = c128[2] complex(p, p)", "c64"},
      {"complex/floating-parts", "", "p = s32[2] parameter(0)\nROOT r = c64[2] complex(p, p)",
       "s32 must be floating"},
      {"complex/f32-or-f64-parts", "", "p = f16[2] parameter(0)\nROOT r = c64[2] complex(p, p)",
       "f32 or f64"},
      {"complex/one-part-type", "",
       "p = f32[2] parameter(0)\nq = f64[2] parameter(1)\nROOT r = c64[2] complex(p, q)",
       "has element type f64, expected f32"},
      {"compare/float-type",
       "p = f32[2] parameter(0)\nROOT r = pred[2] compare(p, p), direction=LT, type=TOTALORDER",
       "p = f32[2] parameter(0)\nROOT r = pred[2] compare(p, p), direction=LT, type=SIGNED",
       "comparison type SIGNED does not compare f32 (FLOAT or TOTALORDER)"},
      {"compare/unsigned-type",
       "p = u32[2] parameter(0)\nROOT r = pred[2] compare(p, p), direction=LT, type=UNSIGNED",
       "p = u32[2] parameter(0)\nROOT r = pred[2] compare(p, p), direction=LT, type=SIGNED",
       "(UNSIGNED)"},
      {"stochastic-convert/unsigned-random",
       "p = f32[4] parameter(0)\nq = u32[4] parameter(1)\nROOT r = s8[4] stochastic-convert(p, q)",
       "p = f32[4] parameter(0)\nq = s32[4] parameter(1)\nROOT r = s8[4] stochastic-convert(p, q)",
       "random operand element type s32 must be an unsigned integer of f32's width"},
      {"stochastic-convert/random-width", "",
       "p = f32[4] parameter(0)\nq = u16[4] parameter(1)\nROOT r = s8[4] stochastic-convert(p, q)",
       "u16 must be an unsigned integer of f32's width"},
      {"stochastic-convert/floating-operand", "",
       "p = s32[4] parameter(0)\nq = u32[4] parameter(1)\nROOT r = s8[4] stochastic-convert(p, q)",
       "s32 must be floating"},
      // Scalars only where XLA allows them: select's predicate, clamp's bounds.
      {"select/scalar-predicate",
       "c = pred[] parameter(0)\nx = f32[2] parameter(1)\nROOT r = f32[2] select(c, x, x)",
       "c = pred[2] parameter(0)\nx = f32[2] parameter(1)\ny = f32[] parameter(2)\n"
       "ROOT r = f32[2] select(c, x, y)",
       "operand 2 f32[] does not match operand 1"},
      {"select/branches-like-predicate", "",
       "c = pred[2] parameter(0)\ny = f32[] parameter(1)\nROOT r = f32[2] select(c, y, y)",
       "operand 0 pred[2] does not match operand 1"},
      {"clamp/scalar-bounds",
       "lo = f32[] parameter(0)\nx = f32[2,3] parameter(1)\nROOT r = f32[2,3] clamp(lo, x, lo)",
       "lo = f32[2,3] parameter(0)\nx = f32[] parameter(1)\nROOT r = f32[2,3] clamp(lo, x, lo)",
       "operand 0 f32[2,3] does not match operand 1"},
      // map's computation (InferMapShape).
      {"map/result-type-from-computation",
       "p = f32[3] parameter(0)\nROOT r = s32[3] map(p), dimensions={0}, to_apply=to_s32",
       "p = f32[3] parameter(0)\nROOT r = f32[3] map(p), dimensions={0}, to_apply=to_s32", "s32"},
      {"map/arity", "p = f32[3] parameter(0)\nROOT r = f32[3] map(p, p), to_apply=add_f32",
       "p = f32[3] parameter(0)\nROOT r = f32[3] map(p, p), to_apply=negate_f32",
       "to_apply's parameter 1 must be f32[]"},
      // Reducers (VerifyReducerShape).
      {"reduce/reducer-arity",
       "p = f32[4,3] parameter(0)\nz = f32[] constant(0)\n"
       "ROOT r = f32[4] reduce(p, z), dimensions={1}, to_apply=add_f32",
       "p = f32[4,3] parameter(0)\nz = f32[] constant(0)\n"
       "ROOT r = f32[4] reduce(p, z), dimensions={1}, to_apply=three_f32",
       "to_apply takes more than 2 parameters"},
      {"reduce/reducer-types", "",
       "p = f32[4,3] parameter(0)\nz = f32[] constant(0)\n"
       "ROOT r = f32[4] reduce(p, z), dimensions={1}, to_apply=add_s32",
       "to_apply's parameter 0 must be f32[] (accumulator 0)"},
      {"reduce-window/reducer-arity",
       "p = f32[4] parameter(0)\nz = f32[] constant(0)\n"
       "ROOT r = f32[3] reduce-window(p, z), window={size=2}, to_apply=add_f32",
       "p = f32[4] parameter(0)\nz = f32[] constant(0)\n"
       "ROOT r = f32[3] reduce-window(p, z), window={size=2}, to_apply=negate_f32",
       "to_apply's parameter 1 must be f32[] (element 0)"},
      {"scatter/reducer-types",
       "x = f32[4] parameter(0)\ni = s32[2,1] parameter(1)\nu = f32[2] parameter(2)\n"
       "ROOT r = f32[4] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0}, "
       "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32",
       "x = f32[4] parameter(0)\ni = s32[2,1] parameter(1)\nu = f32[2] parameter(2)\n"
       "ROOT r = f32[4] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0}, "
       "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_s32",
       "to_apply's parameter 0 must be f32[]"},
      // Start indices (InferDynamicSliceShape, InferDynamicUpdateSliceShape).
      {"dynamic-slice/integral-indices",
       "p = f32[4] parameter(0)\ni = s64[] parameter(1)\n"
       "ROOT r = f32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}",
       "p = f32[4] parameter(0)\ni = f32[] parameter(1)\n"
       "ROOT r = f32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}",
       "start index operand 1 has element type f32, expected an integer"},
      {"dynamic-slice/one-index-type", "",
       "p = f32[4,4] parameter(0)\ni = s32[] parameter(1)\nj = s64[] parameter(2)\n"
       "ROOT r = f32[2,2] dynamic-slice(p, i, j), dynamic_slice_sizes={2,2}",
       "the start indices have one element type"},
      {"dynamic-update-slice/integral-indices", "",
       "p = f32[4] parameter(0)\nu = f32[2] parameter(1)\ni = f32[] parameter(2)\n"
       "ROOT r = f32[4] dynamic-update-slice(p, u, i)",
       "expected an integer"},
      // Bounded dynamic operands: shapes inferred from the bounds (their maps are unknown).
      {"concatenate/bounded",
       "a = f32[<=2,3] parameter(0)\nb = f32[4,3] parameter(1)\n"
       "ROOT r = f32[<=6,3] concatenate(a, b), dimensions={0}",
       "a = f32[<=2,3] parameter(0)\nb = f32[4] parameter(1)\n"
       "ROOT r = f32[<=6,3] concatenate(a, b), dimensions={0}",
       "does not have operand 0's rank 2"},
      {"concatenate/element-type", "",
       "a = f32[2] parameter(0)\nb = s32[4] parameter(1)\n"
       "ROOT r = f32[6] concatenate(a, b), dimensions={0}",
       "operand 1 has element type s32, operand 0 f32"},
      {"slice/bounded", "p = f32[<=8] parameter(0)\nROOT r = f32[<=5] slice(p), slice={[0:5]}", "",
       ""},
      {"pad/bounded",
       "p = f32[<=4] parameter(0)\nz = f32[] constant(0)\nROOT r = f32[<=6] pad(p, z), "
       "padding=1_1",
       "", ""},
      {"dot/bounded",
       "a = f32[<=4,3] parameter(0)\nb = f32[3,5] parameter(1)\nROOT r = f32[<=4,5] dot(a, b), "
       "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "", ""},
      {"dynamic-slice/bounded",
       "p = f32[<=4] parameter(0)\ni = s32[] parameter(1)\n"
       "ROOT r = f32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}",
       "", ""},
      // Broadcast: distinct dimensions in any order (the order is checked only on request).
      {"broadcast/any-order",
       "p = f32[2,3] parameter(0)\nROOT r = f32[3,2] broadcast(p), dimensions={1,0}",
       "p = f32[2,3] parameter(0)\nROOT r = f32[3,2,2] broadcast(p), dimensions={1,1}",
       "dimension 1 repeated"},
      // bitcast-convert (InferBitcastConvertShape): pred is one bit wide.
      {"bitcast-convert/pred-is-one-bit",
       "p = s8[2] parameter(0)\nROOT r = pred[2,8] bitcast-convert(p)",
       "p = s8[2] parameter(0)\nROOT r = pred[2] bitcast-convert(p)", "rank"},
      {"bitcast-convert/complex-and-real",
       "p = c64[2] parameter(0)\nROOT r = c64[2] "
       "bitcast-convert(p)",
       "p = c64[2] parameter(0)\nROOT r = f64[2] bitcast-convert(p)",
       "cannot convert between complex and real types"},
      // Convolution: one kind of grouping at a time.
      {"convolution/one-grouping",
       "a = f32[2,4,5] parameter(0)\nk = f32[2,2,3] parameter(1)\nROOT r = f32[2,2,3] "
       "convolution(a, k), window={size=3}, dim_labels=bf0_io0->bf0, feature_group_count=2",
       "a = f32[2,4,5] parameter(0)\nk = f32[2,2,3] parameter(1)\nROOT r = f32[1,2,3] "
       "convolution(a, k), window={size=3}, dim_labels=bf0_io0->bf0, feature_group_count=2, "
       "batch_group_count=2",
       "cannot both be greater than 1"},
      // iota, constant, set-dimension-size.
      {"iota/not-pred", "ROOT r = s32[4] iota(), iota_dimension=0",
       "ROOT r = pred[4] iota(), iota_dimension=0", "not pred"},
      {"constant/literal-size", "ROOT r = f32[2,2] constant({ {1, 2}, {3, 4} })",
       "ROOT r = f32[2] constant({1, 2, 3})", "the literal has 3 elements, f32[2] has 2"},
      {"set-dimension-size/s32-size",
       "p = f32[4] parameter(0)\nn = s32[] parameter(1)\n"
       "ROOT r = f32[<=4] set-dimension-size(p, n), dimensions={0}",
       "p = f32[4] parameter(0)\nn = s64[] parameter(1)\n"
       "ROOT r = f32[<=4] set-dimension-size(p, n), dimensions={0}",
       "expected s32[]"},
      // Replica groups (CheckReplicaGroups).
      {"all-reduce/replica-once",
       "p = f32[4] parameter(0)\n"
       "ROOT r = f32[4] all-reduce(p), replica_groups={{0,1,2},{3}}, to_apply=add_f32",
       "p = f32[4] parameter(0)\n"
       "ROOT r = f32[4] all-reduce(p), replica_groups={{0,1},{1,2}}, to_apply=add_f32",
       "replica 1 is in two places"},
      {"all-gather/uniform-groups",
       "p = f32[2] parameter(0)\n"
       "ROOT r = f32[4] all-gather(p), replica_groups={{0,1},{2,3}}, dimensions={0}",
       "p = f32[2] parameter(0)\n"
       "ROOT r = f32[4] all-gather(p), replica_groups={{0,1},{2,3,4}}, dimensions={0}",
       "every group must have one size"},
      // scaled-dot (its verifier): one contracting pair, a scale that is not both scalars, and
      // XLA's no-op scale (bf16 of one element) whatever its rank.
      {"scaled-dot/no-op-scale",
       "a = bf16[4,32] parameter(0)\nb = f8e4m3fn[32,8] parameter(1)\ns = bf16[] parameter(2)\n"
       "t = f8e8m0fnu[1,8] parameter(3)\nROOT r = f32[4,8] scaled-dot(a, b, s, t), "
       "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "a = bf16[4,32] parameter(0)\nb = bf16[32,8] parameter(1)\ns = bf16[] parameter(2)\n"
       "ROOT r = f32[4,8] scaled-dot(a, b, s, s), lhs_contracting_dims={1}, "
       "rhs_contracting_dims={0}",
       "at least one of the scales must not be a scalar"},
      {"scaled-dot/one-contracting-pair", "",
       "a = f8e4m3fn[4,2,16] parameter(0)\nb = f8e4m3fn[2,16,8] parameter(1)\n"
       "s = f8e8m0fnu[4,1,1] parameter(2)\nt = f8e8m0fnu[1,1,8] parameter(3)\n"
       "ROOT r = f32[4,8] scaled-dot(a, b, s, t), lhs_contracting_dims={1,2}, "
       "rhs_contracting_dims={0,1}",
       "exactly one dimension pair, not 2"},
  };
  return table;
}

TEST(ShapeRules, XlaAcceptsWhatItAcceptsAndRejectsWhatItRejects) {
  for (const Rule& rule : rules()) {
    SCOPED_TRACE(rule.label);
    if (*rule.accepted) {
      std::optional<ParseError> error = validationError(moduleOf(rule.accepted));
      EXPECT_FALSE(error) << error->what();
    }
    if (!*rule.rejected) continue;
    const std::string text = moduleOf(rule.rejected);
    std::optional<ParseError> error = validationError(text);
    ASSERT_TRUE(error);
    EXPECT_NE(error->message().find(rule.message), std::string::npos) << error->message();
    // Located on the root's line (the last of the entry).
    const int rootLine = static_cast<int>(std::count(text.begin(), text.end(), '\n')) - 1;
    EXPECT_EQ(error->location().line, rootLine) << error->what();
  }
}

}  // namespace
}  // namespace shape_rules_test
}  // namespace idxmap::optest
