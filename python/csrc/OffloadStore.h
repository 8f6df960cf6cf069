//===- OffloadStore.h - Tensors offloaded to SSD for torch.ops.ssdopt -----===//
//
// torch.ops.ssdopt.{offload,prefetch,wait,sync,discard} as an adapter over the
// ssdrt runtime. A store is a directory and, while it holds any live handle,
// one ssdrt context per device (one for host tensors) whose data files live
// there: a context is created by the first offload and destroyed (its files
// deleted) when its last handle is waited for or discarded, so nothing is
// left on disk between training steps, unless `reserve` keeps it open. A handle
// is one offloaded tensor, named by a process-unique id. docs/python.md
// ("Runtime ops") states the semantics; Module.cpp registers the operators.
//
//===----------------------------------------------------------------------===//
#ifndef SSDOPT_CSRC_OFFLOADSTORE_H
#define SSDOPT_CSRC_OFFLOADSTORE_H

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ssdopt {

/// Process-wide counters, summed over every store.
struct Stats {
  /// Bytes of tensors whose write completed, and of tensors read back.
  uint64_t bytesWritten = 0, bytesRead = 0;
  /// offload calls, and wait calls that returned a tensor.
  uint64_t offloads = 0, reloads = 0;
  /// Transfers that failed (each also raised a RuntimeError).
  uint64_t failures = 0;
  /// Time callers spent blocked in wait (the read), and in prefetch or
  /// discard behind a write still in flight.
  double stallSeconds = 0, writeStallSeconds = 0;
  /// Gauges, not reset by resetStats.
  uint64_t liveHandles = 0, openStores = 0;
};

/// Opens a store on DIRECTORY, which must exist and be writable (checked by
/// creating and removing a probe file), else throws std::system_error with
/// the errno. Returns its id.
int64_t openStore(const std::string &directory);
/// Waits for the writes in flight, drops every handle of the store and
/// deletes its data files. Later use of its handles is an error.
void closeStore(int64_t store);
/// closeStore for every open store (at interpreter exit).
void closeAllStores();

/// Allocates on disk now the space that offloads of SIZES bytes each on
/// DEVICE (a CUDA index, or -1 for host tensors) will write in STORE, so
/// that none of them fails for a full disk (ssdrt_context_reserve); that
/// device's context and its data files then stay open until the store
/// closes. A full disk raises here, naming the data file and the offset.
void reserve(int64_t store, int64_t device, const std::vector<uint64_t> &sizes);

at::Tensor offload(const at::Tensor &x, int64_t store);
at::Tensor prefetch(const at::Tensor &handle);
/// With KEEP the handle stays live after the read, its copy on disk intact:
/// it may be prefetched again, and must be discarded eventually.
at::Tensor wait(const at::Tensor &ticket, c10::IntArrayRef size,
                c10::IntArrayRef stride, c10::ScalarType dtype,
                c10::Device device, bool keep);
/// Blocks until the write of HANDLE is done; a failed write retires the
/// handle and raises, naming the file, offset and cause.
void sync(const at::Tensor &handle);
void discard(const at::Tensor &handle);

/// Where a handle's bytes are on disk: `bytes` bytes of file `path` from
/// `offset` on, the tensor's elements in row-major order.
struct DiskLocation {
  std::string path;
  uint64_t offset = 0, bytes = 0;
};
/// The location of HANDLE once its write is done (waits for it; a failed
/// write retires the handle and raises, naming the file, offset and cause),
/// for a checkpoint that copies it file to file. Raises when the handle is
/// being read back, or when its bytes on disk are not its elements in
/// row-major order (a view written as its storage span). A zero-byte
/// handle has an empty path.
DiskLocation locate(const at::Tensor &handle);

Stats stats();
void resetStats();

} // namespace ssdopt

#endif // SSDOPT_CSRC_OFFLOADSTORE_H
