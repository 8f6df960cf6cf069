//===- Simulator.h - Timing of a planned training step ----------*- C++ -*-===//
//
// Replays a plan on the target: ops run in program order on the compute
// queue; host-to-device, device-to-host, SSD read and SSD write are separate
// FIFO queues, each transfer occupying its queue for the I/O latency plus
// bytes / bandwidth. An offload moves device-to-host then SSD write (just
// the write on a host-only target); a prefetch moves SSD read then
// host-to-device and cannot start reading before the tensor's write is
// complete. Releases and waits block compute: that blocking is the stall.
// An SSD transfer that starts when no other has been in flight for a while
// pays the target's idle latency for that quiet spell too, the first one
// of a step counting from the previous step's last (steady state).
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_SIMULATOR_H
#define SSD_ANALYSIS_PLANNER_SIMULATOR_H

#include "ssd/Analysis/Planner/Plan.h"
#include "ssd/Analysis/Planner/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace ssd::planner {

enum class Resource : uint8_t {
  Compute,
  HostToDevice,
  DeviceToHost,
  SsdRead,
  SsdWrite
};
inline constexpr unsigned kNumResources = 5;
llvm::StringRef resourceName(Resource resource);

/// One transfer's time on one queue: from when it takes the queue (its
/// latency first) to its last byte. `gaps` are the plan's gaps it moves.
struct TransferSpan {
  Resource resource;
  double start = 0;
  double end = 0;
  uint64_t bytes = 0;
  llvm::SmallVector<uint32_t, 1> gaps;
};

struct SimulationResult {
  double stepSeconds = 0;
  double computeSeconds = 0;
  /// Time compute spent blocked on releases and waits, and its parts:
  /// waiting for durable writes (releases) and for reads (waits).
  double stallSeconds = 0;
  double writeStallSeconds = 0;
  double readStallSeconds = 0;
  std::array<double, kNumResources> busySeconds{};
  /// When compute reaches slot s (before its releases), for s in [0, N].
  std::vector<double> slotTime;
  /// When the op at each point starts (after its waits); the return point's
  /// entry is the end of the step before the final releases are counted.
  std::vector<double> pointStart;
  /// Per gap of the plan: when its data is durable on SSD, and when its
  /// reload is resident (0 for gaps that do not reload).
  std::vector<double> copyReady;
  std::vector<double> reloadReady;
  /// The idle latency charged to the step's SSD transfers, all together.
  double idleLatencySeconds = 0;
  uint64_t bytesWritten = 0;
  uint64_t bytesRead = 0;
  uint32_t transfers = 0;
};

/// The indices of a plan's gaps bucketed by a slot (or by a group id: the
/// ids groupTransfers and extractPlan hand out are small, counted from 0),
/// each bucket in index order or ordered by a key: a counting sort, so that
/// the simulator and the IR rewrite find a slot's gaps without a map.
struct SlotBuckets {
  std::vector<uint32_t> begin;
  std::vector<uint32_t> gaps;

  llvm::ArrayRef<uint32_t> at(uint32_t slot) const {
    return llvm::ArrayRef<uint32_t>(gaps).slice(begin[slot],
                                                begin[slot + 1] - begin[slot]);
  }
};

/// Buckets the gaps that `include` takes by `slotOf` (below `slots`), each
/// bucket ordered by (`keyOf`, index).
template <typename SlotFn, typename KeyFn, typename FilterFn>
SlotBuckets bucketBySlot(const Plan &plan, uint32_t slots, SlotFn slotOf,
                         KeyFn keyOf, FilterFn include) {
  // Each bucket's end, then filled from the back: `begin` ends up as the
  // starts, each bucket in index order.
  SlotBuckets buckets;
  buckets.begin.assign(slots + 1, 0);
  for (const Gap &gap : plan.gaps)
    if (include(gap))
      ++buckets.begin[slotOf(gap)];
  std::partial_sum(buckets.begin.begin(), buckets.begin.end(),
                   buckets.begin.begin());
  buckets.gaps.resize(buckets.begin.back());
  for (uint32_t index = plan.gaps.size(); index-- > 0;)
    if (include(plan.gaps[index]))
      buckets.gaps[--buckets.begin[slotOf(plan.gaps[index])]] = index;
  auto byKey = [&](uint32_t a, uint32_t b) {
    return std::make_pair(keyOf(plan.gaps[a]), a) <
           std::make_pair(keyOf(plan.gaps[b]), b);
  };
  // Buckets come out in index order, which is often key order already.
  for (uint32_t slot = 0; slot < slots; ++slot) {
    auto first = buckets.gaps.begin() + buckets.begin[slot];
    auto last = buckets.gaps.begin() + buckets.begin[slot + 1];
    if (last - first > 1 && !std::is_sorted(first, last, byKey))
      std::sort(first, last, byKey);
  }
  return buckets;
}

/// With `spans`, also every transfer on every queue (of the steady-state
/// pass), in issue order.
SimulationResult simulatePlan(const StepGraph &graph,
                              const LifetimeAnalysis &lifetimes,
                              llvm::ArrayRef<double> opSeconds,
                              const Target &target, const Plan &plan,
                              std::vector<TransferSpan> *spans = nullptr);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_SIMULATOR_H
