//===- FileUtil.cpp - File helpers shared by the checkpoint code ----------===//
//
// Thin, error-checked wrappers over POSIX calls; every failure becomes an
// `Error` carrying the path and the errno text.
//
//===----------------------------------------------------------------------===//
#include "FileUtil.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ssd::rt::ckpt {

OwnedFd &OwnedFd::operator=(OwnedFd &&other) noexcept {
  if (this != &other) {
    if (fd >= 0)
      ::close(fd);
    fd = other.release();
  }
  return *this;
}

OwnedFd::~OwnedFd() {
  if (fd >= 0)
    ::close(fd);
}

int OwnedFd::release() {
  int f = fd;
  fd = -1;
  return f;
}

void OwnedFd::close(const std::string &path) {
  int f = release();
  if (f >= 0 && ::close(f) != 0)
    fail(errno, "close of " + path + " failed: " + errnoText(errno));
}

AlignedBuffer allocateAligned(uint64_t bytes, uint64_t alignment) {
  void *p = nullptr;
  if (posix_memalign(&p, alignment, bytes) != 0 || !p)
    fail(ENOMEM, "cannot allocate " + std::to_string(bytes) +
                     " bytes of aligned staging memory");
  return AlignedBuffer(static_cast<char *>(p));
}

AlignedBuffer allocateOnHugePages(uint64_t bytes) {
  AlignedBuffer buffer = allocateAligned(bytes, kHugePage);
  madvise(buffer.get(), bytes, MADV_HUGEPAGE);
  return buffer;
}

StagingCache &StagingCache::process() {
  static StagingCache *cache = new StagingCache; // outlives static users
  return *cache;
}

StagingCache::Buffer StagingCache::take(uint64_t bytes) {
  bytes = std::max<uint64_t>(bytes, kIoAlignment);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto best = kept.end();
    for (auto it = kept.begin(); it != kept.end(); ++it)
      if (it->capacity >= bytes &&
          (best == kept.end() || it->capacity < best->capacity))
        best = it;
    if (best != kept.end()) {
      Buffer buffer = std::move(*best);
      kept.erase(best);
      keptBytes -= buffer.capacity;
      return buffer;
    }
  }
  if (bytes < kHugePage)
    return {allocateAligned(bytes), bytes};
  uint64_t capacity = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  return {allocateOnHugePages(capacity), capacity};
}

void StagingCache::give(Buffer buffer) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!buffer.memory || kept.size() == kMaxKept ||
      keptBytes + buffer.capacity > kMaxKeptBytes)
    return;
  keptBytes += buffer.capacity;
  kept.push_back(std::move(buffer));
}

OwnedFd openDataFile(const std::string &path, int flags, bool direct,
                     bool &gotDirect) {
  gotDirect = false;
  if (direct) {
    int fd = ::open(path.c_str(), flags | O_DIRECT | O_CLOEXEC, 0644);
    if (fd >= 0) {
      gotDirect = true;
      return OwnedFd(fd);
    }
    // tmpfs and some overlay setups refuse O_DIRECT with EINVAL.
    if (errno != EINVAL)
      fail(errno, "open of " + path + " failed: " + errnoText(errno));
  }
  int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0)
    fail(errno, "open of " + path + " failed: " + errnoText(errno));
  return OwnedFd(fd);
}

std::string readWholeFile(const std::string &path, uint64_t maxBytes) {
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    fail(errno, "open of " + path + " failed: " + errnoText(errno));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    fail(errno, "stat of " + path + " failed: " + errnoText(errno));
  if (!S_ISREG(st.st_mode))
    fail(EINVAL, path + " is not a regular file");
  if (uint64_t(st.st_size) > maxBytes)
    fail(EFBIG, path + " is " + std::to_string(st.st_size) +
                    " bytes, more than the limit of " +
                    std::to_string(maxBytes));
  std::string out(st.st_size, '\0');
  uint64_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd.get(), out.data() + done, out.size() - done, done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail(errno, ioErrorMessage("read", path, done, out.size() - done, errno));
    if (n == 0)
      break;
    done += n;
  }
  out.resize(done);
  return out;
}

void writeFileDurably(const std::string &path, const std::string &content) {
  OwnedFd fd(
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    fail(errno, "open of " + path + " failed: " + errnoText(errno));
  writeExactly(fd.get(), content.data(), content.size(), 0, path);
  if (::fsync(fd.get()) != 0)
    fail(errno, "fsync of " + path + " failed: " + errnoText(errno));
  fd.close(path);
}

void fsyncDirectory(const std::string &path) {
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0)
    fail(errno, "open of directory " + path + " failed: " + errnoText(errno));
  if (::fsync(fd.get()) != 0)
    fail(errno, "fsync of directory " + path + " failed: " + errnoText(errno));
}

void renameDurably(const std::string &dir, const std::string &from,
                   const std::string &to) {
  std::string a = dir + "/" + from, b = dir + "/" + to;
  if (::rename(a.c_str(), b.c_str()) != 0)
    fail(errno, "rename of " + a + " to " + b + " failed: " + errnoText(errno));
  fsyncDirectory(dir);
}

bool pathExists(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

void readExactly(int fd, void *buf, uint64_t length, uint64_t offset,
                 const std::string &path) {
  char *p = static_cast<char *>(buf);
  for (uint64_t done = 0; done < length;) {
    ssize_t n = ::pread(fd, p + done, length - done, offset + done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = n < 0 ? errno : ENODATA;
      fail(err, ioErrorMessage("read", path, offset + done, length - done, err,
                               n == 0 ? "the file ends early" : ""));
    }
    done += n;
  }
}

void writeExactly(int fd, const void *buf, uint64_t length, uint64_t offset,
                  const std::string &path) {
  const char *p = static_cast<const char *>(buf);
  for (uint64_t done = 0; done < length;) {
    ssize_t n = ::pwrite(fd, p + done, length - done, offset + done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      fail(err,
           ioErrorMessage("write", path, offset + done, length - done, err));
    }
    done += n;
  }
}

void throwIfFailed(const IoResult &result, const char *what,
                   const std::string &path, uint64_t offset, uint64_t length) {
  if (result.ok())
    return;
  std::string detail;
  if (result.noProgress)
    detail = std::strcmp(what, "read") == 0 ? "the file ends early (truncated?)"
                                            : "the device made no progress";
  fail(result.errnum,
       ioErrorMessage(what, path, offset, length, result.errnum, detail));
}

} // namespace ssd::rt::ckpt
