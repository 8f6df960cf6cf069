//===- Status.h - Errors and logging inside the runtime ---------*- C++ -*-===//
//
// Errors inside the runtime travel as a positive errno plus a message that
// already carries the context the caller needs (file, offset, length, cause).
// `Error` is the exception form used between internal layers; the C API edge
// catches it and turns it into a negative return code and a thread-local
// message, so no exception ever crosses into C, MLIR or Python.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_STATUS_H
#define SSD_RUNTIME_STATUS_H

#include <cerrno>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

namespace ssd::rt {

/// An error with an errno value and a full message.
class Error : public std::runtime_error {
public:
  Error(int errnum, const std::string &message)
      : std::runtime_error(message), errnum(errnum) {}
  /// The positive errno describing the cause.
  int errnum;
};

/// A failure recorded for later delivery (for example by `wait`).
struct Failure {
  int errnum = 0;
  std::string message;
  explicit operator bool() const { return errnum != 0; }
};

/// `strerror` text for `errnum`, thread-safe.
std::string errnoText(int errnum);

/// "<what> of <path> at offset <offset> length <length> failed: <cause>".
std::string ioErrorMessage(const char *what, const std::string &path,
                           uint64_t offset, uint64_t length, int errnum,
                           const std::string &detail = {});

/// Throws `Error(errnum, message)`.
[[noreturn]] void fail(int errnum, const std::string &message);

/// Runs `body` at a C API edge, where no exception may pass: 0 when it
/// returns (and `lastError` cleared), else the negative errno of what it
/// threw (EIO for an error that carries none, ENOMEM for bad_alloc) with
/// its message in `lastError`, the library's thread-local message.
template <typename Body>
int guardCApi(std::string &lastError, Body &&body) noexcept {
  try {
    body();
    lastError.clear();
    return 0;
  } catch (const Error &e) {
    lastError = e.what();
    return -(e.errnum ? e.errnum : EIO);
  } catch (const std::bad_alloc &) {
    lastError = "out of memory";
    return -ENOMEM;
  } catch (const std::exception &e) {
    lastError = std::string("internal error: ") + e.what();
    return -EIO;
  } catch (...) {
    lastError = "internal error: unknown exception";
    return -EIO;
  }
}

/// Writes one line to stderr prefixed with "ssdrt: ", unless the environment
/// variable SSDRT_LOG is "off".
void logNote(const std::string &message);

} // namespace ssd::rt

#endif // SSD_RUNTIME_STATUS_H
