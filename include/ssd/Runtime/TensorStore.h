//===- TensorStore.h - Tensors in memory, on disk or between ----*- C++ -*-===//
//
// The tensor store behind the C API. A handle is a tensor (dtype, shape, byte
// size) whose bytes live in host or device memory, in a file extent, or both,
// and which may be moving between the two. A buffer groups handles into one
// contiguous memory region and one extent so that many small tensors move in
// one large transfer. Extents are 4 KiB aligned ranges of a few data files,
// allocated first-fit from a free list and reused after `free`.
//
// State machine of a handle (or buffer) and the calls that move it:
//
//   Resident --offload--> Writing --done--> OnDisk   (memory released)
//                                     \---> Both     (offload with keep)
//   Both     --offload--> OnDisk   (clean copy on disk: nothing written)
//   Both     --markDirty--> Resident
//   Both     --release--> OnDisk      (no I/O, no operation to wait for)
//   OnDisk   --prefetch--> Reading --done--> Both
//   failures: Writing -> Resident, Reading -> OnDisk (memory kept/freed).
//
// A caller that lends its own memory may ask to be told, through a hand-back
// function, when the runtime stops using it (a torch tensor is kept alive
// until then). A device transfer may be ordered after the caller's stream:
// its copies start only once the work queued there before the call is done.
// A zero-byte tensor needs no extent and no I/O.
//
// Each offload or prefetch starts one operation that must be waited for
// exactly once (`wait`, `waitEvent` or `waitStream`) before the next one; a
// second wait is an error, as is any use of a freed id. A group offload or
// prefetch starts one such operation per member but moves them as one
// transfer: their I/O is submitted together and a group of writes is made
// durable by one fdatasync per data file, so that a planner may charge the
// group one device latency.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_TENSORSTORE_H
#define SSD_RUNTIME_TENSORSTORE_H

#include "ssd/Runtime/DType.h"
#include "ssd/Runtime/Device.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/StagingPool.h"
#include "ssd/Runtime/Status.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <sys/types.h>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ssd::rt {

enum class MemKind : int { Host = 0, Device = 1 };

/// Values are the C API's SSDRT_STATE_* constants.
enum class State : int {
  Resident = 0,
  OnDisk = 1,
  Writing = 2,
  Reading = 3,
  Both = 4
};
const char *stateName(State state);

struct StoreOptions {
  /// Directory for the data files; created if missing.
  std::string directory = ".";
  EngineKind engine = EngineKind::Auto;
  unsigned queueDepth = 32;
  /// Total pinned staging memory (bounded; transfers wait when it is used).
  uint64_t stagingBytes = 64ull << 20;
  /// Size of one staging chunk and of the largest single raw transfer.
  uint64_t chunkBytes = 4ull << 20;
  /// Largest size of one data file before the next one is started.
  uint64_t fileBytes = 64ull << 30;
  /// fdatasync before an offload completes (nothing is reported written
  /// that is not on disk). Off only for scratch data.
  bool durable = true;
  /// Try O_DIRECT (falls back to buffered I/O where the filesystem refuses).
  bool direct = true;
  /// CUDA device ordinal; negative for host-only.
  int device = 0;
  /// Threads that drive transfers (each keeps many chunks in flight).
  unsigned workers = 2;
  /// Tests: replaces open(2) for the data files.
  int (*openFile)(const char *path, int flags, mode_t mode) = nullptr;
  /// Tests: replaces io_uring_queue_init_params.
  UringInitFn uringInit = nullptr;
  /// Tests: wraps the backend (for example in a FaultInjectingBackend).
  std::function<std::unique_ptr<IoBackend>(std::unique_ptr<IoBackend>)>
      decorate;
};

struct StoreStats {
  uint64_t bytesRead = 0, bytesWritten = 0;
  uint64_t readOps = 0, writeOps = 0, syncOps = 0;
  uint64_t offloads = 0, prefetches = 0, failures = 0;
  /// Bytes that went through staging because memory was unaligned or on
  /// the device.
  uint64_t stagedBytes = 0;
  double waitSeconds = 0, stagingWaitSeconds = 0;
};

struct HandleInfo {
  int dtype = 0;
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
  MemKind kind = MemKind::Host;
  State state = State::Resident;
  void *data = nullptr;
  /// 0 for a standalone handle.
  uint64_t buffer = 0;
  std::string file;
  uint64_t fileOffset = 0;
  uint64_t extentBytes = 0;
  /// Whether the data file uses O_DIRECT.
  bool direct = false;
  /// An offload or prefetch was started and not yet waited for.
  bool pending = false;
};

/// Called once when the runtime stops using memory a caller lent it.
using HandBack = std::function<void()>;

class TensorStore {
public:
  explicit TensorStore(StoreOptions options);
  /// Waits for transfers in flight, then closes and removes the data files.
  ~TensorStore();
  TensorStore(const TensorStore &) = delete;
  TensorStore &operator=(const TensorStore &) = delete;

  uint64_t createHandle(int dtype, std::span<const int64_t> shape, MemKind kind,
                        void *memory);
  uint64_t createBuffer(uint64_t capacity, MemKind kind, void *memory);
  /// Carves a handle out of buffer memory (256-byte aligned); only while the
  /// buffer is resident and has never been offloaded.
  uint64_t addToBuffer(uint64_t buffer, int dtype,
                       std::span<const int64_t> shape);

  /// Calls `handBack` once the runtime no longer uses the memory the
  /// handle or buffer was created with: when an offload without keep is
  /// done (before its wait returns), or at `release`, `free` or destruction,
  /// whichever comes first; never while the memory still holds the only copy
  /// (a failed offload keeps it). It runs on a runtime thread or the
  /// caller's, never under the store's lock. Only for caller memory, while
  /// resident with no operation pending.
  void setHandBack(uint64_t id, HandBack handBack);
  /// `after`: for device memory, the stream (the caller's compute stream)
  /// whose work queued before this call the transfer's copies wait for; a
  /// null stream is CUDA's default stream, so no value means no ordering.
  void offload(uint64_t id, bool keepMemory,
               std::optional<DeviceStream> after = {});
  void prefetch(uint64_t id, void *dst, std::optional<DeviceStream> after = {});
  /// Starts the offload of every member, or (when any member cannot start)
  /// of none. Members are handles or buffers, each at most once.
  void offloadGroup(std::span<const uint64_t> ids, bool keepMemory,
                    std::optional<DeviceStream> after = {});
  /// Like `prefetch` for each member; `dsts` is empty (the runtime allocates
  /// memory) or has one destination (or null) per member.
  void prefetchGroup(std::span<const uint64_t> ids, std::span<void *const> dsts,
                     std::optional<DeviceStream> after = {});
  /// Starts reading bytes [offset, offset + bytes) of the tensor `id` holds
  /// on disk into `dst` (memory of the handle's kind, the caller's): one
  /// operation on the handle, waited for like a prefetch, that leaves the
  /// handle's state and memory as they are. A planned step reads back only
  /// the part of a released tensor that it still uses this way.
  void prefetchRange(uint64_t id, void *dst, uint64_t offset, uint64_t bytes);
  void wait(uint64_t id);
  /// Like `wait`, but for a device transfer returns the event to wait on
  /// instead of blocking on the copy (null when nothing is left to wait on).
  DeviceEvent waitEvent(uint64_t id);
  /// Makes `stream` wait for the transfer; the host waits only for the I/O.
  void waitStream(uint64_t id, DeviceStream stream);
  /// Makes sure that extents for writes of these byte sizes, allocated
  /// after this call and before the next `reserve`, need no new blocks of
  /// the file system, whatever order they are allocated and freed in: every
  /// free extent and a tail of one data file as long as all of them
  /// together are allocated now (fallocate). So a full disk is reported
  /// here, naming the file and offset, before any of those writes starts
  /// (a training step reserves before it changes any state). On a file
  /// system without fallocate nothing can be reserved: logged once.
  void reserve(std::span<const uint64_t> sizes);
  void markDirty(uint64_t id);
  /// Frees the memory of a handle whose bytes are safe on disk (Both ->
  /// OnDisk) without any I/O: the lowering of `ssd.release`.
  void release(uint64_t id);
  void free(uint64_t id);

  HandleInfo info(uint64_t id);
  /// True for a buffer id; throws for unknown or freed ids.
  bool isBuffer(uint64_t id);
  StoreStats stats();

  IoEngine &engine() { return *io; }
  const Device &device() const { return *dev; }
  StagingPool &staging() { return *pool; }
  /// The backend under the engine (a FaultInjectingBackend when decorated).
  IoBackend &backend() { return io->backend(); }
  const std::string &engineNote() const { return note; }
  const std::string &directory() const { return options.directory; }

private:
  struct DataFile {
    std::string path;
    int fd = -1;
    int fixed = -1;
    bool direct = false;
    /// Bytes handed out from the start of the file.
    uint64_t end = 0;
    /// Bytes from the start of the file that `reserve` allocated on disk:
    /// extents below it need no fallocate.
    uint64_t reserved = 0;
    /// A hole may hold blocks never allocated (an extent freed before its
    /// first write allocated them): `reserve` allocates the holes then.
    bool unallocatedHoles = false;
    /// Free extents: offset -> length, coalesced.
    std::map<uint64_t, uint64_t> holes;
  };
  struct Extent {
    int file = -1;
    uint64_t offset = 0, length = 0;
    /// Past the file's old end: reserve it with fallocate before the first
    /// write (an extending O_DIRECT write is serialized by the filesystem).
    bool extendsFile = false;
  };
  struct Region;
  struct Object;
  class Tracker;
  struct Transfer;
  using Batch = std::vector<std::unique_ptr<Transfer>>;

  Object &lookup(uint64_t id, const char *what);
  Region &ownRegion(Object &obj, const char *what);
  void startOp(Region &region, uint64_t id, const char *what);
  void awaitOp(std::unique_lock<std::mutex> &lock, Region &region, uint64_t id);
  Extent allocateExtent(uint64_t bytes);
  void releaseExtent(const Extent &extent);
  DataFile &openFile(size_t index);
  /// Drops the region's memory; returns the caller's hand-back, to be run
  /// once `mutex` is released.
  [[nodiscard]] HandBack releaseMemory(Region &region);
  void *allocateMemory(MemKind kind, uint64_t bytes);
  void enqueue(std::function<void()> job);
  void workerLoop();
  /// Under `mutex`: the members of a group, each able to start an operation.
  std::vector<Object *> groupMembers(std::span<const uint64_t> ids,
                                     const char *what);
  /// Under `mutex`: starts every member's operation and returns those that
  /// need I/O; throws before changing any state. Hand-backs of memory
  /// released on the way are added to `handBacks`.
  Batch beginOffloads(std::span<const uint64_t> ids, bool keepMemory,
                      std::optional<DeviceStream> after,
                      std::vector<HandBack> &handBacks);
  Batch beginPrefetches(std::span<const uint64_t> ids,
                        std::span<void *const> dsts,
                        std::optional<DeviceStream> after);
  /// Under `mutex`: records the region's event on `after` for its copies to
  /// wait on (device memory only).
  void orderAfter(Region &region, std::optional<DeviceStream> after);
  void runOffloads(Batch &batch, bool keepMemory);
  void runPrefetches(Batch &batch);
  /// The job of `prefetchRange`: its transfer, which leaves the region's
  /// state and memory as they are.
  void runRangeRead(Transfer &transfer);
  /// Submits every piece of one transfer (of a region or of a part of it);
  /// `finishTransfer` waits for them.
  void startTransfer(Transfer &transfer);
  Failure finishTransfer(Transfer &transfer);
  /// After a failed read: waits for the device copies already queued into
  /// the memory, which the caller may then free.
  void settleCopies(Region &region);
  Failure preallocate(Region &region, uint64_t id);
  /// Detects a data file removed (or, before a read, truncated) underneath.
  Failure checkFile(const Region &region, uint64_t id, bool reading);

  StoreOptions options;
  std::unique_ptr<Device> dev;
  std::string note;
  std::unique_ptr<IoEngine> io;
  std::unique_ptr<StagingPool> pool;
  DeviceStream toDevice = nullptr, toHost = nullptr;
  std::string filePrefix;

  // `mutex` guards the object table, regions' state and the files' extent
  // maps. Transfers run without it; a region in Writing/Reading state is
  // touched only by its job until the job publishes the result under it.
  std::mutex mutex;
  std::condition_variable opFinished;
  std::unordered_map<uint64_t, Object> objects;
  uint64_t nextId = 1;
  std::vector<std::unique_ptr<DataFile>> files;
  bool loggedBuffered = false;

  std::mutex jobMutex;
  std::condition_variable jobReady, jobsIdle;
  std::deque<std::function<void()>> jobs;
  unsigned jobsRunning = 0;
  bool stopping = false;
  std::vector<std::thread> workers;

  struct Counters {
    std::atomic<uint64_t> bytesRead{0}, bytesWritten{0}, readOps{0},
        writeOps{0}, syncOps{0}, offloads{0}, prefetches{0}, failures{0},
        stagedBytes{0}, waitNs{0};
  } counters;
};

} // namespace ssd::rt

#endif // SSD_RUNTIME_TENSORSTORE_H
