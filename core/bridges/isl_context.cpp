// The per-thread isl context, the limits on each question, and the conversions every isl
// bridge file shares.
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/val.h>

#include <isl/map.h>
#include <isl/set.h>

#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/bridges/isl_bridge.h"

namespace idxmap {
namespace {

struct ContextOwner {
  isl_ctx* ctx;
  ContextOwner() : ctx(isl_ctx_alloc()) {
    // Errors come back as NULL results that the bridge turns into exceptions; isl must
    // neither print them nor abort.
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  }
  // isl refuses to free a context that objects still reference (it leaks it instead), so
  // an isl::map that outlives this thread's context stays valid.
  ~ContextOwner() { isl_ctx_free(ctx); }
};

thread_local IslLimits limits;
thread_local int questionDepth = 0;

// One thread for the whole process aborts the contexts whose deadline passed
// (isl_ctx_abort is meant to be called from another thread). isl notices at its next
// pivot. The pivot budget alone is no time limit: one pivot on a large tableau with big
// numbers can take long, and 20 million of them took 400 s on one map.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* watchdog = new Watchdog();  // leaked: lives as long as the process
    return *watchdog;
  }

  uint64_t arm(isl_ctx* ctx, std::chrono::steady_clock::time_point deadline) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t ticket = ++lastTicket_;
    armed_.emplace(ticket, Entry{ctx, deadline, false});
    wake_.notify_one();
    return ticket;
  }

  // Resumes the context when its deadline fired, even if the question finished first.
  void disarm(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = armed_.find(ticket);
    if (it->second.fired) isl_ctx_resume(it->second.ctx);
    armed_.erase(it);
  }

 private:
  struct Entry {
    isl_ctx* ctx;
    std::chrono::steady_clock::time_point deadline;
    bool fired;
  };

  Watchdog() {
    std::thread([this] { run(); }).detach();
  }

  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      auto next = std::chrono::steady_clock::time_point::max();
      auto now = std::chrono::steady_clock::now();
      for (auto& [ticket, entry] : armed_) {
        if (entry.fired) continue;
        if (entry.deadline <= now) {
          isl_ctx_abort(entry.ctx);
          entry.fired = true;
        } else {
          next = std::min(next, entry.deadline);
        }
      }
      if (next == std::chrono::steady_clock::time_point::max())
        wake_.wait(lock);
      else
        wake_.wait_until(lock, next);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uint64_t, Entry> armed_;
  uint64_t lastTicket_ = 0;
};

}  // namespace

isl::ctx islContext() {
  thread_local ContextOwner owner;
  return owner.ctx;
}

void setIslLimits(const IslLimits& newLimits) { limits = newLimits; }
IslLimits islLimits() { return limits; }

namespace isl_bridge {

IslQuestionScope::IslQuestionScope() : outermost_(questionDepth++ == 0) {
  if (!outermost_) return;
  isl_ctx* ctx = islContext().get();
  isl_ctx_set_max_operations(ctx, limits.maxOperations);
  isl_ctx_reset_operations(ctx);
  deadline_ = Watchdog::instance().arm(ctx, std::chrono::steady_clock::now() + limits.timeLimit);
}

IslQuestionScope::~IslQuestionScope() {
  --questionDepth;
  if (!outermost_) return;
  Watchdog::instance().disarm(deadline_);
  // isl work outside questions (callers' own use of the maps) is not ours to limit.
  isl_ctx_set_max_operations(islContext().get(), 0);
}

void throwLastIslError() {
  isl_ctx* ctx = islContext().get();
  isl_error error = isl_ctx_last_error(ctx);
  const char* message = isl_ctx_last_error_msg(ctx);
  std::string text = "isl: ";
  text += error == isl_error_abort ? "time limit exceeded" : message ? message : "unknown error";
  isl_ctx_reset_error(ctx);
  throw IslError(text, error == isl_error_quota || error == isl_error_abort);
}

int64_t toInt64(const isl::val& value) {
  isl_val* v = value.get();
  if (checked(isl_val_is_rat(v)) == 0) throw Error("an unbounded value");
  if (checked(isl_val_is_int(v)) == 0) throw Error("expected an integer, got a fraction");
  if (isl_val_cmp_si(v, std::numeric_limits<long>::max()) > 0 ||
      isl_val_cmp_si(v, std::numeric_limits<long>::min()) < 0)
    throw OverflowError("a value does not fit in 64 bits");
  static_assert(sizeof(long) == sizeof(int64_t), "isl's *_si functions take a long");
  return isl_val_get_num_si(v);
}

isl::val toIslVal(int64_t value) {
  return own(isl_val_int_from_si(islContext().get(), static_cast<long>(value)));
}

namespace {

// Analyses that build many small relations from text (the value analysis, the provers) spent a
// third of their time in isl's parser on texts that mostly repeat: each is parsed once per
// thread, and kept while the texts are few. isl's objects are copied on write, so a caller
// changing its copy leaves the kept one as it was.
constexpr size_t kMaxParsedTexts = 4096;

struct ParsedTexts {
  std::unordered_map<std::string, isl::map> maps;
  std::unordered_map<std::string, isl::set> sets;
};

ParsedTexts& parsedTexts() {
  islContext();  // the context first: the texts, constructed after it, are freed before it
  thread_local ParsedTexts texts;
  return texts;
}

template <class T, class Parse>
T parsedOnce(std::unordered_map<std::string, T>& parsed, const std::string& text, Parse parse) {
  if (auto it = parsed.find(text); it != parsed.end()) return it->second;
  T object = own(parse(islContext().get(), text.c_str()));
  if (parsed.size() >= kMaxParsedTexts) parsed.clear();
  parsed.emplace(text, object);
  return object;
}

}  // namespace

isl::map parsedMap(const std::string& text) {
  return parsedOnce(parsedTexts().maps, text, isl_map_read_from_str);
}

isl::set parsedSet(const std::string& text) {
  return parsedOnce(parsedTexts().sets, text, isl_set_read_from_str);
}

}  // namespace isl_bridge
}  // namespace idxmap
