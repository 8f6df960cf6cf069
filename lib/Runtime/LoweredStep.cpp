//===- LoweredStep.cpp - the runtime ABI of compiled training steps -------===//
//
// What `ssd-lower-to-runtime` calls: C functions of plain integers, so that
// a step compiled to LLVM needs no memref descriptors to reach the runtime.
// They share one context per process, opened on first use in
// $SSDRT_SCRATCH_DIR (else $TMPDIR, else /tmp). Any failure aborts with the
// runtime's message: a compiled step cannot handle an I/O error, and going
// on would compute with bytes that never arrived.
//
// This is the library libssdrt-step, a client of two C APIs: ssdrt.h for
// the handles, ssdckpt.h for checkpoints, whose library does the saving,
// the meeting of the ranks and the commit. What remains here is what only
// compiled steps have: handle frames, the step counter and the environment
// variables, and a thread that writes shards while the step computes.
//
//===----------------------------------------------------------------------===//

#include "ssd/Runtime/Checkpoint/ssdckpt.h"
#include "ssd/Runtime/RuntimeSymbols.h"
#include "ssd/Runtime/ssdrt.h"
#include "ssd/Runtime/ssdrt_step.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

// Every lowering symbol in RuntimeSymbols.h is a function declared in
// ssdrt.h; this library defines them all (a missing one fails to link the
// compiled steps of test/Conversion).
#define SSDRT_CHECK_SYMBOL(suffix) static_assert(sizeof(&ssdrt_##suffix) > 0);
SSDRT_FOR_EACH_LOWERING_SYMBOL(SSDRT_CHECK_SYMBOL)
#undef SSDRT_CHECK_SYMBOL

/// Handles owned by one activation of a lowered function (or, for the
/// outermost level, by the caller of the lowered ABI).
using Frame = std::unordered_set<ssdrt_handle>;

struct LoweredStepState {
  std::mutex mutex;
  ssdrt_context *ctx = nullptr;
  /// Handles owned by the caller of the outermost lowered function.
  Frame outside;
  /// One frame per active lowered function, innermost last.
  std::vector<Frame> frames;
  /// Between ssdrt_lower_group_begin and _end: the transfers deferred to
  /// start together at the end.
  bool grouping = false;
  std::vector<ssdrt_handle> groupOffloads, groupPrefetches;
  std::vector<void *> groupDestinations;
};

LoweredStepState &state() {
  static LoweredStepState instance;
  return instance;
}

[[noreturn]] void abortWith(const std::string &message) {
  // What the step printed so far comes first, as it happened.
  std::fflush(stdout);
  std::fprintf(stderr, "ssdrt: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

[[noreturn]] void fail(const char *what, int status) {
  const char *message = ssdrt_last_error();
  abortWith(std::string(what) +
            " failed: " + (message[0] ? message : std::strerror(-status)));
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

/// The frame that owns handles created now.
Frame &currentFrame(LoweredStepState &s) {
  return s.frames.empty() ? s.outside : s.frames.back();
}

/// Moves `handle` from whichever frame owns it into `to`; aborts when none
/// does (a handle id that was freed, or never existed).
void moveHandle(LoweredStepState &s, ssdrt_handle handle, Frame &to,
                const char *what) {
  if (s.outside.erase(handle)) {
    to.insert(handle);
    return;
  }
  for (Frame &from : s.frames) {
    if (from.erase(handle)) {
      to.insert(handle);
      return;
    }
  }
  abortWith(std::string(what) + ": handle " + std::to_string(handle) +
            " is not a live handle of this process");
}

/// Whether the runtime has a transfer of the handle that was started and not
/// waited for.
bool isPending(LoweredStepState &s, ssdrt_handle handle, const char *what) {
  int32_t pending = 0;
  check(ssdrt_handle_pending(s.ctx, handle, &pending), what);
  return pending != 0;
}

/// Waits for the handle's operation in flight, if any.
void settle(LoweredStepState &s, ssdrt_handle handle, const char *what) {
  if (isPending(s, handle, what))
    check(ssdrt_handle_wait(s.ctx, handle), what);
}

void freeHandle(LoweredStepState &s, ssdrt_handle handle) {
  settle(s, handle, "waiting for a transfer before freeing its handle");
  check(ssdrt_handle_free(s.ctx, handle), "freeing a handle");
}

//===----------------------------------------------------------------------===//
// Checkpoints
//===----------------------------------------------------------------------===//

/// An unsigned integer from the environment, or `fallback` when unset.
uint64_t environmentNumber(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  if (!text || !*text)
    return fallback;
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (errno || *end || text[0] == '-')
    abortWith(std::string(name) + "=\"" + text +
              "\" is not a non-negative integer");
  return value;
}

/// Aborts with the checkpoint library's message for `status`, and what a
/// user of this ABI can do about it.
[[noreturn]] void failCheckpoint(int status) {
  std::string message = ssdckpt_last_error();
  if (message.empty())
    message = std::strerror(-status);
  if (status == -EEXIST)
    message += " (a resumed run sets SSDRT_CHECKPOINT_STEP to the steps "
               "taken before it)";
  if (status == -ETIMEDOUT)
    message += " (SSDRT_CHECKPOINT_TIMEOUT)";
  abortWith(message);
}

/// One ssd.save_shard: what to write, and its outcome.
struct Shard {
  std::string key;
  int dtype = 0;
  std::vector<uint64_t> shape, offsets, sizes;
  const void *data = nullptr;
  bool done = false;
  bool waited = false;
  std::string error;
};

/// The checkpoint this process is writing: this rank's part of the save
/// (the checkpoint library meets the other ranks and commits). Shards are
/// written in order by one thread of its own, so that the step goes on
/// computing while they are checksummed and written; the save is used by
/// that thread only between its start and its join, which order its use
/// after the begin and before the commit on the step's thread.
struct OpenCheckpoint {
  uint64_t step = 0;
  ssdckpt_save *save = nullptr;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Shard *> queue;
  std::unordered_map<int64_t, std::unique_ptr<Shard>> shards;
  bool closing = false;
  std::thread worker;

  ~OpenCheckpoint() { ssdckpt_save_close(save); }

  std::string notCommitted() const {
    return std::string("checkpoint ") + ssdckpt_save_dir(save) +
           " is not committed: ";
  }

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return closing || !queue.empty(); });
      if (queue.empty())
        return;
      Shard *shard = queue.front();
      queue.pop_front();
      lock.unlock();
      int status = ssdckpt_save_add(save, shard->key.c_str(), shard->dtype,
                                    int(shard->shape.size()),
                                    shard->shape.data(), shard->offsets.data(),
                                    shard->sizes.data(), shard->data);
      std::string error = status ? ssdckpt_last_error() : "";
      if (status && error.empty())
        error = std::strerror(-status);
      lock.lock();
      shard->error = std::move(error);
      shard->done = true;
      changed.notify_all();
    }
  }
};

struct CheckpointState {
  std::mutex mutex;
  /// Steps counted by ssdrt_lower_ckpt_begin, from $SSDRT_CHECKPOINT_STEP.
  std::optional<uint64_t> stepsTaken;
  int64_t nextId = 1;
  int64_t openId = 0;
  std::unique_ptr<OpenCheckpoint> open;
  int64_t nextShardId = 1;
};

CheckpointState &checkpoints() {
  static CheckpointState instance;
  return instance;
}
} // namespace

extern "C" {

SSDRT_API void ssdrt_lower_step_begin(void) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.frames.emplace_back();
}

SSDRT_API void ssdrt_lower_adopt(int64_t id) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.frames.empty())
    abortWith("handle argument adopted outside a lowered function");
  moveHandle(s, static_cast<ssdrt_handle>(id), s.frames.back(),
             "a handle argument");
}

SSDRT_API void ssdrt_lower_keep(int64_t id) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.frames.empty())
    abortWith("handle result kept outside a lowered function");
  Frame &caller =
      s.frames.size() > 1 ? s.frames[s.frames.size() - 2] : s.outside;
  moveHandle(s, static_cast<ssdrt_handle>(id), caller, "a handle result");
}

SSDRT_API void ssdrt_lower_free(int64_t id) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  if (!s.outside.erase(handle))
    abortWith("free of handle " + std::to_string(id) +
              ", which the caller does not own");
  freeHandle(s, handle);
}

SSDRT_API int64_t ssdrt_lower_offload(int64_t address, int64_t bytes) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ssdrt_context *ctx = context(s);
  int64_t shape = bytes;
  ssdrt_handle handle;
  check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &shape, SSDRT_MEM_HOST,
                            reinterpret_cast<void *>(address), &handle),
        "registering a tensor to offload");
  if (s.grouping)
    s.groupOffloads.push_back(handle);
  else
    check(ssdrt_handle_offload(ctx, handle, SSDRT_OFFLOAD_KEEP), "offload");
  currentFrame(s).insert(handle);
  return static_cast<int64_t>(handle);
}

SSDRT_API void ssdrt_lower_release(int64_t id, int64_t address) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  settle(s, handle, "waiting for an offload before its release");
  void *data = nullptr;
  check(ssdrt_handle_data(s.ctx, handle, &data), "release");
  // A handle that is already on disk (state that entered the step on SSD
  // and was read back) holds no memory; its reload buffer is the caller's.
  if (data && data != reinterpret_cast<void *>(address)) {
    char message[160];
    std::snprintf(message, sizeof message,
                  "release of handle %llu names memory %p, but the handle "
                  "holds %p",
                  static_cast<unsigned long long>(id),
                  reinterpret_cast<void *>(address), data);
    abortWith(message);
  }
  check(ssdrt_handle_release(s.ctx, handle), "release");
}

SSDRT_API void ssdrt_lower_prefetch(int64_t id, int64_t address) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ssdrt_context *ctx = context(s);
  auto handle = static_cast<ssdrt_handle>(id);
  settle(s, handle, "waiting for an offload before its prefetch");
  if (s.grouping) {
    s.groupPrefetches.push_back(handle);
    s.groupDestinations.push_back(reinterpret_cast<void *>(address));
  } else {
    check(ssdrt_handle_prefetch(ctx, handle, reinterpret_cast<void *>(address)),
          "prefetch");
  }
}

SSDRT_API void ssdrt_lower_prefetch_range(int64_t id, int64_t address,
                                          int64_t offset, int64_t bytes) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ssdrt_context *ctx = context(s);
  auto handle = static_cast<ssdrt_handle>(id);
  settle(s, handle, "waiting for an offload before a part's prefetch");
  // A part is read on its own, also inside a transfer group.
  check(ssdrt_handle_prefetch_range(
            ctx, handle, reinterpret_cast<void *>(address),
            static_cast<uint64_t>(offset), static_cast<uint64_t>(bytes)),
        "prefetch of a part");
}

SSDRT_API void ssdrt_lower_group_begin(void) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.grouping)
    abortWith("a transfer group begins inside another");
  s.grouping = true;
}

SSDRT_API void ssdrt_lower_group_end(void) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.grouping)
    abortWith("end of a transfer group that did not begin");
  s.grouping = false;
  std::vector<ssdrt_handle> offloads = std::exchange(s.groupOffloads, {});
  std::vector<ssdrt_handle> prefetches = std::exchange(s.groupPrefetches, {});
  std::vector<void *> destinations = std::exchange(s.groupDestinations, {});
  if (!offloads.empty())
    check(ssdrt_handles_offload(context(s), offloads.data(), offloads.size(),
                                SSDRT_OFFLOAD_KEEP),
          "offload");
  if (!prefetches.empty())
    check(ssdrt_handles_prefetch(context(s), prefetches.data(),
                                 destinations.data(), prefetches.size()),
          "prefetch");
}

SSDRT_API void ssdrt_lower_wait(int64_t id) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto handle = static_cast<ssdrt_handle>(id);
  if (!isPending(s, handle, "wait"))
    abortWith("wait for handle " + std::to_string(id) +
              ", which has nothing in flight");
  check(ssdrt_handle_wait(s.ctx, handle), "waiting for a prefetch");
}

SSDRT_API void ssdrt_lower_step_end(void) {
  LoweredStepState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.frames.empty())
    abortWith("end of a lowered function that did not begin");
  Frame frame = std::move(s.frames.back());
  s.frames.pop_back();
  if (!s.ctx)
    return;
  for (ssdrt_handle handle : frame)
    freeHandle(s, handle);
  const char *print = std::getenv("SSDRT_STATS");
  if (!print || std::string(print) != "1")
    return;
  ssdrt_stats_t stats;
  check(ssdrt_stats(s.ctx, &stats), "reading statistics");
  std::printf("ssdrt-stats: bytes_written %llu bytes_read %llu offloads %llu "
              "prefetches %llu sync_ops %llu\n",
              static_cast<unsigned long long>(stats.bytes_written),
              static_cast<unsigned long long>(stats.bytes_read),
              static_cast<unsigned long long>(stats.offloads),
              static_cast<unsigned long long>(stats.prefetches),
              static_cast<unsigned long long>(stats.sync_ops));
  std::fflush(stdout);
}

SSDRT_API int64_t ssdrt_lower_ckpt_begin(int64_t rank, int64_t world_size,
                                         int64_t every) {
  CheckpointState &c = checkpoints();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.stepsTaken)
    c.stepsTaken = environmentNumber("SSDRT_CHECKPOINT_STEP", 0);
  uint64_t step = ++*c.stepsTaken;
  if (every < 1 || world_size < 1 || rank < 0 || rank >= world_size)
    abortWith("checkpoint_begin of rank " + std::to_string(rank) + " of " +
              std::to_string(world_size) + " every " + std::to_string(every) +
              " is not a valid layout");
  if (step % uint64_t(every) != 0)
    return 0;
  if (c.open)
    abortWith("a checkpoint begins while step " + std::to_string(c.open->step) +
              "'s is still being written");
  const char *root = std::getenv("SSDRT_CHECKPOINT_DIR");
  if (!root || !*root)
    abortWith("the step writes a checkpoint (step " + std::to_string(step) +
              "), but SSDRT_CHECKPOINT_DIR, the checkpoint root, is not set");
  auto ck = std::make_unique<OpenCheckpoint>();
  ck->step = step;
  // How long one rank waits for another, and how many checkpoints to keep.
  uint64_t timeoutSeconds = environmentNumber("SSDRT_CHECKPOINT_TIMEOUT", 300);
  auto keep = unsigned(environmentNumber("SSDRT_CHECKPOINT_KEEP", 0));
  uint64_t timeoutMs = std::min(timeoutSeconds, UINT64_MAX / 1000) * 1000;
  if (int status =
          ssdckpt_save_begin(root, step, uint32_t(rank), uint32_t(world_size),
                             timeoutMs, keep, &ck->save))
    failCheckpoint(status);
  ck->worker = std::thread([raw = ck.get()] { raw->run(); });
  c.open = std::move(ck);
  c.openId = c.nextId++;
  return c.openId;
}

SSDRT_API int64_t ssdrt_lower_ckpt_save(int64_t checkpoint, int64_t key,
                                        int64_t layout, int64_t address) {
  if (checkpoint == 0)
    return 0;
  CheckpointState &c = checkpoints();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (checkpoint != c.openId || !c.open)
    abortWith("save of a shard into checkpoint " + std::to_string(checkpoint) +
              ", which is not open");
  auto shard = std::make_unique<Shard>();
  shard->key = reinterpret_cast<const char *>(key);
  const auto *words = reinterpret_cast<const int64_t *>(layout);
  shard->dtype = int(words[0]);
  auto rank = size_t(words[1]);
  for (size_t i = 0; i < rank; ++i) {
    shard->shape.push_back(uint64_t(words[2 + i]));
    shard->offsets.push_back(uint64_t(words[2 + rank + i]));
    shard->sizes.push_back(uint64_t(words[2 + 2 * rank + i]));
  }
  shard->data = reinterpret_cast<const void *>(address);
  OpenCheckpoint &ck = *c.open;
  int64_t id = c.nextShardId++;
  std::lock_guard<std::mutex> queued(ck.mutex);
  ck.queue.push_back(shard.get());
  ck.shards.emplace(id, std::move(shard));
  ck.changed.notify_all();
  return id;
}

SSDRT_API void ssdrt_lower_ckpt_wait(int64_t shard_id, int64_t address) {
  if (shard_id == 0)
    return;
  CheckpointState &c = checkpoints();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.open)
    abortWith("wait for shard " + std::to_string(shard_id) +
              " with no checkpoint open");
  OpenCheckpoint &ck = *c.open;
  std::unique_lock<std::mutex> queued(ck.mutex);
  auto it = ck.shards.find(shard_id);
  if (it == ck.shards.end() || it->second->waited)
    abortWith("wait for shard " + std::to_string(shard_id) +
              ", which is not a shard in flight");
  Shard &shard = *it->second;
  if (shard.data != reinterpret_cast<const void *>(address))
    abortWith("wait for the shard of \"" + shard.key +
              "\" names other memory than its save");
  ck.changed.wait(queued, [&] { return shard.done; });
  shard.waited = true;
  if (!shard.error.empty())
    abortWith(ck.notCommitted() + "saving \"" + shard.key +
              "\" failed: " + shard.error);
}

SSDRT_API void ssdrt_lower_ckpt_commit(int64_t checkpoint) {
  if (checkpoint == 0)
    return;
  CheckpointState &c = checkpoints();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (checkpoint != c.openId || !c.open)
    abortWith("commit of checkpoint " + std::to_string(checkpoint) +
              ", which is not open");
  std::unique_ptr<OpenCheckpoint> ck = std::move(c.open);
  c.openId = 0;
  {
    std::lock_guard<std::mutex> queued(ck->mutex);
    ck->closing = true;
    ck->changed.notify_all();
  }
  ck->worker.join();
  for (auto &[id, shard] : ck->shards)
    if (!shard->error.empty())
      abortWith(ck->notCommitted() + "saving \"" + shard->key +
                "\" failed: " + shard->error);
  if (int status = ssdckpt_save_commit(ck->save))
    failCheckpoint(status);
}

} // extern "C"
