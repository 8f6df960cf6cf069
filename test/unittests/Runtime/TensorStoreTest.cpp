//===- TensorStoreTest.cpp - Tests of handles, buffers and extents --------===//
//
// Every state transition, buffer grouping, extent allocation and reuse, the
// aligned and bounced transfer paths, misuse (waiting twice, freed handles,
// operations in flight), injected faults and real ones (RLIMIT_FSIZE, a file
// truncated or removed underneath, tmpfs without O_DIRECT, a full
// filesystem), the engine fallback, and concurrent use.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/TensorStore.h"

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <random>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <thread>
#include <unistd.h>

using namespace ssd::rt;
using namespace ssd::rt::test;

namespace {

constexpr int kF32 = int(DType::F32);
constexpr int kU8 = int(DType::U8);

class TensorStoreTest : public ::testing::Test {
protected:
  StoreOptions options(const std::string &directory = "") {
    StoreOptions o;
    o.directory = directory.empty() ? dir.path : directory;
    o.device = -1;
    o.queueDepth = 8;
    o.stagingBytes = 1 << 20;
    o.chunkBytes = 256 << 10;
    return o;
  }
  /// A store whose backend is wrapped in a fault injector.
  std::unique_ptr<TensorStore> faultyStore(FaultInjectingBackend *&faults) {
    StoreOptions o = options();
    o.decorate = [&faults](std::unique_ptr<IoBackend> inner) {
      auto f = std::make_unique<FaultInjectingBackend>(std::move(inner));
      faults = f.get();
      return f;
    };
    return std::make_unique<TensorStore>(o);
  }
  /// A host handle of `bytes` bytes filled with pattern `seed`.
  uint64_t filled(TensorStore &store, int64_t bytes, uint32_t seed) {
    uint64_t h = store.createHandle(kU8, std::span<const int64_t>(&bytes, 1),
                                    MemKind::Host, nullptr);
    fillPattern(store.info(h).data, bytes, seed);
    return h;
  }
  size_t dataFiles() {
    size_t n = 0;
    for (auto &e : std::filesystem::directory_iterator(dir.path))
      n += e.path().extension() == ".data";
    return n;
  }
  ScratchDir dir;
};

//===----------------------------------------------------------------------===//
// States
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, EveryStateTransition) {
  GatedBackend *gate = nullptr;
  StoreOptions o = options();
  o.decorate = [&gate](std::unique_ptr<IoBackend> inner) {
    auto g = std::make_unique<GatedBackend>(std::move(inner));
    gate = g.get();
    return g;
  };
  TensorStore store(o);
  const int64_t shape[] = {3, 1000};
  uint64_t h = store.createHandle(kF32, shape, MemKind::Host, nullptr);
  EXPECT_EQ(store.info(h).bytes, 12000u);
  EXPECT_EQ(store.info(h).state, State::Resident);
  fillPattern(store.info(h).data, 12000, 1);

  // Resident -> Writing -> OnDisk (memory released). The gate holds the
  // raw operations so that the in-flight state can be observed.
  gate->close();
  store.offload(h, false);
  EXPECT_EQ(store.info(h).state, State::Writing);
  EXPECT_EQ(errnumOf([&] { store.free(h); }), EBUSY);
  EXPECT_EQ(errnumOf([&] { store.prefetch(h, nullptr); }), EBUSY);
  gate->open();
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  EXPECT_EQ(store.info(h).data, nullptr);

  // OnDisk -> Reading -> Both.
  gate->close();
  store.prefetch(h, nullptr);
  EXPECT_EQ(store.info(h).state, State::Reading);
  gate->open();
  store.wait(h);
  HandleInfo i = store.info(h);
  EXPECT_EQ(i.state, State::Both);
  EXPECT_TRUE(hasPattern(i.data, 12000, 1));

  // Both -> Resident (dirty) -> Writing -> Both (keep).
  store.markDirty(h);
  EXPECT_EQ(store.info(h).state, State::Resident);
  fillPattern(store.info(h).data, 12000, 2);
  store.offload(h, true);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::Both);

  // Both -> OnDisk without writing anything.
  uint64_t written = store.stats().bytesWritten;
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  EXPECT_EQ(store.stats().bytesWritten, written);

  // OnDisk offload is a no-op; the data read back is the second version.
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 12000, 2));
  // Prefetch of a resident handle reads nothing.
  uint64_t read = store.stats().bytesRead;
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_EQ(store.stats().bytesRead, read);
  EXPECT_EQ(store.info(h).state, State::Both);
  store.free(h);
}

TEST_F(TensorStoreTest, ReleaseAfterKeptOffload) {
  TensorStore store(options());
  uint64_t h = filled(store, 20000, 30);
  EXPECT_EQ(errnumOf([&] { store.release(h); }), EINVAL); // nothing on disk
  store.offload(h, true);
  EXPECT_EQ(errnumOf([&] { store.release(h); }), EBUSY); // not waited
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::Both);
  store.release(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  EXPECT_EQ(store.info(h).data, nullptr);
  store.release(h); // already on disk: nothing to do
  EXPECT_EQ(errnumOf([&] { store.wait(h); }), EINVAL);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 20000, 30));
}

TEST_F(TensorStoreTest, MisuseIsReported) {
  TensorStore store(options());
  uint64_t h = filled(store, 4096, 5);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), EINVAL);
  EXPECT_NE(msg.find("nothing to wait for"), std::string::npos) << msg;
  store.offload(h, true);
  EXPECT_EQ(errnumOf([&] { store.offload(h, true); }), EBUSY);
  store.wait(h);
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), EINVAL); // twice
  store.free(h);
  EXPECT_EQ(errnumOf([&] { store.offload(h, false); }, &msg), EBADF);
  EXPECT_NE(msg.find("was freed"), std::string::npos) << msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }), EBADF);
  EXPECT_EQ(errnumOf([&] { store.free(h); }), EBADF);
  EXPECT_EQ(errnumOf([&] { store.info(h); }), EBADF);
  EXPECT_EQ(errnumOf([&] { store.info(0); }), EINVAL);
  EXPECT_EQ(errnumOf([&] { store.info(12345); }), EINVAL);
  const int64_t bad[] = {-1};
  EXPECT_EQ(
      errnumOf([&] { store.createHandle(kF32, bad, MemKind::Host, nullptr); }),
      EINVAL);
  const int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_EQ(
      errnumOf([&] { store.createHandle(kF32, huge, MemKind::Host, nullptr); }),
      EOVERFLOW);
  const int64_t one[] = {4};
  EXPECT_EQ(
      errnumOf([&] { store.createHandle(99, one, MemKind::Host, nullptr); }),
      EINVAL);
  EXPECT_EQ(errnumOf([&] {
              store.createHandle(kF32, one, MemKind::Device, nullptr);
            }),
            ENODEV);
  // Memory not aligned to the element size.
  AlignedBuf buf(64);
  EXPECT_EQ(
      errnumOf(
          [&] { store.createHandle(kF32, one, MemKind::Host, buf.data + 2); },
          &msg),
      EINVAL);
  EXPECT_NE(msg.find("aligned"), std::string::npos);
  // Mark dirty needs memory.
  uint64_t g = filled(store, 4096, 6);
  store.offload(g, false);
  store.wait(g);
  EXPECT_EQ(errnumOf([&] { store.markDirty(g); }), EINVAL);
}

//===----------------------------------------------------------------------===//
// Transfers and memory
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, CallerMemoryAlignedAndUnaligned) {
  TensorStore store(options());
  constexpr size_t kBytes = (1 << 20) + 1000; // a partial last block
  AlignedBuf aligned(kBytes + 64), unaligned(kBytes + 64);
  char *a = aligned.data, *u = unaligned.data + 16;
  fillPattern(a, kBytes, 7);
  fillPattern(u, kBytes, 8);
  const int64_t shape[] = {int64_t(kBytes)};
  uint64_t ha = store.createHandle(kU8, shape, MemKind::Host, a);
  uint64_t hu = store.createHandle(kU8, shape, MemKind::Host, u);
  store.offload(ha, false);
  store.offload(hu, false);
  store.wait(ha);
  store.wait(hu);
  uint64_t stagedAfterWrite = store.stats().stagedBytes;
  // Aligned memory bounces only the 1000-byte tail; unaligned all of it.
  EXPECT_EQ(stagedAfterWrite, 1000u + kBytes);
  std::memset(a, 0, kBytes);
  std::memset(u, 0, kBytes);
  store.prefetch(ha, a);
  store.prefetch(hu, u);
  store.wait(ha);
  store.wait(hu);
  EXPECT_TRUE(hasPattern(a, kBytes, 7));
  EXPECT_TRUE(hasPattern(u, kBytes, 8));
  EXPECT_EQ(store.info(hu).data, u);
  // Prefetch of a resident handle into other memory is refused.
  EXPECT_EQ(errnumOf([&] { store.prefetch(ha, u); }), EINVAL);
}

TEST_F(TensorStoreTest, PartialLastBlockMovesInOneOperation) {
  GatedBackend *gate = nullptr;
  StoreOptions o = options();
  o.durable = false; // count data operations only
  o.decorate = [&gate](std::unique_ptr<IoBackend> inner) {
    auto g = std::make_unique<GatedBackend>(std::move(inner));
    gate = g.get();
    return g;
  };
  TensorStore store(o);
  constexpr int64_t kSmall = 10240, kLarge = (1 << 20) + 1000;
  // Runtime memory is padded to whole blocks: one operation each way, in
  // place.
  uint64_t owned = filled(store, kSmall, 21);
  store.offload(owned, false);
  store.wait(owned);
  EXPECT_EQ(gate->submitted(IoOpKind::Write), 1u);
  store.prefetch(owned, nullptr);
  store.wait(owned);
  EXPECT_EQ(gate->submitted(IoOpKind::Read), 1u);
  EXPECT_TRUE(hasPattern(store.info(owned).data, kSmall, 21));
  EXPECT_EQ(store.stats().stagedBytes, 0u);
  // A small tensor in aligned caller memory goes whole through one chunk.
  AlignedBuf small(kSmall);
  fillPattern(small.data, kSmall, 22);
  uint64_t caller = store.createHandle(
      kU8, std::span<const int64_t>(&kSmall, 1), MemKind::Host, small.data);
  store.offload(caller, false);
  store.wait(caller);
  EXPECT_EQ(gate->submitted(IoOpKind::Write), 2u);
  std::memset(small.data, 0, kSmall);
  store.prefetch(caller, small.data);
  store.wait(caller);
  EXPECT_EQ(gate->submitted(IoOpKind::Read), 2u);
  EXPECT_TRUE(hasPattern(small.data, kSmall, 22));
  EXPECT_EQ(store.stats().stagedBytes, 2u * kSmall);
  // A large one moves in place, in chunks of at most chunkBytes, and sends
  // only its tail through staging, as one more operation.
  AlignedBuf large(kLarge);
  fillPattern(large.data, kLarge, 23);
  uint64_t big = store.createHandle(kU8, std::span<const int64_t>(&kLarge, 1),
                                    MemKind::Host, large.data);
  store.offload(big, false);
  store.wait(big);
  EXPECT_EQ(gate->submitted(IoOpKind::Write),
            2u + (1 << 20) / o.chunkBytes + 1);
  std::memset(large.data, 0, kLarge);
  store.prefetch(big, large.data);
  store.wait(big);
  EXPECT_TRUE(hasPattern(large.data, kLarge, 23));
}

TEST_F(TensorStoreTest, LargeTransferThroughTinyStaging) {
  StoreOptions o = options();
  o.stagingBytes = 8192;
  o.chunkBytes = 4096;
  TensorStore store(o);
  AlignedBuf buf((2 << 20) + 8);
  char *u = buf.data + 8;
  fillPattern(u, 2 << 20, 9);
  const int64_t shape[] = {2 << 20};
  uint64_t h = store.createHandle(kU8, shape, MemKind::Host, u);
  store.offload(h, false);
  store.wait(h);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 2 << 20, 9));
  EXPECT_EQ(store.staging().chunkCount(), 2u);
}

TEST_F(TensorStoreTest, DurableOffloadSyncs) {
  TensorStore store(options());
  uint64_t h = filled(store, 8192, 10);
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.stats().syncOps, 1u);
  StoreOptions o = options();
  o.durable = false;
  TensorStore scratch(o);
  uint64_t g = filled(scratch, 8192, 10);
  scratch.offload(g, false);
  scratch.wait(g);
  EXPECT_EQ(scratch.stats().syncOps, 0u);
}

TEST_F(TensorStoreTest, ZeroSizedTensor) {
  TensorStore store(options());
  const int64_t shape[] = {0, 7};
  uint64_t h = store.createHandle(kF32, shape, MemKind::Host, nullptr);
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::Both);
  // No bytes, no extent, no data file, no I/O.
  EXPECT_EQ(store.info(h).file, "");
  EXPECT_EQ(dataFiles(), 0u);
  EXPECT_EQ(store.stats().writeOps + store.stats().readOps, 0u);
}

//===----------------------------------------------------------------------===//
// Caller memory handed back, pending operations
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, HandBackRunsOnceBeforeTheWriteIsWaitedFor) {
  TensorStore store(options());
  const int64_t n = 300000;
  AlignedBuf mine(n), back(n);
  fillPattern(mine.data, n, 21);
  uint64_t h = store.createHandle(kU8, std::span<const int64_t>(&n, 1),
                                  MemKind::Host, mine.data);
  std::atomic<int> handedBack{0};
  store.setHandBack(h, [&] { ++handedBack; });
  EXPECT_FALSE(store.info(h).pending);
  store.offload(h, false);
  EXPECT_TRUE(store.info(h).pending);
  store.wait(h);
  // The write is done and the runtime lets go of the memory: the caller
  // heard so before the wait returned.
  EXPECT_EQ(handedBack, 1);
  EXPECT_FALSE(store.info(h).pending);
  std::memset(mine.data, 0, n);
  store.prefetch(h, back.data);
  EXPECT_TRUE(store.info(h).pending);
  store.wait(h);
  EXPECT_TRUE(hasPattern(back.data, n, 21));
  // Memory lent at a prefetch has no hand-back; the first one ran once.
  store.markDirty(h);
  store.offload(h, false);
  store.wait(h);
  store.free(h);
  EXPECT_EQ(handedBack, 1);
}

TEST_F(TensorStoreTest, HandBackWaitsWhileTheMemoryHoldsTheOnlyCopy) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  const int64_t n = 1 << 20;
  AlignedBuf mine(n);
  fillPattern(mine.data, n, 22);
  uint64_t h = store->createHandle(kU8, std::span<const int64_t>(&n, 1),
                                   MemKind::Host, mine.data);
  int handedBack = 0;
  store->setHandBack(h, [&] { ++handedBack; });
  FaultRule r;
  r.action = FaultRule::Action::Fail;
  r.errnum = EIO;
  faults->addRule(r);
  store->offload(h, false);
  EXPECT_EQ(errnumOf([&] { store->wait(h); }), EIO);
  EXPECT_EQ(handedBack, 0);
  EXPECT_EQ(store->info(h).state, State::Resident);
  store->free(h);
  EXPECT_EQ(handedBack, 1);
}

TEST_F(TensorStoreTest, HandBackAtReleaseAndAtDestruction) {
  const int64_t n = 8192;
  AlignedBuf first(n), second(n), third(n);
  int handedBack[3] = {};
  {
    TensorStore store(options());
    uint64_t kept = store.createHandle(kU8, std::span<const int64_t>(&n, 1),
                                       MemKind::Host, first.data);
    uint64_t idle = store.createHandle(kU8, std::span<const int64_t>(&n, 1),
                                       MemKind::Host, second.data);
    uint64_t flying = store.createHandle(kU8, std::span<const int64_t>(&n, 1),
                                         MemKind::Host, third.data);
    store.setHandBack(kept, [&] { ++handedBack[0]; });
    store.setHandBack(idle, [&] { ++handedBack[1]; });
    store.setHandBack(flying, [&] { ++handedBack[2]; });
    store.offload(kept, true);
    store.wait(kept);
    EXPECT_EQ(handedBack[0], 0); // kept: the memory is still the handle's
    store.release(kept);
    EXPECT_EQ(handedBack[0], 1);
    store.offload(flying, false); // never waited for
  }
  EXPECT_EQ(handedBack[0], 1);
  EXPECT_EQ(handedBack[1], 1);
  EXPECT_EQ(handedBack[2], 1);
}

TEST_F(TensorStoreTest, HandBackOnlyForIdleCallerMemory) {
  TensorStore store(options());
  uint64_t owned = filled(store, 4096, 1);
  EXPECT_EQ(errnumOf([&] { store.setHandBack(owned, [] {}); }), EINVAL);
  AlignedBuf mine(4096);
  const int64_t n = 4096;
  uint64_t h = store.createHandle(kU8, std::span<const int64_t>(&n, 1),
                                  MemKind::Host, mine.data);
  store.offload(h, true);
  EXPECT_EQ(errnumOf([&] { store.setHandBack(h, [] {}); }), EBUSY);
  store.wait(h);
  EXPECT_EQ(errnumOf([&] { store.setHandBack(h, [] {}); }), EBUSY);
}

//===----------------------------------------------------------------------===//
// Buffers and extents
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, BufferMovesManyTensorsInOneTransfer) {
  TensorStore store(options());
  constexpr int kMembers = 100;
  uint64_t b = store.createBuffer(kMembers * 1024, MemKind::Host, nullptr);
  std::vector<uint64_t> members;
  for (int i = 0; i < kMembers; ++i) {
    const int64_t shape[] = {10, 25}; // 1000 bytes of f32
    members.push_back(store.addToBuffer(b, kF32, shape));
    HandleInfo m = store.info(members.back());
    EXPECT_EQ(m.buffer, b);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m.data) % 256, 0u);
    fillPattern(m.data, 1000, 100 + i);
  }
  store.offload(b, false);
  store.wait(b);
  EXPECT_EQ(store.stats().writeOps, 1u); // one request for all members
  EXPECT_EQ(store.info(members[5]).state, State::OnDisk);
  store.prefetch(b, nullptr);
  store.wait(b);
  EXPECT_EQ(store.stats().readOps, 1u);
  for (int i = 0; i < kMembers; ++i) {
    HandleInfo m = store.info(members[i]);
    EXPECT_EQ(m.state, State::Both);
    EXPECT_TRUE(hasPattern(m.data, 1000, 100 + i)) << i;
    EXPECT_EQ(m.fileOffset,
              store.info(b).fileOffset +
                  (m.data ? uint64_t(static_cast<char *>(m.data) -
                                     static_cast<char *>(store.info(b).data))
                          : 0));
  }
  // Members move with their buffer only.
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.offload(members[0], false); }, &msg), EINVAL);
  EXPECT_NE(msg.find("belongs to buffer"), std::string::npos);
  EXPECT_EQ(errnumOf([&] { store.wait(members[0]); }), EINVAL);
  // Members are fixed once the buffer has been offloaded.
  const int64_t shape[] = {4};
  EXPECT_EQ(errnumOf([&] { store.addToBuffer(b, kF32, shape); }), EBUSY);
  // Freeing a member leaves the buffer; freeing the buffer frees members.
  store.free(members[0]);
  EXPECT_EQ(errnumOf([&] { store.info(members[0]); }), EBADF);
  store.free(b);
  EXPECT_EQ(errnumOf([&] { store.info(members[1]); }), EBADF);
}

TEST_F(TensorStoreTest, BufferFullAndNotABuffer) {
  TensorStore store(options());
  uint64_t b = store.createBuffer(1024, MemKind::Host, nullptr);
  const int64_t shape[] = {200};
  store.addToBuffer(b, kF32, shape); // 800 bytes
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.addToBuffer(b, kF32, shape); }, &msg), ENOSPC);
  uint64_t h = filled(store, 64, 1);
  EXPECT_EQ(errnumOf([&] { store.addToBuffer(h, kF32, shape); }), EINVAL);
  EXPECT_TRUE(store.isBuffer(b));
  EXPECT_FALSE(store.isBuffer(h));
}

//===----------------------------------------------------------------------===//
// Groups
//===----------------------------------------------------------------------===//

/// Holds back writes until `threshold` are pending, then submits them all:
/// a runtime that issued a group's writes one after another would never
/// reach the threshold, and the gate then opens after a timeout instead.
class WriteGate : public IoBackend, CompletionSink {
public:
  WriteGate(std::unique_ptr<IoBackend> inner, size_t threshold)
      : inner(std::move(inner)), threshold(threshold) {}
  ~WriteGate() override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    if (watcher.joinable())
      watcher.join();
  }
  const char *name() const override { return inner->name(); }
  unsigned queueDepth() const override { return inner->queueDepth(); }
  void setSink(CompletionSink *s) override {
    sink = s;
    inner->setSink(this);
  }
  void complete(uint64_t tag, int32_t res) override {
    sink->complete(tag, res);
  }
  void submit(std::span<const RawOp> ops) override {
    std::vector<RawOp> now, released;
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (const RawOp &op : ops)
        (op.kind == IoOpKind::Write && !open ? held : now).push_back(op);
      if (!open && held.size() >= threshold) {
        open = true;
        released.swap(held);
      } else if (!held.empty() && !watcher.joinable()) {
        watcher = std::thread([this] { releaseAfterTimeout(); });
      }
    }
    if (!now.empty())
      inner->submit(now);
    if (!released.empty())
      inner->submit(released);
  }
  int registerBuffers(std::span<const iovec> bufs) override {
    return inner->registerBuffers(bufs);
  }
  int registerFile(int fd) override { return inner->registerFile(fd); }
  void unregisterFile(int index) override { inner->unregisterFile(index); }

  bool timedOut() {
    std::lock_guard<std::mutex> lock(mutex);
    return timeoutFired;
  }

private:
  void releaseAfterTimeout() {
    std::vector<RawOp> released;
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (changed.wait_for(lock, std::chrono::seconds(5),
                           [&] { return stopping || open; }))
        return;
      timeoutFired = open = true;
      released.swap(held);
    }
    inner->submit(released);
  }

  std::unique_ptr<IoBackend> inner;
  size_t threshold;
  CompletionSink *sink = nullptr;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<RawOp> held;
  bool open = false, stopping = false, timeoutFired = false;
  std::thread watcher;
};

TEST_F(TensorStoreTest, GroupMovesAsOneTransfer) {
  WriteGate *gate = nullptr;
  StoreOptions o = options();
  o.decorate = [&gate](std::unique_ptr<IoBackend> inner) {
    auto g = std::make_unique<WriteGate>(std::move(inner), 3);
    gate = g.get();
    return g;
  };
  TensorStore store(o);
  // Runtime memory (direct), a partial block in caller memory (staged) and
  // a buffer.
  uint64_t a = filled(store, 64 << 10, 1);
  std::vector<char> callerMemory(10240);
  fillPattern(callerMemory.data(), callerMemory.size(), 2);
  const int64_t shape[] = {10240};
  uint64_t b =
      store.createHandle(kU8, shape, MemKind::Host, callerMemory.data());
  uint64_t buffer = store.createBuffer(8192, MemKind::Host, nullptr);
  const int64_t memberShape[] = {4000};
  uint64_t member = store.addToBuffer(buffer, kU8, memberShape);
  fillPattern(store.info(member).data, 4000, 3);
  const uint64_t group[] = {a, b, buffer};
  store.offloadGroup(group, false);
  for (uint64_t id : group)
    store.wait(id);
  EXPECT_FALSE(gate->timedOut()) << "the group's writes were not in flight "
                                    "together";
  EXPECT_EQ(store.stats().writeOps, 3u);
  EXPECT_EQ(store.stats().syncOps, 1u); // one data file, one fdatasync
  for (uint64_t id : group)
    EXPECT_EQ(store.info(id).state, State::OnDisk);

  // Back into runtime memory, caller memory and runtime memory.
  std::vector<char> back(10240);
  void *const dsts[] = {nullptr, back.data(), nullptr};
  store.prefetchGroup(group, dsts);
  for (uint64_t id : group)
    store.wait(id);
  EXPECT_TRUE(hasPattern(store.info(a).data, 64 << 10, 1));
  EXPECT_TRUE(hasPattern(back.data(), back.size(), 2));
  EXPECT_EQ(store.info(b).data, back.data());
  EXPECT_TRUE(hasPattern(store.info(member).data, 4000, 3));
  EXPECT_EQ(store.stats().readOps, 3u);
}

TEST_F(TensorStoreTest, GroupStartsWholeOrNotAtAll) {
  TensorStore store(options());
  uint64_t a = filled(store, 5000, 1);
  uint64_t b = filled(store, 5000, 2);
  uint64_t busy = filled(store, 5000, 3);
  store.offload(busy, true);
  std::string msg;
  const uint64_t withBusy[] = {a, b, busy};
  EXPECT_EQ(errnumOf([&] { store.offloadGroup(withBusy, false); }, &msg),
            EBUSY);
  EXPECT_NE(msg.find("handle " + std::to_string(busy)), std::string::npos)
      << msg;
  const uint64_t twice[] = {a, b, a};
  EXPECT_EQ(errnumOf([&] { store.offloadGroup(twice, false); }, &msg), EINVAL);
  EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
  uint64_t buffer = store.createBuffer(4096, MemKind::Host, nullptr);
  const int64_t shape[] = {16};
  const uint64_t withMember[] = {a, store.addToBuffer(buffer, kU8, shape)};
  EXPECT_EQ(errnumOf([&] { store.offloadGroup(withMember, false); }), EINVAL);
  const uint64_t withFreed[] = {a, 999999};
  EXPECT_NE(errnumOf([&] { store.offloadGroup(withFreed, false); }), 0);
  void *const tooFew[] = {nullptr};
  const uint64_t pair[] = {a, b};
  EXPECT_EQ(errnumOf([&] { store.prefetchGroup(pair, tooFew); }), EINVAL);
  // None of the refused groups started anything.
  EXPECT_EQ(errnumOf([&] { store.wait(a); }), EINVAL);
  EXPECT_EQ(store.info(a).state, State::Resident);
  EXPECT_EQ(store.info(b).state, State::Resident);
  EXPECT_EQ(store.stats().offloads, 1u);
  store.wait(busy);
  store.offloadGroup(withBusy, false);
  for (uint64_t id : withBusy)
    store.wait(id);
  // `busy` had a clean copy: only a and b were written.
  EXPECT_EQ(store.stats().writeOps, 3u);
  EXPECT_EQ(store.info(busy).state, State::OnDisk);
  EXPECT_EQ(store.info(busy).data, nullptr);
}

static bool refuseOpen = false;
static int openUnlessRefused(const char *path, int flags, mode_t mode) {
  if (refuseOpen) {
    errno = EACCES;
    return -1;
  }
  return ::open(path, flags, mode);
}

TEST_F(TensorStoreTest, GroupWhoseExtentCannotBeAllocatedStartsNothing) {
  StoreOptions o = options();
  o.openFile = openUnlessRefused;
  o.fileBytes = o.chunkBytes; // 256 KiB per data file
  refuseOpen = false;
  TensorStore store(o);
  uint64_t first = filled(store, 200 << 10, 1);
  store.offload(first, true);
  store.wait(first);
  // `small` fits the first file; `large` needs a second, which cannot open.
  uint64_t small = filled(store, 8192, 2);
  uint64_t large = filled(store, 200 << 10, 3);
  const uint64_t group[] = {small, large};
  refuseOpen = true;
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.offloadGroup(group, false); }, &msg), EACCES);
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
  EXPECT_EQ(store.info(small).state, State::Resident);
  EXPECT_TRUE(store.info(small).file.empty());
  EXPECT_EQ(errnumOf([&] { store.wait(small); }), EINVAL);
  refuseOpen = false;
  store.offloadGroup(group, false);
  for (uint64_t id : group)
    store.wait(id);
  // The extent `small` held during the refused group was given back.
  EXPECT_EQ(store.info(small).file, store.info(first).file);
  EXPECT_EQ(store.info(small).fileOffset, uint64_t(200 << 10));
}

TEST_F(TensorStoreTest, GroupFailuresBelongToTheirMember) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t a = filled(*store, 8192, 1);
  uint64_t b = filled(*store, 8192, 2);
  const uint64_t group[] = {a, b};
  faults->addRule(failing(IoOpKind::Write, EIO, 1, 1)); // b's write
  store->offloadGroup(group, false);
  store->wait(a);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(b); }, &msg), EIO);
  HandleInfo info = store->info(b);
  EXPECT_NE(msg.find(info.file), std::string::npos) << msg;
  EXPECT_NE(msg.find("handle " + std::to_string(b)), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset " + std::to_string(info.fileOffset)),
            std::string::npos)
      << msg;
  EXPECT_EQ(store->info(a).state, State::OnDisk);
  EXPECT_EQ(info.state, State::Resident);
  EXPECT_TRUE(hasPattern(info.data, 8192, 2));

  // A failed fdatasync fails every member written to that file.
  faults->clearRules();
  faults->addRule(failing(IoOpKind::Fdatasync, EIO));
  uint64_t c = filled(*store, 8192, 3);
  const uint64_t synced[] = {b, c};
  store->offloadGroup(synced, false);
  for (uint64_t id : synced) {
    EXPECT_EQ(errnumOf([&] { store->wait(id); }, &msg), EIO);
    EXPECT_NE(msg.find("fdatasync"), std::string::npos) << msg;
    EXPECT_EQ(store->info(id).state, State::Resident);
  }
  EXPECT_TRUE(hasPattern(store->info(c).data, 8192, 3));
  EXPECT_EQ(store->stats().syncOps, 2u);

  // A failed read leaves its member on disk; the others arrive.
  faults->clearRules();
  store->offloadGroup(synced, false);
  for (uint64_t id : synced)
    store->wait(id);
  faults->addRule(failing(IoOpKind::Read, EIO));
  const uint64_t all[] = {a, b, c};
  store->prefetchGroup(all, {});
  EXPECT_EQ(errnumOf([&] { store->wait(a); }), EIO);
  store->wait(b);
  store->wait(c);
  EXPECT_EQ(store->info(a).state, State::OnDisk);
  EXPECT_TRUE(hasPattern(store->info(b).data, 8192, 2));
  EXPECT_TRUE(hasPattern(store->info(c).data, 8192, 3));
}

TEST_F(TensorStoreTest, ExtentsAreAlignedAndReused) {
  TensorStore store(options());
  uint64_t a = filled(store, 5000, 1);
  uint64_t b = filled(store, 3000, 2);
  store.offload(a, false);
  store.wait(a);
  store.offload(b, false);
  store.wait(b);
  HandleInfo ia = store.info(a), ib = store.info(b);
  EXPECT_EQ(ia.fileOffset % 4096, 0u);
  EXPECT_EQ(ib.fileOffset % 4096, 0u);
  EXPECT_EQ(ia.extentBytes, 8192u);
  EXPECT_EQ(ib.fileOffset, 8192u);
  EXPECT_EQ(ia.file, ib.file);
  store.free(a);
  uint64_t c = filled(store, 8000, 3);
  store.offload(c, false);
  store.wait(c);
  EXPECT_EQ(store.info(c).fileOffset, ia.fileOffset); // reused hole
  // Freed neighbours coalesce into one hole that a larger extent fits.
  store.free(b);
  store.free(c);
  uint64_t d = filled(store, 12288, 4);
  store.offload(d, false);
  store.wait(d);
  EXPECT_EQ(store.info(d).fileOffset, 0u);
  EXPECT_EQ(dataFiles(), 1u);
}

TEST_F(TensorStoreTest, FewFilesForManyTensors) {
  StoreOptions o = options();
  o.fileBytes = 1 << 20;
  TensorStore store(o);
  std::vector<uint64_t> hs;
  for (int i = 0; i < 64; ++i) {
    hs.push_back(filled(store, 60000, i));
    store.offload(hs.back(), false);
  }
  for (uint64_t h : hs)
    store.wait(h);
  // 64 x 64 KiB extents in 1 MiB files.
  EXPECT_EQ(dataFiles(), 4u);
  for (int i = 0; i < 64; ++i) {
    store.prefetch(hs[i], nullptr);
    store.wait(hs[i]);
    EXPECT_TRUE(hasPattern(store.info(hs[i]).data, 60000, i));
  }
}

TEST_F(TensorStoreTest, FilesAreRemovedWithTheStore) {
  {
    TensorStore store(options());
    uint64_t h = filled(store, 4096, 1);
    store.offload(h, false);
    store.wait(h);
    EXPECT_EQ(dataFiles(), 1u);
  }
  EXPECT_EQ(dataFiles(), 0u);
}

//===----------------------------------------------------------------------===//
// Faults, injected
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, WriteEioKeepsMemoryAndNamesTheFile) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 1 << 20, 11);
  FaultRule r;
  r.action = FaultRule::Action::Fail;
  r.errnum = EIO;
  r.skip = 1;
  faults->addRule(r);
  store->offload(h, false);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), EIO);
  HandleInfo i = store->info(h);
  EXPECT_NE(msg.find(i.file), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("length"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Input/output error"), std::string::npos) << msg;
  EXPECT_EQ(i.state, State::Resident);
  EXPECT_TRUE(hasPattern(i.data, 1 << 20, 11));
  EXPECT_EQ(store->stats().failures, 1u);
  // The fault is gone: the same handle offloads now.
  store->offload(h, false);
  store->wait(h);
  EXPECT_EQ(store->info(h).state, State::OnDisk);
}

TEST_F(TensorStoreTest, NewExtentsArePreallocatedBeforeWriting) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  faults->addRule(failing(IoOpKind::Write, EIO, -1));
  uint64_t h = filled(*store, 3 << 20, 31);
  store->offload(h, false);
  EXPECT_EQ(errnumOf([&] { store->wait(h); }), EIO);
  // No byte was written, yet the file already spans the extent.
  std::string file = store->info(h).file;
  EXPECT_EQ(std::filesystem::file_size(file), uint64_t(3 << 20));
}

TEST_F(TensorStoreTest, EnospcIsReported) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 100000, 12);
  faults->addRule(failing(IoOpKind::Write, ENOSPC, -1));
  store->offload(h, false);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), ENOSPC);
  EXPECT_NE(msg.find("No space left on device"), std::string::npos) << msg;
  EXPECT_EQ(store->info(h).state, State::Resident);
}

TEST_F(TensorStoreTest, FailedSyncIsNotReportedAsWritten) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 100000, 13);
  faults->addRule(failing(IoOpKind::Fdatasync, EIO));
  store->offload(h, false);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), EIO);
  EXPECT_NE(msg.find("fdatasync"), std::string::npos) << msg;
  EXPECT_EQ(store->info(h).state, State::Resident);
  EXPECT_NE(store->info(h).data, nullptr);
}

TEST_F(TensorStoreTest, ShortTransfersAndEagainAreInvisible) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  FaultRule shortRule;
  shortRule.action = FaultRule::Action::Short;
  shortRule.times = -1;
  faults->addRule(shortRule);
  FaultRule again;
  again.action = FaultRule::Action::Fail;
  again.errnum = EAGAIN;
  again.times = 5;
  faults->addRule(again);
  uint64_t h = filled(*store, (1 << 20) + 300, 14);
  store->offload(h, false);
  store->wait(h);
  store->prefetch(h, nullptr);
  store->wait(h);
  EXPECT_TRUE(hasPattern(store->info(h).data, (1 << 20) + 300, 14));
  EXPECT_GT(faults->firedCount(), 5u);
}

TEST_F(TensorStoreTest, ReadEioLeavesHandleOnDisk) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 500000, 15);
  store->offload(h, false);
  store->wait(h);
  faults->addRule(failing(IoOpKind::Read, EIO));
  store->prefetch(h, nullptr);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), EIO);
  EXPECT_NE(msg.find("read of"), std::string::npos) << msg;
  EXPECT_EQ(store->info(h).state, State::OnDisk);
  EXPECT_EQ(store->info(h).data, nullptr);
  store->prefetch(h, nullptr);
  store->wait(h);
  EXPECT_TRUE(hasPattern(store->info(h).data, 500000, 15));
}

TEST_F(TensorStoreTest, ShortReadThatCannotCompleteIsAnError) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 200000, 16);
  store->offload(h, false);
  store->wait(h);
  FaultRule r;
  r.action = FaultRule::Action::ZeroBytes;
  r.times = -1;
  faults->addRule(r);
  store->prefetch(h, nullptr);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), ENODATA);
  EXPECT_NE(msg.find("unexpected end of file"), std::string::npos) << msg;
}

TEST_F(TensorStoreTest, RefusedUringFallsBackToThreads) {
  StoreOptions o = options();
  o.uringInit = refuseUring;
  TensorStore store(o);
  EXPECT_STREQ(store.engine().name(), "threads");
  EXPECT_NE(store.engineNote().find("refused"), std::string::npos);
  uint64_t h = filled(store, 70000, 17);
  store.offload(h, false);
  store.wait(h);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 70000, 17));
}

//===----------------------------------------------------------------------===//
// Faults, real
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, FileTruncatedUnderneath) {
  TensorStore store(options());
  uint64_t h = filled(store, 100000, 18);
  store.offload(h, false);
  store.wait(h);
  HandleInfo i = store.info(h);
  ASSERT_EQ(::truncate(i.file.c_str(), 4096), 0);
  store.prefetch(h, nullptr);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), ENODATA);
  EXPECT_NE(msg.find(i.file), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::OnDisk);
}

TEST_F(TensorStoreTest, FileRemovedUnderneath) {
  TensorStore store(options());
  uint64_t h = filled(store, 100000, 19);
  store.offload(h, false);
  store.wait(h);
  HandleInfo i = store.info(h);
  ASSERT_EQ(::unlink(i.file.c_str()), 0);
  store.prefetch(h, nullptr);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), ENOENT);
  EXPECT_NE(msg.find("removed"), std::string::npos) << msg;
  uint64_t g = filled(store, 4096, 20);
  store.offload(g, false);
  EXPECT_EQ(errnumOf([&] { store.wait(g); }), ENOENT);
}

TEST_F(TensorStoreTest, FileRemovedDuringTheWrite) {
  GatedBackend *gate = nullptr;
  StoreOptions o = options();
  o.decorate = [&gate](std::unique_ptr<IoBackend> inner) {
    auto g = std::make_unique<GatedBackend>(std::move(inner), true);
    gate = g.get();
    return g;
  };
  TensorStore store(o);
  uint64_t h = filled(store, 100000, 24);
  store.offload(h, false);
  ASSERT_EQ(::unlink(store.info(h).file.c_str()), 0);
  gate->open();
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), ENOENT);
  EXPECT_NE(msg.find("removed"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::Resident);
  EXPECT_TRUE(hasPattern(store.info(h).data, 100000, 24));
}

TEST_F(TensorStoreTest, FileSizeLimitGivesEfbig) {
  // RLIMIT_FSIZE applies to the whole process; restore it before leaving.
  struct rlimit old;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  TensorStore store(options());
  uint64_t h = filled(store, 2 << 20, 21);
  struct rlimit lim = old;
  lim.rlim_cur = 1 << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &lim), 0);
  store.offload(h, false);
  std::string msg;
  int err = errnumOf([&] { store.wait(h); }, &msg);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_EQ(err, EFBIG) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::Resident);
  EXPECT_TRUE(hasPattern(store.info(h).data, 2 << 20, 21));
}

bool isTmpfs(const std::string &path) {
  struct statfs fs;
  return ::statfs(path.c_str(), &fs) == 0 && fs.f_type == 0x01021994;
}

TEST_F(TensorStoreTest, TmpfsRoundTrip) {
  // tmpfs refused O_DIRECT before Linux 6.6; either way data must survive.
  if (!isTmpfs("/dev/shm"))
    GTEST_SKIP() << "/dev/shm is not tmpfs here";
  ScratchDir shm("/dev/shm");
  TensorStore store(options(shm.path));
  uint64_t h = filled(store, 10001, 22);
  store.offload(h, false);
  store.wait(h);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 10001, 22));
}

int refuseDirect(const char *path, int flags, mode_t mode) {
  if (flags & O_DIRECT) {
    // Like tmpfs before 6.6: the file is created, then O_DIRECT refused.
    int fd = ::open(path, flags & ~O_DIRECT, mode);
    if (fd >= 0)
      ::close(fd);
    errno = EINVAL;
    return -1;
  }
  return ::open(path, flags, mode);
}

TEST_F(TensorStoreTest, RefusedODirectFallsBackToBufferedIo) {
  StoreOptions o = options();
  o.openFile = refuseDirect;
  TensorStore store(o);
  uint64_t h = filled(store, 10001, 22);
  store.offload(h, false);
  store.wait(h);
  EXPECT_FALSE(store.info(h).direct);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, 10001, 22));
  EXPECT_EQ(store.stats().stagedBytes, 0u); // buffered: no alignment needed
  EXPECT_EQ(store.stats().syncOps, 1u);
}

TEST_F(TensorStoreTest, FullFilesystemGivesEnospc) {
  ScratchDir mnt;
  if (::mount("ssdrt-test", mnt.path.c_str(), "tmpfs", 0, "size=1m") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here: " << errnoText(errno);
  std::string msg;
  int err;
  {
    TensorStore store(options(mnt.path));
    uint64_t h = filled(store, 3 << 20, 23);
    store.offload(h, false);
    err = errnumOf([&] { store.wait(h); }, &msg);
    EXPECT_EQ(store.info(h).state, State::Resident);
  }
  // The context released every file: the filesystem unmounts at once.
  int unmounted = ::umount(mnt.path.c_str());
  EXPECT_EQ(unmounted, 0) << errnoText(errno);
  if (unmounted != 0)
    ::umount2(mnt.path.c_str(), MNT_DETACH);
  EXPECT_EQ(err, ENOSPC) << msg;
}

TEST_F(TensorStoreTest, ReservedSpaceTakesEveryLaterWriteOnAFullDisk) {
  // A real 1 MiB tmpfs: a reservation larger than the disk fails up front,
  // naming the file and offset; one that fits lets writes of those sizes
  // succeed in any order of writes and frees even once the disk is full.
  ScratchDir mnt;
  if (::mount("ssdrt-test", mnt.path.c_str(), "tmpfs", 0, "size=1m") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here: " << errnoText(errno);
  {
    TensorStore store(options(mnt.path));
    const uint64_t big[] = {3 << 20};
    std::string msg;
    EXPECT_EQ(errnumOf([&] { store.reserve(big); }, &msg), ENOSPC);
    EXPECT_NE(msg.find("fallocate of " + mnt.path + "/ssdrt-"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find(".data at offset 0 length 3145728"), std::string::npos)
        << msg;
    // Four writes: 200 KiB, 100000 bytes (25 blocks), 300 KiB, 4 bytes.
    const uint64_t sizes[] = {200 << 10, 100000, 300 << 10, 4};
    store.reserve(sizes);
    // Fill the rest of the disk from outside the store.
    std::string filler = mnt.path + "/filler";
    int fd = ::open(filler.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    std::vector<char> block(4096, 1);
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    ::close(fd);
    uint64_t a = filled(store, 200 << 10, 1);
    store.offload(a, false);
    store.wait(a);
    uint64_t b = filled(store, 100000, 2);
    store.offload(b, false);
    store.wait(b);
    store.free(a); // a hole of 200 KiB, before the 300 KiB write
    uint64_t c = filled(store, 300 << 10, 3);
    store.offload(c, false);
    store.wait(c);
    uint64_t d = filled(store, 4, 4);
    store.offload(d, false);
    store.wait(d);
    for (auto [h, bytes, seed] :
         {std::tuple{b, 100000, 2}, std::tuple{c, 300 << 10, 3},
          std::tuple{d, 4, 4}}) {
      store.prefetch(h, nullptr);
      store.wait(h);
      EXPECT_TRUE(hasPattern(store.info(h).data, bytes, seed));
    }
    // Beyond the reservation (larger than the hole left) the full disk is
    // reported as before.
    uint64_t e = filled(store, 256 << 10, 5);
    store.offload(e, false);
    EXPECT_EQ(errnumOf([&] { store.wait(e); }), ENOSPC);
    ::unlink(filler.c_str());
  }
  ::umount2(mnt.path.c_str(), MNT_DETACH);
}

/// Runs a shell command; returns its stdout, or nullopt when it failed.
std::optional<std::string> shell(const std::string &cmd) {
  FILE *p = ::popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p)
    return std::nullopt;
  std::string out;
  char buf[256];
  while (size_t n = std::fread(buf, 1, sizeof(buf), p))
    out.append(buf, n);
  if (::pclose(p) != 0)
    return std::nullopt;
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

TEST_F(TensorStoreTest, RealEioFromAShrunkLoopDevice) {
  // ext4 on a loop device whose backing file is cut short under the mounted
  // filesystem: blocks past the new end fail with EIO in the block layer.
  std::string backing = dir.path + "/backing", mnt = dir.path + "/mnt";
  std::filesystem::create_directory(mnt);
  if (!shell("truncate -s 64M " + backing))
    GTEST_SKIP() << "truncate failed";
  std::optional<std::string> loop = shell("losetup -f --show " + backing);
  if (!loop)
    GTEST_SKIP() << "no loop device here (losetup refused)";
  struct Cleanup {
    std::string loop, mnt;
    bool mounted = false;
    ~Cleanup() {
      if (mounted && ::umount(mnt.c_str()) != 0) {
        ADD_FAILURE() << "umount " << mnt << ": " << errnoText(errno);
        ::umount2(mnt.c_str(), MNT_DETACH);
      }
      shell("losetup -d " + loop);
    }
  } cleanup{*loop, mnt};
  if (!shell("mkfs.ext4 -q -F -O ^has_journal " + *loop))
    GTEST_SKIP() << "mkfs.ext4 failed on " << *loop;
  if (::mount(loop->c_str(), mnt.c_str(), "ext4", 0, nullptr) != 0)
    GTEST_SKIP() << "cannot mount " << *loop << ": " << errnoText(errno);
  cleanup.mounted = true;

  std::string readMsg, writeMsg;
  int readErr, writeErr;
  {
    TensorStore store(options(mnt));
    uint64_t a = filled(store, 16 << 20, 40);
    store.offload(a, false);
    store.wait(a);
    std::string file = store.info(a).file;
    ASSERT_TRUE(shell("truncate -s 4M " + backing + " && losetup -c " + *loop));
    store.prefetch(a, nullptr);
    readErr = errnumOf([&] { store.wait(a); }, &readMsg);
    EXPECT_EQ(store.info(a).state, State::OnDisk);
    EXPECT_NE(readMsg.find(file), std::string::npos) << readMsg;
    uint64_t b = filled(store, 4 << 20, 41);
    store.offload(b, false);
    writeErr = errnumOf([&] { store.wait(b); }, &writeMsg);
    EXPECT_EQ(store.info(b).state, State::Resident);
    EXPECT_TRUE(hasPattern(store.info(b).data, 4 << 20, 41));
  }
  EXPECT_EQ(readErr, EIO) << readMsg;
  EXPECT_NE(readMsg.find("Input/output error"), std::string::npos) << readMsg;
  EXPECT_EQ(writeErr, EIO) << writeMsg;
}

//===----------------------------------------------------------------------===//
// Concurrency
//===----------------------------------------------------------------------===//

TEST_F(TensorStoreTest, ConcurrentUseFromSeveralThreads) {
  StoreOptions o = options();
  o.stagingBytes = 64 << 10; // force contention for staging chunks
  o.chunkBytes = 16 << 10;
  o.workers = 3;
  TensorStore store(o);
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 8; ++i) {
        uint32_t seed = t * 100 + i;
        uint64_t h = filled(store, 50000 + 333 * i, seed);
        store.offload(h, false);
        store.wait(h);
        store.prefetch(h, nullptr);
        store.wait(h);
        bad += !hasPattern(store.info(h).data, 50000 + 333 * i, seed);
        store.free(h);
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(bad, 0);
  StoreStats s = store.stats();
  EXPECT_EQ(s.offloads, 32u);
  EXPECT_EQ(s.prefetches, 32u);
}

} // namespace

namespace {
//===----------------------------------------------------------------------===//
// Reading back a part
//===----------------------------------------------------------------------===//

/// Offloads a 100000-byte pattern and reads ranges of it back.
void expectRangeReadBack(TensorStore &store, bool direct);

TEST_F(TensorStoreTest, PrefetchRangeReadsOnlyThatRangeOfTheFile) {
  // Through O_DIRECT where the filesystem takes it (whole blocks into a
  // staging chunk) and through buffered I/O (the range itself).
  for (bool direct : {true, false}) {
    SCOPED_TRACE(direct ? "O_DIRECT" : "buffered");
    StoreOptions o = options();
    o.direct = direct;
    TensorStore store(o);
    expectRangeReadBack(store, direct);
  }
}

void expectRangeReadBack(TensorStore &store, bool direct) {
  const int64_t bytes = 100000;
  uint64_t h = store.createHandle(kU8, std::span<const int64_t>(&bytes, 1),
                                  MemKind::Host, nullptr);
  fillPattern(store.info(h).data, bytes, 21);
  std::vector<unsigned char> want(bytes);
  fillPattern(want.data(), bytes, 21);
  store.offload(h, false);
  store.wait(h);
  if (!direct)
    EXPECT_FALSE(store.info(h).direct);
  uint64_t readBefore = store.stats().bytesRead;
  // Not block aligned at either end: the read covers whole blocks and only
  // the range reaches the destination.
  const uint64_t offset = 12345, length = 5000;
  std::vector<unsigned char> part(length + 2, 0xAB);
  store.prefetchRange(h, part.data() + 1, offset, length);
  store.wait(h);
  EXPECT_EQ(std::memcmp(part.data() + 1, want.data() + offset, length), 0);
  EXPECT_EQ(part.front(), 0xAB);
  EXPECT_EQ(part.back(), 0xAB);
  // Only the blocks that hold the range are read (O_DIRECT: 12288..20480).
  EXPECT_EQ(store.stats().bytesRead - readBefore, direct ? 8192 : length);
  // The handle is as it was: on disk, no memory, and reads back whole.
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  EXPECT_EQ(store.info(h).data, nullptr);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, bytes, 21));
  // From Both too, and the last byte.
  std::vector<unsigned char> tail(1);
  store.prefetchRange(h, tail.data(), bytes - 1, 1);
  store.wait(h);
  EXPECT_EQ(tail[0], want[bytes - 1]);
  EXPECT_EQ(store.info(h).state, State::Both);
}

TEST_F(TensorStoreTest, PrefetchRangeMisuseIsReported) {
  TensorStore store(options());
  uint64_t h = filled(store, 8192, 22);
  std::vector<unsigned char> part(4096);
  std::string msg;
  // Resident only: nothing on disk to read.
  EXPECT_EQ(errnumOf([&] { store.prefetchRange(h, part.data(), 0, 16); }, &msg),
            EINVAL);
  EXPECT_NE(msg.find("only a tensor on disk"), std::string::npos) << msg;
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(
      errnumOf([&] { store.prefetchRange(h, part.data(), 8000, 193); }, &msg),
      EINVAL);
  EXPECT_NE(msg.find("bytes [8000, 8193) are not a non-empty range of its "
                     "8192 bytes"),
            std::string::npos)
      << msg;
  EXPECT_EQ(errnumOf([&] { store.prefetchRange(h, part.data(), 0, 0); }),
            EINVAL);
  EXPECT_EQ(errnumOf([&] { store.prefetchRange(h, nullptr, 0, 16); }), EINVAL);
  // One operation at a time, and it must be waited for.
  store.prefetchRange(h, part.data(), 0, 16);
  EXPECT_EQ(errnumOf([&] { store.prefetchRange(h, part.data(), 16, 16); }),
            EBUSY);
  store.wait(h);
  EXPECT_TRUE(hasPattern(part.data(), 16, 22));
}

TEST_F(TensorStoreTest, PrefetchRangeAcrossChunksAndBlocks) {
  // 16 KiB chunks: parts of up to ~3 chunks, at and off block boundaries, in
  // memory aligned or not, up to the tensor's last byte.
  const int64_t bytes = 70001;
  std::vector<unsigned char> want(bytes);
  fillPattern(want.data(), bytes, 24);
  for (bool direct : {true, false}) {
    SCOPED_TRACE(direct ? "O_DIRECT" : "buffered");
    StoreOptions o = options();
    o.direct = direct;
    o.chunkBytes = 16 << 10;
    o.stagingBytes = 64 << 10;
    TensorStore store(o);
    uint64_t h = filled(store, bytes, 24);
    store.offload(h, false);
    store.wait(h);
    AlignedBuf part(bytes + 4096);
    struct Range {
      uint64_t offset, length;
    };
    for (Range r : std::initializer_list<Range>{{0, 4096},
                                                {0, 65536},
                                                {4096, 40960},
                                                {1, 1},
                                                {4095, 2},
                                                {16383, 16386},
                                                {12345, 40000},
                                                {100, 69901},
                                                {69999, 2},
                                                {65536, 4465},
                                                {0, bytes}}) {
      for (uint64_t shift : {uint64_t(0), uint64_t(7)}) {
        SCOPED_TRACE("bytes [" + std::to_string(r.offset) + ", +" +
                     std::to_string(r.length) + ") into memory +" +
                     std::to_string(shift));
        std::memset(part.data, 0xAB, part.size);
        uint64_t opsBefore = store.stats().readOps;
        store.prefetchRange(h, part.data + shift, r.offset, r.length);
        store.wait(h);
        EXPECT_EQ(
            std::memcmp(part.data + shift, want.data() + r.offset, r.length),
            0);
        // Nothing outside the destination is written.
        for (uint64_t i = 0; i < shift; ++i)
          EXPECT_EQ((unsigned char)part.data[i], 0xAB);
        EXPECT_EQ((unsigned char)part.data[shift + r.length], 0xAB);
        // Through the engine: one request per staging chunk at most.
        uint64_t ops = store.stats().readOps - opsBefore;
        EXPECT_GE(ops, 1u);
        EXPECT_LE(ops, r.length / (16 << 10) + 2);
      }
    }
    EXPECT_EQ(store.info(h).state, State::OnDisk);
    EXPECT_EQ(store.stats().failures, 0u);
  }
}

TEST_F(TensorStoreTest, PrefetchRangeRandomPartsWithShortReads) {
  // Random parts of three tensors (one not a whole number of blocks) in one
  // file, while every read comes back short: each part arrives whole,
  // nothing around it is touched, and the neighbours' bytes never leak in.
  FaultInjectingBackend *faults = nullptr;
  StoreOptions o = options();
  o.chunkBytes = 8 << 10;
  o.stagingBytes = 32 << 10;
  o.decorate = [&faults](std::unique_ptr<IoBackend> inner) {
    auto f = std::make_unique<FaultInjectingBackend>(std::move(inner));
    faults = f.get();
    return f;
  };
  TensorStore store(o);
  const int64_t sizes[] = {50001, 4096, 70000};
  std::vector<uint64_t> handles;
  std::vector<std::vector<unsigned char>> want;
  for (int i = 0; i < 3; ++i) {
    handles.push_back(filled(store, sizes[i], 30 + i));
    want.emplace_back(sizes[i]);
    fillPattern(want.back().data(), sizes[i], 30 + i);
    store.offload(handles.back(), false);
    store.wait(handles.back());
  }
  FaultRule shortRead;
  shortRead.action = FaultRule::Action::Short;
  shortRead.anyKind = false;
  shortRead.kind = IoOpKind::Read;
  shortRead.times = -1;
  faults->addRule(shortRead);
  std::mt19937_64 random(7);
  std::vector<unsigned char> part(70000 + 2);
  for (int round = 0; round < 300; ++round) {
    int which = int(random() % 3);
    uint64_t bytes = sizes[which];
    uint64_t length =
        1 + random() % (round % 2 ? bytes : std::min<uint64_t>(bytes, 9000));
    uint64_t offset = random() % (bytes - length + 1);
    SCOPED_TRACE("round " + std::to_string(round) + ": bytes [" +
                 std::to_string(offset) + ", +" + std::to_string(length) +
                 ") of tensor " + std::to_string(which));
    std::fill(part.begin(), part.end(), 0x5C);
    store.prefetchRange(handles[which], part.data() + 1, offset, length);
    store.wait(handles[which]);
    ASSERT_EQ(std::memcmp(part.data() + 1, want[which].data() + offset, length),
              0);
    ASSERT_EQ(part[0], 0x5C);
    ASSERT_EQ(part[length + 1], 0x5C);
  }
  EXPECT_GT(faults->firedCount(), 100u);
  EXPECT_EQ(store.stats().failures, 0u);
}

TEST_F(TensorStoreTest, PrefetchRangeFaultsNameFileAndOffset) {
  FaultInjectingBackend *faults = nullptr;
  auto store = faultyStore(faults);
  uint64_t h = filled(*store, 600000, 25);
  store->offload(h, false);
  store->wait(h);
  HandleInfo i = store->info(h);
  std::vector<unsigned char> part(300000), want(600000);
  fillPattern(want.data(), want.size(), 25);
  std::string msg;

  // A failed read: the error names the file, the offset and the part.
  faults->addRule(failing(IoOpKind::Read, EIO));
  store->prefetchRange(h, part.data(), 12345, 1000);
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), EIO);
  EXPECT_NE(msg.find(i.file), std::string::npos) << msg;
  // O_DIRECT reads the block that holds the part's first byte.
  auto at = [&](uint64_t offset) {
    return "at offset " +
           std::to_string(i.fileOffset +
                          (i.direct ? offset / 4096 * 4096 : offset));
  };
  EXPECT_NE(msg.find(at(12345)), std::string::npos) << msg;
  EXPECT_NE(msg.find("Input/output error"), std::string::npos) << msg;
  EXPECT_NE(msg.find("reading back its bytes [12345, 13345)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(store->info(h).state, State::OnDisk);
  EXPECT_EQ(store->stats().failures, 1u);

  // Short reads are resumed: the part arrives whole.
  faults->clearRules();
  FaultRule r = failing(IoOpKind::Read, 0, -1);
  r.action = FaultRule::Action::Short;
  faults->addRule(r);
  uint64_t firedBefore = faults->firedCount();
  store->prefetchRange(h, part.data(), 4096, 300000);
  store->wait(h);
  EXPECT_GT(faults->firedCount(), firedBefore);
  EXPECT_EQ(std::memcmp(part.data(), want.data() + 4096, 300000), 0);

  // A read that stops making progress is the end of the file.
  faults->clearRules();
  r.action = FaultRule::Action::ZeroBytes;
  faults->addRule(r);
  store->prefetchRange(h, part.data(), 599990, 10);
  EXPECT_EQ(errnumOf([&] { store->wait(h); }, &msg), ENODATA);
  EXPECT_NE(msg.find(i.file), std::string::npos) << msg;
  EXPECT_NE(msg.find("unexpected end of file"), std::string::npos) << msg;
  EXPECT_NE(msg.find(at(599990)), std::string::npos) << msg;

  // The faults gone, the same part reads back.
  faults->clearRules();
  store->prefetchRange(h, part.data(), 599990, 10);
  store->wait(h);
  EXPECT_EQ(std::memcmp(part.data(), want.data() + 599990, 10), 0);
}

TEST_F(TensorStoreTest, PrefetchRangeOfATruncatedFileNamesFileAndOffset) {
  TensorStore store(options());
  uint64_t h = filled(store, 100000, 23);
  store.offload(h, false);
  store.wait(h);
  HandleInfo i = store.info(h);
  ASSERT_EQ(::truncate(i.file.c_str(), 4096), 0);
  std::vector<unsigned char> part(1000);
  store.prefetchRange(h, part.data(), 50000, 1000);
  std::string msg;
  EXPECT_EQ(errnumOf([&] { store.wait(h); }, &msg), ENODATA);
  EXPECT_NE(msg.find(i.file), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::OnDisk);
}
} // namespace
