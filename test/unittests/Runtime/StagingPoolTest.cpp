//===- StagingPoolTest.cpp - Tests of the bounded staging pool ------------===//
//
// The pool never grows past its capacity, blocks acquirers when empty (the
// back-pressure), wakes them on release, and registers its chunks with
// io_uring as fixed buffers.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/StagingPool.h"

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

using namespace ssd::rt;
using namespace ssd::rt::test;

namespace {

TEST(StagingPool, CapacityIsBoundedAndAligned) {
  Device host(-1);
  StagingPool pool(1 << 20, 256 << 10, host, nullptr);
  EXPECT_EQ(pool.chunkCount(), 4u);
  EXPECT_EQ(pool.chunkBytes(), 256u << 10);
  std::vector<StagingPool::Chunk *> taken;
  while (StagingPool::Chunk *c = pool.tryAcquire()) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(c->data) % 4096, 0u);
    taken.push_back(c);
  }
  EXPECT_EQ(taken.size(), 4u);
  for (auto *c : taken)
    pool.release(c);
}

TEST(StagingPool, AtLeastTwoChunksForPipelining) {
  Device host(-1);
  StagingPool pool(4096, 1 << 20, host, nullptr);
  EXPECT_EQ(pool.chunkCount(), 2u);
}

TEST(StagingPool, AcquireBlocksUntilRelease) {
  Device host(-1);
  StagingPool pool(2 * 4096, 4096, host, nullptr);
  auto *a = pool.acquire();
  auto *b = pool.acquire();
  std::atomic<bool> started{false};
  auto waiter = std::async(std::launch::async, [&] {
    started = true;
    return pool.acquire();
  });
  while (!started)
    std::this_thread::yield();
  // Give the waiter time to block (it cannot get a chunk either way).
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(50)),
            std::future_status::timeout);
  pool.release(a);
  StagingPool::Chunk *c = waiter.get();
  EXPECT_EQ(c, a);
  EXPECT_GT(pool.waitSeconds(), 0.0);
  pool.release(b);
  pool.release(c);
}

TEST(StagingPool, ChunksAreRegisteredWithUring) {
  Device host(-1);
  std::string note;
  auto backend = makeBackend(EngineKind::IoUring, 4, note);
  StagingPool pool(1 << 20, 256 << 10, host, backend.get());
  EXPECT_TRUE(pool.registered());
  auto *c = pool.acquire();
  EXPECT_GE(c->bufIndex, 0);
  pool.release(c);
}

TEST(StagingPool, HostOnlyDeviceReportsWhy) {
  Device host(-1);
  EXPECT_FALSE(host.available());
  EXPECT_FALSE(host.note().empty());
  EXPECT_FALSE(host.isDevicePointer(&host));
}

} // namespace
