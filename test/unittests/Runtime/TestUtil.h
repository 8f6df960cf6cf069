//===- TestUtil.h - Helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// Scratch directories on the real disk (so that O_DIRECT works), aligned
// buffers, patterned data, and backend decorators that gate or count raw
// operations so tests can observe in-flight states and queue depth.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_TEST_RUNTIME_TESTUTIL_H
#define SSD_TEST_RUNTIME_TESTUTIL_H

#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <sys/uio.h>
#include <vector>

namespace ssd::rt::test {

/// A fresh directory removed with its contents at scope exit.
class ScratchDir {
public:
  explicit ScratchDir(const std::string &parent = "") {
    std::string base = parent;
    if (base.empty()) {
      const char *env = std::getenv("SSDRT_TEST_DIR");
      base = env ? env : std::filesystem::temp_directory_path().string();
    }
    std::string tmpl = base + "/ssdrt-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
      throw std::runtime_error("mkdtemp failed in " + base);
    path = buf.data();
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string path;
};

/// Page-aligned heap memory.
struct AlignedBuf {
  explicit AlignedBuf(size_t bytes, size_t align = 4096)
      : size(bytes), data(static_cast<char *>(std::aligned_alloc(
                         align, (bytes + align - 1) / align * align))) {}
  ~AlignedBuf() { std::free(data); }
  AlignedBuf(const AlignedBuf &) = delete;
  size_t size;
  char *data;
};

/// Deterministic bytes that differ per seed and position.
inline void fillPattern(void *p, size_t n, uint32_t seed) {
  auto *b = static_cast<unsigned char *>(p);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b[i] = static_cast<unsigned char>(x);
  }
}

inline bool hasPattern(const void *p, size_t n, uint32_t seed) {
  std::vector<unsigned char> want(n);
  fillPattern(want.data(), n, seed);
  return std::memcmp(want.data(), p, n) == 0;
}

/// Holds raw ops until `open()`, counts the most ever in flight and the raw
/// ops submitted of each kind.
class GatedBackend final : public IoBackend, private CompletionSink {
public:
  explicit GatedBackend(std::unique_ptr<IoBackend> inner, bool closed = false)
      : inner(std::move(inner)), closed(closed) {}
  void open() {
    std::vector<RawOp> held;
    {
      std::lock_guard<std::mutex> lock(mutex);
      closed = false;
      held.swap(this->held);
    }
    if (!held.empty())
      inner->submit(held);
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex);
    closed = true;
  }
  unsigned maxInFlight() const { return peak; }
  unsigned submitted(IoOpKind kind) const {
    return perKind[static_cast<size_t>(kind)];
  }
  size_t heldCount() {
    std::lock_guard<std::mutex> lock(mutex);
    return held.size();
  }

  const char *name() const override { return inner->name(); }
  unsigned queueDepth() const override { return inner->queueDepth(); }
  void setSink(CompletionSink *s) override {
    sink = s;
    inner->setSink(this);
  }
  void submit(std::span<const RawOp> ops) override {
    unsigned now = inFlight += unsigned(ops.size());
    unsigned prev = peak.load();
    while (now > prev && !peak.compare_exchange_weak(prev, now)) {
    }
    for (const RawOp &op : ops)
      ++perKind[static_cast<size_t>(op.kind)];
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (closed) {
        held.insert(held.end(), ops.begin(), ops.end());
        return;
      }
    }
    inner->submit(ops);
  }
  int registerBuffers(std::span<const iovec> b) override {
    return inner->registerBuffers(b);
  }
  int registerFile(int fd) override { return inner->registerFile(fd); }
  void unregisterFile(int i) override { inner->unregisterFile(i); }

private:
  void complete(uint64_t tag, int32_t res) override {
    --inFlight;
    sink->complete(tag, res);
  }
  std::unique_ptr<IoBackend> inner;
  CompletionSink *sink = nullptr;
  std::mutex mutex;
  bool closed;
  std::vector<RawOp> held;
  std::atomic<unsigned> inFlight{0}, peak{0};
  std::atomic<unsigned> perKind[4] = {};
};

inline int refuseUring(unsigned, io_uring *, io_uring_params *) {
  return -EPERM;
}

/// The errnum of the Error `fn` throws (0 when it throws none), and with
/// `message`, its text.
inline int errnumOf(const std::function<void()> &fn,
                    std::string *message = nullptr) {
  try {
    fn();
  } catch (const Error &e) {
    if (message)
      *message = e.what();
    return e.errnum;
  }
  return 0;
}

/// A rule failing ops of one kind with `errnum`: `times` of them (negative:
/// all), after letting `skip` pass.
inline FaultRule failing(IoOpKind kind, int errnum, int64_t times = 1,
                         uint64_t skip = 0) {
  FaultRule rule;
  rule.action = FaultRule::Action::Fail;
  rule.errnum = errnum;
  rule.anyKind = false;
  rule.kind = kind;
  rule.times = times;
  rule.skip = skip;
  return rule;
}

} // namespace ssd::rt::test

#endif // SSD_TEST_RUNTIME_TESTUTIL_H
