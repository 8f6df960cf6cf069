//===- LoweredStep.cpp - the runtime ABI of compiled training steps -------===//
//
// What `ssd-lower-to-runtime` calls: C functions of plain integers, so that
// a step compiled to LLVM needs no memref descriptors to reach the runtime.
// They share one context per process, opened on first use in
// $SSDRT_SCRATCH_DIR (else $TMPDIR, else /tmp). Any failure aborts with the
// runtime's message: a compiled step cannot handle an I/O error, and going
// on would compute with bytes that never arrived.
//
//===----------------------------------------------------------------------===//

#include "ssd/Runtime/ssdrt.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace {
struct LoweredStepState {
  std::mutex mutex;
  ssdrt_context *ctx = nullptr;
  /// Handles of the current step, freed at its end.
  std::vector<ssdrt_handle> stepHandles;
  /// Handles with an operation that has not been waited for.
  std::unordered_set<ssdrt_handle> pending;
};

LoweredStepState &state() {
  static LoweredStepState instance;
  return instance;
}

[[noreturn]] void fail(const char *what, int status) {
  const char *message = ssdrt_last_error();
  std::fprintf(stderr, "ssdrt: %s failed: %s\n", what,
               message[0] ? message : std::strerror(-status));
  std::abort();
}

void check(int status, const char *what) {
  if (status != 0)
    fail(what, status);
}

/// The process's context; the caller holds the state's mutex.
ssdrt_context *context(LoweredStepState &s) {
  if (s.ctx)
    return s.ctx;
  const char *dir = std::getenv("SSDRT_SCRATCH_DIR");
  if (!dir || !dir[0])
    dir = std::getenv("TMPDIR");
  if (!dir || !dir[0])
    dir = "/tmp";
  ssdrt_options options;
  ssdrt_options_init(&options);
  options.directory = dir;
  options.flags = SSDRT_OPT_HOST_ONLY;
  check(ssdrt_context_create(&options, &s.ctx), "opening the runtime context");
  return s.ctx;
}

/// Waits for the handle's operation in flight, if any.
void settle(LoweredStepState &s, ssdrt_handle handle, const char *what) {
  if (s.pending.erase(handle))
    check(ssdrt_handle_wait(s.ctx, handle), what);
}
} // namespace

extern "C" {

SSDRT_API int64_t ssdrt_lower_offload(int64_t address, int64_t bytes) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ssdrt_context *ctx = context(s);
  int64_t shape = bytes;
  ssdrt_handle handle;
  check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &shape, SSDRT_MEM_HOST,
                            reinterpret_cast<void *>(address), &handle),
        "registering a tensor to offload");
  check(ssdrt_handle_offload(ctx, handle, SSDRT_OFFLOAD_KEEP), "offload");
  s.pending.insert(handle);
  s.stepHandles.push_back(handle);
  return static_cast<int64_t>(handle);
}

SSDRT_API void ssdrt_lower_release(int64_t id, int64_t address) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  settle(s, handle, "waiting for an offload before its release");
  void *data = nullptr;
  check(ssdrt_handle_data(s.ctx, handle, &data), "release");
  if (data != reinterpret_cast<void *>(address)) {
    std::fprintf(stderr,
                 "ssdrt: release of handle %llu names memory %p, but the "
                 "handle holds %p\n",
                 static_cast<unsigned long long>(id),
                 reinterpret_cast<void *>(address), data);
    std::abort();
  }
  check(ssdrt_handle_release(s.ctx, handle), "release");
}

SSDRT_API void ssdrt_lower_prefetch(int64_t id, int64_t address) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  settle(s, handle, "waiting for an offload before its prefetch");
  check(ssdrt_handle_prefetch(s.ctx, handle, reinterpret_cast<void *>(address)),
        "prefetch");
  s.pending.insert(handle);
}

SSDRT_API void ssdrt_lower_wait(int64_t id) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  if (!s.pending.erase(handle)) {
    std::fprintf(stderr,
                 "ssdrt: wait for handle %llu, which has nothing in "
                 "flight\n",
                 static_cast<unsigned long long>(id));
    std::abort();
  }
  check(ssdrt_handle_wait(s.ctx, handle), "waiting for a prefetch");
}

SSDRT_API void ssdrt_lower_step_end(void) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.ctx)
    return;
  for (ssdrt_handle handle : s.stepHandles) {
    settle(s, handle, "waiting for a transfer at the end of the step");
    check(ssdrt_handle_free(s.ctx, handle), "freeing a handle");
  }
  s.stepHandles.clear();
  const char *print = std::getenv("SSDRT_STATS");
  if (!print || std::string(print) != "1")
    return;
  ssdrt_stats_t stats;
  check(ssdrt_stats(s.ctx, &stats), "reading statistics");
  std::printf("ssdrt-stats: bytes_written %llu bytes_read %llu offloads %llu "
              "prefetches %llu\n",
              static_cast<unsigned long long>(stats.bytes_written),
              static_cast<unsigned long long>(stats.bytes_read),
              static_cast<unsigned long long>(stats.offloads),
              static_cast<unsigned long long>(stats.prefetches));
  std::fflush(stdout);
}

} // extern "C"
