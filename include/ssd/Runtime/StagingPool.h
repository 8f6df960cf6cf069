//===- StagingPool.h - Bounded pool of pinned staging chunks ----*- C++ -*-===//
//
// A fixed number of equally sized, 4 KiB aligned host chunks carved from one
// mapping whose total size the caller chooses. The memory is page-locked and
// registered with CUDA when a device is present, and registered with the I/O
// backend as fixed buffers. `acquire` blocks when every chunk is taken: that
// is the back-pressure which keeps staging memory bounded. A chunk that feeds
// an asynchronous device copy is returned with `releaseAfter`, and becomes
// reusable once the copy's event has completed.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_STAGINGPOOL_H
#define SSD_RUNTIME_STAGINGPOOL_H

#include "ssd/Runtime/Device.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace ssd::rt {

class IoBackend;

class StagingPool {
public:
  struct Chunk {
    char *data;
    uint64_t bytes;
    /// Registered buffer index with the I/O backend, or -1.
    int bufIndex;
    /// Completion event for `releaseAfter` (device mode only).
    DeviceEvent event;
  };

  /// Creates max(2, capacityBytes / chunkBytes) chunks of `chunkBytes`
  /// (rounded up to 4 KiB). Throws ENOMEM when the mapping fails.
  StagingPool(uint64_t capacityBytes, uint64_t chunkBytes, const Device &device,
              IoBackend *backend);
  ~StagingPool();
  StagingPool(const StagingPool &) = delete;
  StagingPool &operator=(const StagingPool &) = delete;

  /// Takes a free chunk, blocking while none is free.
  Chunk *acquire();
  /// Takes a free chunk if one is free now.
  Chunk *tryAcquire();
  void release(Chunk *chunk);
  /// Records `chunk->event` on `stream` and returns the chunk once the device
  /// has passed that point.
  void releaseAfter(Chunk *chunk, DeviceStream stream);

  uint64_t chunkBytes() const { return chunkSize; }
  size_t chunkCount() const { return chunks.size(); }
  bool pinned() const { return isPinned; }
  bool registered() const { return isRegistered; }
  /// Total seconds callers spent blocked in `acquire`.
  double waitSeconds() const { return waitNs.load() * 1e-9; }

private:
  const Device &device;
  uint64_t chunkSize;
  char *base = nullptr;
  uint64_t mappedBytes = 0;
  bool isPinned = false;
  bool cudaRegistered = false;
  bool isRegistered = false;
  std::vector<Chunk> chunks;

  std::mutex mutex;
  std::condition_variable freed;
  std::vector<Chunk *> freeList;
  /// Chunks whose device copy may still run, oldest first.
  std::deque<Chunk *> deferred;
  std::atomic<uint64_t> waitNs{0};
};

} // namespace ssd::rt

#endif // SSD_RUNTIME_STAGINGPOOL_H
