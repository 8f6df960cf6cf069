//===- OffloadStore.cpp - torch.ops.ssdopt on the ssdrt runtime -----------===//
//
// An adapter: each op hands ssdrt a tensor's memory, its device and the
// current stream, and ssdrt does the rest (one handle state machine, its
// transfer threads, its bounded pinned staging pool, CUDA copy streams and
// events, the I/O). What is left here is torch's part: the bytes a view
// covers and how it is rebuilt, the tensors the runtime reads from and into,
// the ids that the graph passes around, and the counters.
//
// Lifetimes. The tensor written is lent to ssdrt with a hand-back
// (ssdrt_handle_on_release) that drops it: the runtime keeps it alive exactly
// until its bytes are on disk. A store opens one ssdrt context per device
// (-1: host) on its first offload there; handles share it, and it is
// destroyed (its data files deleted) when the last handle and the last call
// using it let go.
//
// Ownership on disk. While a store has a context open, its data files are in
// a directory of its own, `ssdopt-store-<pid>-<random>` in the offload
// directory, holding `owner.lock`, which the store keeps flock-ed (the
// kernel drops the lock when the process dies, SIGKILL included). The
// directory gets its name only once the lock is held, and loses the lock
// file only once the runtime deleted its data files. Opening a store removes
// every such directory whose lock no process holds (or that has none): the
// files of stores whose process died; never those of a live one, whatever
// its pid namespace.
//
// Locking: a handle's mutex serializes the ops on it and may be held while
// the store's mutex is taken (a context closing), which may be held while
// the registry's is taken (only offload does); never the other way round. A
// context is never dropped under a store's or the registry's mutex. Every
// call that may block releases the GIL first: the runtime's threads may
// need it to drop a tensor whose Python object was resurrected.
//
//===----------------------------------------------------------------------===//
#include "OffloadStore.h"

#include "ssd/Runtime/DType.h"
#include "ssd/Runtime/ssdrt.h"

#include <Python.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
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

struct Store;

/// Makes a CUDA device current for the scope (and nothing for the host),
/// so that the runtime's driver calls on this thread see torch's context
/// for it and torch's current device is restored afterwards.
class OnDevice {
public:
  explicit OnDevice(int device) {
    if (device >= 0)
      guard.reset_device(c10::Device(c10::kCUDA, c10::DeviceIndex(device)));
  }

private:
  c10::OptionalDeviceGuard guard;
};

/// One ssdrt context of a store, for the tensors of one device.
struct Context {
  Context(std::shared_ptr<Store> store, int device, ssdrt_context *rt)
      : store(std::move(store)), device(device), rt(rt) {}
  ~Context();
  std::shared_ptr<Store> store;
  /// CUDA device index, or -1 for host tensors.
  int device;
  ssdrt_context *rt;
};

struct Store {
  int64_t id = 0;
  /// The offload directory, and the store's own in it while it has a
  /// context open ("" otherwise), whose `owner.lock` is lockFd.
  std::string directory, own;
  int lockFd = -1;
  std::atomic<bool> closed{false};
  std::mutex mutex;
  std::condition_variable contextClosed;
  /// By device index, -1 for host tensors; each lives while used.
  std::map<int, std::weak_ptr<Context>> contexts;
  /// Contexts that hold disk space `reserve` allocated, kept open (their
  /// data files with them) until the store closes.
  std::map<int, std::shared_ptr<Context>> reserving;
  unsigned openContexts = 0;
};

constexpr const char *kOwnPrefix = "ssdopt-store-";
constexpr const char *kOwnerLock = "/owner.lock";

[[noreturn]] void failOnDisk(const std::string &what, const std::string &path,
                             int err) {
  throw std::system_error(err, std::generic_category(),
                          "ssdopt: cannot " + what + " '" + path + "'");
}

/// Gives S a directory of its own in its offload directory, the lock on its
/// owner.lock held (S's mutex held). The directory is made and locked under
/// a hidden name, which the sweep ignores, then renamed.
void claimOwnDirectory(Store &s) {
  std::random_device random;
  std::ostringstream name;
  name << kOwnPrefix << ::getpid() << "-" << std::hex << random() << random();
  std::string staging = s.directory + "/." + name.str();
  std::string own = s.directory + "/" + name.str();
  if (::mkdir(staging.c_str(), 0700) != 0)
    failOnDisk("create the store directory", staging, errno);
  std::string lockPath = staging + kOwnerLock;
  int fd = ::open(lockPath.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  int err = errno;
  if (fd >= 0 && ::flock(fd, LOCK_EX) == 0) {
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::pwrite(fd, pid.data(), pid.size(), 0) >= 0 &&
        ::rename(staging.c_str(), own.c_str()) == 0) {
      s.own = own;
      s.lockFd = fd;
      return;
    }
    err = errno;
  }
  if (fd >= 0)
    ::close(fd);
  ::unlink(lockPath.c_str());
  ::rmdir(staging.c_str());
  failOnDisk("take the store directory", lockPath, err);
}

/// Removes S's own directory once its context closed (S's mutex held): the
/// runtime deleted the data files; the lock file goes, then the lock.
void releaseOwnDirectory(Store &s) {
  if (s.lockFd < 0)
    return;
  std::string lockPath = s.own + kOwnerLock;
  if (::unlink(lockPath.c_str()) != 0 || ::rmdir(s.own.c_str()) != 0)
    TORCH_WARN("ssdopt: store ", s.id, " could not remove '", s.own,
               "': ", std::strerror(errno),
               " (the next store opened on its directory removes it)");
  ::close(s.lockFd);
  s.lockFd = -1;
  s.own.clear();
}

/// Removes the store directories in DIRECTORY that no live process owns:
/// their owner.lock is missing or not locked (the lock is held, without
/// blocking, while their files go), each named in a warning.
void sweepDeadStores(const std::string &directory) {
  DIR *dir = ::opendir(directory.c_str());
  if (!dir)
    return; // openStore reports an unusable directory
  std::vector<std::string> dead;
  while (dirent *entry = ::readdir(dir))
    if (std::strncmp(entry->d_name, kOwnPrefix, std::strlen(kOwnPrefix)) == 0)
      dead.push_back(directory + "/" + entry->d_name);
  ::closedir(dir);
  for (const std::string &own : dead) {
    std::string lockPath = own + kOwnerLock;
    int fd = ::open(lockPath.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd); // a live store's
      continue;
    }
    char owner[32] = {0};
    if (fd >= 0 && ::pread(fd, owner, sizeof(owner) - 1, 0) > 0)
      owner[std::strcspn(owner, "\n")] = 0;
    uint64_t bytes = 0;
    if (DIR *files = ::opendir(own.c_str())) {
      while (dirent *entry = ::readdir(files)) {
        std::string path = own + "/" + entry->d_name;
        struct stat st;
        if (std::strcmp(entry->d_name, ".") == 0 ||
            std::strcmp(entry->d_name, "..") == 0 || path == lockPath ||
            ::lstat(path.c_str(), &st) != 0)
          continue;
        bytes += static_cast<uint64_t>(st.st_blocks) * 512;
        ::unlink(path.c_str());
      }
      ::closedir(files);
    }
    ::unlink(lockPath.c_str());
    bool removed = ::rmdir(own.c_str()) == 0 || errno == ENOENT;
    if (fd >= 0)
      ::close(fd);
    TORCH_WARN("ssdopt: removed the files of a store whose process (pid ",
               owner[0] ? owner : "unknown", ") ended without closing it: '",
               own, "', ", bytes, " bytes on disk",
               removed ? "" : " (the directory itself could not be removed)");
  }
}

Context::~Context() {
  // Waits for the transfers in flight, then deletes the data files.
  {
    OnDevice on(device);
    ssdrt_context_destroy(rt);
  }
  {
    std::lock_guard<std::mutex> lock(store->mutex);
    if (--store->openContexts == 0)
      releaseOwnDirectory(*store);
  }
  store->contextClosed.notify_all();
}

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
  /// Serializes the ops on this handle.
  std::mutex mutex;
  /// Memory the read goes into, from prefetch to wait.
  at::Tensor target;
  /// Declared after `target`: a context closing waits for reads into it.
  std::shared_ptr<Context> context;
  /// 0 once the handle is retired (waited for, discarded, store closed).
  ssdrt_handle rt = 0;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<int64_t, std::shared_ptr<Store>> stores;
  std::unordered_map<int64_t, std::shared_ptr<Handle>> handles;
  int64_t nextStore = 1, nextHandle = 1;
};

/// Never destroyed: the runtime's threads may still drop tensors while
/// static destructors run at exit (closeAllStores, run by atexit, waits).
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

/// Releases the GIL for the scope when the calling thread holds it. Declare
/// it first, so that everything else in the scope is dropped without it.
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

std::string lastRuntimeError(int rc) {
  std::string message = ssdrt_last_error();
  if (message.empty())
    message = std::strerror(-rc);
  return message;
}

[[noreturn]] void failRuntime(const std::string &what, const Handle &h,
                              const std::string &cause) {
  counters().failures++;
  TORCH_CHECK(false, "ssdopt: ", what, " of ", describe(h), " failed: ", cause);
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

/// The live handle ID, locked; raises for an unknown or retired one, or
/// one whose store is closing.
std::pair<std::shared_ptr<Handle>, std::unique_lock<std::mutex>>
lockHandle(int64_t id, const char *op) {
  std::shared_ptr<Handle> h;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.handles.find(id);
    if (it != r.handles.end())
      h = it->second;
  }
  std::unique_lock<std::mutex> lock;
  if (h)
    lock = std::unique_lock<std::mutex>(h->mutex);
  TORCH_CHECK(h && h->rt, "ssdopt.", op, ": unknown handle ", id,
              " (already waited for or discarded, its store closed, or never "
              "offloaded)");
  TORCH_CHECK(!h->store->closed, "ssdopt.", op, ": the store of handle ", id,
              " is closed");
  return {std::move(h), std::move(lock)};
}

/// The store's context for DEVICE, opened if it has none.
std::shared_ptr<Context> contextFor(const std::shared_ptr<Store> &s,
                                    int device) {
  std::lock_guard<std::mutex> lock(s->mutex);
  TORCH_CHECK(!s->closed, "ssdopt.offload: store ", s->id, " is closed");
  if (std::shared_ptr<Context> open = s->contexts[device].lock())
    return open;
  if (s->openContexts == 0)
    claimOwnDirectory(*s);
  ssdrt_options options;
  ssdrt_options_init(&options);
  options.directory = s->own.c_str();
  // Activations are scratch data: no fdatasync. A host context never opens
  // a CUDA device. Staging is kept small because a store opens a context
  // per step: opening costs about 1 ms per MiB (docs/python.md).
  options.flags = SSDRT_OPT_NO_SYNC | (device < 0 ? SSDRT_OPT_HOST_ONLY : 0);
  options.device = device < 0 ? 0 : device;
  options.staging_bytes = 4ull << 20;
  options.chunk_bytes = 1ull << 20;
  ssdrt_context *rt = nullptr;
  int rc = ssdrt_context_create(&options, &rt);
  if (rc != 0 && s->openContexts == 0)
    releaseOwnDirectory(*s);
  TORCH_CHECK(rc == 0, "ssdopt: cannot open the runtime in ", s->directory,
              " (store ", s->id, "): ", lastRuntimeError(rc));
  auto context = std::make_shared<Context>(s, device, rt);
  ++s->openContexts;
  s->contexts[device] = context;
  return context;
}

/// The device whose context H uses (-1: the host's).
int deviceOf(const Handle &h) { return h.context->device; }

/// Forgets H (whose lock the caller holds): frees its runtime handle and
/// drops its context, which closes once nothing else uses it.
void retire(Handle &h) {
  std::shared_ptr<Handle> removed;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.handles.find(h.id);
    if (it != r.handles.end() && it->second.get() == &h) {
      removed = std::move(it->second);
      r.handles.erase(it);
    }
  }
  ssdrt_handle_free(h.context->rt, h.rt);
  h.rt = 0;
  h.context.reset();
}

/// Waits for the offload of H not yet waited for; returns "" or why it
/// failed. Counts the write, or the failure.
std::string awaitWrite(Handle &h) {
  uint64_t start = nowNs();
  int rc = ssdrt_handle_wait(h.context->rt, h.rt);
  counters().writeStallNs += nowNs() - start;
  if (rc != 0) {
    counters().failures++;
    return lastRuntimeError(rc);
  }
  counters().bytesWritten += h.bytes;
  return {};
}

/// Finishes the offload of H not yet waited for, if there is one; a failed
/// write retires H and raises, naming the tensor.
void finishPendingWrite(Handle &h, bool pending) {
  if (!pending)
    return;
  std::string error = awaitWrite(h);
  if (error.empty())
    return;
  retire(h);
  TORCH_CHECK(false, "ssdopt: offload of ", describe(h), " failed: ", error);
}

/// Whether H was prefetched, and whether an operation awaits its wait.
std::pair<bool, bool> progress(const Handle &h) {
  int32_t state = -1, pending = 0;
  ssdrt_handle_state(h.context->rt, h.rt, &state);
  ssdrt_handle_pending(h.context->rt, h.rt, &pending);
  return {state == SSDRT_STATE_READING || state == SSDRT_STATE_BOTH,
          pending != 0};
}

/// The current stream of a CUDA device (a CUstream; null is the default).
void *currentStream(c10::Device device) {
  c10::impl::VirtualGuardImpl guard(device.type());
  return guard.getStream(device).native_handle();
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
/// The memory comes from torch's CPU allocator (over-allocated by one block
/// and aligned inside), so that its profiler and allocator hooks see the
/// tensors read back like any other.
at::Tensor alignedHostTensor(const Handle &h) {
  using ssd::rt::kIoAlignment;
  size_t bytes = std::max<size_t>(ssd::rt::alignUp(h.bytes, kIoAlignment), 1);
  auto *block = new at::Tensor(
      at::empty({int64_t(bytes + kIoAlignment)}, at::TensorOptions(at::kByte)));
  auto address = reinterpret_cast<uintptr_t>(block->data_ptr());
  void *memory = reinterpret_cast<void *>(
      ssd::rt::alignUp(uint64_t(address), kIoAlignment));
  return at::from_blob(
      memory, {h.elements}, [block](void *) { delete block; },
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
  std::map<int, std::shared_ptr<Context>> reserving;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->closed = true;
    reserving.swap(s->reserving);
  }
  reserving.clear();
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
  // Contexts first: they wait for the transfers in flight, reads into the
  // handles' targets included; the targets go after.
  std::vector<std::shared_ptr<Context>> contexts;
  for (auto &h : dropped) {
    std::lock_guard<std::mutex> lock(h->mutex);
    h->rt = 0;
    contexts.push_back(std::move(h->context));
  }
  contexts.clear();
  std::unique_lock<std::mutex> lock(s->mutex);
  s->contextClosed.wait(lock, [&] { return s->openContexts == 0; });
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
  sweepDeadStores(directory);

  auto s = std::make_shared<Store>();
  s->directory = directory;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  s->id = r.nextStore++;
  r.stores.emplace(s->id, s);
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
  auto h = std::make_shared<Handle>();
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.stores.find(store);
    TORCH_CHECK(it != r.stores.end(), "ssdopt.offload: store ", store,
                " is not open");
    h->store = it->second;
    h->id = r.nextHandle++;
  }
  h->sizes = x.sizes().vec();
  h->strides = x.strides().vec();
  h->dtype = x.scalar_type();
  h->device = x.device();
  h->layout = chooseLayout(x, h->elements);
  h->bytes = uint64_t(h->elements) * x.element_size();

  // No bytes, nothing to lend: the host context keeps an empty handle.
  bool onDevice = x.is_cuda() && h->bytes > 0;
  OnDevice on(onDevice ? x.device().index() : -1);
  h->context = contextFor(h->store, onDevice ? x.device().index() : -1);
  ssdrt_context *ctx = h->context->rt;
  at::Tensor flat;
  if (h->bytes > 0)
    flat = flatSource(x, h->layout, h->elements);
  int64_t shape[1] = {int64_t(h->bytes)};
  int rc = ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape,
                               onDevice ? SSDRT_MEM_DEVICE : SSDRT_MEM_HOST,
                               h->bytes ? flat.data_ptr() : nullptr, &h->rt);
  if (rc == 0 && h->bytes > 0) {
    // The runtime drops its reference once the bytes are on disk: that is
    // the memory the offload saves.
    auto *lent = new at::Tensor(std::move(flat));
    rc = ssdrt_handle_on_release(
        ctx, h->rt, [](void *t) { delete static_cast<at::Tensor *>(t); }, lent);
    if (rc != 0)
      delete lent;
  }
  if (rc == 0)
    rc = onDevice ? ssdrt_handle_offload_stream(ctx, h->rt, 0,
                                                currentStream(x.device()))
                  : ssdrt_handle_offload(ctx, h->rt, 0);
  if (rc != 0) {
    std::string error = lastRuntimeError(rc);
    if (h->rt)
      ssdrt_handle_free(ctx, h->rt);
    failRuntime("offload", *h, error);
  }
  bool registered = false;
  {
    std::lock_guard<std::mutex> lock(h->store->mutex);
    if (!h->store->closed) {
      Registry &r = registry();
      std::lock_guard<std::mutex> registryLock(r.mutex);
      r.handles.emplace(h->id, h);
      registered = true;
    }
  }
  // Closed meanwhile: the handle goes with its context (which waits for the
  // write), unregistered.
  TORCH_CHECK(registered, "ssdopt.offload: store ", store, " is closed");
  counters().offloads++;
  return idTensor(h->id);
}

void reserve(int64_t store, int64_t device,
             const std::vector<uint64_t> &sizes) {
  GilRelease nogil;
  std::shared_ptr<Store> s;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.stores.find(store);
    TORCH_CHECK(it != r.stores.end(), "ssdopt.reserve: store ", store,
                " is not open");
    s = it->second;
  }
  int index = device < 0 ? -1 : int(device);
  OnDevice on(index);
  std::shared_ptr<Context> context = contextFor(s, index);
  {
    // The same context when one is held already (it is open): none is
    // dropped under the lock. A store closed meanwhile holds nothing more.
    std::lock_guard<std::mutex> lock(s->mutex);
    if (!s->closed)
      s->reserving[index] = context;
  }
  TORCH_CHECK(!s->closed, "ssdopt.reserve: store ", store, " is closed");
  int rc = ssdrt_context_reserve(context->rt, sizes.data(), sizes.size());
  if (rc != 0) {
    counters().failures++;
    TORCH_CHECK(false, "ssdopt: reserving the disk space of ", sizes.size(),
                " writes in store ", s->id, " (", s->directory,
                ") failed: ", lastRuntimeError(rc));
  }
}

at::Tensor prefetch(const at::Tensor &handle) {
  GilRelease nogil;
  auto [h, lock] = lockHandle(idOf(handle, "prefetch", "handle"), "prefetch");
  OnDevice on(deviceOf(*h));
  auto [prefetched, pending] = progress(*h);
  TORCH_CHECK(!prefetched, "ssdopt.prefetch: handle ", h->id,
              " was already prefetched");
  finishPendingWrite(*h, pending);
  bool onDevice = deviceOf(*h) >= 0;
  at::TensorOptions options = at::TensorOptions().dtype(h->dtype);
  h->target = onDevice ? at::empty({h->elements}, options.device(h->device))
              : h->bytes > 0 ? alignedHostTensor(*h)
                             : at::empty({0}, options.device(h->device));
  void *dst = h->bytes > 0 ? h->target.data_ptr() : nullptr;
  int rc = onDevice ? ssdrt_handle_prefetch_stream(h->context->rt, h->rt, dst,
                                                   currentStream(h->device))
                    : ssdrt_handle_prefetch(h->context->rt, h->rt, dst);
  if (rc != 0) {
    std::string error = lastRuntimeError(rc);
    retire(*h);
    failRuntime("prefetch", *h, error);
  }
  return idTensor(h->id);
}

/// Whether strides A and B lay out a tensor of SIZE alike: they may differ
/// on dimensions of size 1, which no index steps along (inductor sets those
/// freely: a 1x1 convolution's weight gradient is [96, 1, 96, 96] there,
/// [96, 1, 1, 1] in the graph).
static bool sameLayout(c10::IntArrayRef size, c10::IntArrayRef a,
                       const std::vector<int64_t> &b) {
  if (a.size() != b.size() || size.size() != b.size())
    return false;
  for (size_t d = 0; d < b.size(); ++d)
    if (size[d] != 1 && a[d] != b[d])
      return false;
  return true;
}

at::Tensor wait(const at::Tensor &ticket, c10::IntArrayRef size,
                c10::IntArrayRef stride, c10::ScalarType dtype,
                c10::Device device, bool keep) {
  GilRelease nogil;
  auto [h, lock] = lockHandle(idOf(ticket, "wait", "ticket"), "wait");
  bool sameDevice = device.type() == h->device.type() &&
                    (!device.has_index() || device == h->device);
  TORCH_CHECK(size.vec() == h->sizes && sameLayout(size, stride, h->strides) &&
                  dtype == h->dtype && sameDevice,
              "ssdopt.wait: handle ", h->id, " holds ", c10::toString(h->dtype),
              c10::IntArrayRef(h->sizes), " with strides ",
              c10::IntArrayRef(h->strides), " on ", h->device,
              ", but the call expects ", c10::toString(dtype), size,
              " with strides ", stride, " on ", device);
  OnDevice on(deviceOf(*h));
  auto [prefetched, pending] = progress(*h);
  if (!prefetched) {
    // Without a prefetch, a failed write is the better error to report.
    finishPendingWrite(*h, pending);
    TORCH_CHECK(false, "ssdopt.wait: no prefetch was issued for handle ",
                h->id);
  }
  TORCH_CHECK(pending, "ssdopt.wait: nothing left to wait for on handle ",
              h->id);
  bool onDevice = deviceOf(*h) >= 0;
  void *stream = onDevice ? currentStream(h->device) : nullptr;
  uint64_t start = nowNs();
  // On a device the host waits for the disk only; the current stream waits
  // for the runtime's copies.
  int rc = onDevice ? ssdrt_handle_wait_stream(h->context->rt, h->rt, stream)
                    : ssdrt_handle_wait(h->context->rt, h->rt);
  counters().stallNs += nowNs() - start;
  std::string error = rc != 0 ? lastRuntimeError(rc) : std::string();
  // Kept: the copy on disk stays the handle's (BOTH, then ON_DISK once the
  // memory, now the caller's, is released), to be prefetched again.
  if (rc == 0 && keep)
    rc = ssdrt_handle_release(h->context->rt, h->rt);
  if (rc != 0 || !keep)
    retire(*h);
  if (rc != 0)
    failRuntime("read", *h, error.empty() ? lastRuntimeError(rc) : error);
  at::Tensor flat = std::move(h->target);
  if (onDevice) {
    // Allocated on the stream current at prefetch; read on this one.
    c10::impl::VirtualGuardImpl impl(h->device.type());
    flat.record_stream(impl.getStream(h->device));
  }
  counters().reloads++;
  counters().bytesRead += h->bytes;
  // Rebuilt with the strides the call expects (they differ on size-1
  // dimensions at most).
  h->strides = stride.vec();
  return restore(*h, flat);
}

void sync(const at::Tensor &handle) {
  GilRelease nogil;
  auto [h, lock] = lockHandle(idOf(handle, "sync", "handle"), "sync");
  OnDevice on(deviceOf(*h));
  auto [prefetched, pending] = progress(*h);
  TORCH_CHECK(!prefetched, "ssdopt.sync: handle ", h->id,
              " is being read back; sync it before its prefetch");
  finishPendingWrite(*h, pending);
}

void discard(const at::Tensor &handle) {
  GilRelease nogil;
  auto [h, lock] = lockHandle(idOf(handle, "discard", "handle"), "discard");
  OnDevice on(deviceOf(*h));
  auto [prefetched, pending] = progress(*h);
  if (pending && !prefetched) {
    // A failed write is dropped without raising (and counted).
    awaitWrite(*h);
  } else if (pending) {
    // The read's outcome no longer matters, only that it is over.
    ssdrt_handle_wait(h->context->rt, h->rt);
  }
  retire(*h);
}

namespace {
/// Whether H's bytes on disk are its elements in row-major order: a dense
/// handle whose strides are the contiguous ones (dimensions of one element
/// have any stride), or a packed copy.
bool isRowMajor(const Handle &h) {
  if (h.layout == Layout::Packed)
    return true;
  if (h.layout != Layout::Dense)
    return false;
  int64_t expected = 1;
  for (size_t d = h.sizes.size(); d-- > 0;) {
    if (h.sizes[d] != 1 && h.strides[d] != expected)
      return false;
    expected *= h.sizes[d];
  }
  return true;
}
} // namespace

DiskLocation locate(const at::Tensor &handle) {
  GilRelease nogil;
  auto [h, lock] = lockHandle(idOf(handle, "locate", "handle"), "locate");
  OnDevice on(deviceOf(*h));
  auto [prefetched, pending] = progress(*h);
  TORCH_CHECK(!prefetched, "ssdopt: handle ", h->id,
              " is being read back; its bytes on disk cannot be located now");
  finishPendingWrite(*h, pending);
  TORCH_CHECK(isRowMajor(*h), "ssdopt: ", describe(*h),
              " is on disk as its storage, not in row-major order (strides ",
              c10::IntArrayRef(h->strides), ")");
  DiskLocation location;
  location.bytes = h->bytes;
  if (h->bytes == 0)
    return location;
  char path[4096];
  int rc = ssdrt_handle_location(h->context->rt, h->rt, path, sizeof(path),
                                 &location.offset);
  if (rc != 0)
    failRuntime("locate", *h, lastRuntimeError(rc));
  location.path = path;
  return location;
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
