//===- Calibrate.h - Measure this machine into a target ---------*- C++ -*-===//
//
// `ssd-run --calibrate`: times the disk through the runtime (bandwidth
// each way with large transfers in flight together, latencies with a
// `LatencyProbe`) and the host (a multiply-add loop and memcpy), and makes
// a host-only target the planner accepts, with a description of how each
// number was measured. The fits themselves are planner/Calibration's.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_REPLAY_CALIBRATE_H
#define SSD_REPLAY_CALIBRATE_H

#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Replay/LatencyProbe.h"

#include <string>

namespace ssd::replay {

/// Bytes per second each way.
struct DiskRates {
  double read = 0, write = 0;
};

/// Sequential write then read of `totalBytes` in 64 MiB handles, all in
/// flight at once as a plan's transfers would be.
llvm::Expected<DiskRates> measureDisk(RuntimeSession &session,
                                      uint64_t totalBytes);

/// Probe rounds until at least 64 and `seconds` have passed (at most
/// 4096), then idle rounds until at least 32 and `seconds / 2`; fitted at
/// the given bandwidths.
llvm::Expected<Latencies> measureLatency(RuntimeSession &session,
                                         DiskRates bandwidth, double seconds);

/// FLOP/s of a plain single-threaded multiply-add loop, and bytes/s of
/// memcpy: a host-only target's compute and memory rates.
struct HostRates {
  double flops = 0, memoryBandwidth = 0;
};
HostRates measureHost();

struct CalibrationOptions {
  /// Bytes each bandwidth pass moves.
  uint64_t bytes = 512ull << 20;
  /// Least time spent timing small transfers (idle ones: half of it).
  double latencySeconds = 3;
};

struct Calibration {
  /// Named "calibrated"; validated.
  planner::Target target;
  /// How it was measured: engine, directory, rounds, every size's mean
  /// and median, the idle curve.
  std::string description;

  /// The target's JSON with the description.
  llvm::json::Value toJSON() const;
};

/// Checks the directory, its free space (the bandwidth passes' and the
/// probe's extents) and the options before any work, then measures.
llvm::Expected<Calibration> calibrate(llvm::StringRef scratchDirectory,
                                      const CalibrationOptions &options);

} // namespace ssd::replay

#endif // SSD_REPLAY_CALIBRATE_H
