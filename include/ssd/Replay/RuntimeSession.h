//===- RuntimeSession.h - An ssdrt context for timed runs -------*- C++ -*-===//
//
// The runtime as ssd-run and the benchmarks use it: a host-only ssdrt
// context on a scratch directory, destroyed with the session, handles of
// raw bytes, and the checks that come before any work (the directory
// exists and has room for the run's data files).
//
//===----------------------------------------------------------------------===//

#ifndef SSD_REPLAY_RUNTIMESESSION_H
#define SSD_REPLAY_RUNTIMESESSION_H

#include "ssd/Runtime/ssdrt.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace ssd::replay {

/// Whole 4 KiB blocks for `bytes` (at least one): what a transfer occupies
/// in the data file, and what memory O_DIRECT moves in place.
uint64_t extentBytes(uint64_t bytes);

/// Fails unless `directory` is a directory.
llvm::Error checkDirectory(llvm::StringRef directory);

/// Fails unless the filesystem of `directory` has `bytes` available; `what`
/// names the run that needs them in the message.
llvm::Error checkFreeSpace(llvm::StringRef directory, uint64_t bytes,
                           llvm::StringRef what);

/// A host-only ssdrt context on a scratch directory.
class RuntimeSession {
public:
  /// Fails when `directory` does not exist or the runtime refuses it.
  static llvm::Expected<std::unique_ptr<RuntimeSession>>
  open(llvm::StringRef directory);
  ~RuntimeSession();
  RuntimeSession(const RuntimeSession &) = delete;
  RuntimeSession &operator=(const RuntimeSession &) = delete;

  /// The transfer threads a context has by default (what `open` keeps).
  static unsigned defaultWorkers();

  /// A handle of `bytes` raw bytes in `memory`, or in memory the runtime
  /// allocates (and frees at a release) when null.
  llvm::Expected<ssdrt_handle> createHandle(uint64_t bytes,
                                            void *memory = nullptr);

  ssdrt_context *context() const { return ctx; }
  /// The runtime's transfer threads: how many transfers it moves at once.
  unsigned workers() const { return numWorkers; }
  /// The I/O engine the runtime chose ("io_uring" or "threads").
  const char *engineName() const { return ssdrt_engine_name(ctx); }
  llvm::StringRef directory() const { return path; }

private:
  RuntimeSession() = default;

  ssdrt_context *ctx = nullptr;
  unsigned numWorkers = 0;
  std::string path;
};

} // namespace ssd::replay

#endif // SSD_REPLAY_RUNTIMESESSION_H
