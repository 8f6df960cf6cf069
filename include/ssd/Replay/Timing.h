//===- Timing.h - Clocks, busy-waits and summaries of timings ---*- C++ -*-===//
//
// What every timed run of the runtime needs (ssd-run's replay and
// calibration, bench/run/latency-probe): a steady clock, a busy-wait that
// holds the CPU as a compute kernel does, one timed transfer through the
// runtime's C API, and the mean and percentiles of many samples.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_REPLAY_TIMING_H
#define SSD_REPLAY_TIMING_H

#include "ssd/Runtime/ssdrt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <vector>

namespace ssd::replay {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
double secondsSince(Clock::time_point start);

/// Busy-waits `seconds`, as a compute kernel holds its CPU.
void spinFor(double seconds);

/// Success for status 0; else an error naming `what` with the runtime's
/// message (`ssdrt_last_error`), or the errno text of `-status` when the
/// runtime left none.
llvm::Error check(int status, llvm::StringRef what);

/// Times one transfer pattern: `start` issues it and `finish` waits for it,
/// each returning an ssdrt status. Returns the seconds both took, and puts
/// those of `start` alone into `*issueSeconds` where given. A failing status
/// is an error naming `what`.
llvm::Expected<double> timeTransfer(llvm::function_ref<int()> start,
                                    llvm::function_ref<int()> finish,
                                    llvm::StringRef what,
                                    double *issueSeconds = nullptr);

/// Calls `call` on each of `handles` in order until one returns a failing
/// status; returns that status, or 0: a transfer of several handles
/// started one call at a time.
int forEachHandle(llvm::ArrayRef<ssdrt_handle> handles,
                  llvm::function_ref<int(ssdrt_handle)> call);

/// Waits for the transfer of each of `handles` (`ssdrt_handle_wait`).
int waitAll(ssdrt_context *ctx, llvm::ArrayRef<ssdrt_handle> handles);

/// The mean of `values` (none: 0).
double mean(llvm::ArrayRef<double> values);

/// The mean and percentiles of samples; each percentile is the sample at
/// that rank of the sorted samples (the median of an even count is the
/// upper middle one).
struct Summary {
  double mean = 0, median = 0, p10 = 0, p90 = 0;
};
Summary summarize(std::vector<double> values);

} // namespace ssd::replay

#endif // SSD_REPLAY_TIMING_H
