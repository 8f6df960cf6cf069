//===- UringBackend.cpp - Raw operations on an io_uring -------------------===//
//
// One ring per engine. Submitters prepare SQEs under `sqMutex` and submit the
// whole batch with one io_uring_submit; a reaper thread waits for CQEs and
// hands them to the sink. Operations that completion callbacks submit (the
// next chunks, retries) are pushed with one io_uring_submit per CQE batch.
// Files and buffers can be registered so that the kernel skips the per-op file
// lookup and page pinning.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <liburing.h>
#include <sched.h>
#include <thread>

namespace ssd::rt {
namespace {

constexpr uint64_t kStopTag = ~uint64_t(0);
constexpr unsigned kFileSlots = 64;

class UringBackend final : public IoBackend {
public:
  explicit UringBackend(unsigned depth) : depth(depth) {}

  int init(UringInitFn initFn) {
    io_uring_params params{};
    int r = initFn(depth, &ring, &params);
    if (r < 0)
      return r;
    initialized = true;
    // A sparse table lets files be registered and dropped one at a time.
    filesRegistered = io_uring_register_files_sparse(&ring, kFileSlots) == 0;
    fileSlotUsed.assign(kFileSlots, false);
    return 0;
  }

  ~UringBackend() override {
    if (!initialized)
      return;
    if (reaper.joinable()) {
      // The engine only destroys its backend when nothing is in flight, so
      // the stop NOP is the last completion the reaper sees.
      {
        std::lock_guard<std::mutex> lock(sqMutex);
        io_uring_sqe *sqe = getSqe();
        io_uring_prep_nop(sqe);
        io_uring_sqe_set_data64(sqe, kStopTag);
        submitPending();
      }
      reaper.join();
    }
    // Unregister explicitly: this waits until the kernel has dropped its
    // file references, whereas the teardown behind io_uring_queue_exit runs
    // later on a kernel worker and would keep the filesystem busy (umount
    // fails with EBUSY right after the context is destroyed).
    if (filesRegistered)
      io_uring_unregister_files(&ring);
    io_uring_unregister_buffers(&ring);
    io_uring_queue_exit(&ring);
  }

  const char *name() const override { return "io_uring"; }
  unsigned queueDepth() const override { return depth; }

  void setSink(CompletionSink *s) override {
    sink = s;
    reaper = std::thread([this] { reap(); });
  }

  void submit(std::span<const RawOp> ops) override {
    std::lock_guard<std::mutex> lock(sqMutex);
    for (const RawOp &op : ops) {
      io_uring_sqe *sqe = getSqe();
      int fd = op.fixedFile >= 0 ? op.fixedFile : op.fd;
      switch (op.kind) {
      case IoOpKind::Read:
        if (op.bufIndex >= 0)
          io_uring_prep_read_fixed(sqe, fd, op.buf, op.len, op.offset,
                                   op.bufIndex);
        else
          io_uring_prep_read(sqe, fd, op.buf, op.len, op.offset);
        break;
      case IoOpKind::Write:
        if (op.bufIndex >= 0)
          io_uring_prep_write_fixed(sqe, fd, op.buf, op.len, op.offset,
                                    op.bufIndex);
        else
          io_uring_prep_write(sqe, fd, op.buf, op.len, op.offset);
        break;
      case IoOpKind::Fsync:
        io_uring_prep_fsync(sqe, fd, 0);
        break;
      case IoOpKind::Fdatasync:
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        break;
      }
      if (op.fixedFile >= 0)
        io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
      io_uring_sqe_set_data64(sqe, op.tag);
    }
    // Release: everything this thread wrote for these ops (the engine's
    // chunk records behind the tags) happens-before the reaper's acquire of
    // the same counter. The kernel orders SQ and CQ too, but only this edge
    // is visible to ThreadSanitizer.
    published.fetch_add(1, std::memory_order_release);
    if (reapingBackend == this)
      // Called from a completion callback: reap() submits everything the
      // batch's callbacks prepared with one io_uring_submit after the batch.
      flushAfterBatch = true;
    else
      submitPending();
  }

  int registerBuffers(std::span<const iovec> bufs) override {
    std::lock_guard<std::mutex> lock(sqMutex);
    return io_uring_register_buffers(&ring, bufs.data(), bufs.size());
  }

  int registerFile(int fd) override {
    std::lock_guard<std::mutex> lock(sqMutex);
    if (!filesRegistered)
      return -EOPNOTSUPP;
    for (unsigned i = 0; i < kFileSlots; ++i) {
      if (fileSlotUsed[i])
        continue;
      int r = io_uring_register_files_update(&ring, i, &fd, 1);
      if (r < 0)
        return r;
      fileSlotUsed[i] = true;
      return static_cast<int>(i);
    }
    return -ENFILE;
  }

  void unregisterFile(int index) override {
    std::lock_guard<std::mutex> lock(sqMutex);
    int none = -1;
    io_uring_register_files_update(&ring, index, &none, 1);
    fileSlotUsed[index] = false;
  }

private:
  /// Caller holds `sqMutex`. The engine keeps at most `depth` ops in flight
  /// and the SQ has at least `depth` entries, so flushing frees a slot.
  io_uring_sqe *getSqe() {
    io_uring_sqe *sqe;
    while (!(sqe = io_uring_get_sqe(&ring)))
      submitPending();
    return sqe;
  }

  /// Caller holds `sqMutex`. Pushes every prepared SQE to the kernel.
  void submitPending() {
    while (io_uring_sq_ready(&ring) > 0) {
      int r = io_uring_submit(&ring);
      if (r >= 0 || r == -EINTR)
        continue;
      if (r == -EAGAIN || r == -EBUSY) {
        // The kernel is short of resources or the CQ is full; the reaper
        // drains it without needing `sqMutex`.
        sched_yield();
        continue;
      }
      // Any other error means the ring itself is broken (EBADF, EFAULT):
      // ops could neither be started nor completed, so stop loudly.
      logNote("io_uring_submit failed: " + errnoText(-r));
      std::abort();
    }
  }

  void reap() {
    reapingBackend = this;
    std::vector<std::pair<uint64_t, int32_t>> batch;
    for (;;) {
      io_uring_cqe *cqe;
      int r = io_uring_wait_cqe(&ring, &cqe);
      if (r < 0)
        continue; // EINTR; nothing was consumed.
      // Acquire: pairs with the release in submit(); a CQE can only exist
      // for an op whose submit already incremented the counter.
      (void)published.load(std::memory_order_acquire);
      batch.clear();
      unsigned head, seen = 0;
      io_uring_for_each_cqe(&ring, head, cqe) {
        batch.push_back({io_uring_cqe_get_data64(cqe), cqe->res});
        ++seen;
      }
      // Free the CQ slots before running callbacks, which may submit more.
      io_uring_cq_advance(&ring, seen);
      bool stop = false;
      for (auto [tag, res] : batch) {
        if (tag == kStopTag)
          stop = true;
        else
          sink->complete(tag, res);
      }
      // Before waiting again: the prepared SQEs may be what completes next.
      if (flushAfterBatch) {
        std::lock_guard<std::mutex> lock(sqMutex);
        flushAfterBatch = false;
        submitPending();
      }
      if (stop)
        return;
    }
  }

  unsigned depth;
  io_uring ring{};
  bool initialized = false;
  bool filesRegistered = false;
  std::vector<bool> fileSlotUsed;
  CompletionSink *sink = nullptr;
  std::mutex sqMutex;
  std::atomic<uint64_t> published{0};
  /// Only read and written on the reaper thread.
  bool flushAfterBatch = false;
  std::thread reaper;
  /// The backend whose reaper runs on this thread, if any.
  static thread_local UringBackend *reapingBackend;
};

thread_local UringBackend *UringBackend::reapingBackend = nullptr;

} // namespace

std::unique_ptr<IoBackend> makeUringBackend(unsigned queueDepth,
                                            UringInitFn init, int &err) {
  auto backend = std::make_unique<UringBackend>(std::max(1u, queueDepth));
  err = -backend->init(init ? init : io_uring_queue_init_params);
  if (err)
    return nullptr;
  return backend;
}

} // namespace ssd::rt
