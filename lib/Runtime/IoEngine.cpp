//===- IoEngine.cpp - Chunked, retrying transfers over a backend ----------===//
//
// The robust half of the I/O engine: chunking, queue-depth accounting, short
// transfer resubmission and EINTR/EAGAIN retries, plus the engine factory and
// the fault-injecting backend decorator used by the tests.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/IoEngine.h"

#include "ssd/Runtime/DType.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/uio.h>
#include <thread>

namespace ssd::rt {

const char *ioOpName(IoOpKind kind) {
  switch (kind) {
  case IoOpKind::Read:
    return "read";
  case IoOpKind::Write:
    return "write";
  case IoOpKind::Fsync:
    return "fsync";
  case IoOpKind::Fdatasync:
    return "fdatasync";
  }
  return "?";
}

int IoBackend::registerBuffers(std::span<const iovec>) { return -EOPNOTSUPP; }
int IoBackend::registerFile(int) { return -EOPNOTSUPP; }
void IoBackend::unregisterFile(int) {}

//===----------------------------------------------------------------------===//
// Engine selection
//===----------------------------------------------------------------------===//

EngineKind parseEngineKind(const std::string &name) {
  if (name.empty() || name == "auto")
    return EngineKind::Auto;
  if (name == "io_uring" || name == "uring")
    return EngineKind::IoUring;
  if (name == "threads")
    return EngineKind::Threads;
  fail(EINVAL, "unknown I/O engine '" + name +
                   "' (expected auto, io_uring or threads)");
}

std::unique_ptr<IoBackend> makeBackend(EngineKind kind, unsigned queueDepth,
                                       std::string &note,
                                       UringInitFn uringInit) {
  std::string why;
  if (kind == EngineKind::Auto) {
    const char *env = std::getenv("SSDRT_IO_ENGINE");
    if (env && *env) {
      kind = parseEngineKind(env);
      why = " (SSDRT_IO_ENGINE=" + std::string(env) + ")";
    }
  }
  unsigned threads = std::clamp(queueDepth, 1u, 64u);
  if (kind == EngineKind::Threads) {
    note = "I/O engine: thread pool, " + std::to_string(threads) +
           " threads, pread/pwrite" + why;
    return makeThreadBackend(threads);
  }
  int err = 0;
  if (auto uring = makeUringBackend(queueDepth, uringInit, err)) {
    note =
        "I/O engine: io_uring, queue depth " + std::to_string(queueDepth) + why;
    return uring;
  }
  if (kind == EngineKind::IoUring && why.empty())
    fail(err, "io_uring_queue_init refused: " + errnoText(err));
  note =
      "I/O engine: thread pool, " + std::to_string(threads) +
      " threads, pread/pwrite (io_uring_queue_init refused: " + errnoText(err) +
      ")";
  return makeThreadBackend(threads);
}

//===----------------------------------------------------------------------===//
// Fault injection
//===----------------------------------------------------------------------===//

FaultInjectingBackend::FaultInjectingBackend(std::unique_ptr<IoBackend> inner)
    : inner(std::move(inner)) {}
FaultInjectingBackend::~FaultInjectingBackend() = default;

void FaultInjectingBackend::addRule(const FaultRule &rule) {
  std::lock_guard<std::mutex> lock(mutex);
  rules.push_back({rule});
}

void FaultInjectingBackend::clearRules() {
  std::lock_guard<std::mutex> lock(mutex);
  rules.clear();
}

uint64_t FaultInjectingBackend::firedCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return fired;
}

const char *FaultInjectingBackend::name() const { return inner->name(); }
unsigned FaultInjectingBackend::queueDepth() const {
  return inner->queueDepth();
}
void FaultInjectingBackend::setSink(CompletionSink *s) {
  sink = s;
  inner->setSink(s);
}
int FaultInjectingBackend::registerBuffers(std::span<const iovec> bufs) {
  return inner->registerBuffers(bufs);
}
int FaultInjectingBackend::registerFile(int fd) {
  return inner->registerFile(fd);
}
void FaultInjectingBackend::unregisterFile(int index) {
  inner->unregisterFile(index);
}

void FaultInjectingBackend::submit(std::span<const RawOp> ops) {
  std::vector<RawOp> pass;
  std::vector<std::pair<uint64_t, int32_t>> injected;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (RawOp op : ops) {
      bool faulted = false;
      bool transfer = op.kind == IoOpKind::Read || op.kind == IoOpKind::Write;
      for (Rule &rule : rules) {
        const FaultRule &spec = rule.spec;
        if (!spec.anyKind && spec.kind != op.kind)
          continue;
        if (spec.action != FaultRule::Action::Fail && !transfer)
          continue;
        if (spec.action == FaultRule::Action::Short && op.len <= kIoAlignment)
          continue;
        if (spec.times >= 0 && rule.fired >= spec.times)
          continue;
        if (rule.seen++ < spec.skip)
          continue;
        ++rule.fired;
        ++fired;
        if (spec.action == FaultRule::Action::Short) {
          op.len = std::max<uint32_t>(kIoAlignment,
                                      alignDown(op.len / 2, kIoAlignment));
        } else {
          faulted = true;
          injected.push_back({op.tag, spec.action == FaultRule::Action::Fail
                                          ? -spec.errnum
                                          : 0});
        }
        break;
      }
      if (!faulted)
        pass.push_back(op);
    }
  }
  if (!pass.empty())
    inner->submit(pass);
  for (auto [tag, res] : injected)
    sink->complete(tag, res);
}

//===----------------------------------------------------------------------===//
// IoEngine
//===----------------------------------------------------------------------===//

struct IoEngine::Request {
  IoRequest req;
  IoCallback done;
  /// Bytes already cut into chunks.
  uint64_t issued = 0;
  bool queued = true;
  unsigned outstanding = 0;
  uint64_t bytesDone = 0;
  IoResult result;
};

struct IoEngine::Chunk {
  Request *request;
  IoOpKind kind;
  int fd, fixedFile, bufIndex;
  char *buf;
  uint64_t offset;
  uint32_t len;
  uint32_t done = 0;
  unsigned retries = 0;
  int errnum = 0;
  bool noProgress = false;
};

IoEngine::IoEngine(std::unique_ptr<IoBackend> backend, Options options)
    : backendImpl(std::move(backend)), options(options),
      depth(std::max(1u, backendImpl->queueDepth())) {
  // Raw transfers are counted in 32 bits; keep chunks well below that.
  this->options.maxChunkBytes =
      std::clamp<uint64_t>(this->options.maxChunkBytes, kIoAlignment, 1u << 30);
  backendImpl->setSink(this);
}

IoEngine::~IoEngine() {
  {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return requestsOpen == 0; });
  }
  backendImpl.reset();
}

RawOp IoEngine::rawFor(const Chunk &chunk) {
  RawOp op;
  op.kind = chunk.kind;
  op.fd = chunk.fd;
  op.fixedFile = chunk.fixedFile;
  op.buf = chunk.buf + chunk.done;
  op.len = chunk.len - chunk.done;
  op.offset = chunk.offset + chunk.done;
  op.bufIndex = chunk.bufIndex;
  op.tag = reinterpret_cast<uint64_t>(&chunk);
  return op;
}

void IoEngine::takeChunks(std::vector<RawOp> &out) {
  while (inFlight < depth && !waiting.empty()) {
    Request *r = waiting.front();
    const IoRequest &q = r->req;
    bool sync = q.kind == IoOpKind::Fsync || q.kind == IoOpKind::Fdatasync;
    uint64_t len =
        sync ? 0 : std::min(options.maxChunkBytes, q.len - r->issued);
    auto *chunk = new Chunk{r,
                            q.kind,
                            q.fd,
                            q.fixedFile,
                            q.bufIndex,
                            static_cast<char *>(q.buf) + r->issued,
                            q.offset + r->issued,
                            static_cast<uint32_t>(len)};
    r->issued += len;
    if (sync || r->issued == q.len) {
      waiting.pop_front();
      r->queued = false;
    }
    ++r->outstanding;
    ++inFlight;
    out.push_back(rawFor(*chunk));
  }
}

void IoEngine::submit(std::span<const IoRequest> requests,
                      std::span<IoCallback> done) {
  std::vector<std::pair<IoCallback, IoResult>> immediate;
  std::vector<RawOp> raws;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0; i < requests.size(); ++i) {
      const IoRequest &q = requests[i];
      bool sync = q.kind == IoOpKind::Fsync || q.kind == IoOpKind::Fdatasync;
      if (!sync && q.len == 0) {
        immediate.push_back({std::move(done[i]), IoResult()});
        continue;
      }
      auto *r = new Request;
      r->req = q;
      r->done = std::move(done[i]);
      waiting.push_back(r);
      ++requestsOpen;
    }
    takeChunks(raws);
  }
  // One backend call for the whole batch: a single io_uring_submit.
  if (!raws.empty())
    backendImpl->submit(raws);
  for (auto &[cb, res] : immediate)
    cb(res);
}

void IoEngine::submit(const IoRequest &request, IoCallback done) {
  submit(std::span<const IoRequest>(&request, 1),
         std::span<IoCallback>(&done, 1));
}

std::future<IoResult> IoEngine::submit(const IoRequest &request) {
  auto promise = std::make_shared<std::promise<IoResult>>();
  std::future<IoResult> future = promise->get_future();
  submit(request, [promise](const IoResult &r) { promise->set_value(r); });
  return future;
}

IoResult IoEngine::run(const IoRequest &request) {
  return submit(request).get();
}

void IoEngine::complete(uint64_t tag, int32_t res) {
  auto *chunk = reinterpret_cast<Chunk *>(tag);
  bool sync =
      chunk->kind == IoOpKind::Fsync || chunk->kind == IoOpKind::Fdatasync;
  if ((res == -EINTR || res == -EAGAIN) &&
      chunk->retries < options.maxRetries) {
    // The slot stays counted in `inFlight`: the retry reuses it.
    ++chunk->retries;
    if (res == -EAGAIN)
      std::this_thread::sleep_for(
          std::chrono::microseconds(50 * chunk->retries));
    RawOp op = rawFor(*chunk);
    backendImpl->submit(std::span<const RawOp>(&op, 1));
    return;
  }
  if (res < 0) {
    chunk->errnum = -res;
  } else if (!sync && res == 0) {
    // No progress. A read at end of file will not change by retrying; a
    // write may, a bounded number of times.
    if (chunk->kind == IoOpKind::Write && chunk->retries < options.maxRetries) {
      ++chunk->retries;
      RawOp op = rawFor(*chunk);
      backendImpl->submit(std::span<const RawOp>(&op, 1));
      return;
    }
    chunk->noProgress = true;
    chunk->errnum = chunk->kind == IoOpKind::Read ? ENODATA : EIO;
  } else if (!sync) {
    chunk->done += static_cast<uint32_t>(res);
    chunk->retries = 0; // The retry bound is for failures in a row.
    if (chunk->done < chunk->len) {
      // Short transfer: resubmit the remainder in the same slot.
      RawOp op = rawFor(*chunk);
      backendImpl->submit(std::span<const RawOp>(&op, 1));
      return;
    }
  }
  finishChunk(chunk);
}

void IoEngine::finishChunk(Chunk *chunk) {
  std::vector<RawOp> raws;
  Request *finished = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Request *r = chunk->request;
    --inFlight;
    --r->outstanding;
    r->bytesDone += chunk->done;
    if (chunk->errnum && !r->result.errnum) {
      r->result.errnum = chunk->errnum;
      r->result.failOffset = chunk->offset + chunk->done;
      r->result.noProgress = chunk->noProgress;
      // Stop cutting chunks for a request that has failed.
      if (r->queued) {
        waiting.erase(std::find(waiting.begin(), waiting.end(), r));
        r->queued = false;
      }
    }
    if (r->outstanding == 0 && !r->queued)
      finished = r;
    takeChunks(raws);
  }
  delete chunk;
  if (!raws.empty())
    backendImpl->submit(raws);
  if (finished) {
    finished->result.bytes = finished->bytesDone;
    finished->done(finished->result);
    delete finished;
    // Count the request closed only after its callback returned, so that the
    // destructor cannot destroy the backend while a callback still runs.
    std::lock_guard<std::mutex> lock(mutex);
    if (--requestsOpen == 0)
      idle.notify_all();
  }
}

} // namespace ssd::rt
