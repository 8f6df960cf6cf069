//===- ScheduleReplay.h - Run a plan's schedule with real I/O ---*- C++ -*-===//
//
// Replays a plan of the planner core (`planner::StepGraph` and
// `planner::Plan`, read from a planned file by `extractPlan`) through the
// runtime: per slot the offloads, releases, prefetches and waits with real
// buffers and real files, then each op's compute as its modelled time,
// busy-waited or slept. `replayPlan` runs steps until enough have run,
// optionally timing the disk between them with a `LatencyProbe`.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_REPLAY_SCHEDULEREPLAY_H
#define SSD_REPLAY_SCHEDULEREPLAY_H

#include "ssd/Analysis/Planner/Plan.h"
#include "ssd/Analysis/Planner/StepGraph.h"
#include "ssd/Replay/LatencyProbe.h"
#include "ssd/Replay/RuntimeSession.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ssd::replay {

/// How an op's compute takes its modelled time.
enum class ComputeMode {
  /// Busy-waits it, as a kernel holds its CPU.
  Spin,
  /// Sleeps it, which leaves the CPU to the I/O threads but overshoots
  /// short ops.
  Model,
};

/// What one step did. Stalls are split by what the step waited for: a
/// durable write (a release) or a read (a wait).
struct StepMeasurement {
  double seconds = 0;
  double writeStallSeconds = 0;
  double readStallSeconds = 0;
  /// Time inside the calls that start transfers and release memory (they
  /// may block: staging back-pressure, allocation of reload memory), and
  /// time the compute really took.
  double issueSeconds = 0;
  double computeSeconds = 0;
};

/// Data-file bytes a replay of `plan` takes: one extent per tensor it moves.
uint64_t replayDiskBytes(const planner::StepGraph &graph,
                         const planner::Plan &plan);

/// Replays a plan: per slot the offloads, releases, prefetches and waits,
/// then the op's compute.
class ScheduleReplay {
public:
  /// `opSeconds` holds each op's modelled time (`OffloadPlanner::
  /// getOpSeconds`); all three must outlive the replay.
  ScheduleReplay(RuntimeSession &session, const planner::StepGraph &graph,
                 const planner::Plan &plan, llvm::ArrayRef<double> opSeconds,
                 ComputeMode mode, bool checkData = false)
      : session(session), graph(graph), plan(plan), opSeconds(opSeconds),
        mode(mode), checkData(checkData) {}

  /// Allocates and touches each moved tensor's memory and makes its
  /// handle; groups the plan's transfers by slot.
  llvm::Error prepare();
  /// Puts every handle where the step expects it at entry (untimed), then
  /// runs and times one step.
  llvm::Expected<StepMeasurement> runStep();

private:
  llvm::Error resetHandles();
  void compute(double seconds) const;
  /// With `checkData`: the bytes [begin, end) of `tensor`'s memory hold its
  /// pattern (what `prepare` wrote and the first offload stored).
  llvm::Error checkBytes(planner::TensorId tensor, uint64_t begin, uint64_t end,
                         const char *after) const;

  RuntimeSession &session;
  const planner::StepGraph &graph;
  const planner::Plan &plan;
  llvm::ArrayRef<double> opSeconds;
  ComputeMode mode;
  /// Fill each tensor with its own pattern, overwrite its memory at each
  /// release and compare what every wait brought back (untimed).
  bool checkData;
  /// One runtime handle per tensor that the plan moves, and its memory.
  /// The memory is allocated and touched once, before any step, and every
  /// reload reads into it: a training framework reuses freed memory through
  /// its caching allocator, so mapping and faulting in fresh pages at each
  /// prefetch would time a cost the step does not have.
  llvm::DenseMap<planner::TensorId, ssdrt_handle> handles;
  llvm::DenseMap<planner::TensorId, void *> memory;
  std::vector<std::unique_ptr<char, decltype(&std::free)>> allocations;
  /// What one runtime call starts: a plan's transfer group, or one tensor.
  struct Transfer {
    std::vector<ssdrt_handle> handles;
    std::vector<void *> destinations;
  };
  /// Per slot, the transfers that start there; and gap indices per slot of
  /// the releases and waits.
  std::vector<std::vector<Transfer>> offloadsAt, prefetchesAt;
  std::vector<std::vector<unsigned>> releasesAt, waitsAt;
  /// Gaps that read back only a part of their tensor, by prefetch slot:
  /// each reads its range alone (ssdrt_handle_prefetch_range).
  std::vector<std::vector<unsigned>> partPrefetchesAt;
};

struct ReplayOptions {
  ComputeMode compute = ComputeMode::Spin;
  /// Steps to run at least, and seconds they must total at least.
  unsigned steps = 3;
  double minSeconds = 0;
  /// Between steps (untimed), time the disk with a `LatencyProbe`: at
  /// least 16 rounds over the first `steps` steps, after that a quarter
  /// of the time spent stepping.
  bool probeLatency = false;
  /// Check every byte each reload brings back against what was written,
  /// with the memory overwritten at each release (the checks are not
  /// timed). A mismatch fails the replay, naming tensor and byte.
  bool checkData = false;
  /// Called after each step with its number (from 1) and seconds.
  std::function<void(unsigned, double)> onStep;
};

/// What the steps of a replay did together.
struct ReplayResult {
  /// Per step: sums over the steps divided by their number.
  StepMeasurement mean;
  /// Each step's seconds, sorted.
  std::vector<double> stepSeconds;
  /// The runtime's counters over the whole replay (its untimed resets and
  /// probes included).
  ssdrt_stats_t runtime{};
  /// With `probeLatency`: the probe's rounds.
  std::optional<ProbeTimings> probed;
};

/// Checks the options, prepares a `ScheduleReplay` of `plan` and runs its
/// steps.
llvm::Expected<ReplayResult> replayPlan(RuntimeSession &session,
                                        const planner::StepGraph &graph,
                                        const planner::Plan &plan,
                                        llvm::ArrayRef<double> opSeconds,
                                        const ReplayOptions &options);

} // namespace ssd::replay

#endif // SSD_REPLAY_SCHEDULEREPLAY_H
