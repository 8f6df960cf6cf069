//===- RuntimeSession.cpp - An ssdrt context for timed runs ---------------===//
//
// Opens the host-only runtime context that replays, probes and
// calibrations run on, and checks the scratch directory first.
//
//===----------------------------------------------------------------------===//

#include "ssd/Replay/RuntimeSession.h"

#include "ssd/Replay/Timing.h"
#include "ssd/Runtime/DType.h"

#include "llvm/Support/FileSystem.h"

using namespace ssd::replay;

uint64_t ssd::replay::extentBytes(uint64_t bytes) {
  return std::max(ssd::rt::kIoAlignment,
                  ssd::rt::alignUp(bytes, ssd::rt::kIoAlignment));
}

llvm::Error ssd::replay::checkDirectory(llvm::StringRef directory) {
  if (llvm::sys::fs::is_directory(directory))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "scratch directory '%s' does not exist",
                                 directory.str().c_str());
}

llvm::Error ssd::replay::checkFreeSpace(llvm::StringRef directory,
                                        uint64_t bytes, llvm::StringRef what) {
  llvm::ErrorOr<llvm::sys::fs::space_info> space =
      llvm::sys::fs::disk_space(directory);
  if (!space)
    return llvm::createStringError(
        space.getError(), "cannot read the free space of '%s': %s",
        directory.str().c_str(), space.getError().message().c_str());
  if (space->available >= bytes)
    return llvm::Error::success();
  return llvm::createStringError(
      std::make_error_code(std::errc::no_space_on_device),
      "scratch directory '%s' has %llu bytes available; %s needs %llu",
      directory.str().c_str(),
      static_cast<unsigned long long>(space->available), what.str().c_str(),
      static_cast<unsigned long long>(bytes));
}

llvm::Expected<std::unique_ptr<RuntimeSession>>
RuntimeSession::open(llvm::StringRef directory) {
  if (llvm::Error error = checkDirectory(directory))
    return std::move(error);
  std::unique_ptr<RuntimeSession> session(new RuntimeSession);
  session->path = directory.str();
  ssdrt_options options;
  ssdrt_options_init(&options);
  options.directory = session->path.c_str();
  options.flags = SSDRT_OPT_HOST_ONLY;
  session->numWorkers = options.workers;
  if (llvm::Error error = check(ssdrt_context_create(&options, &session->ctx),
                                "creating the runtime context"))
    return std::move(error);
  return session;
}

RuntimeSession::~RuntimeSession() { ssdrt_context_destroy(ctx); }

unsigned RuntimeSession::defaultWorkers() {
  ssdrt_options options;
  ssdrt_options_init(&options);
  return options.workers;
}

llvm::Expected<ssdrt_handle> RuntimeSession::createHandle(uint64_t bytes,
                                                          void *memory) {
  int64_t shape = static_cast<int64_t>(bytes);
  ssdrt_handle handle;
  if (llvm::Error error =
          check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &shape,
                                    SSDRT_MEM_HOST, memory, &handle),
                "creating a handle"))
    return std::move(error);
  return handle;
}
