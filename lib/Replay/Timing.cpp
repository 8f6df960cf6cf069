//===- Timing.cpp - Clocks, busy-waits and summaries of timings -----------===//
//
// The steady clock, the busy-wait, the timed transfer and the summaries
// that ssd-run and the benchmarks time the runtime with.
//
//===----------------------------------------------------------------------===//

#include "ssd/Replay/Timing.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <numeric>

using namespace ssd::replay;

double ssd::replay::secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void ssd::replay::spinFor(double seconds) {
  auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(seconds));
  while (Clock::now() < until) {
  }
}

llvm::Error ssd::replay::check(int status, llvm::StringRef what) {
  if (status == 0)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "%s failed: %s", what.str().c_str(),
      ssdrt_last_error()[0] ? ssdrt_last_error() : strerror(-status));
}

llvm::Expected<double>
ssd::replay::timeTransfer(llvm::function_ref<int()> start,
                          llvm::function_ref<int()> finish,
                          llvm::StringRef what, double *issueSeconds) {
  Clock::time_point began = Clock::now();
  if (llvm::Error error = check(start(), what))
    return std::move(error);
  if (issueSeconds)
    *issueSeconds = secondsSince(began);
  if (llvm::Error error = check(finish(), what))
    return std::move(error);
  return secondsSince(began);
}

int ssd::replay::forEachHandle(llvm::ArrayRef<ssdrt_handle> handles,
                               llvm::function_ref<int(ssdrt_handle)> call) {
  for (ssdrt_handle handle : handles)
    if (int status = call(handle))
      return status;
  return 0;
}

int ssd::replay::waitAll(ssdrt_context *ctx,
                         llvm::ArrayRef<ssdrt_handle> handles) {
  return forEachHandle(
      handles, [ctx](ssdrt_handle h) { return ssdrt_handle_wait(ctx, h); });
}

double ssd::replay::mean(llvm::ArrayRef<double> values) {
  if (values.empty())
    return 0;
  return std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

Summary ssd::replay::summarize(std::vector<double> values) {
  Summary summary;
  if (values.empty())
    return summary;
  summary.mean = mean(values);
  llvm::sort(values);
  summary.median = values[values.size() / 2];
  summary.p10 = values[values.size() / 10];
  summary.p90 = values[values.size() * 9 / 10];
  return summary;
}
