//===- CApi.cpp - The C API edge of the runtime ---------------------------===//
//
// Every ssdrt_* function runs its body inside `guarded`, which turns any C++
// exception into a negative errno and a thread-local message: nothing thrown
// inside the runtime ever crosses into C, MLIR or Python.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/RuntimeSymbols.h"
#include "ssd/Runtime/TensorStore.h"
#include "ssd/Runtime/ssdrt.h"

#include <cerrno>
#include <cstring>
#include <new>

using namespace ssd::rt;

struct ssdrt_context {
  std::unique_ptr<TensorStore> store;
};

namespace {

// Every name in RuntimeSymbols.h must be a function declared in ssdrt.h.
#define SSDRT_CHECK_SYMBOL(suffix) static_assert(sizeof(&ssdrt_##suffix) > 0);
SSDRT_FOR_EACH_SYMBOL(SSDRT_CHECK_SYMBOL)
#undef SSDRT_CHECK_SYMBOL

// The C constants are the internal enumerators' values.
static_assert(SSDRT_STATE_RESIDENT == int(State::Resident) &&
              SSDRT_STATE_ON_DISK == int(State::OnDisk) &&
              SSDRT_STATE_WRITING == int(State::Writing) &&
              SSDRT_STATE_READING == int(State::Reading) &&
              SSDRT_STATE_BOTH == int(State::Both));
static_assert(SSDRT_MEM_HOST == int(MemKind::Host) &&
              SSDRT_MEM_DEVICE == int(MemKind::Device));

thread_local std::string lastError;

template <typename Fn> int guarded(Fn &&fn) { return guardCApi(lastError, fn); }

TensorStore &storeOf(ssdrt_context *ctx) {
  if (!ctx)
    fail(EINVAL, "null context");
  return *ctx->store;
}

template <typename T> T &out(T *p, const char *name) {
  if (!p)
    fail(EINVAL, std::string("null ") + name + " pointer");
  return *p;
}

std::span<const int64_t> shapeOf(int32_t ndim, const int64_t *shape) {
  if (ndim < 0 || (ndim > 0 && !shape))
    fail(EINVAL, "bad shape: ndim " + std::to_string(ndim) +
                     (shape ? "" : " with a null shape"));
  return {shape, size_t(ndim)};
}

void requireBuffer(TensorStore &store, ssdrt_handle b) {
  if (!store.isBuffer(b))
    fail(EINVAL, "handle " + std::to_string(b) + " is not a buffer");
}

} // namespace

extern "C" {

const char *ssdrt_last_error(void) { return lastError.c_str(); }

void ssdrt_options_init(ssdrt_options *o) {
  if (!o)
    return;
  StoreOptions d;
  *o = ssdrt_options{};
  o->directory = nullptr;
  o->engine = nullptr;
  o->queue_depth = d.queueDepth;
  o->flags = 0;
  o->staging_bytes = d.stagingBytes;
  o->chunk_bytes = d.chunkBytes;
  o->file_bytes = d.fileBytes;
  o->device = d.device;
  o->workers = d.workers;
}

int ssdrt_context_create(const ssdrt_options *options, ssdrt_context **result) {
  return guarded([&] {
    ssdrt_context *&slot = out(result, "context");
    ssdrt_options o;
    ssdrt_options_init(&o);
    if (options)
      o = *options;
    StoreOptions s;
    if (o.directory)
      s.directory = o.directory;
    s.engine = parseEngineKind(o.engine ? o.engine : "auto");
    s.queueDepth = o.queue_depth;
    s.stagingBytes = o.staging_bytes;
    s.chunkBytes = o.chunk_bytes;
    s.fileBytes = o.file_bytes;
    s.durable = !(o.flags & SSDRT_OPT_NO_SYNC);
    s.direct = !(o.flags & SSDRT_OPT_NO_DIRECT);
    s.device = (o.flags & SSDRT_OPT_HOST_ONLY) ? -1 : o.device;
    s.workers = o.workers;
    auto ctx = std::make_unique<ssdrt_context>();
    ctx->store = std::make_unique<TensorStore>(std::move(s));
    slot = ctx.release();
  });
}

void ssdrt_context_destroy(ssdrt_context *ctx) {
  guarded([&] { delete ctx; });
}

const char *ssdrt_engine_name(ssdrt_context *ctx) {
  return ctx ? ctx->store->engine().name() : "";
}

int ssdrt_device_available(ssdrt_context *ctx) {
  return ctx && ctx->store->device().available() ? 1 : 0;
}

int ssdrt_handle_create(ssdrt_context *ctx, int32_t dtype, int32_t ndim,
                        const int64_t *shape, int32_t mem_kind, void *memory,
                        ssdrt_handle *result) {
  return guarded([&] {
    ssdrt_handle &slot = out(result, "handle");
    slot = storeOf(ctx).createHandle(dtype, shapeOf(ndim, shape),
                                     MemKind(mem_kind), memory);
  });
}

int ssdrt_handle_on_release(ssdrt_context *ctx, ssdrt_handle h,
                            ssdrt_release_fn fn, void *arg) {
  return guarded([&] {
    if (!fn)
      fail(EINVAL, "hand-back: null function");
    storeOf(ctx).setHandBack(h, [fn, arg] { fn(arg); });
  });
}

int ssdrt_handle_offload(ssdrt_context *ctx, ssdrt_handle h, uint32_t flags) {
  return guarded([&] { storeOf(ctx).offload(h, flags & SSDRT_OFFLOAD_KEEP); });
}

int ssdrt_handle_offload_stream(ssdrt_context *ctx, ssdrt_handle h,
                                uint32_t flags, void *stream) {
  return guarded(
      [&] { storeOf(ctx).offload(h, flags & SSDRT_OFFLOAD_KEEP, stream); });
}

int ssdrt_handle_prefetch(ssdrt_context *ctx, ssdrt_handle h, void *dst) {
  return guarded([&] { storeOf(ctx).prefetch(h, dst); });
}

int ssdrt_handle_prefetch_range(ssdrt_context *ctx, ssdrt_handle h, void *dst,
                                uint64_t offset, uint64_t bytes) {
  return guarded([&] { storeOf(ctx).prefetchRange(h, dst, offset, bytes); });
}

int ssdrt_handle_prefetch_stream(ssdrt_context *ctx, ssdrt_handle h, void *dst,
                                 void *stream) {
  return guarded([&] { storeOf(ctx).prefetch(h, dst, stream); });
}

int ssdrt_handles_offload(ssdrt_context *ctx, const ssdrt_handle *handles,
                          size_t count, uint32_t flags) {
  return guarded([&] {
    if (count && !handles)
      fail(EINVAL, "offload: null handle array");
    storeOf(ctx).offloadGroup(std::span<const uint64_t>(handles, count),
                              flags & SSDRT_OFFLOAD_KEEP);
  });
}

int ssdrt_handles_prefetch(ssdrt_context *ctx, const ssdrt_handle *handles,
                           void *const *dsts, size_t count) {
  return guarded([&] {
    if (count && !handles)
      fail(EINVAL, "prefetch: null handle array");
    storeOf(ctx).prefetchGroup(std::span<const uint64_t>(handles, count),
                               dsts ? std::span<void *const>(dsts, count)
                                    : std::span<void *const>());
  });
}

int ssdrt_handle_wait(ssdrt_context *ctx, ssdrt_handle h) {
  return guarded([&] { storeOf(ctx).wait(h); });
}

int ssdrt_handle_wait_event(ssdrt_context *ctx, ssdrt_handle h, void **event) {
  return guarded([&] {
    void *&slot = out(event, "event");
    slot = storeOf(ctx).waitEvent(h);
  });
}

int ssdrt_handle_wait_stream(ssdrt_context *ctx, ssdrt_handle h, void *stream) {
  return guarded([&] { storeOf(ctx).waitStream(h, stream); });
}

int ssdrt_context_reserve(ssdrt_context *ctx, const uint64_t *sizes,
                          size_t count) {
  return guarded([&] {
    if (count > 0 && !sizes)
      fail(EINVAL, "null sizes with a count of " + std::to_string(count));
    storeOf(ctx).reserve({sizes, count});
  });
}

int ssdrt_handle_mark_dirty(ssdrt_context *ctx, ssdrt_handle h) {
  return guarded([&] { storeOf(ctx).markDirty(h); });
}

int ssdrt_handle_release(ssdrt_context *ctx, ssdrt_handle h) {
  return guarded([&] { storeOf(ctx).release(h); });
}

int ssdrt_handle_free(ssdrt_context *ctx, ssdrt_handle h) {
  return guarded([&] { storeOf(ctx).free(h); });
}

int ssdrt_handle_state(ssdrt_context *ctx, ssdrt_handle h, int32_t *state) {
  return guarded([&] {
    int32_t &slot = out(state, "state");
    slot = int32_t(storeOf(ctx).info(h).state);
  });
}

int ssdrt_handle_pending(ssdrt_context *ctx, ssdrt_handle h, int32_t *pending) {
  return guarded([&] {
    int32_t &slot = out(pending, "pending");
    slot = storeOf(ctx).info(h).pending ? 1 : 0;
  });
}

int ssdrt_handle_data(ssdrt_context *ctx, ssdrt_handle h, void **data) {
  return guarded([&] {
    void *&slot = out(data, "data");
    slot = storeOf(ctx).info(h).data;
  });
}

int ssdrt_handle_bytes(ssdrt_context *ctx, ssdrt_handle h, uint64_t *bytes) {
  return guarded([&] {
    uint64_t &slot = out(bytes, "bytes");
    slot = storeOf(ctx).info(h).bytes;
  });
}

int ssdrt_handle_location(ssdrt_context *ctx, ssdrt_handle h, char *path,
                          size_t path_size, uint64_t *offset) {
  return guarded([&] {
    uint64_t &where = out(offset, "offset");
    if (!path)
      fail(EINVAL, "null path buffer");
    HandleInfo info = storeOf(ctx).info(h);
    if (info.file.empty())
      fail(ENODATA, "handle " + std::to_string(h) +
                        " has no bytes on disk (never offloaded, or empty)");
    if (info.file.size() + 1 > path_size)
      fail(ERANGE, "a buffer of " + std::to_string(path_size) +
                       " bytes cannot hold " + info.file);
    std::memcpy(path, info.file.c_str(), info.file.size() + 1);
    where = info.fileOffset;
  });
}

int ssdrt_buffer_create(ssdrt_context *ctx, uint64_t capacity, int32_t mem_kind,
                        void *memory, ssdrt_handle *result) {
  return guarded([&] {
    ssdrt_handle &slot = out(result, "buffer");
    slot = storeOf(ctx).createBuffer(capacity, MemKind(mem_kind), memory);
  });
}

int ssdrt_buffer_add(ssdrt_context *ctx, ssdrt_handle b, int32_t dtype,
                     int32_t ndim, const int64_t *shape, ssdrt_handle *result) {
  return guarded([&] {
    ssdrt_handle &slot = out(result, "handle");
    slot = storeOf(ctx).addToBuffer(b, dtype, shapeOf(ndim, shape));
  });
}

int ssdrt_buffer_offload(ssdrt_context *ctx, ssdrt_handle b, uint32_t flags) {
  return guarded([&] {
    requireBuffer(storeOf(ctx), b);
    ctx->store->offload(b, flags & SSDRT_OFFLOAD_KEEP);
  });
}

int ssdrt_buffer_prefetch(ssdrt_context *ctx, ssdrt_handle b, void *dst) {
  return guarded([&] {
    requireBuffer(storeOf(ctx), b);
    ctx->store->prefetch(b, dst);
  });
}

int ssdrt_buffer_wait(ssdrt_context *ctx, ssdrt_handle b) {
  return guarded([&] {
    requireBuffer(storeOf(ctx), b);
    ctx->store->wait(b);
  });
}

int ssdrt_buffer_free(ssdrt_context *ctx, ssdrt_handle b) {
  return guarded([&] {
    requireBuffer(storeOf(ctx), b);
    ctx->store->free(b);
  });
}

int ssdrt_stats(ssdrt_context *ctx, ssdrt_stats_t *result) {
  return guarded([&] {
    ssdrt_stats_t &s = out(result, "stats");
    StoreStats st = storeOf(ctx).stats();
    s.bytes_read = st.bytesRead;
    s.bytes_written = st.bytesWritten;
    s.read_ops = st.readOps;
    s.write_ops = st.writeOps;
    s.sync_ops = st.syncOps;
    s.offloads = st.offloads;
    s.prefetches = st.prefetches;
    s.failures = st.failures;
    s.staged_bytes = st.stagedBytes;
    s.wait_seconds = st.waitSeconds;
    s.staging_wait_seconds = st.stagingWaitSeconds;
  });
}

} // extern "C"
