//===- ThreadBackend.cpp - Raw operations on a pread/pwrite thread pool ---===//
//
// The fallback backend for machines where io_uring is refused (seccomp
// filters, old kernels) or where SSDRT_IO_ENGINE=threads asks for it. Each
// worker runs one system call per raw op and reports it unchanged (short or
// failed), so that the engine above handles every case the same way.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/IoEngine.h"

#include <cerrno>
#include <condition_variable>
#include <thread>
#include <unistd.h>

namespace ssd::rt {
namespace {

class ThreadBackend final : public IoBackend {
public:
  explicit ThreadBackend(unsigned threads) : threadCount(threads) {}

  ~ThreadBackend() override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    ready.notify_all();
    for (std::thread &t : workers)
      t.join();
  }

  const char *name() const override { return "threads"; }
  unsigned queueDepth() const override { return threadCount; }

  void setSink(CompletionSink *s) override {
    sink = s;
    for (unsigned i = 0; i < threadCount; ++i)
      workers.emplace_back([this] { work(); });
  }

  void submit(std::span<const RawOp> ops) override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.insert(queue.end(), ops.begin(), ops.end());
    }
    if (ops.size() == 1)
      ready.notify_one();
    else
      ready.notify_all();
  }

private:
  static int32_t perform(const RawOp &op) {
    ssize_t r = 0;
    switch (op.kind) {
    case IoOpKind::Read:
      r = ::pread(op.fd, op.buf, op.len, static_cast<off_t>(op.offset));
      break;
    case IoOpKind::Write:
      r = ::pwrite(op.fd, op.buf, op.len, static_cast<off_t>(op.offset));
      break;
    case IoOpKind::Fsync:
      r = ::fsync(op.fd);
      break;
    case IoOpKind::Fdatasync:
      r = ::fdatasync(op.fd);
      break;
    }
    return r < 0 ? -errno : static_cast<int32_t>(r);
  }

  void work() {
    for (;;) {
      RawOp op;
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [&] { return stopping || !queue.empty(); });
        if (queue.empty())
          return;
        op = queue.front();
        queue.pop_front();
      }
      sink->complete(op.tag, perform(op));
    }
  }

  unsigned threadCount;
  CompletionSink *sink = nullptr;
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<RawOp> queue;
  bool stopping = false;
  std::vector<std::thread> workers;
};

} // namespace

std::unique_ptr<IoBackend> makeThreadBackend(unsigned threads) {
  return std::make_unique<ThreadBackend>(std::max(1u, threads));
}

} // namespace ssd::rt
