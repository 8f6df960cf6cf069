//===- ReplayTestUtil.h - Scratch directories for replay tests --*- C++ -*-===//
//
// The replay library's tests run the real runtime on real files: a fresh
// directory on the build's disk (so that O_DIRECT works; $SSDRT_TEST_DIR
// overrides it), removed with its contents at scope exit, and the process's
// file size limit, lowered to make writes fail as a full quota does.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TEST_UNITTESTS_REPLAY_REPLAYTESTUTIL_H
#define SSD_TEST_UNITTESTS_REPLAY_REPLAYTESTUTIL_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <sys/resource.h>

namespace ssd::replay::testing {

class ScratchDir {
public:
  ScratchDir() {
    const char *parent = std::getenv("SSDRT_TEST_DIR");
    llvm::SmallString<128> model(parent ? parent : SSD_REPLAY_TEST_DIR);
    llvm::sys::path::append(model, "ssd-replay-test");
    std::error_code ec = llvm::sys::fs::createUniqueDirectory(model, directory);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(directory); }
  llvm::StringRef str() const { return directory; }

  /// The files in the directory.
  unsigned numFiles() const {
    unsigned count = 0;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(directory, ec), end;
         !ec && it != end; it.increment(ec))
      ++count;
    return count;
  }

private:
  llvm::SmallString<128> directory;
};

/// Lowers the file size limit of the whole process to `bytes` (SIGXFSZ
/// ignored, so that writes beyond it fail with EFBIG) until destroyed.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    EXPECT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = old;
    limit.rlim_cur = bytes;
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
  }

private:
  struct rlimit old;
  void (*oldHandler)(int);
};

} // namespace ssd::replay::testing

#endif // SSD_TEST_UNITTESTS_REPLAY_REPLAYTESTUTIL_H
