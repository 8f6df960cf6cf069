//===- IoEngineTest.cpp - Tests of the I/O engine and its backends --------===//
//
// Round trips on both backends, chunking and queue depth, batched and
// multi-threaded submission, futures and callbacks, registered buffers and
// files, every injected fault (short transfers, EINTR/EAGAIN, EIO, ENOSPC,
// no progress), real end-of-file and unaligned O_DIRECT, and the fallback
// from a refused io_uring to the thread pool.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/Status.h"

#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace ssd::rt;
using namespace ssd::rt::test;

namespace {

struct File {
  explicit File(const std::string &path, bool direct = true) : path(path) {
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | (direct ? O_DIRECT : 0), 0600);
    EXPECT_GE(fd, 0) << errnoText(errno);
  }
  ~File() { ::close(fd); }
  std::string path;
  int fd;
};

IoRequest req(IoOpKind kind, int fd, void *buf, uint64_t len, uint64_t off) {
  IoRequest r;
  r.kind = kind;
  r.fd = fd;
  r.buf = buf;
  r.len = len;
  r.offset = off;
  return r;
}

class IoEngineTest : public ::testing::TestWithParam<EngineKind> {
protected:
  std::unique_ptr<IoBackend> backend(unsigned depth = 8) {
    std::string note;
    return makeBackend(GetParam(), depth, note);
  }
  ScratchDir dir;
};

TEST_P(IoEngineTest, RoundTripSplitsIntoChunks) {
  File f(dir.path + "/a");
  IoEngine engine(backend(4), {64 << 10, 8});
  AlignedBuf out(3 << 20), in(3 << 20);
  fillPattern(out.data, out.size, 1);
  IoResult w = engine.run(req(IoOpKind::Write, f.fd, out.data, out.size, 0));
  ASSERT_TRUE(w.ok()) << errnoText(w.errnum);
  EXPECT_EQ(w.bytes, out.size);
  EXPECT_TRUE(engine.run(req(IoOpKind::Fdatasync, f.fd, nullptr, 0, 0)).ok());
  EXPECT_TRUE(engine.run(req(IoOpKind::Fsync, f.fd, nullptr, 0, 0)).ok());
  IoResult r = engine.run(req(IoOpKind::Read, f.fd, in.data, in.size, 0));
  ASSERT_TRUE(r.ok()) << errnoText(r.errnum);
  EXPECT_TRUE(hasPattern(in.data, in.size, 1));
}

TEST_P(IoEngineTest, QueueDepthBoundsRawOpsInFlight) {
  File f(dir.path + "/a");
  auto gated = std::make_unique<GatedBackend>(backend(4));
  GatedBackend *gate = gated.get();
  IoEngine engine(std::move(gated), {4096, 8});
  AlignedBuf buf(1 << 20);
  fillPattern(buf.data, buf.size, 2);
  ASSERT_TRUE(
      engine.run(req(IoOpKind::Write, f.fd, buf.data, buf.size, 0)).ok());
  EXPECT_LE(gate->maxInFlight(), 4u);
  EXPECT_GE(gate->maxInFlight(), 2u);
}

TEST_P(IoEngineTest, BatchOfRequestsWithCallbacksAndFutures) {
  File f(dir.path + "/a");
  IoEngine engine(backend(16));
  constexpr int kCount = 32;
  AlignedBuf buf(kCount * 65536);
  fillPattern(buf.data, buf.size, 3);
  std::vector<IoRequest> reqs;
  std::vector<IoCallback> cbs;
  std::atomic<int> done{0}, failed{0};
  for (int i = 0; i < kCount; ++i) {
    reqs.push_back(req(IoOpKind::Write, f.fd, buf.data + i * 65536, 65536,
                       uint64_t(i) * 65536));
    cbs.push_back([&](const IoResult &r) {
      failed += !r.ok();
      ++done;
    });
  }
  engine.submit(reqs, cbs);
  while (done < kCount)
    std::this_thread::yield();
  EXPECT_EQ(failed, 0);
  AlignedBuf in(buf.size);
  std::vector<std::future<IoResult>> futures;
  for (int i = 0; i < kCount; ++i)
    futures.push_back(
        engine.submit(req(IoOpKind::Read, f.fd, in.data + i * 65536, 65536,
                          uint64_t(i) * 65536)));
  for (auto &fu : futures)
    EXPECT_TRUE(fu.get().ok());
  EXPECT_EQ(std::memcmp(in.data, buf.data, buf.size), 0);
}

TEST_P(IoEngineTest, SubmissionFromSeveralThreads) {
  File f(dir.path + "/a");
  IoEngine engine(backend(8), {16384, 8});
  constexpr int kThreads = 6, kPerThread = 20, kLen = 32768;
  AlignedBuf buf(kThreads * kPerThread * kLen);
  fillPattern(buf.data, buf.size, 4);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        uint64_t off = uint64_t(t * kPerThread + i) * kLen;
        failures +=
            !engine.run(req(IoOpKind::Write, f.fd, buf.data + off, kLen, off))
                 .ok();
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(failures, 0);
  AlignedBuf in(buf.size);
  ASSERT_TRUE(engine.run(req(IoOpKind::Read, f.fd, in.data, in.size, 0)).ok());
  EXPECT_EQ(std::memcmp(in.data, buf.data, buf.size), 0);
}

TEST_P(IoEngineTest, RegisteredBuffersAndFiles) {
  File f(dir.path + "/a");
  auto b = backend(4);
  AlignedBuf buf(1 << 20), in(1 << 20);
  iovec iov{buf.data, buf.size};
  int regBuf = b->registerBuffers(std::span<const iovec>(&iov, 1));
  int regFile = b->registerFile(f.fd);
  if (GetParam() == EngineKind::IoUring) {
    EXPECT_EQ(regBuf, 0);
    EXPECT_GE(regFile, 0);
  }
  IoEngine engine(std::move(b), {256 << 10, 8});
  fillPattern(buf.data, buf.size, 5);
  IoRequest w = req(IoOpKind::Write, f.fd, buf.data, buf.size, 0);
  w.bufIndex = regBuf == 0 ? 0 : -1;
  w.fixedFile = regFile >= 0 ? regFile : -1;
  ASSERT_TRUE(engine.run(w).ok());
  IoRequest r = w;
  r.kind = IoOpKind::Read;
  std::memset(buf.data, 0, buf.size);
  ASSERT_TRUE(engine.run(r).ok());
  EXPECT_TRUE(hasPattern(buf.data, buf.size, 5));
  if (regFile >= 0)
    engine.backend().unregisterFile(regFile);
}

TEST_P(IoEngineTest, ReadPastEndOfFileIsNoProgress) {
  File f(dir.path + "/a");
  IoEngine engine(backend());
  AlignedBuf buf(8192);
  fillPattern(buf.data, buf.size, 6);
  ASSERT_TRUE(engine.run(req(IoOpKind::Write, f.fd, buf.data, 4096, 0)).ok());
  IoResult r = engine.run(req(IoOpKind::Read, f.fd, buf.data, 8192, 0));
  EXPECT_EQ(r.errnum, ENODATA);
  EXPECT_TRUE(r.noProgress);
  EXPECT_EQ(r.bytes, 4096u);
  EXPECT_EQ(r.failOffset, 4096u);
}

TEST_P(IoEngineTest, UnalignedDirectBufferFailsWithEinval) {
  File f(dir.path + "/a");
  IoEngine engine(backend());
  AlignedBuf buf(8192);
  IoResult r = engine.run(req(IoOpKind::Write, f.fd, buf.data + 1, 4096, 0));
  EXPECT_EQ(r.errnum, EINVAL);
}

TEST_P(IoEngineTest, BadDescriptorFailsWithEbadf) {
  IoEngine engine(backend());
  AlignedBuf buf(4096);
  EXPECT_EQ(engine.run(req(IoOpKind::Read, 9999, buf.data, 4096, 0)).errnum,
            EBADF);
  EXPECT_EQ(engine.run(req(IoOpKind::Fdatasync, 9999, nullptr, 0, 0)).errnum,
            EBADF);
}

INSTANTIATE_TEST_SUITE_P(Engines, IoEngineTest,
                         ::testing::Values(EngineKind::IoUring,
                                           EngineKind::Threads),
                         [](const auto &info) {
                           return info.param == EngineKind::IoUring ? "io_uring"
                                                                    : "threads";
                         });

//===----------------------------------------------------------------------===//
// Fault injection
//===----------------------------------------------------------------------===//

class FaultTest : public ::testing::TestWithParam<EngineKind> {
protected:
  void SetUp() override {
    std::string note;
    auto inner = makeBackend(GetParam(), 8, note);
    auto faulty = std::make_unique<FaultInjectingBackend>(std::move(inner));
    faults = faulty.get();
    engine = std::make_unique<IoEngine>(std::move(faulty),
                                        IoEngine::Options{256 << 10, 4});
    file = std::make_unique<File>(dir.path + "/a");
    data = std::make_unique<AlignedBuf>(1 << 20);
    fillPattern(data->data, data->size, 7);
  }
  IoResult write() {
    return engine->run(
        req(IoOpKind::Write, file->fd, data->data, data->size, 0));
  }
  ScratchDir dir;
  FaultInjectingBackend *faults;
  std::unique_ptr<IoEngine> engine;
  std::unique_ptr<File> file;
  std::unique_ptr<AlignedBuf> data;
};

FaultRule rule(FaultRule::Action action, int errnum = 0, int64_t times = 1,
               uint64_t skip = 0) {
  FaultRule r;
  r.action = action;
  r.errnum = errnum;
  r.times = times;
  r.skip = skip;
  return r;
}

TEST_P(FaultTest, ShortTransfersAreResubmitted) {
  faults->addRule(rule(FaultRule::Action::Short, 0, -1));
  ASSERT_TRUE(write().ok());
  AlignedBuf in(data->size);
  IoResult r = engine->run(req(IoOpKind::Read, file->fd, in.data, in.size, 0));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.bytes, in.size);
  EXPECT_TRUE(hasPattern(in.data, in.size, 7));
  EXPECT_GT(faults->firedCount(), 8u);
}

TEST_P(FaultTest, EagainAndEintrAreRetried) {
  faults->addRule(rule(FaultRule::Action::Fail, EAGAIN, 3));
  faults->addRule(rule(FaultRule::Action::Fail, EINTR, 3));
  ASSERT_TRUE(write().ok());
  EXPECT_EQ(faults->firedCount(), 6u);
}

TEST_P(FaultTest, EndlessEagainGivesUp) {
  faults->addRule(rule(FaultRule::Action::Fail, EAGAIN, -1));
  EXPECT_EQ(write().errnum, EAGAIN);
}

TEST_P(FaultTest, EioStopsTheTransferAndNamesTheOffset) {
  faults->addRule(rule(FaultRule::Action::Fail, EIO, 1, 2));
  IoResult r = write();
  EXPECT_EQ(r.errnum, EIO);
  EXPECT_EQ(r.failOffset, 2u * (256 << 10));
  EXPECT_LT(r.bytes, data->size);
}

TEST_P(FaultTest, EnospcOnWrite) {
  faults->addRule(rule(FaultRule::Action::Fail, ENOSPC, -1));
  EXPECT_EQ(write().errnum, ENOSPC);
}

TEST_P(FaultTest, WriteWithoutProgressFails) {
  faults->addRule(rule(FaultRule::Action::ZeroBytes, 0, -1));
  IoResult r = write();
  EXPECT_EQ(r.errnum, EIO);
  EXPECT_TRUE(r.noProgress);
}

TEST_P(FaultTest, TransientZeroByteWriteIsRetried) {
  faults->addRule(rule(FaultRule::Action::ZeroBytes, 0, 2));
  EXPECT_TRUE(write().ok());
}

TEST_P(FaultTest, SyncFailureIsReported) {
  FaultRule r = rule(FaultRule::Action::Fail, EIO);
  r.anyKind = false;
  r.kind = IoOpKind::Fdatasync;
  faults->addRule(r);
  ASSERT_TRUE(write().ok());
  EXPECT_EQ(
      engine->run(req(IoOpKind::Fdatasync, file->fd, nullptr, 0, 0)).errnum,
      EIO);
}

TEST_P(FaultTest, ConcurrentSubmittersWithShortTransfersAndRetries) {
  faults->addRule(rule(FaultRule::Action::Short, 0, -1));
  // At most 4 failures can hit one chunk in a row: the fixture's bound.
  faults->addRule(rule(FaultRule::Action::Fail, EAGAIN, 2));
  faults->addRule(rule(FaultRule::Action::Fail, EINTR, 2));
  constexpr int kThreads = 4, kPerThread = 16, kLen = 65536;
  AlignedBuf buf(kThreads * kPerThread * kLen),
      in(kThreads * kPerThread * kLen);
  fillPattern(buf.data, buf.size, 8);
  std::atomic<int> failures{0};
  auto run = [&](IoOpKind kind, char *base) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          uint64_t off = uint64_t(t * kPerThread + i) * kLen;
          failures +=
              !engine->run(req(kind, file->fd, base + off, kLen, off)).ok();
        }
      });
    for (auto &th : threads)
      th.join();
  };
  run(IoOpKind::Write, buf.data);
  run(IoOpKind::Read, in.data);
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(std::memcmp(in.data, buf.data, buf.size), 0);
  EXPECT_GT(faults->firedCount(), 4u * kThreads * kPerThread);
}

INSTANTIATE_TEST_SUITE_P(Engines, FaultTest,
                         ::testing::Values(EngineKind::IoUring,
                                           EngineKind::Threads),
                         [](const auto &info) {
                           return info.param == EngineKind::IoUring ? "io_uring"
                                                                    : "threads";
                         });

//===----------------------------------------------------------------------===//
// Engine selection
//===----------------------------------------------------------------------===//

TEST(EngineSelection, RefusedUringFallsBackToThreads) {
  std::string note;
  auto b = makeBackend(EngineKind::Auto, 8, note, refuseUring);
  EXPECT_STREQ(b->name(), "threads");
  EXPECT_NE(note.find("refused"), std::string::npos) << note;
}

TEST(EngineSelection, ExplicitUringThatIsRefusedThrows) {
  std::string note;
  try {
    makeBackend(EngineKind::IoUring, 8, note, refuseUring);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(e.errnum, EPERM);
  }
}

TEST(EngineSelection, EnvironmentSelectsThreads) {
  ::setenv("SSDRT_IO_ENGINE", "threads", 1);
  std::string note;
  auto b = makeBackend(EngineKind::Auto, 8, note);
  ::unsetenv("SSDRT_IO_ENGINE");
  EXPECT_STREQ(b->name(), "threads");
  EXPECT_NE(note.find("SSDRT_IO_ENGINE"), std::string::npos);
}

TEST(EngineSelection, AutoPrefersUring) {
  std::string note;
  auto b = makeBackend(EngineKind::Auto, 8, note);
  EXPECT_STREQ(b->name(), "io_uring") << note;
}

TEST(EngineSelection, UnknownNameIsRejected) {
  EXPECT_THROW(parseEngineKind("aio"), Error);
  EXPECT_EQ(parseEngineKind("threads"), EngineKind::Threads);
  EXPECT_EQ(parseEngineKind(""), EngineKind::Auto);
}

} // namespace
