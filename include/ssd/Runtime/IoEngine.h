//===- IoEngine.h - Asynchronous file I/O behind one interface --*- C++ -*-===//
//
// Two layers. An `IoBackend` performs raw operations, each one system call's
// worth (io_uring SQEs, or pread/pwrite on a thread pool), and reports every
// operation exactly once through a `CompletionSink`, possibly short or failed.
// `IoEngine` sits on top and gives callers whole transfers: it splits them
// into bounded chunks, keeps at most the queue depth in flight, batches
// submissions, resubmits short transfers for the remainder, retries EINTR and
// EAGAIN, and completes each request once with a callback or a future.
// Because the robust logic lives above the backend, a fault-injecting
// backend decorator exercises it exactly as a misbehaving kernel would.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_IOENGINE_H
#define SSD_RUNTIME_IOENGINE_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

struct iovec;
struct io_uring;
struct io_uring_params;

namespace ssd::rt {

enum class IoOpKind : uint8_t { Read, Write, Fsync, Fdatasync };

const char *ioOpName(IoOpKind kind);

/// One raw operation: a single read, write or sync system call.
struct RawOp {
  IoOpKind kind = IoOpKind::Read;
  int fd = -1;
  /// Registered file index, or -1 to use `fd`.
  int fixedFile = -1;
  void *buf = nullptr;
  uint32_t len = 0;
  uint64_t offset = 0;
  /// Registered buffer index containing [buf, buf+len), or -1.
  int bufIndex = -1;
  /// Opaque value handed back with the completion.
  uint64_t tag = 0;
};

/// Receives raw completions: `res` is bytes transferred (>= 0) or -errno.
class CompletionSink {
public:
  virtual ~CompletionSink() = default;
  virtual void complete(uint64_t tag, int32_t res) = 0;
};

/// Raw asynchronous operations. Thread-safe: `submit` may be called from
/// several threads, including from inside `CompletionSink::complete`.
class IoBackend {
public:
  virtual ~IoBackend() = default;
  virtual const char *name() const = 0;
  /// The most operations the backend can hold in flight.
  virtual unsigned queueDepth() const = 0;
  /// Must be called once before the first `submit`.
  virtual void setSink(CompletionSink *sink) = 0;
  /// Starts `ops`. Every op is completed exactly once through the sink, even
  /// when it cannot be started (it then completes with the error).
  virtual void submit(std::span<const RawOp> ops) = 0;
  /// Registers buffers for zero-copy fixed I/O; index i names bufs[i].
  /// Returns 0 or -errno (the caller then uses unregistered I/O).
  virtual int registerBuffers(std::span<const iovec> bufs);
  /// Registers `fd`; returns its index (>= 0) or -errno.
  virtual int registerFile(int fd);
  virtual void unregisterFile(int index);
};

/// How `io_uring_queue_init_params` is reached; tests substitute a function
/// that refuses, as a seccomp filter or an old kernel would.
using UringInitFn = int (*)(unsigned entries, io_uring *ring,
                            io_uring_params *params);

enum class EngineKind { Auto, IoUring, Threads };

/// Parses "auto", "io_uring"/"uring" or "threads"; throws EINVAL otherwise.
EngineKind parseEngineKind(const std::string &name);

/// Creates a backend. `Auto` honours SSDRT_IO_ENGINE=threads|io_uring, then
/// tries io_uring and falls back to the thread pool when the ring is refused;
/// `note` receives a one-line explanation of the choice. An explicit
/// `IoUring` that is refused throws.
std::unique_ptr<IoBackend> makeBackend(EngineKind kind, unsigned queueDepth,
                                       std::string &note,
                                       UringInitFn uringInit = nullptr);

std::unique_ptr<IoBackend> makeUringBackend(unsigned queueDepth,
                                            UringInitFn init, int &err);
std::unique_ptr<IoBackend> makeThreadBackend(unsigned threads);

/// Faults a `FaultInjectingBackend` can inject.
struct FaultRule {
  enum class Action {
    /// Transfer only part of the op (half, rounded down to 4 KiB, at least
    /// 4 KiB): the engine must resubmit the remainder.
    Short,
    /// Complete the op with -errnum without performing it.
    Fail,
    /// Complete the op with 0 bytes without performing it (a transfer that
    /// makes no progress, like reading past the end of a file).
    ZeroBytes,
  };
  Action action = Action::Fail;
  int errnum = 0;
  /// Only ops of this kind, or every kind when unset.
  bool anyKind = true;
  IoOpKind kind = IoOpKind::Read;
  /// Lets this many matching ops pass before firing.
  uint64_t skip = 0;
  /// Fires this many times; negative means forever.
  int64_t times = 1;
};

/// Decorates a backend and injects faults according to rules (checked in
/// order, first match wins). Thread-safe.
class FaultInjectingBackend : public IoBackend {
public:
  explicit FaultInjectingBackend(std::unique_ptr<IoBackend> inner);
  ~FaultInjectingBackend() override;
  void addRule(const FaultRule &rule);
  void clearRules();
  /// How many faults fired so far.
  uint64_t firedCount() const;

  const char *name() const override;
  unsigned queueDepth() const override;
  void setSink(CompletionSink *sink) override;
  void submit(std::span<const RawOp> ops) override;
  int registerBuffers(std::span<const iovec> bufs) override;
  int registerFile(int fd) override;
  void unregisterFile(int index) override;

private:
  struct Rule {
    FaultRule spec;
    uint64_t seen = 0;
    int64_t fired = 0;
  };
  std::unique_ptr<IoBackend> inner;
  CompletionSink *sink = nullptr;
  mutable std::mutex mutex;
  std::vector<Rule> rules;
  uint64_t fired = 0;
};

/// A whole transfer or sync for `IoEngine`.
struct IoRequest {
  IoOpKind kind = IoOpKind::Read;
  int fd = -1;
  int fixedFile = -1;
  void *buf = nullptr;
  uint64_t len = 0;
  uint64_t offset = 0;
  /// Registered buffer holding the whole of [buf, buf+len), or -1.
  int bufIndex = -1;
};

/// The outcome of one request.
struct IoResult {
  /// 0, or the positive errno that stopped the transfer.
  int errnum = 0;
  /// Bytes transferred (all of `len` on success).
  uint64_t bytes = 0;
  /// File offset at which the failing raw operation started.
  uint64_t failOffset = 0;
  /// Set when a transfer stopped making progress (0-byte result); `errnum`
  /// is then ENODATA for reads (end of file) and EIO for writes.
  bool noProgress = false;
  bool ok() const { return errnum == 0; }
};

using IoCallback = std::function<void(const IoResult &)>;

/// Robust, batched, thread-safe transfers over a backend.
class IoEngine final : private CompletionSink {
public:
  struct Options {
    /// Largest single raw transfer; longer requests are split.
    uint64_t maxChunkBytes = 4u << 20;
    /// EINTR/EAGAIN and zero-progress retries of a chunk in a row.
    unsigned maxRetries = 8;
  };

  IoEngine(std::unique_ptr<IoBackend> backend, Options options);
  explicit IoEngine(std::unique_ptr<IoBackend> backend)
      : IoEngine(std::move(backend), Options()) {}
  /// Waits for every request in flight, then stops the backend.
  ~IoEngine() override;

  IoEngine(const IoEngine &) = delete;
  IoEngine &operator=(const IoEngine &) = delete;

  /// Queues `requests` and starts as many chunks as the queue depth allows,
  /// in one backend submission. `done[i]` runs exactly once for
  /// `requests[i]`, on a backend thread (or, for a request that fails before
  /// starting, possibly on the caller's thread). Never blocks on I/O.
  /// Requests are not ordered with each other: an fsync/fdatasync covers the
  /// writes that completed before it was submitted, so callers submit it
  /// after those writes' callbacks have run.
  void submit(std::span<const IoRequest> requests, std::span<IoCallback> done);
  void submit(const IoRequest &request, IoCallback done);
  std::future<IoResult> submit(const IoRequest &request);
  /// Submits and waits.
  IoResult run(const IoRequest &request);

  IoBackend &backend() { return *backendImpl; }
  const char *name() const { return backendImpl->name(); }
  unsigned queueDepth() const { return depth; }
  uint64_t maxChunkBytes() const { return options.maxChunkBytes; }

private:
  struct Request;
  struct Chunk;
  void complete(uint64_t tag, int32_t res) override;
  /// Cuts chunks while slots are free; caller holds `mutex`.
  void takeChunks(std::vector<RawOp> &out);
  void finishChunk(Chunk *chunk);
  static RawOp rawFor(const Chunk &chunk);

  std::unique_ptr<IoBackend> backendImpl;
  Options options;
  unsigned depth;

  // `mutex` guards everything below. Backend calls are made without it held,
  // so a backend may complete an op on the submitting thread.
  std::mutex mutex;
  std::condition_variable idle;
  std::deque<Request *> waiting;
  unsigned inFlight = 0;
  uint64_t requestsOpen = 0;
};

} // namespace ssd::rt

#endif // SSD_RUNTIME_IOENGINE_H
