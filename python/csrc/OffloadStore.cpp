//===- OffloadStore.cpp - Tensors offloaded to SSD for torch.ops.ssdopt ---===//
//
// offload starts a host tensor's write at once; each store has a writer
// thread that starts the writes of CUDA tensors once their copy to host is
// done and waits for every write in order, dropping each source tensor as
// soon as its bytes are on disk (that is the memory the offload saves). Reads
// are started by prefetch and waited for by the caller of wait. Every tensor
// moves as raw bytes (an ssdrt u8 handle), so every dtype works.
//
// CUDA tensors are staged through pinned host memory with torch's
// device-generic streams and events (no CUDA headers are needed): offload
// copies the bytes to pinned memory on a side stream that waits for the
// current one, and the writer waits for that copy before writing; wait copies
// the pinned bytes back on the current stream.
//
// Locking: a store's mutex may be held while the registry's is taken (only
// offload does), never the other way round; no tensor is dropped while a
// store's mutex is held (dropping a tensor whose Python object was resurrected
// takes the GIL), and every call that may block releases the GIL first.
//
//===----------------------------------------------------------------------===//
#include "OffloadStore.h"

#include "ssd/Runtime/ssdrt.h"

#include <Python.h>
#include <c10/core/Event.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace ssdopt {
namespace {

/// How an offloaded tensor's bytes are laid out in its extent.
enum class Layout {
  /// Non-overlapping and dense: the storage span it covers (numel elements
  /// from its first one), read back into a tensor of the same strides.
  Dense,
  /// Overlapping (e.g. expanded) views that span no more elements than they
  /// have: the storage span from the first to the last element, so every
  /// stride, zero ones included, comes back exactly.
  Span,
  /// Views with gaps (slices, most transposed slices): a contiguous copy,
  /// copied into a tensor of the same strides on the way back.
  Packed,
};

enum class Phase {
  Queued,  // a CUDA tensor whose copy to host may still be running
  Writing, // write in flight
  OnDisk,  // written; source dropped
  Failed,  // write failed; `error` says why, raised at prefetch or wait
  Reading, // prefetch issued
  Claimed, // a wait or discard is finishing it
};

struct Store;

struct Handle {
  int64_t id = 0;
  std::shared_ptr<Store> store;
  std::vector<int64_t> sizes, strides;
  c10::ScalarType dtype = c10::kFloat;
  c10::Device device{c10::kCPU};
  Layout layout = Layout::Dense;
  /// Elements written: numel (Dense, Packed) or the span (Span).
  int64_t elements = 0;
  uint64_t bytes = 0;
  ssdrt_handle rt = 0;
  Phase phase = Phase::Queued;
  /// Host memory being written; dropped once the write completed. Only the
  /// writer thread touches it after offload returns.
  at::Tensor source;
  /// Recorded after the device-to-host copy into `source` (CUDA only).
  std::optional<c10::Event> copied;
  /// Host memory being read into (pinned for a CUDA tensor).
  at::Tensor target;
  std::string error;
};

struct Store {
  int64_t id = 0;
  std::string directory;
  std::mutex mutex;
  std::condition_variable changed;
  /// Exists exactly while `live` > 0 (and the store is open).
  ssdrt_context *ctx = nullptr;
  /// Handles not yet waited for, discarded or retired after a failure.
  uint64_t live = 0;
  /// Waits running a runtime call outside the mutex; close waits for them.
  unsigned busy = 0;
  bool closed = false;
  /// Handles in Queued or Writing phase, oldest first: the writer's queue.
  std::deque<std::shared_ptr<Handle>> writes;
  std::thread writer;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<int64_t, std::shared_ptr<Store>> stores;
  std::unordered_map<int64_t, std::shared_ptr<Handle>> handles;
  int64_t nextStore = 1, nextHandle = 1;
};

/// Never destroyed: writer threads may still run while static destructors
/// do at exit (closeAllStores, registered with atexit, joins them first).
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

struct Counters {
  std::atomic<uint64_t> bytesWritten{0}, bytesRead{0}, offloads{0}, reloads{0},
      failures{0}, stallNs{0}, writeStallNs{0};
};
Counters &counters() {
  static Counters *c = new Counters;
  return *c;
}

uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Releases the GIL for the scope when the calling thread holds it, so that
/// the writer thread can drop tensors (which may take it) while we block.
class GilRelease {
public:
  GilRelease()
      : state(Py_IsInitialized() && PyGILState_Check() ? PyEval_SaveThread()
                                                       : nullptr) {}
  ~GilRelease() {
    if (state)
      PyEval_RestoreThread(state);
  }
  GilRelease(const GilRelease &) = delete;
  GilRelease &operator=(const GilRelease &) = delete;

private:
  PyThreadState *state;
};

std::string describe(const Handle &h) {
  std::ostringstream os;
  os << "handle " << h.id << " (" << c10::toString(h.dtype)
     << c10::IntArrayRef(h.sizes) << " on " << h.device << ", " << h.bytes
     << " bytes, store " << h.store->id << " in " << h.store->directory << ")";
  return os.str();
}

[[noreturn]] void failRuntime(const std::string &what, const Handle &h,
                              const std::string &cause) {
  counters().failures++;
  TORCH_CHECK(false, "ssdopt: ", what, " of ", describe(h), " failed: ", cause);
}

std::string lastRuntimeError(int rc) {
  std::string message = ssdrt_last_error();
  if (message.empty())
    message = std::strerror(-rc);
  return message;
}

int64_t idOf(const at::Tensor &t, const char *op, const char *what) {
  TORCH_CHECK(t.dim() == 0 && t.scalar_type() == at::kLong && t.is_cpu(),
              "ssdopt.", op, ": the ", what,
              " must be a 0-d int64 CPU tensor, got ", t.scalar_type(),
              t.sizes(), " on ", t.device());
  return t.item<int64_t>();
}

at::Tensor idTensor(int64_t id) {
  return at::scalar_tensor(id, at::TensorOptions().dtype(at::kLong));
}

std::shared_ptr<Handle> lookupHandle(int64_t id, const char *op) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.handles.find(id);
  TORCH_CHECK(it != r.handles.end(), "ssdopt.", op, ": unknown handle ", id,
              " (already waited for or discarded, its store closed, or never "
              "offloaded)");
  return it->second;
}

/// Caller holds s.mutex and s.live > 0.
void ensureContext(Store &s) {
  if (s.ctx)
    return;
  ssdrt_options options;
  ssdrt_options_init(&options);
  options.directory = s.directory.c_str();
  // Activations are scratch data: no fdatasync, and CUDA tensors are staged
  // by torch, so the runtime never opens a device.
  options.flags = SSDRT_OPT_NO_SYNC | SSDRT_OPT_HOST_ONLY;
  options.staging_bytes = 4ull << 20;
  options.chunk_bytes = 1ull << 20;
  int rc = ssdrt_context_create(&options, &s.ctx);
  TORCH_CHECK(rc == 0, "ssdopt: cannot open the runtime in ", s.directory,
              " (store ", s.id, "): ", lastRuntimeError(rc));
}

/// Caller holds s.mutex. Deletes the data files once nothing is live.
void dropContextIfIdle(Store &s) {
  if (s.live == 0 && s.busy == 0 && s.ctx) {
    ssdrt_context_destroy(s.ctx);
    s.ctx = nullptr;
  }
}

/// Forgets H: frees its runtime handle and, when it was the store's last
/// one, the context and its files. Caller holds no lock.
void retire(const std::shared_ptr<Handle> &h) {
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.handles.erase(h->id);
  }
  Store &s = *h->store;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.closed)
    return; // close destroyed the context and every handle with it
  if (h->rt) {
    ssdrt_handle_free(s.ctx, h->rt);
    h->rt = 0;
  }
  --s.live;
  dropContextIfIdle(s);
}

/// Caller holds s.mutex. Creates H's runtime handle and starts its write.
void startWrite(Store &s, Handle &h) {
  int64_t shape[1] = {int64_t(h.bytes)};
  int rc = ssdrt_handle_create(s.ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_HOST,
                               h.source.data_ptr(), &h.rt);
  if (rc == 0)
    rc = ssdrt_handle_offload(s.ctx, h.rt, 0);
  if (rc == 0) {
    h.phase = Phase::Writing;
    return;
  }
  h.error = lastRuntimeError(rc);
  h.phase = Phase::Failed;
}

void writerLoop(Store &s) {
  std::unique_lock<std::mutex> lock(s.mutex);
  for (;;) {
    s.changed.wait(lock, [&] { return s.closed || !s.writes.empty(); });
    if (s.writes.empty())
      return;
    // Start every write whose bytes reached the host, so that they overlap.
    for (auto &h : s.writes)
      if (h->phase == Phase::Queued && (!h->copied || h->copied->query()))
        startWrite(s, *h);
    std::shared_ptr<Handle> h = s.writes.front();
    if (h->phase == Phase::Queued && h->copied) {
      lock.unlock();
      h->copied->synchronize();
      lock.lock();
      startWrite(s, *h);
    }
    ssdrt_context *ctx = s.ctx;
    lock.unlock();
    // Only this thread changes the phase of a handle in `writes`.
    std::string error = h->error;
    if (h->phase == Phase::Writing) {
      int rc = ssdrt_handle_wait(ctx, h->rt);
      if (rc != 0)
        error = lastRuntimeError(rc);
    }
    h->source.reset();
    h->copied.reset();
    lock.lock();
    if (error.empty()) {
      h->phase = Phase::OnDisk;
      counters().bytesWritten += h->bytes;
    } else {
      // A failed write leaves the runtime handle resident: nothing to keep.
      if (h->rt)
        ssdrt_handle_free(s.ctx, h->rt);
      h->rt = 0;
      h->error = error;
      h->phase = Phase::Failed;
      counters().failures++;
    }
    s.writes.pop_front();
    s.changed.notify_all();
  }
}

/// Blocks until H's write is no longer queued or in flight. Caller holds
/// the store's mutex through LOCK.
void awaitWrite(std::unique_lock<std::mutex> &lock, Handle &h) {
  if (h.phase != Phase::Queued && h.phase != Phase::Writing)
    return;
  uint64_t start = nowNs();
  h.store->changed.wait(lock, [&] {
    return h.phase != Phase::Queued && h.phase != Phase::Writing;
  });
  counters().writeStallNs += nowNs() - start;
}

Layout chooseLayout(const at::Tensor &x, int64_t &elements) {
  elements = x.numel();
  if (elements == 0 || x.is_non_overlapping_and_dense())
    return Layout::Dense;
  int64_t span = 1;
  for (int64_t d = 0; d < x.dim(); ++d)
    span += (x.size(d) - 1) * x.stride(d);
  if (span <= elements) {
    elements = span;
    return Layout::Span;
  }
  return Layout::Packed;
}

/// H's elements in host memory aligned to the 4 KiB blocks of O_DIRECT, so
/// that the runtime reads straight into it rather than through staging
/// chunks (torch's CPU allocator aligns to 64 bytes only).
at::Tensor alignedHostTensor(const Handle &h) {
  constexpr size_t kBlock = 4096;
  size_t bytes = std::max<size_t>((h.bytes + kBlock - 1) / kBlock * kBlock, 1);
  void *memory = nullptr;
  TORCH_CHECK(::posix_memalign(&memory, kBlock, bytes) == 0,
              "ssdopt: cannot allocate ", bytes, " bytes to read ", describe(h),
              " into");
  return at::from_blob(
      memory, {h.elements}, [](void *p) { std::free(p); },
      at::TensorOptions().dtype(h.dtype));
}

/// The elements to write as one flat tensor on X's device, starting at the
/// first byte the layout writes.
at::Tensor flatSource(const at::Tensor &x, Layout layout, int64_t elements) {
  if (layout == Layout::Packed)
    return x.contiguous().view({-1});
  return x.as_strided({elements}, {1});
}

/// Rebuilds the tensor H described from FLAT, its elements on H's device.
at::Tensor restore(const Handle &h, const at::Tensor &flat) {
  if (h.layout != Layout::Packed) {
    // A tensor of its own on FLAT's storage, not a view of FLAT: the op's
    // schema says its result aliases nothing.
    at::Tensor result = at::empty({0}, flat.options());
    result.set_(flat.storage(), 0, h.sizes, h.strides);
    return result;
  }
  at::Tensor result = at::empty_strided(h.sizes, h.strides, flat.options());
  // Copy one element along each zero-stride dimension: the others alias it.
  at::Tensor dst = result, src = flat.view(h.sizes);
  for (int64_t d = 0; d < dst.dim(); ++d)
    if (h.strides[d] == 0 && h.sizes[d] > 1) {
      dst = dst.narrow(d, 0, 1);
      src = src.narrow(d, 0, 1);
    }
  dst.copy_(src);
  return result;
}

void closeStoreObject(const std::shared_ptr<Store> &s) {
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->closed = true;
  }
  s->changed.notify_all();
  if (s->writer.joinable())
    s->writer.join();
  std::vector<std::shared_ptr<Handle>> dropped;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto it = r.handles.begin(); it != r.handles.end();)
      if (it->second->store == s) {
        dropped.push_back(std::move(it->second));
        it = r.handles.erase(it);
      } else {
        ++it;
      }
  }
  {
    std::unique_lock<std::mutex> lock(s->mutex);
    s->changed.wait(lock, [&] { return s->busy == 0; });
    // Waits for the reads in flight, then deletes the data files.
    if (s->ctx)
      ssdrt_context_destroy(s->ctx);
    s->ctx = nullptr;
    s->live = 0;
    for (auto &h : dropped)
      h->rt = 0;
  }
  // `dropped` (and the memory reads went into) goes away here, unlocked.
}

} // namespace

int64_t openStore(const std::string &directory) {
  auto unusable = [&](int err, const std::string &why) {
    throw std::system_error(err, std::generic_category(),
                            "ssdopt: offload directory '" + directory + "' " +
                                why);
  };
  struct stat st;
  if (directory.empty())
    unusable(ENOENT, "is empty");
  if (::stat(directory.c_str(), &st) != 0)
    unusable(errno, "cannot be used");
  if (!S_ISDIR(st.st_mode))
    unusable(ENOTDIR, "is not a directory");
  // access(2) says yes to root on a read-only file system: try for real.
  static std::atomic<unsigned> probes{0};
  std::string probe = directory + "/.ssdopt-probe-" +
                      std::to_string(::getpid()) + "-" +
                      std::to_string(probes++);
  int fd = ::open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    unusable(errno, "is not writable (cannot create a file in it)");
  ::close(fd);
  ::unlink(probe.c_str());

  auto s = std::make_shared<Store>();
  s->directory = directory;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    s->id = r.nextStore++;
    r.stores.emplace(s->id, s);
  }
  s->writer = std::thread([raw = s.get()] { writerLoop(*raw); });
  return s->id;
}

void closeStore(int64_t store) {
  GilRelease nogil;
  std::shared_ptr<Store> s;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.stores.find(store);
    TORCH_CHECK(it != r.stores.end(), "ssdopt: store ", store, " is not open");
    s = std::move(it->second);
    r.stores.erase(it);
  }
  closeStoreObject(s);
}

void closeAllStores() {
  GilRelease nogil;
  std::vector<std::shared_ptr<Store>> open;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto &[id, s] : r.stores)
      open.push_back(std::move(s));
    r.stores.clear();
  }
  for (auto &s : open)
    closeStoreObject(s);
}

at::Tensor offload(const at::Tensor &input, int64_t store) {
  GilRelease nogil;
  TORCH_CHECK(input.layout() == at::kStrided && !input.is_quantized(),
              "ssdopt.offload: only strided, non-quantized tensors can be "
              "offloaded, got ",
              input.toString());
  TORCH_CHECK(input.is_cpu() || input.is_cuda(), "ssdopt.offload: tensors on ",
              input.device(), " are not supported (CPU and CUDA are)");
  at::Tensor x = input.resolve_conj().resolve_neg();
  std::shared_ptr<Store> s;
  auto h = std::make_shared<Handle>();
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.stores.find(store);
    TORCH_CHECK(it != r.stores.end(), "ssdopt.offload: store ", store,
                " is not open");
    s = it->second;
    h->id = r.nextHandle++;
  }
  h->store = s;
  h->sizes = x.sizes().vec();
  h->strides = x.strides().vec();
  h->dtype = x.scalar_type();
  h->device = x.device();
  h->layout = chooseLayout(x, h->elements);
  h->bytes = uint64_t(h->elements) * x.element_size();

  if (h->bytes > 0) {
    at::Tensor flat = flatSource(x, h->layout, h->elements);
    if (x.is_cpu()) {
      h->source = flat;
    } else {
      // Copy to pinned memory on a side stream that waits for the current
      // one; record_stream keeps the caching allocator from reusing X's
      // memory before the copy is done, so X itself can go at once.
      c10::impl::VirtualGuardImpl guard(x.device().type());
      c10::Stream current = guard.getStream(x.device());
      c10::Stream side = guard.getStreamFromGlobalPool(x.device());
      c10::Event produced(x.device().type());
      produced.record(current);
      produced.block(side);
      h->source =
          at::empty({h->elements},
                    at::TensorOptions().dtype(h->dtype).pinned_memory(true));
      {
        c10::StreamGuard onSide(side);
        h->source.view(at::kByte).copy_(flat.view(at::kByte),
                                        /*non_blocking=*/true);
      }
      flat.record_stream(side);
      h->copied.emplace(x.device().type());
      h->copied->record(side);
    }
  }

  {
    std::lock_guard<std::mutex> lock(s->mutex);
    TORCH_CHECK(!s->closed, "ssdopt.offload: store ", store, " is closed");
    if (h->bytes == 0) {
      h->phase = Phase::OnDisk;
      ++s->live;
    } else {
      ++s->live;
      try {
        ensureContext(*s);
      } catch (...) {
        --s->live;
        throw;
      }
      // A host tensor's write starts now (its extent, and so the data file,
      // exists when offload returns); a CUDA one once its copy is done.
      if (!h->copied)
        startWrite(*s, *h);
      s->writes.push_back(h);
    }
    Registry &r = registry();
    std::lock_guard<std::mutex> registryLock(r.mutex);
    r.handles.emplace(h->id, h);
  }
  s->changed.notify_all();
  counters().offloads++;
  return idTensor(h->id);
}

at::Tensor prefetch(const at::Tensor &handle) {
  GilRelease nogil;
  std::shared_ptr<Handle> h =
      lookupHandle(idOf(handle, "prefetch", "handle"), "prefetch");
  // Host memory to read into, allocated before taking the store's mutex.
  at::Tensor target =
      h->device.is_cuda()
          ? at::empty({h->elements},
                      at::TensorOptions().dtype(h->dtype).pinned_memory(true))
          : alignedHostTensor(*h);
  Store &s = *h->store;
  std::unique_lock<std::mutex> lock(s.mutex);
  // The writer finishes every write, also while the store is being closed.
  awaitWrite(lock, *h);
  TORCH_CHECK(!s.closed, "ssdopt.prefetch: the store of handle ", h->id,
              " is closed");
  if (h->phase == Phase::Failed) {
    std::string error = h->error;
    lock.unlock();
    retire(h);
    TORCH_CHECK(false, "ssdopt: offload of ", describe(*h), " failed: ", error);
  }
  TORCH_CHECK(h->phase == Phase::OnDisk, "ssdopt.prefetch: handle ", h->id,
              " was already prefetched");
  if (h->bytes > 0) {
    int rc = ssdrt_handle_prefetch(s.ctx, h->rt, target.data_ptr());
    if (rc != 0) {
      std::string error = lastRuntimeError(rc);
      lock.unlock();
      retire(h);
      failRuntime("prefetch", *h, error);
    }
  }
  h->target = std::move(target);
  h->phase = Phase::Reading;
  return idTensor(h->id);
}

at::Tensor wait(const at::Tensor &ticket, c10::IntArrayRef size,
                c10::IntArrayRef stride, c10::ScalarType dtype,
                c10::Device device) {
  GilRelease nogil;
  std::shared_ptr<Handle> h =
      lookupHandle(idOf(ticket, "wait", "ticket"), "wait");
  bool sameDevice = device.type() == h->device.type() &&
                    (!device.has_index() || device == h->device);
  TORCH_CHECK(size.vec() == h->sizes && stride.vec() == h->strides &&
                  dtype == h->dtype && sameDevice,
              "ssdopt.wait: handle ", h->id, " holds ", c10::toString(h->dtype),
              c10::IntArrayRef(h->sizes), " with strides ",
              c10::IntArrayRef(h->strides), " on ", h->device,
              ", but the call expects ", c10::toString(dtype), size,
              " with strides ", stride, " on ", device);
  Store &s = *h->store;
  ssdrt_context *ctx;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    // Without a prefetch, a failed write is the better error to report.
    awaitWrite(lock, *h);
    TORCH_CHECK(!s.closed, "ssdopt.wait: the store of handle ", h->id,
                " is closed");
    if (h->phase == Phase::Failed) {
      std::string error = h->error;
      lock.unlock();
      retire(h);
      TORCH_CHECK(false, "ssdopt: offload of ", describe(*h),
                  " failed: ", error);
    }
    TORCH_CHECK(h->phase == Phase::Reading, "ssdopt.wait: no prefetch was ",
                h->phase == Phase::Claimed ? "left to wait for" : "issued",
                " for handle ", h->id);
    h->phase = Phase::Claimed;
    ctx = s.ctx;
    ++s.busy;
  }
  int rc = 0;
  if (h->bytes > 0) {
    uint64_t start = nowNs();
    rc = ssdrt_handle_wait(ctx, h->rt);
    counters().stallNs += nowNs() - start;
  }
  std::string error = rc != 0 ? lastRuntimeError(rc) : std::string();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    --s.busy;
  }
  s.changed.notify_all();
  retire(h);
  if (rc != 0)
    failRuntime("read", *h, error);

  at::Tensor flat = std::move(h->target);
  if (h->device.is_cuda()) {
    at::Tensor onDevice = at::empty(
        {h->elements}, at::TensorOptions().dtype(h->dtype).device(h->device));
    if (h->bytes > 0)
      onDevice.view(at::kByte).copy_(flat.view(at::kByte),
                                     /*non_blocking=*/true);
    flat = onDevice;
  }
  counters().reloads++;
  counters().bytesRead += h->bytes;
  return restore(*h, flat);
}

void discard(const at::Tensor &handle) {
  GilRelease nogil;
  std::shared_ptr<Handle> h =
      lookupHandle(idOf(handle, "discard", "handle"), "discard");
  Store &s = *h->store;
  ssdrt_context *ctx = nullptr;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    awaitWrite(lock, *h);
    if (s.closed)
      return;
    TORCH_CHECK(h->phase != Phase::Claimed, "ssdopt.discard: handle ", h->id,
                " is being waited for");
    if (h->phase == Phase::Reading && h->bytes > 0) {
      ctx = s.ctx;
      ++s.busy;
    }
    h->phase = Phase::Claimed;
  }
  if (ctx) {
    // The read's outcome no longer matters, only that it is over.
    ssdrt_handle_wait(ctx, h->rt);
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      --s.busy;
    }
    s.changed.notify_all();
  }
  retire(h);
}

Stats stats() {
  Counters &c = counters();
  Stats out;
  out.bytesWritten = c.bytesWritten;
  out.bytesRead = c.bytesRead;
  out.offloads = c.offloads;
  out.reloads = c.reloads;
  out.failures = c.failures;
  out.stallSeconds = double(c.stallNs) * 1e-9;
  out.writeStallSeconds = double(c.writeStallNs) * 1e-9;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  out.liveHandles = r.handles.size();
  out.openStores = r.stores.size();
  return out;
}

void resetStats() {
  Counters &c = counters();
  for (std::atomic<uint64_t> *counter :
       {&c.bytesWritten, &c.bytesRead, &c.offloads, &c.reloads, &c.failures,
        &c.stallNs, &c.writeStallNs})
    counter->store(0);
}

} // namespace ssdopt
