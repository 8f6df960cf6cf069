//===- StagingPool.cpp - Bounded pool of pinned staging chunks ------------===//
//
// Allocation, pinning and registration of the staging memory, and the
// blocking acquire/release protocol (including event-deferred release).
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/StagingPool.h"

#include "ssd/Runtime/DType.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sys/mman.h>
#include <sys/uio.h>

namespace ssd::rt {

StagingPool::StagingPool(uint64_t capacityBytes, uint64_t chunkBytes,
                         const Device &device, IoBackend *backend)
    : device(device) {
  chunkSize = std::max(kIoAlignment, alignUp(chunkBytes, kIoAlignment));
  // Registered io_uring buffers are limited to 1 GiB each.
  chunkSize = std::min<uint64_t>(chunkSize, 1u << 30);
  size_t count = std::max<uint64_t>(2, capacityBytes / chunkSize);
  mappedBytes = count * chunkSize;
  void *p = mmap(nullptr, mappedBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED)
    fail(errno, "cannot map " + std::to_string(mappedBytes) +
                    " bytes of staging memory: " + errnoText(errno));
  base = static_cast<char *>(p);

  if (device.available()) {
    cudaRegistered = device.registerHost(base, mappedBytes);
    isPinned = cudaRegistered;
  }
  if (!isPinned)
    isPinned = mlock(base, mappedBytes) == 0;

  chunks.reserve(count);
  std::vector<iovec> iovs;
  for (size_t i = 0; i < count; ++i) {
    chunks.push_back({base + i * chunkSize, chunkSize, -1, nullptr});
    iovs.push_back({base + i * chunkSize, chunkSize});
  }
  if (backend && backend->registerBuffers(iovs) == 0) {
    isRegistered = true;
    for (size_t i = 0; i < count; ++i)
      chunks[i].bufIndex = static_cast<int>(i);
  }
  if (device.available())
    for (Chunk &c : chunks)
      c.event = device.createEvent();
  for (Chunk &c : chunks)
    freeList.push_back(&c);
}

StagingPool::~StagingPool() {
  for (Chunk *c : deferred)
    device.synchronize(c->event);
  for (Chunk &c : chunks)
    if (c.event)
      device.destroyEvent(c.event);
  if (cudaRegistered)
    device.unregisterHost(base);
  munmap(base, mappedBytes);
}

StagingPool::Chunk *StagingPool::tryAcquire() {
  std::lock_guard<std::mutex> lock(mutex);
  if (freeList.empty())
    return nullptr;
  Chunk *c = freeList.back();
  freeList.pop_back();
  return c;
}

StagingPool::Chunk *StagingPool::acquire() {
  auto start = std::chrono::steady_clock::now();
  bool waited = false;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    if (!freeList.empty()) {
      Chunk *c = freeList.back();
      freeList.pop_back();
      if (waited)
        waitNs += std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
      return c;
    }
    waited = true;
    if (!deferred.empty()) {
      // Take the oldest in-flight chunk and wait for its copy ourselves;
      // popping it first makes it ours, so no other thread waits on it.
      Chunk *c = deferred.front();
      deferred.pop_front();
      lock.unlock();
      device.synchronize(c->event);
      lock.lock();
      freeList.push_back(c);
      continue;
    }
    freed.wait(lock);
  }
}

void StagingPool::release(Chunk *chunk) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    freeList.push_back(chunk);
  }
  freed.notify_one();
}

void StagingPool::releaseAfter(Chunk *chunk, DeviceStream stream) {
  device.record(chunk->event, stream);
  {
    std::lock_guard<std::mutex> lock(mutex);
    deferred.push_back(chunk);
  }
  freed.notify_one();
}

} // namespace ssd::rt
