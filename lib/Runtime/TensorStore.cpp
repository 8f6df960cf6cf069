//===- TensorStore.cpp - Handles, buffers, extents and their transfers ----===//
//
// The state machine of handles and buffers, extent allocation in a few data
// files, and the transfer paths: direct O_DIRECT I/O on the caller's memory
// where it is aligned, staging chunks where it is not (or where it lives on
// the device), pipelined so that chunk i moves between host and device while
// chunk i+1 moves between disk and host.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/TensorStore.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ssd::rt {
namespace {

constexpr uint64_t kBlock = kIoAlignment;
constexpr uint64_t kMemberAlign = 256;
/// Caller memory up to this size with a partial last block is copied whole
/// into one staging chunk: the copy (tens of microseconds) is cheaper than
/// the second device operation its tail would otherwise need.
constexpr uint64_t kStageWholeBytes = 256 << 10;

uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void logOnce(const std::string &message) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!seen.insert(message).second)
      return;
  }
  logNote(message);
}

} // namespace

const char *stateName(State state) {
  switch (state) {
  case State::Resident:
    return "resident";
  case State::OnDisk:
    return "on disk";
  case State::Writing:
    return "being written";
  case State::Reading:
    return "being read";
  case State::Both:
    return "resident and on disk";
  }
  return "?";
}

/// Memory, extent and state shared by a standalone handle or by a buffer and
/// all of its members.
struct TensorStore::Region {
  MemKind kind = MemKind::Host;
  void *memory = nullptr;
  bool owned = false;
  uint64_t bytes = 0;
  Extent extent;
  DataFile *file = nullptr;
  State state = State::Resident;
  bool isBuffer = false;
  /// Buffer: bytes carved out for members so far.
  uint64_t used = 0;
  bool everOffloaded = false;
  // The current operation: started by offload/prefetch, finished by its
  // job, consumed by exactly one wait.
  bool opPending = false;
  bool opDone = true;
  Failure opError;
  /// Device transfers: recorded on the copy stream after the last copy.
  DeviceEvent event = nullptr;
  bool eventPending = false;
  /// `event` was recorded on the caller's stream: the next transfer's copy
  /// stream waits for it before its first copy.
  bool afterCaller = false;
  /// Tells the caller that lent `memory` when the runtime lets go of it.
  HandBack handBack;
};

struct TensorStore::Object {
  bool isBuffer = false;
  std::shared_ptr<Region> region;
  /// Members: their place inside the buffer's region.
  uint64_t offset = 0;
  uint64_t bytes = 0;
  int dtype = 0;
  std::vector<int64_t> shape;
  /// Members: the buffer's id; 0 otherwise.
  uint64_t buffer = 0;
  std::vector<uint64_t> members;
};

/// Counts the parts of one transfer and keeps the first failure.
class TensorStore::Tracker {
public:
  void add() {
    std::lock_guard<std::mutex> lock(mutex);
    ++open;
  }
  void done(Failure failure) {
    // Notify under the lock: the waiter may destroy the tracker as soon as
    // it can take the lock again.
    std::lock_guard<std::mutex> lock(mutex);
    if (failure && !first)
      first = std::move(failure);
    if (--open == 0)
      finished.notify_all();
  }
  Failure wait() {
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return open == 0; });
    return first;
  }

private:
  std::mutex mutex;
  std::condition_variable finished;
  unsigned open = 0;
  Failure first;
};

/// One region's transfer: started by a job, its pieces complete on the
/// engine's thread. It moves bytes [begin, begin + bytes) of the region
/// between the file and `memory` (which holds byte `begin`): the whole
/// region, or a part of it read back.
struct TensorStore::Transfer {
  /// The whole region, to or from its own memory.
  Transfer(IoOpKind kind, std::shared_ptr<Region> region, uint64_t id)
      : kind(kind), region(std::move(region)), id(id),
        memory(static_cast<char *>(this->region->memory)),
        bytes(this->region->bytes), padded(this->region->owned) {}
  /// A part, read into memory of the caller's.
  Transfer(std::shared_ptr<Region> region, uint64_t id, void *dst,
           uint64_t begin, uint64_t bytes)
      : kind(IoOpKind::Read), region(std::move(region)), id(id),
        memory(static_cast<char *>(dst)), begin(begin), bytes(bytes),
        padded(false), part(true) {}
  IoOpKind kind;
  std::shared_ptr<Region> region;
  uint64_t id;
  char *memory;
  uint64_t begin = 0, bytes;
  /// `memory` extends to whole blocks (the runtime allocated it).
  bool padded;
  bool part = false;
  Tracker tracker;
  Failure failure;
};

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

TensorStore::TensorStore(StoreOptions o) : options(std::move(o)) {
  if (options.queueDepth < 1 || options.queueDepth > 4096)
    fail(EINVAL, "queue depth " + std::to_string(options.queueDepth) +
                     " is outside 1..4096");
  if (options.chunkBytes < kBlock || options.chunkBytes > (1ull << 30))
    fail(EINVAL, "chunk size " + std::to_string(options.chunkBytes) +
                     " is outside 4 KiB..1 GiB");
  options.chunkBytes = alignUp(options.chunkBytes, kBlock);
  if (options.stagingBytes < 2 * options.chunkBytes)
    fail(EINVAL, "staging capacity " + std::to_string(options.stagingBytes) +
                     " is below two chunks of " +
                     std::to_string(options.chunkBytes) + " bytes");
  if (options.fileBytes < options.chunkBytes)
    options.fileBytes = options.chunkBytes;
  if (options.directory.empty())
    options.directory = ".";
  if (::mkdir(options.directory.c_str(), 0700) != 0 && errno != EEXIST)
    fail(errno, "cannot create directory " + options.directory + ": " +
                    errnoText(errno));
  struct stat st;
  if (::stat(options.directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    fail(ENOTDIR, options.directory + " is not a directory");
  if (::access(options.directory.c_str(), W_OK) != 0)
    fail(errno, "directory " + options.directory +
                    " is not writable: " + errnoText(errno));

  dev = std::make_unique<Device>(options.device);
  std::unique_ptr<IoBackend> backend =
      makeBackend(options.engine, options.queueDepth, note, options.uringInit);
  logOnce(note);
  if (options.decorate)
    backend = options.decorate(std::move(backend));
  io = std::make_unique<IoEngine>(std::move(backend),
                                  IoEngine::Options{options.chunkBytes, 8});
  pool = std::make_unique<StagingPool>(options.stagingBytes, options.chunkBytes,
                                       *dev, &io->backend());
  if (dev->available()) {
    toDevice = dev->createStream();
    toHost = dev->createStream();
  }
  static std::atomic<unsigned> serial{0};
  filePrefix = options.directory + "/ssdrt-" + std::to_string(::getpid()) +
               "-" + std::to_string(serial++) + "-";
  for (unsigned i = 0; i < std::max(1u, options.workers); ++i)
    workers.emplace_back([this] { workerLoop(); });
}

TensorStore::~TensorStore() {
  {
    std::unique_lock<std::mutex> lock(jobMutex);
    jobsIdle.wait(lock, [&] { return jobs.empty() && jobsRunning == 0; });
    stopping = true;
  }
  jobReady.notify_all();
  for (std::thread &t : workers)
    t.join();
  std::set<Region *> regions;
  for (auto &[id, obj] : objects)
    regions.insert(obj.region.get());
  for (Region *r : regions) {
    if (r->eventPending)
      dev->synchronize(r->event);
    if (HandBack handBack = releaseMemory(*r))
      handBack();
    if (r->event)
      dev->destroyEvent(r->event);
  }
  objects.clear();
  pool.reset();
  io.reset();
  for (auto &f : files) {
    ::close(f->fd);
    ::unlink(f->path.c_str());
  }
  if (toDevice) {
    dev->destroyStream(toDevice);
    dev->destroyStream(toHost);
  }
}

//===----------------------------------------------------------------------===//
// Jobs
//===----------------------------------------------------------------------===//

void TensorStore::enqueue(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(jobMutex);
    jobs.push_back(std::move(job));
  }
  jobReady.notify_one();
}

void TensorStore::workerLoop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(jobMutex);
      jobReady.wait(lock, [&] { return stopping || !jobs.empty(); });
      if (jobs.empty())
        return;
      job = std::move(jobs.front());
      jobs.pop_front();
      ++jobsRunning;
    }
    job();
    {
      std::lock_guard<std::mutex> lock(jobMutex);
      --jobsRunning;
      if (jobs.empty() && jobsRunning == 0)
        jobsIdle.notify_all();
    }
  }
}

//===----------------------------------------------------------------------===//
// Memory and extents (callers hold `mutex`)
//===----------------------------------------------------------------------===//

void *TensorStore::allocateMemory(MemKind kind, uint64_t bytes) {
  if (kind == MemKind::Device) {
    if (!dev->available())
      fail(ENODEV, "device memory requested but " + dev->note());
    return dev->allocate(bytes);
  }
  uint64_t padded = alignUp(std::max<uint64_t>(bytes, 1), kBlock);
  void *p = std::aligned_alloc(kBlock, padded);
  if (!p)
    fail(ENOMEM,
         "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  // Transfers move the padding with the tensor (one device operation for a
  // partial last block); zero it so that no stale heap bytes reach the file.
  std::memset(static_cast<char *>(p) + bytes, 0, padded - bytes);
  return p;
}

HandBack TensorStore::releaseMemory(Region &r) {
  if (r.owned && r.memory) {
    if (r.kind == MemKind::Device)
      dev->release(r.memory);
    else
      std::free(r.memory);
  }
  r.memory = nullptr;
  r.owned = false;
  return std::exchange(r.handBack, {});
}

static void runHandBacks(std::vector<HandBack> &handBacks) {
  for (HandBack &handBack : handBacks)
    handBack();
  handBacks.clear();
}

TensorStore::DataFile &TensorStore::openFile(size_t index) {
  while (files.size() <= index) {
    auto f = std::make_unique<DataFile>();
    f->path = filePrefix + std::to_string(files.size()) + ".data";
    int flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC;
    auto openFn = options.openFile
                      ? options.openFile
                      : +[](const char *path, int flags, mode_t mode) {
                          return ::open(path, flags, mode);
                        };
    f->fd =
        options.direct ? openFn(f->path.c_str(), flags | O_DIRECT, 0600) : -1;
    f->direct = f->fd >= 0;
    if (!f->direct && options.direct && errno == EINVAL) {
      // tmpfs and some overlay setups refuse O_DIRECT; the open created the
      // file before failing, so reopen it.
      ::unlink(f->path.c_str());
      if (!loggedBuffered) {
        logNote("O_DIRECT refused on " + options.directory +
                " (EINVAL); using buffered I/O with fdatasync");
        loggedBuffered = true;
      }
    }
    if (!f->direct)
      f->fd = openFn(f->path.c_str(), flags, 0600);
    if (f->fd < 0)
      fail(errno,
           "cannot create data file " + f->path + ": " + errnoText(errno));
    int fixed = io->backend().registerFile(f->fd);
    f->fixed = fixed >= 0 ? fixed : -1;
    files.push_back(std::move(f));
  }
  return *files[index];
}

/// The length of the extent that holds `bytes` bytes.
static uint64_t extentLength(uint64_t bytes) {
  return std::max(kBlock, alignUp(bytes, kBlock));
}

TensorStore::Extent TensorStore::allocateExtent(uint64_t bytes) {
  uint64_t length = extentLength(bytes);
  // First fit among the holes, then the reserved tail of a file, then the
  // end of a file with room, then a new file (which may exceed `fileBytes`
  // when one extent is larger).
  for (size_t i = 0; i < files.size(); ++i) {
    auto &holes = files[i]->holes;
    for (auto it = holes.begin(); it != holes.end(); ++it) {
      if (it->second < length)
        continue;
      Extent e{int(i), it->first, length};
      uint64_t rest = it->second - length;
      holes.erase(it);
      if (rest)
        holes[e.offset + length] = rest;
      return e;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    DataFile &f = *files[i];
    if (f.end + length <= f.reserved) {
      Extent e{int(i), f.end, length, false};
      f.end += length;
      return e;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    DataFile &f = *files[i];
    if (f.end + length <= options.fileBytes || f.end == 0) {
      Extent e{int(i), f.end, length, true};
      f.end += length;
      return e;
    }
  }
  DataFile &f = openFile(files.size());
  Extent e{int(files.size() - 1), 0, length, true};
  f.end = length;
  return e;
}

void TensorStore::reserve(std::span<const uint64_t> sizes) {
  uint64_t total = 0;
  for (uint64_t bytes : sizes)
    if (bytes > 0)
      total += extentLength(bytes);
  if (total == 0)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  // Every allocation goes to a hole that fits, else to a reserved tail with
  // room: holes are allocated on disk, and a tail of `total` bytes takes
  // every extent of `sizes` even if none went to a hole.
  auto allocate = [&](DataFile &f, uint64_t offset, uint64_t length,
                      const char *what) {
    if (::fallocate(f.fd, 0, off_t(offset), off_t(length)) == 0)
      return true;
    if (errno == EOPNOTSUPP) {
      logOnce("fallocate is not supported in " + options.directory +
              ": no disk space can be reserved, so a full disk may fail "
              "a write in the middle of a step");
      return false;
    }
    fail(errno, ioErrorMessage(
                    "fallocate", f.path, offset, length, errno,
                    std::string(what) + " for " + std::to_string(sizes.size()) +
                        " writes of " + std::to_string(total) + " bytes"));
  };
  for (auto &file : files) {
    if (!file->unallocatedHoles)
      continue;
    for (auto [offset, length] : file->holes)
      if (!allocate(*file, offset, length, "allocating a free extent"))
        return;
    file->unallocatedHoles = false;
  }
  for (auto &file : files)
    if (file->end + total <= file->reserved)
      return;
  size_t index = 0;
  while (index < files.size() && files[index]->end != 0 &&
         files[index]->end + total > options.fileBytes)
    ++index;
  DataFile &f = openFile(index);
  if (allocate(f, f.end, total, "reserving the tail"))
    f.reserved = std::max(f.reserved, f.end + total);
}

void TensorStore::releaseExtent(const Extent &e) {
  if (e.file < 0)
    return;
  DataFile &f = *files[e.file];
  f.unallocatedHoles |= e.extendsFile;
  uint64_t offset = e.offset, length = e.length;
  auto next = f.holes.lower_bound(offset);
  if (next != f.holes.end() && offset + length == next->first) {
    length += next->second;
    next = f.holes.erase(next);
  }
  if (next != f.holes.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      length += prev->second;
      f.holes.erase(prev);
    }
  }
  if (offset + length == f.end)
    f.end = offset; // The tail returns to the bump allocator.
  else
    f.holes[offset] = length;
}

//===----------------------------------------------------------------------===//
// Object table (callers hold `mutex`)
//===----------------------------------------------------------------------===//

TensorStore::Object &TensorStore::lookup(uint64_t id, const char *what) {
  auto it = objects.find(id);
  if (it != objects.end())
    return it->second;
  if (id == 0 || id >= nextId)
    fail(EINVAL, std::string(what) + ": unknown handle " + std::to_string(id));
  fail(EBADF,
       std::string(what) + ": handle " + std::to_string(id) + " was freed");
}

TensorStore::Region &TensorStore::ownRegion(Object &obj, const char *what) {
  if (obj.buffer)
    fail(EINVAL, std::string(what) + ": handle belongs to buffer " +
                     std::to_string(obj.buffer) +
                     "; transfers and waits go through the buffer");
  return *obj.region;
}

void TensorStore::startOp(Region &r, uint64_t id, const char *what) {
  if (r.opPending)
    fail(EBUSY, std::string(what) + ": handle " + std::to_string(id) +
                    " has an operation that was not waited for");
  r.opPending = true;
  r.opDone = false;
  r.opError = Failure();
}

void TensorStore::awaitOp(std::unique_lock<std::mutex> &lock, Region &r,
                          uint64_t id) {
  if (!r.opPending)
    fail(EINVAL, "wait: nothing to wait for on handle " + std::to_string(id) +
                     " (no offload or prefetch since the last wait)");
  uint64_t start = nowNs();
  opFinished.wait(lock, [&] { return r.opDone; });
  counters.waitNs += nowNs() - start;
  r.opPending = false;
  if (r.opError)
    throw Error(r.opError.errnum, r.opError.message);
}

//===----------------------------------------------------------------------===//
// Public operations
//===----------------------------------------------------------------------===//

static uint64_t shapeBytes(int dtype, std::span<const int64_t> shape) {
  unsigned size = dtypeSize(dtype);
  if (!size)
    fail(EINVAL, "unknown dtype " + std::to_string(dtype));
  if (shape.size() > 32)
    fail(EINVAL, "rank " + std::to_string(shape.size()) + " exceeds 32");
  uint64_t bytes = size;
  for (int64_t d : shape) {
    if (d < 0)
      fail(EINVAL, "negative dimension " + std::to_string(d));
    if (d && bytes > (uint64_t(1) << 62) / uint64_t(d))
      fail(EOVERFLOW, "tensor size overflows 64 bits");
    bytes *= uint64_t(d);
  }
  return bytes;
}

uint64_t TensorStore::createHandle(int dtype, std::span<const int64_t> shape,
                                   MemKind kind, void *memory) {
  uint64_t bytes = shapeBytes(dtype, shape);
  unsigned align = dtypeSize(dtype);
  if (memory && reinterpret_cast<uintptr_t>(memory) % align)
    fail(EINVAL, "memory " + std::to_string(uintptr_t(memory)) +
                     " is not aligned to the " + std::to_string(align) +
                     "-byte elements of " + dtypeName(dtype));
  uint64_t id = createBuffer(bytes, kind, memory);
  std::lock_guard<std::mutex> lock(mutex);
  Object &obj = objects.at(id);
  obj.isBuffer = false;
  obj.region->isBuffer = false;
  obj.dtype = dtype;
  obj.shape.assign(shape.begin(), shape.end());
  return id;
}

uint64_t TensorStore::createBuffer(uint64_t capacity, MemKind kind,
                                   void *memory) {
  if (kind != MemKind::Host && kind != MemKind::Device)
    fail(EINVAL, "unknown memory kind " + std::to_string(int(kind)));
  if (kind == MemKind::Device && !dev->available())
    fail(ENODEV, "device memory requested but " + dev->note());
  if (memory && dev->available() &&
      dev->isDevicePointer(memory) != (kind == MemKind::Device))
    fail(EINVAL, std::string("memory is not ") +
                     (kind == MemKind::Device ? "device" : "host") + " memory");
  auto region = std::make_shared<Region>();
  region->kind = kind;
  region->bytes = capacity;
  region->isBuffer = true;
  std::lock_guard<std::mutex> lock(mutex);
  region->memory = memory ? memory : allocateMemory(kind, capacity);
  region->owned = !memory;
  uint64_t id = nextId++;
  Object &obj = objects[id];
  obj.isBuffer = true;
  obj.region = std::move(region);
  obj.bytes = capacity;
  obj.dtype = int(DType::U8);
  obj.shape = {int64_t(capacity)};
  return id;
}

uint64_t TensorStore::addToBuffer(uint64_t buffer, int dtype,
                                  std::span<const int64_t> shape) {
  uint64_t bytes = shapeBytes(dtype, shape);
  std::lock_guard<std::mutex> lock(mutex);
  Object &buf = lookup(buffer, "buffer add");
  if (!buf.isBuffer)
    fail(EINVAL, "buffer add: " + std::to_string(buffer) + " is not a buffer");
  Region &r = *buf.region;
  if (r.everOffloaded || r.opPending || r.state != State::Resident)
    fail(EBUSY, "buffer add: buffer " + std::to_string(buffer) +
                    " was already offloaded; add members before the first "
                    "transfer");
  uint64_t offset = alignUp(r.used, kMemberAlign);
  if (offset > r.bytes || bytes > r.bytes - offset)
    fail(ENOSPC, "buffer add: buffer " + std::to_string(buffer) + " has " +
                     std::to_string(r.bytes - std::min(offset, r.bytes)) +
                     " bytes left, " + std::to_string(bytes) + " needed");
  r.used = offset + bytes;
  uint64_t id = nextId++;
  Object &obj = objects[id];
  obj.region = buf.region;
  obj.offset = offset;
  obj.bytes = bytes;
  obj.dtype = dtype;
  obj.shape.assign(shape.begin(), shape.end());
  obj.buffer = buffer;
  buf.members.push_back(id);
  return id;
}

void TensorStore::setHandBack(uint64_t id, HandBack handBack) {
  std::lock_guard<std::mutex> lock(mutex);
  Region &r = ownRegion(lookup(id, "hand-back"), "hand-back");
  if (r.owned || !r.memory)
    fail(EINVAL, "hand-back: handle " + std::to_string(id) +
                     " holds no memory of the caller's");
  if (r.opPending || r.state != State::Resident)
    fail(EBUSY, "hand-back: handle " + std::to_string(id) + " is " +
                    stateName(r.state) +
                    (r.opPending ? " with an operation not waited for" : ""));
  r.handBack = std::move(handBack);
}

void TensorStore::offload(uint64_t id, bool keepMemory,
                          std::optional<DeviceStream> after) {
  offloadGroup(std::span<const uint64_t>(&id, 1), keepMemory, after);
}

void TensorStore::prefetch(uint64_t id, void *dst,
                           std::optional<DeviceStream> after) {
  prefetchGroup(std::span<const uint64_t>(&id, 1),
                std::span<void *const>(&dst, 1), after);
}

void TensorStore::offloadGroup(std::span<const uint64_t> ids, bool keepMemory,
                               std::optional<DeviceStream> after) {
  auto batch = std::make_shared<Batch>();
  std::vector<HandBack> handBacks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    *batch = beginOffloads(ids, keepMemory, after, handBacks);
  }
  runHandBacks(handBacks);
  if (!batch->empty())
    enqueue([this, batch, keepMemory] { runOffloads(*batch, keepMemory); });
}

void TensorStore::prefetchGroup(std::span<const uint64_t> ids,
                                std::span<void *const> dsts,
                                std::optional<DeviceStream> after) {
  if (!dsts.empty() && dsts.size() != ids.size())
    fail(EINVAL, "prefetch: " + std::to_string(ids.size()) + " handles but " +
                     std::to_string(dsts.size()) + " destinations");
  auto batch = std::make_shared<Batch>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    *batch = beginPrefetches(ids, dsts, after);
  }
  if (!batch->empty())
    enqueue([this, batch] { runPrefetches(*batch); });
}

void TensorStore::orderAfter(Region &r, std::optional<DeviceStream> after) {
  if (!after || r.kind != MemKind::Device)
    return;
  if (!r.event)
    r.event = dev->createEvent();
  dev->record(r.event, *after);
  r.afterCaller = true;
}

std::vector<TensorStore::Object *>
TensorStore::groupMembers(std::span<const uint64_t> ids, const char *what) {
  std::vector<Object *> members;
  for (uint64_t id : ids) {
    Object &obj = lookup(id, what);
    Region &r = ownRegion(obj, what);
    if (r.opPending)
      fail(EBUSY, std::string(what) + ": handle " + std::to_string(id) +
                      " has an operation that was not waited for");
    for (Object *other : members)
      if (other->region.get() == &r)
        fail(EINVAL, std::string(what) + ": handle " + std::to_string(id) +
                         " appears twice in one group");
    members.push_back(&obj);
  }
  return members;
}

TensorStore::Batch
TensorStore::beginOffloads(std::span<const uint64_t> ids, bool keepMemory,
                           std::optional<DeviceStream> after,
                           std::vector<HandBack> &handBacks) {
  // Every member is checked and every extent reserved (opening a new data
  // file may fail) before any state changes: a group starts whole or not.
  std::vector<Object *> members = groupMembers(ids, "offload");
  std::vector<Region *> reserved;
  try {
    for (Object *obj : members) {
      Region &r = *obj->region;
      if (r.state != State::Resident || r.bytes == 0)
        continue;
      if (r.extent.file < 0) {
        r.extent = allocateExtent(r.bytes);
        r.file = files[r.extent.file].get();
        reserved.push_back(&r);
      }
      orderAfter(r, after);
    }
  } catch (...) {
    for (Region *r : reserved) {
      releaseExtent(r->extent);
      r->extent = Extent();
      r->file = nullptr;
    }
    throw;
  }
  Batch batch;
  for (size_t i = 0; i < members.size(); ++i) {
    Region &r = *members[i]->region;
    startOp(r, ids[i], "offload");
    ++counters.offloads;
    // A clean copy is on disk already, or there are no bytes to write.
    bool clean = r.state != State::Resident || r.bytes == 0;
    if (clean) {
      if (r.state == State::Resident) {
        r.everOffloaded = true;
        r.state = State::Both;
      }
      if (r.state == State::Both && !keepMemory) {
        if (HandBack handBack = releaseMemory(r))
          handBacks.push_back(std::move(handBack));
        r.state = State::OnDisk;
      }
      r.opDone = true;
    } else {
      r.everOffloaded = true;
      r.state = State::Writing;
      batch.push_back(std::make_unique<Transfer>(IoOpKind::Write,
                                                 members[i]->region, ids[i]));
    }
  }
  return batch;
}

TensorStore::Batch
TensorStore::beginPrefetches(std::span<const uint64_t> ids,
                             std::span<void *const> dsts,
                             std::optional<DeviceStream> after) {
  std::vector<Object *> members = groupMembers(ids, "prefetch");
  for (size_t i = 0; i < dsts.size(); ++i) {
    void *dst = dsts[i];
    const Object &obj = *members[i];
    const Region &r = *obj.region;
    if (!dst)
      continue;
    if (r.state != State::OnDisk && dst != r.memory)
      fail(EINVAL, "prefetch: handle " + std::to_string(ids[i]) +
                       " is already resident at other memory");
    if (reinterpret_cast<uintptr_t>(dst) % dtypeSize(obj.dtype))
      fail(EINVAL, "prefetch: destination is not aligned to the elements of " +
                       std::string(dtypeName(obj.dtype)));
    if (r.kind == MemKind::Device && !dev->isDevicePointer(dst))
      fail(EINVAL, "prefetch: destination is not device memory");
  }
  // Memory for every member that is read, before any state changes.
  std::vector<Region *> allocated;
  try {
    for (size_t i = 0; i < members.size(); ++i) {
      Region &r = *members[i]->region;
      if (r.state != State::OnDisk)
        continue;
      void *dst = dsts.empty() ? nullptr : dsts[i];
      r.memory = dst ? dst : allocateMemory(r.kind, r.bytes);
      r.owned = !dst;
      allocated.push_back(&r);
      if (r.bytes)
        orderAfter(r, after);
    }
  } catch (...) {
    for (Region *r : allocated) {
      // On disk only: the caller's memory was handed back long ago.
      (void)releaseMemory(*r);
      r->afterCaller = false;
    }
    throw;
  }
  Batch batch;
  for (size_t i = 0; i < members.size(); ++i) {
    Region &r = *members[i]->region;
    startOp(r, ids[i], "prefetch");
    ++counters.prefetches;
    if (r.state != State::OnDisk || r.bytes == 0) {
      r.state = r.state == State::OnDisk ? State::Both : r.state;
      r.opDone = true; // Already resident, or nothing to read.
      continue;
    }
    r.state = State::Reading;
    batch.push_back(
        std::make_unique<Transfer>(IoOpKind::Read, members[i]->region, ids[i]));
  }
  return batch;
}

void TensorStore::prefetchRange(uint64_t id, void *dst, uint64_t offset,
                                uint64_t bytes) {
  std::shared_ptr<Transfer> transfer;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Object &obj = lookup(id, "prefetch range");
    Region &r = ownRegion(obj, "prefetch range");
    // Named only when a check fails: a planned step reads parts every step.
    auto who = [id] { return "prefetch range: handle " + std::to_string(id); };
    if (bytes == 0 || offset > r.bytes || bytes > r.bytes - offset)
      fail(EINVAL, who() + ": bytes [" + std::to_string(offset) + ", " +
                       std::to_string(offset + bytes) +
                       ") are not a non-empty range of its " +
                       std::to_string(r.bytes) + " bytes");
    if (r.state != State::OnDisk && r.state != State::Both)
      fail(EINVAL, who() + " is " + stateName(r.state) +
                       "; only a tensor on disk can be read back in part");
    if (!dst)
      fail(EINVAL, who() + ": no destination");
    if (r.kind == MemKind::Device && !dev->isDevicePointer(dst))
      fail(EINVAL, who() + ": destination is not device memory");
    startOp(r, id, "prefetch range");
    ++counters.prefetches;
    transfer = std::make_shared<Transfer>(obj.region, id, dst, offset, bytes);
  }
  enqueue([this, transfer] { runRangeRead(*transfer); });
}

void TensorStore::runRangeRead(Transfer &t) {
  Region &r = *t.region;
  t.failure = checkFile(r, t.id, true);
  if (!t.failure) {
    startTransfer(t);
    t.failure = finishTransfer(t);
  }
  if (t.failure)
    settleCopies(r);
  // The region's state and memory are as they were: only the op ends.
  std::lock_guard<std::mutex> lock(mutex);
  if (t.failure)
    ++counters.failures;
  r.opError = std::move(t.failure);
  r.opDone = true;
  opFinished.notify_all();
}

void TensorStore::wait(uint64_t id) {
  DeviceEvent event = waitEvent(id);
  if (event) {
    uint64_t start = nowNs();
    dev->synchronize(event);
    counters.waitNs += nowNs() - start;
  }
}

DeviceEvent TensorStore::waitEvent(uint64_t id) {
  std::unique_lock<std::mutex> lock(mutex);
  Object &obj = lookup(id, "wait");
  Region &r = ownRegion(obj, "wait");
  awaitOp(lock, r, id);
  bool pending = r.eventPending;
  r.eventPending = false;
  return pending ? r.event : nullptr;
}

void TensorStore::waitStream(uint64_t id, DeviceStream stream) {
  if (DeviceEvent event = waitEvent(id))
    dev->streamWait(stream, event);
}

void TensorStore::markDirty(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex);
  Region &r = *lookup(id, "mark dirty").region;
  if (r.state == State::Both)
    r.state = State::Resident;
  else if (r.state != State::Resident)
    fail(EINVAL, "mark dirty: handle " + std::to_string(id) + " is " +
                     stateName(r.state));
}

void TensorStore::release(uint64_t id) {
  HandBack handBack;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Region &r = ownRegion(lookup(id, "release"), "release");
    if (r.opPending)
      fail(EBUSY, "release: handle " + std::to_string(id) +
                      " has an operation that was not waited for");
    if (r.state == State::Resident)
      fail(EINVAL, "release: handle " + std::to_string(id) +
                       " has no copy on disk (offload it first)");
    handBack = releaseMemory(r);
    r.state = State::OnDisk;
  }
  if (handBack)
    handBack();
}

void TensorStore::free(uint64_t id) {
  HandBack handBack;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Object &obj = lookup(id, "free");
    if (obj.buffer) {
      auto &members = objects.at(obj.buffer).members;
      members.erase(std::find(members.begin(), members.end(), id));
      objects.erase(id);
      return;
    }
    Region &r = *obj.region;
    if (r.opPending && !r.opDone)
      fail(EBUSY, "free: handle " + std::to_string(id) +
                      " has a transfer in flight; wait for it first");
    if (r.eventPending)
      dev->synchronize(r.event);
    handBack = releaseMemory(r);
    releaseExtent(r.extent);
    if (r.event)
      dev->destroyEvent(r.event);
    for (uint64_t member : obj.members)
      objects.erase(member);
    objects.erase(id);
  }
  if (handBack)
    handBack();
}

HandleInfo TensorStore::info(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex);
  Object &obj = lookup(id, "info");
  const Region &r = *obj.region;
  HandleInfo i;
  i.dtype = obj.dtype;
  i.shape = obj.shape;
  i.bytes = obj.bytes;
  i.kind = r.kind;
  i.state = r.state;
  i.data = r.memory ? static_cast<char *>(r.memory) + obj.offset : nullptr;
  i.buffer = obj.buffer;
  if (r.file) {
    i.file = r.file->path;
    i.fileOffset = r.extent.offset + obj.offset;
    i.extentBytes = obj.buffer ? obj.bytes : r.extent.length;
    i.direct = r.file->direct;
  }
  i.pending = r.opPending;
  return i;
}

bool TensorStore::isBuffer(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex);
  return lookup(id, "buffer").isBuffer;
}

StoreStats TensorStore::stats() {
  StoreStats s;
  s.bytesRead = counters.bytesRead;
  s.bytesWritten = counters.bytesWritten;
  s.readOps = counters.readOps;
  s.writeOps = counters.writeOps;
  s.syncOps = counters.syncOps;
  s.offloads = counters.offloads;
  s.prefetches = counters.prefetches;
  s.failures = counters.failures;
  s.stagedBytes = counters.stagedBytes;
  s.waitSeconds = counters.waitNs * 1e-9;
  s.stagingWaitSeconds = pool->waitSeconds();
  return s;
}

//===----------------------------------------------------------------------===//
// Transfers (run on worker threads)
//===----------------------------------------------------------------------===//

Failure TensorStore::checkFile(const Region &r, uint64_t id, bool reading) {
  const DataFile &f = *r.file;
  const Extent &e = r.extent;
  const char *what = reading ? "read" : "write";
  std::string who = "handle " + std::to_string(id);
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    return {errno,
            ioErrorMessage(what, f.path, e.offset, e.length, errno, who)};
  if (st.st_nlink == 0)
    return {ENOENT, ioErrorMessage(what, f.path, e.offset, e.length, ENOENT,
                                   who + ": the data file was removed "
                                         "underneath the runtime")};
  // What the last write left: whole blocks with O_DIRECT, exact bytes else.
  uint64_t written = f.direct ? alignUp(r.bytes, kBlock) : r.bytes;
  if (reading && uint64_t(st.st_size) < e.offset + written)
    return {ENODATA,
            ioErrorMessage(what, f.path, e.offset, written, ENODATA,
                           who +
                               ": the data file was truncated underneath "
                               "the runtime (size " +
                               std::to_string(st.st_size) + ")")};
  return {};
}

void TensorStore::startTransfer(Transfer &t) {
  // The pieces' callbacks outlive this call: they capture only `t`, `this`
  // and values.
  Region &r = *t.region;
  const DataFile &f = *r.file;
  const IoOpKind kind = t.kind;
  const bool reading = kind == IoOpKind::Read;
  const uint64_t n = t.bytes, end = t.begin + t.bytes;
  const uint64_t base = r.extent.offset;
  // Holds byte `t.begin` of the region.
  char *mem = t.memory;
  Tracker &tracker = t.tracker;

  auto failure = [&t](uint64_t offset, uint64_t len,
                      const IoResult &res) -> Failure {
    const bool reading = t.kind == IoOpKind::Read;
    std::string detail = "handle " + std::to_string(t.id);
    if (t.part)
      detail += " (reading back its bytes [" + std::to_string(t.begin) + ", " +
                std::to_string(t.begin + t.bytes) + "))";
    if (res.noProgress)
      detail += reading ? ": unexpected end of file (file truncated "
                          "underneath?)"
                        : ": the write made no progress";
    detail += "; stopped at file offset " + std::to_string(res.failOffset) +
              " after " + std::to_string(res.bytes) + " bytes";
    return {res.errnum, ioErrorMessage(ioOpName(t.kind), t.region->file->path,
                                       offset, len, res.errnum, detail)};
  };
  auto account = [this, reading](const IoResult &res) {
    (reading ? counters.bytesRead : counters.bytesWritten) += res.bytes;
    ++(reading ? counters.readOps : counters.writeOps);
  };
  auto request = [&](void *buf, uint64_t len, uint64_t offset, int bufIndex) {
    IoRequest q;
    q.kind = kind;
    q.fd = f.fd;
    q.fixedFile = f.fixed;
    q.buf = buf;
    q.len = len;
    q.offset = offset;
    q.bufIndex = bufIndex;
    return q;
  };

  // Host memory that O_DIRECT accepts moves without a copy. A partial last
  // block must not become a second device operation (on a latency-bound
  // disk it costs about as much as the first, see bench/run/latency-probe):
  // memory the runtime allocated is padded to whole blocks and moves whole,
  // a small tensor in caller memory is copied entirely into one staging
  // chunk, and only a large one sends its tail as a second, overlapped
  // operation. A part that starts inside a block always goes through
  // staging.
  uint64_t direct = 0;
  if (r.kind == MemKind::Host) {
    bool aligned =
        reinterpret_cast<uintptr_t>(mem) % kBlock == 0 && t.begin % kBlock == 0;
    if (!f.direct)
      direct = n;
    else if (aligned && (t.padded || n % kBlock == 0))
      direct = alignUp(n, kBlock);
    else if (aligned && n > std::min(pool->chunkBytes(), kStageWholeBytes))
      direct = n / kBlock * kBlock;
  }
  if (direct) {
    tracker.add();
    uint64_t at = base + t.begin;
    io->submit(request(mem, direct, at, -1),
               [&tracker, account, failure, at, direct](const IoResult &res) {
                 account(res);
                 tracker.done(res.ok() ? Failure() : failure(at, direct, res));
               });
  }

  try {
    if (r.afterCaller) {
      // Recorded on the caller's stream when the transfer was started; only
      // this job touches the flag while the region is in flight.
      dev->streamWait(reading ? toDevice : toHost, r.event);
      r.afterCaller = false;
    }
    for (uint64_t pos = t.begin + direct; pos < end;) {
      // O_DIRECT moves whole blocks: a part may start and end inside one,
      // whose other bytes stay in the chunk. (A write is always whole and
      // starts on a block.)
      uint64_t lead = f.direct ? pos % kBlock : 0;
      uint64_t len = std::min(pool->chunkBytes() - lead, end - pos);
      uint64_t ioLen = f.direct ? alignUp(lead + len, kBlock) : len;
      uint64_t at = base + pos - lead;
      // Where the piece lies in memory.
      char *piece = mem + (pos - t.begin);
      counters.stagedBytes += len;
      // Blocks while every chunk is in use: back-pressure.
      StagingPool::Chunk *c = pool->acquire();
      if (!reading) {
        if (r.kind == MemKind::Device) {
          try {
            dev->copyToHost(c->data, piece, len, toHost);
            dev->record(c->event, toHost);
            dev->synchronize(c->event);
          } catch (...) {
            pool->release(c);
            throw;
          }
        } else {
          std::memcpy(c->data, piece, len);
        }
        std::memset(c->data + len, 0, ioLen - len);
      }
      tracker.add();
      io->submit(request(c->data, ioLen, at, c->bufIndex),
                 [this, &tracker, account, failure, reading, piece, at, c, lead,
                  len, ioLen, kindOfMemory = r.kind](const IoResult &res) {
                   account(res);
                   Failure fl;
                   if (!res.ok())
                     fl = failure(at, ioLen, res);
                   if (!reading || fl) {
                     pool->release(c);
                   } else if (kindOfMemory == MemKind::Host) {
                     std::memcpy(piece, c->data + lead, len);
                     pool->release(c);
                   } else {
                     // Runs on the engine's completion thread: queue the
                     // copy and keep the chunk until the device is past it.
                     try {
                       dev->copyToDevice(piece, c->data + lead, len, toDevice);
                       pool->releaseAfter(c, toDevice);
                     } catch (const Error &e) {
                       pool->release(c);
                       fl = {e.errnum, e.what()};
                     }
                   }
                   tracker.done(std::move(fl));
                 });
      pos += len;
    }
  } catch (const Error &e) {
    tracker.add();
    tracker.done({e.errnum, e.what()});
  }
}

Failure TensorStore::finishTransfer(Transfer &t) {
  Failure result = t.tracker.wait();
  Region &r = *t.region;
  if (t.kind == IoOpKind::Read && r.kind == MemKind::Device) {
    if (!r.event)
      r.event = dev->createEvent();
    dev->record(r.event, toDevice);
    r.eventPending = true;
  }
  return result;
}

void TensorStore::settleCopies(Region &r) {
  if (!r.eventPending)
    return;
  try {
    dev->synchronize(r.event);
  } catch (const Error &) {
    // The read failed already; that failure is the one reported.
  }
  r.eventPending = false;
}

Failure TensorStore::preallocate(Region &r, uint64_t id) {
  // Only this region's job touches `extendsFile` while it is Writing.
  if (!r.extent.extendsFile)
    return {};
  if (::fallocate(r.file->fd, 0, off_t(r.extent.offset),
                  off_t(r.extent.length)) != 0 &&
      errno != EOPNOTSUPP)
    return {errno, ioErrorMessage("fallocate", r.file->path, r.extent.offset,
                                  r.extent.length, errno,
                                  "handle " + std::to_string(id))};
  r.extent.extendsFile = false;
  return {};
}

void TensorStore::runOffloads(Batch &batch, bool keepMemory) {
  // Every member's writes go out together; then each data file the group
  // wrote is made durable once.
  std::vector<Transfer *> started;
  for (auto &t : batch) {
    Region &r = *t->region;
    t->failure = checkFile(r, t->id, false);
    if (!t->failure)
      t->failure = preallocate(r, t->id);
    if (!t->failure) {
      startTransfer(*t);
      started.push_back(t.get());
    }
  }
  for (Transfer *t : started)
    t->failure = finishTransfer(*t);
  if (options.durable) {
    std::vector<const DataFile *> synced;
    for (auto &t : batch) {
      const DataFile *file = t->region->file;
      if (t->failure ||
          std::find(synced.begin(), synced.end(), file) != synced.end())
        continue;
      synced.push_back(file);
      IoRequest sync;
      sync.kind = IoOpKind::Fdatasync;
      sync.fd = file->fd;
      sync.fixedFile = file->fixed;
      IoResult res = io->run(sync);
      ++counters.syncOps;
      if (res.ok())
        continue;
      for (auto &member : batch)
        if (!member->failure && member->region->file == file)
          member->failure = {
              res.errnum,
              ioErrorMessage("fdatasync", file->path,
                             member->region->extent.offset,
                             member->region->extent.length, res.errnum,
                             "handle " + std::to_string(member->id))};
    }
  }
  // A file unlinked while it was written loses the data when it is closed:
  // look again before reporting the bytes as written.
  for (auto &t : batch)
    if (!t->failure)
      t->failure = checkFile(*t->region, t->id, false);
  // The caller hears that its memory is free before the wait returns, and
  // not under `mutex`. Only this job touches a region while it is Writing,
  // and setHandBack refuses regions in flight.
  if (!keepMemory)
    for (auto &t : batch)
      if (!t->failure)
        if (HandBack handBack = std::exchange(t->region->handBack, {}))
          handBack();
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &t : batch) {
    Region &r = *t->region;
    if (t->failure) {
      ++counters.failures;
      r.state = State::Resident;
    } else if (keepMemory) {
      r.state = State::Both;
    } else {
      (void)releaseMemory(r); // handed back above
      r.state = State::OnDisk;
    }
    r.opError = std::move(t->failure);
    r.opDone = true;
  }
  opFinished.notify_all();
}

void TensorStore::runPrefetches(Batch &batch) {
  std::vector<Transfer *> started;
  for (auto &t : batch) {
    t->failure = checkFile(*t->region, t->id, true);
    if (!t->failure) {
      startTransfer(*t);
      started.push_back(t.get());
    }
  }
  for (Transfer *t : started)
    t->failure = finishTransfer(*t);
  for (auto &t : batch)
    if (t->failure)
      settleCopies(*t->region);
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &t : batch) {
    Region &r = *t->region;
    if (t->failure) {
      ++counters.failures;
      // Read into memory of a handle on disk: nothing to hand back.
      (void)releaseMemory(r);
      r.state = State::OnDisk;
    } else {
      r.state = State::Both;
    }
    r.opError = std::move(t->failure);
    r.opDone = true;
  }
  opFinished.notify_all();
}

} // namespace ssd::rt
