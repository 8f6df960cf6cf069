//===- LatencyProbe.h - Time small transfers through ssdrt ------*- C++ -*-===//
//
// What `ssd-run --calibrate` and `ssd-run --probe-latency` time, through
// the runtime as a replay uses it, for the target's latency terms
// (planner/Calibration.h fits them). The transfers that plans move are a
// partial block, a few pages, a quarter MiB: durable writes (the runtime
// syncs every offload) and reads are timed alone at several sizes. Times
// have a heavy tail (a durable write's mean is often several times its
// median when the disk is shared) and a plan's step time is the sum of a
// few such latencies, so each size's time is a mean over many rounds,
// interleaved across sizes. The calls that start the transfers are timed
// too: the target's issue time. Each round then starts several smallest
// transfers at once, for the queued latencies. Separate rounds time the
// smallest write and read after the I/O path sat idle for each of
// `kIdleSeconds` (busy-waiting, as compute would), for the idle curve.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_REPLAY_LATENCYPROBE_H
#define SSD_REPLAY_LATENCYPROBE_H

#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Replay/RuntimeSession.h"

#include <algorithm>
#include <vector>

namespace ssd::replay {

/// One size's mean and median times.
struct LatencyPoint {
  uint64_t bytes = 0;
  double write = 0, read = 0, writeMedian = 0, readMedian = 0;
};

/// The latency terms fitted from a probe's rounds.
struct Latencies {
  double write = 0;
  double read = 0;
  /// Mean time of the call that starts a transfer (before its wait).
  double issue = 0;
  /// The latency of a transfer queued behind another on a busy worker.
  double queuedWrite = 0, queuedRead = 0;
  std::vector<LatencyPoint> points;
  /// Empty unless the probe ran idle rounds.
  std::vector<planner::IdleLatencyPoint> idle;
  unsigned rounds = 0;
};

/// The samples of a probe's rounds, each in seconds.
struct ProbeTimings {
  /// Per size of `LatencyProbe::kSizes`: a durable write and a read alone.
  std::vector<std::vector<double>> writes, reads;
  /// Per quiet spell of `LatencyProbe::kIdleSeconds`: the smallest write
  /// and read after it.
  std::vector<std::vector<double>> idleWrites, idleReads;
  /// `LatencyProbe::kQueuedPerWorker` smallest transfers per worker
  /// started at once, writes and reads: the time of all.
  std::vector<double> queuedWrites, queuedReads;
  /// The calls that started the lone transfers.
  std::vector<double> issues;
  unsigned rounds = 0, idleRounds = 0;

  /// The latency terms at the measured bandwidths (planner/Calibration.h):
  /// needs at least one round; the idle curve only after idle rounds.
  Latencies fit(double readBandwidth, double writeBandwidth) const;
};

/// Rounds of durable writes and reads of each latency-bound size, through
/// the runtime as a replay uses it.
class LatencyProbe {
public:
  /// The sizes latency-bound transfers have: from one block to where the
  /// bandwidth term starts to dominate. Runtime memory moves each in one
  /// device operation, whatever its size.
  static constexpr uint64_t kSizes[] = {4096, 10240, 65536, 262144};
  /// Quiet spells before a transfer, as compute between a plan's transfers
  /// makes them: from a fraction of a millisecond to where the cost stops
  /// growing on the disks measured (docs/benchmarks.md).
  static constexpr double kIdleSeconds[] = {0,    0.25e-3, 0.5e-3, 1e-3,
                                            2e-3, 5e-3,    20e-3};
  /// Smallest-size transfers started at once, per runtime worker, to time
  /// them queued: each worker runs several back to back.
  static constexpr unsigned kQueuedPerWorker = 4;
  static unsigned queuedCount(unsigned workers) {
    return kQueuedPerWorker * std::max(1u, workers);
  }

  explicit LatencyProbe(RuntimeSession &session) : session(session) {}
  ~LatencyProbe();
  LatencyProbe(const LatencyProbe &) = delete;
  LatencyProbe &operator=(const LatencyProbe &) = delete;

  /// Makes the probe's handles (runtime memory, no I/O yet).
  llvm::Error prepare();
  /// One durable write and one read of each size, one after another; then
  /// `kQueuedPerWorker` smallest writes per worker started at once, and as
  /// many reads.
  llvm::Error round();
  /// The smallest write and read after no idle time and after each of
  /// `kIdleSeconds`. Kept apart from `round`: a disk that idles most of the
  /// time is slower even back to back (the host lets its idle CPUs sleep
  /// deeper), which would bias the latencies a busy replay sees.
  llvm::Error idleRound();

  const ProbeTimings &timings() const { return samples; }

private:
  llvm::Error timeWrite(ssdrt_handle handle, std::vector<double> &times,
                        std::vector<double> *issueTimes);
  llvm::Error timeRead(ssdrt_handle handle, std::vector<double> &times,
                       std::vector<double> *issueTimes);
  llvm::Error timeQueued(std::vector<double> &times, llvm::StringRef what,
                         int (*start)(ssdrt_context *, ssdrt_handle));

  RuntimeSession &session;
  /// One per size, and the queued ones.
  std::vector<ssdrt_handle> handles, queued;
  ProbeTimings samples;
};

/// The data-file bytes of a probe on a runtime with `workers` threads.
uint64_t probeDiskBytes(unsigned workers);

/// Sets the target's SSD latencies, queued latencies, idle-latency curve
/// (where measured) and issue time from a probe's fit. Reads and durable
/// writes get latencies of their own: a write waits for its fdatasync and
/// costs about twice a read here. `io_latency_seconds` (which only the
/// host<->device hops of a device target would use) is the larger.
void applyLatencies(planner::Target &target, const Latencies &latency);

} // namespace ssd::replay

#endif // SSD_REPLAY_LATENCYPROBE_H
