//===- Calibration.h - Target latencies from timed transfers ----*- C++ -*-===//
//
// The arithmetic that turns a calibration's timings (`ssd-run --calibrate`,
// which times transfers through the runtime) into the target's latency
// terms: the lone-transfer latency, the latency of a transfer queued behind
// another, and the extra latency after idling. Kept here, apart from the
// timing, so that it is tested on numbers made by hand.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_CALIBRATION_H
#define SSD_ANALYSIS_PLANNER_CALIBRATION_H

#include "ssd/Analysis/Planner/Target.h"

#include "llvm/ADT/ArrayRef.h"

namespace ssd::planner {

/// The mean time of one transfer of `bytes` started alone.
struct TimedTransfer {
  uint64_t bytes = 0;
  double seconds = 0;
};

/// `latency + bytes / bandwidth` fitted to lone transfers of several sizes
/// with the slope fixed at the measured bandwidth: the least-squares
/// latency, the mean of `seconds - bytes / bandwidth`. Where noise leaves
/// no positive latency (a disk whose latency is lost in it), the smallest
/// time instead.
double fitLatency(llvm::ArrayRef<TimedTransfer> alone, double bandwidth);

/// The latency of a transfer that waits for a busy worker. `perWorker`
/// (at least 2) transfers of `first.bytes` per worker, started at once,
/// took `burstSeconds`: the first on each worker costs a lone transfer's
/// `first.seconds`, each one after it the queued latency plus its bytes.
/// The difference from a lone transfer (a worker that need not be woken,
/// or contention among transfers in flight) applies to every size, so it
/// moves `latency`; never below 0.
double fitQueuedLatency(double latency, TimedTransfer first,
                        double burstSeconds, unsigned perWorker,
                        double bandwidth);

/// The idle-latency curve from the mean times of a write and a read after
/// each of `idleSeconds`, increasing from 0: each later point's extra is
/// the mean over both directions of the excess over the time after no
/// idle, made non-decreasing (noise can make a longer idle look cheaper).
std::vector<IdleLatencyPoint> fitIdleCurve(llvm::ArrayRef<double> idleSeconds,
                                           llvm::ArrayRef<double> writeSeconds,
                                           llvm::ArrayRef<double> readSeconds);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_CALIBRATION_H
