//===- Target.h - Machine rates the planner schedules against ---*- C++ -*-===//
//
// A target description: compute rate, device memory size and bandwidth, the
// host<->device link each way, SSD read and write bandwidth and per-transfer
// I/O latency (optionally its own for SSD reads and writes, and extra latency
// after the SSD path sat idle). Presets describe
// real machines from their datasheets; any other machine is a JSON file (format
// in docs/targets.md). Memory sizes such as `512MiB`, `2GiB`, `1.5GB` or plain
// bytes parse here too.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_TARGET_H
#define SSD_ANALYSIS_PLANNER_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssd::planner {

/// One point of a target's idle-latency curve: an SSD transfer that starts
/// `idleSeconds` after the last one finished costs `extraSeconds` more.
struct IdleLatencyPoint {
  double idleSeconds = 0;
  double extraSeconds = 0;
};

/// Measured seconds of the ops named by `ops` as a function of their work
/// (the FLOPs or the bytes the exporter writes for each kernel): points of
/// increasing work, each the time one op of that much work took through the
/// framework that runs the step (its per-op cost included). Between points
/// the time is interpolated linearly; below the first it is the first's
/// (an op that small costs its start); above the last it grows in
/// proportion to the work (the last point's rate).
struct OpTimeCurve {
  enum class Work { Flops, Bytes };
  /// Op names (`aten.mm` matches `aten.mm` and its overloads such as
  /// `aten.mm.default`); `*` matches any op no other curve names.
  std::vector<std::string> ops;
  Work by = Work::Bytes;
  struct Point {
    double work = 0;
    double seconds = 0;
  };
  std::vector<Point> points;

  double secondsAt(double work) const;
  /// Whether `opName` is one of `ops` (not counting `*`).
  bool names(llvm::StringRef opName) const;
  bool isDefault() const;
};

/// Rates in bytes or FLOP per second, latency in seconds. A host-only target
/// (training on the CPU, device memory is host memory) has no host<->device
/// hop: both link bandwidths are 0.
struct Target {
  std::string name;
  double computeFlops = 0;
  double deviceMemoryBandwidth = 0;
  /// Fixed seconds every op costs on top of its roofline time: what the
  /// framework spends to start one kernel (dispatch and allocation on a
  /// CPU, the launch on a GPU), which dominates ops on small tensors. 0 in
  /// the presets; `python -m ssdopt calibrate` measures torch's.
  double opOverheadSeconds = 0;
  uint64_t deviceMemoryBytes = 0;
  double hostToDeviceBandwidth = 0;
  double deviceToHostBandwidth = 0;
  double ssdReadBandwidth = 0;
  double ssdWriteBandwidth = 0;
  /// Added to every transfer on every queue.
  double ioLatencySeconds = 0;
  /// Where a disk's reads and durable writes differ (a write waits for its
  /// fdatasync), their own latencies; `ioLatencySeconds` when unset.
  std::optional<double> ssdReadLatencySeconds, ssdWriteLatencySeconds;
  /// Where a transfer queued behind another (what runs it is busy when the
  /// transfer becomes ready) costs other than one that starts on an idle
  /// I/O thread or queue (no wake-up, but maybe contention), its latency;
  /// the direction's latency when unset.
  std::optional<double> ssdReadQueuedLatencySeconds,
      ssdWriteQueuedLatencySeconds;
  /// Host time to start one transfer (a runtime call handing it to an I/O
  /// thread); the compute stream is held up that long. Matters only where
  /// transfers are small and compute is short.
  double transferIssueSeconds = 0;
  /// 0: each SSD direction moves one transfer at a time (a device queue
  /// per direction). N: a runtime with N transfer threads, shared by reads
  /// and writes, keeps up to N transfers in flight; their latencies overlap
  /// while each direction's bytes still move one transfer at a time.
  unsigned ssdTransferWorkers = 0;
  /// A transfer that starts on an idle I/O thread (or queue) when no SSD
  /// transfer has been in flight for a while costs more than its latency:
  /// the CPU the I/O threads run on, or the drive (NVMe power states), has
  /// to wake up. Points in increasing idle time; empty means no such cost.
  std::vector<IdleLatencyPoint> ssdIdleLatency;
  /// Measured op times by op kind and size (`python -m ssdopt calibrate`
  /// writes them): an op a curve names is timed by it instead of the
  /// roofline and `opOverheadSeconds`. Empty in the presets.
  std::vector<OpTimeCurve> opTimeTable;

  /// The curve that times `opName`: the first that names it, else the first
  /// `*` one; null when none does (the roofline times it).
  const OpTimeCurve *opTimeCurve(llvm::StringRef opName) const;

  double ssdReadLatency() const {
    return ssdReadLatencySeconds.value_or(ioLatencySeconds);
  }
  double ssdWriteLatency() const {
    return ssdWriteLatencySeconds.value_or(ioLatencySeconds);
  }
  double ssdReadQueuedLatency() const {
    return ssdReadQueuedLatencySeconds.value_or(ssdReadLatency());
  }
  double ssdWriteQueuedLatency() const {
    return ssdWriteQueuedLatencySeconds.value_or(ssdWriteLatency());
  }
  /// Whether a transfer's cost depends on what ran before it: then a step's
  /// time depends on how the previous step ended.
  bool hasIdleDependentLatency() const {
    return !ssdIdleLatency.empty() ||
           ssdReadQueuedLatency() != ssdReadLatency() ||
           ssdWriteQueuedLatency() != ssdWriteLatency();
  }
  /// The extra latency after `idleSeconds` without SSD transfers: linear
  /// between (0, 0) and the curve's points, flat after the last.
  double ssdIdlePenalty(double idleSeconds) const;
  bool hasHostLink() const {
    return hostToDeviceBandwidth > 0 && deviceToHostBandwidth > 0;
  }
  /// Rates must be positive (links both positive or both 0).
  llvm::Error validate() const;
  llvm::json::Value toJSON() const;
};

/// Names of the built-in presets, in a stable order.
std::vector<llvm::StringRef> targetPresetNames();
/// A preset by name, or an error listing the known names.
llvm::Expected<Target> getTargetPreset(llvm::StringRef name);
/// Parses the JSON format of docs/targets.md.
llvm::Expected<Target> parseTargetJSON(llvm::StringRef text);
/// `target` with the fields `text` (the same format) sets replaced: a file
/// of some rates, such as the device rates `python -m ssdopt calibrate`
/// writes, applied to a measured or preset target. A `base` in `text`
/// replaces `target` first; the result is validated.
llvm::Expected<Target> applyTargetJSON(Target target, llvm::StringRef text);
/// The same for a file parsed already (one parse for several targets).
llvm::Expected<Target> applyParsedTargetJSON(Target target,
                                             const llvm::json::Value &file);
/// `spec` is a preset name or a path to a JSON file: what the passes'
/// `target=` option accepts.
llvm::Expected<Target> loadTarget(llvm::StringRef spec);

/// Parses `512MiB`, `2GiB`, `1.5GB`, `100KB`, `4096` (bytes) and the like.
/// Binary suffixes (KiB, MiB, GiB, TiB) are powers of 1024, decimal ones
/// (KB, MB, GB, TB) powers of 1000; `B` is optional.
llvm::Expected<uint64_t> parseMemorySize(llvm::StringRef text);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_TARGET_H
