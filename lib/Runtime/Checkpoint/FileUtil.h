//===- FileUtil.h - File helpers shared by the checkpoint code --*- C++ -*-===//
//
// Internal to lib/Runtime/Checkpoint: an owned descriptor, aligned staging
// memory and the process's cache of it, whole-file reads and durable
// small-file writes, directory fsync, and the conversion of an `IoResult`
// into an error naming the file, offset and length.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_LIB_RUNTIME_CHECKPOINT_FILEUTIL_H
#define SSD_LIB_RUNTIME_CHECKPOINT_FILEUTIL_H

#include "ssd/Runtime/DType.h"
#include "ssd/Runtime/IoEngine.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ssd::rt::ckpt {

class OwnedFd {
public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd(fd) {}
  OwnedFd(OwnedFd &&other) noexcept : fd(other.release()) {}
  OwnedFd &operator=(OwnedFd &&other) noexcept;
  ~OwnedFd();
  int get() const { return fd; }
  int release();
  /// Closes and reports a close failure (which can carry a write error).
  void close(const std::string &path);

private:
  int fd = -1;
};

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<char, FreeDeleter>;

/// `bytes` (a multiple of 4096) of memory aligned to `alignment`; throws
/// ENOMEM.
AlignedBuffer allocateAligned(uint64_t bytes,
                              uint64_t alignment = kIoAlignment);

constexpr uint64_t kHugePage = 2u << 20;

/// `bytes` (a multiple of kHugePage) aligned to kHugePage and advised onto
/// transparent huge pages (a hint: small pages work too). An O_DIRECT
/// transfer into small pages reaches a virtio disk as one request per
/// max_segments pages unless they happen to be physically contiguous; on
/// huge pages it stays whole, and the kernel pins 2 MiB at a time.
AlignedBuffer allocateOnHugePages(uint64_t bytes);

/// The staging buffers of a process's checkpoint reads and writes, kept
/// between them: mapping them fresh costs a compaction, or a VM's first
/// touch of its memory, each time (24-960 ms for 32 MiB measured, against
/// about 0.5 s for the GiB they then move), and a checkpoint every step
/// would pay it every step. At most two default rings (4 x 8 MiB: one
/// reading, one writing) are kept idle.
class StagingCache {
public:
  struct Buffer {
    AlignedBuffer memory;
    uint64_t capacity = 0;
  };

  static StagingCache &process();

  /// A buffer of at least `bytes`: the smallest kept one that holds them,
  /// else a new one, on huge pages (rounded up to whole ones) from
  /// kHugePage on. Its bytes are those of its last use.
  Buffer take(uint64_t bytes);
  /// Keeps `buffer`, which no transfer uses any more, for a later take.
  void give(Buffer buffer);

private:
  static constexpr size_t kMaxKept = 8;
  static constexpr uint64_t kMaxKeptBytes = 64ull << 20;
  std::mutex mutex;
  std::vector<Buffer> kept;
  uint64_t keptBytes = 0;
};

/// Opens a data file, with O_DIRECT when `direct` and the file system
/// allows it; `gotDirect` says which. Throws with the path on failure.
OwnedFd openDataFile(const std::string &path, int flags, bool direct,
                     bool &gotDirect);

/// Reads a whole regular file of at most `maxBytes`; throws ENOENT, EFBIG...
std::string readWholeFile(const std::string &path, uint64_t maxBytes);

/// Creates `path` with `content`, then fsyncs it (not its directory).
void writeFileDurably(const std::string &path, const std::string &content);

void fsyncDirectory(const std::string &path);

/// Renames within one directory and fsyncs that directory.
void renameDurably(const std::string &dir, const std::string &from,
                   const std::string &to);

bool pathExists(const std::string &path);

/// Buffered positional transfers of exactly `length` bytes (EINTR and short
/// transfers retried); a read that meets the end of the file throws ENODATA.
void readExactly(int fd, void *buf, uint64_t length, uint64_t offset,
                 const std::string &path);
void writeExactly(int fd, const void *buf, uint64_t length, uint64_t offset,
                  const std::string &path);

/// Throws `Error` for a failed transfer, naming what, path, offset, length.
void throwIfFailed(const IoResult &result, const char *what,
                   const std::string &path, uint64_t offset, uint64_t length);

} // namespace ssd::rt::ckpt

#endif // SSD_LIB_RUNTIME_CHECKPOINT_FILEUTIL_H
