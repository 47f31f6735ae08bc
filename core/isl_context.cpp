// The per-thread isl context and the conversions every isl bridge file shares.
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/val.h>

#include <limits>

#include "core/isl_bridge.h"
#include "core/isl_internal.h"

namespace idxmap {
namespace {

// Enough for every map of the test corpus and XLA's own simplification tests (a few
// hundred thousand operations at most); a question needing more is a runaway, and its
// caller reports "unknown" instead of hanging.
constexpr unsigned long kIslOperationBudget = 20'000'000;

struct ContextOwner {
  isl_ctx* ctx;
  ContextOwner() : ctx(isl_ctx_alloc()) {
    // Errors come back as NULL results that the bridge turns into exceptions; isl must
    // neither print them nor abort.
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
    isl_ctx_set_max_operations(ctx, kIslOperationBudget);
  }
  // isl refuses to free a context that objects still reference (it leaks it instead), so
  // an isl::map that outlives this thread's context stays valid.
  ~ContextOwner() { isl_ctx_free(ctx); }
};

}  // namespace

isl::ctx islContext() {
  thread_local ContextOwner owner;
  return owner.ctx;
}

namespace isl_internal {

void throwLastIslError() {
  isl_ctx* ctx = islContext().get();
  isl_error error = isl_ctx_last_error(ctx);
  const char* message = isl_ctx_last_error_msg(ctx);
  std::string text = "isl: ";
  text += message ? message : "unknown error";
  isl_ctx_reset_error(ctx);
  throw IslError(text, error == isl_error_quota);
}

void resetIslBudget() { isl_ctx_reset_operations(islContext().get()); }

int64_t toInt64(const isl::val& value) {
  isl_val* v = value.get();
  if (checked(isl_val_is_rat(v)) == 0) throw Error("isl: unbounded value");
  if (checked(isl_val_is_int(v)) == 0) throw Error("isl: expected an integer, got a fraction");
  if (isl_val_cmp_si(v, std::numeric_limits<long>::max()) > 0 ||
      isl_val_cmp_si(v, std::numeric_limits<long>::min()) < 0)
    throw OverflowError("isl: a value does not fit in 64 bits");
  static_assert(sizeof(long) == sizeof(int64_t), "isl's *_si functions take a long");
  return isl_val_get_num_si(v);
}

isl::val toIslVal(int64_t value) {
  return own(isl_val_int_from_si(islContext().get(), static_cast<long>(value)));
}

}  // namespace isl_internal
}  // namespace idxmap
