//===- Status.cpp - Errors and logging inside the runtime -----------------===//
//
// Message formatting for runtime errors and the runtime's one log sink.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Status.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ssd::rt {

std::string errnoText(int errnum) {
  char buf[128];
  // GNU strerror_r may return a static string instead of filling `buf`.
  const char *text = strerror_r(errnum, buf, sizeof(buf));
  return std::string(text) + " (errno " + std::to_string(errnum) + ")";
}

std::string ioErrorMessage(const char *what, const std::string &path,
                           uint64_t offset, uint64_t length, int errnum,
                           const std::string &detail) {
  std::string msg = std::string(what) + " of " + path + " at offset " +
                    std::to_string(offset) + " length " +
                    std::to_string(length) + " failed: " + errnoText(errnum);
  if (!detail.empty())
    msg += "; " + detail;
  return msg;
}

void fail(int errnum, const std::string &message) {
  throw Error(errnum, message);
}

void logNote(const std::string &message) {
  static const bool quiet = [] {
    const char *v = std::getenv("SSDRT_LOG");
    return v && std::strcmp(v, "off") == 0;
  }();
  if (quiet)
    return;
  // One lock so that lines from several threads do not interleave.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(stderr, "ssdrt: %s\n", message.c_str());
}

} // namespace ssd::rt
