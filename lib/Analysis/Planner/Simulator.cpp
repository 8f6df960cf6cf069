//===- Simulator.cpp - Timing of a planned training step ------------------===//
//
// One pass over the slots in program order. Transfers issued at a slot go to
// their queues in the order of their deadlines (offloads by release slot,
// prefetches by wait point); a group moves as one transfer. Starting each
// transfer holds up the compute stream for the target's issue time.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Simulator.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace ssd::planner;

llvm::StringRef ssd::planner::resourceName(Resource resource) {
  switch (resource) {
  case Resource::Compute:
    return "compute";
  case Resource::HostToDevice:
    return "h2d";
  case Resource::DeviceToHost:
    return "d2h";
  case Resource::SsdRead:
    return "ssd_read";
  case Resource::SsdWrite:
    return "ssd_write";
  }
  return "unknown";
}

namespace {
constexpr double kNever = std::numeric_limits<double>::infinity();

/// When the last SSD transfer so far ends, in either direction: the idle
/// curve counts a quiet spell of the whole SSD path (the CPU the I/O
/// threads run on, the drive), not of one thread.
struct SsdActivity {
  const Target &target;
  double lastEnd;
  double charged = 0;

  double extraLatency(double start) {
    if (start <= lastEnd)
      return 0;
    double extra = target.ssdIdlePenalty(start - lastEnd);
    charged += extra;
    return extra;
  }
};

/// A FIFO resource: one transfer at a time. With `workers`, a transfer
/// waits for the first of the shared workers instead and only its bytes
/// wait for the previous transfer's: latencies overlap. What runs a
/// transfer (its worker, or the queue) either has it queued, when it is
/// still busy as the transfer becomes ready, or sits idle until then: a
/// queued transfer costs `queuedLatency`, an idle start `latency`, plus
/// on the SSD queues the idle curve for the SSD path's quiet spell.
struct Queue {
  double bandwidth;
  double latency;
  double queuedLatency;
  std::vector<double> *workers = nullptr;
  SsdActivity *ssd = nullptr;
  double freeAt = -kNever;
  double busy = 0;
  /// Where the transfers go, when they are recorded.
  std::vector<TransferSpan> *spans = nullptr;
  Resource resource = Resource::Compute;

  double transfer(double ready, uint64_t bytes,
                  llvm::ArrayRef<uint32_t> gaps = {}) {
    double moving = static_cast<double>(bytes) / bandwidth;
    double &runner =
        workers ? *std::min_element(workers->begin(), workers->end()) : freeAt;
    double wait = queuedLatency;
    if (ready > runner)
      wait = latency + (ssd ? ssd->extraLatency(ready) : 0);
    double start = std::max(ready, runner);
    busy += wait + moving;
    // The bytes follow this transfer's wait; with workers, they also wait
    // for the bytes of the transfer before.
    double end =
        (workers ? std::max(start + wait, freeAt) : start + wait) + moving;
    runner = end;
    freeAt = end;
    if (spans)
      spans->push_back(TransferSpan{resource, start, end, bytes,
                                    llvm::SmallVector<uint32_t, 1>(gaps)});
    if (ssd)
      ssd->lastEnd = std::max(ssd->lastEnd, end);
    return end;
  }
};

} // namespace

SimulationResult ssd::planner::simulatePlan(const StepGraph &graph,
                                            const LifetimeAnalysis &lifetimes,
                                            llvm::ArrayRef<double> opSeconds,
                                            const Target &target,
                                            const Plan &plan,
                                            std::vector<TransferSpan> *spans) {
  uint32_t points = lifetimes.numPoints();
  uint32_t returnPoint = lifetimes.returnPoint();
  const std::vector<Gap> &gaps = plan.gaps;
  SlotBuckets offloads = bucketBySlot(
      plan, points, [](const Gap &gap) { return gap.offloadSlot; },
      [](const Gap &gap) { return gap.releaseSlot; },
      [](const Gap &gap) { return gap.writes; });
  SlotBuckets releases = bucketBySlot(
      plan, points, [](const Gap &gap) { return gap.releaseSlot; },
      [](const Gap &) { return 0u; },
      [](const Gap &gap) { return !gap.entersOnSsd; });
  SlotBuckets prefetches = bucketBySlot(
      plan, points, [](const Gap &gap) { return gap.prefetchSlot; },
      [](const Gap &gap) { return gap.waitPoint; },
      [](const Gap &gap) { return gap.reloads(); });
  SlotBuckets waits = bucketBySlot(
      plan, points, [](const Gap &gap) { return gap.waitPoint; },
      [](const Gap &) { return 0u; },
      [](const Gap &gap) { return gap.reloads(); });

  // The members of every group, by group id, in index order.
  uint32_t groupIds = 0;
  std::vector<double> tensorEntryReady(graph.numTensors(), kNever);
  for (const Gap &gap : gaps) {
    for (uint32_t group : {gap.offloadGroup, gap.prefetchGroup})
      if (group != kNoGroup)
        groupIds = std::max(groupIds, group + 1);
    if (gap.entersOnSsd)
      tensorEntryReady[gap.tensor] = 0;
  }
  auto noKey = [](const Gap &) { return 0u; };
  SlotBuckets offloadGroups = bucketBySlot(
      plan, groupIds, [](const Gap &gap) { return gap.offloadGroup; }, noKey,
      [](const Gap &gap) {
        return gap.offloadGroup != kNoGroup && gap.writes;
      });
  SlotBuckets prefetchGroups = bucketBySlot(
      plan, groupIds, [](const Gap &gap) { return gap.prefetchGroup; }, noKey,
      [](const Gap &gap) {
        return gap.prefetchGroup != kNoGroup && gap.reloads();
      });

  // When the SSD workers (or, without workers, the two SSD queues) and the
  // SSD path as a whole last finished, relative to a step's start.
  struct SsdState {
    std::vector<double> workers;
    double readFree = -kNever, writeFree = -kNever, lastEnd = -kNever;
  };
  // One pass over the step from `state`, which it leaves as the step does.
  auto simulateOnce = [&](SsdState &state, bool record) {
    if (record && spans)
      spans->clear();
    std::vector<TransferSpan> *recorded = record ? spans : nullptr;
    SimulationResult result;
    result.slotTime.assign(points, 0);
    result.pointStart.assign(points, 0);
    result.copyReady.assign(gaps.size(), 0);
    result.reloadReady.assign(gaps.size(), 0);
    std::vector<double> tensorCopyReady = tensorEntryReady;

    bool hostLink = target.hasHostLink();
    Queue deviceToHost{target.deviceToHostBandwidth, target.ioLatencySeconds,
                       target.ioLatencySeconds};
    Queue hostToDevice{target.hostToDeviceBandwidth, target.ioLatencySeconds,
                       target.ioLatencySeconds};
    std::vector<double> *shared =
        state.workers.empty() ? nullptr : &state.workers;
    SsdActivity activity{target, state.lastEnd};
    Queue ssdWrite{target.ssdWriteBandwidth,
                   target.ssdWriteLatency(),
                   target.ssdWriteQueuedLatency(),
                   shared,
                   &activity,
                   state.writeFree};
    Queue ssdRead{target.ssdReadBandwidth,
                  target.ssdReadLatency(),
                  target.ssdReadQueuedLatency(),
                  shared,
                  &activity,
                  state.readFree};
    for (auto [queue, resource] :
         {std::pair{&deviceToHost, Resource::DeviceToHost},
          std::pair{&hostToDevice, Resource::HostToDevice},
          std::pair{&ssdWrite, Resource::SsdWrite},
          std::pair{&ssdRead, Resource::SsdRead}}) {
      queue->spans = recorded;
      queue->resource = resource;
    }

    // The members of the transfer that `index` belongs to: none where its
    // group was issued at this slot already (`issuedAt`: the slot + 1 at
    // which each group last was).
    std::vector<uint32_t> offloadIssuedAt(groupIds, 0),
        prefetchIssuedAt(groupIds, 0);
    auto members =
        [](const uint32_t &index, uint32_t group, uint32_t slot,
           const SlotBuckets &groups,
           std::vector<uint32_t> &issuedAt) -> llvm::ArrayRef<uint32_t> {
      if (group == kNoGroup)
        return index;
      if (issuedAt[group] == slot + 1)
        return {};
      issuedAt[group] = slot + 1;
      return groups.at(group);
    };

    double now = 0;
    for (uint32_t slot = 0; slot < points; ++slot) {
      result.slotTime[slot] = now;
      for (const uint32_t &index : offloads.at(slot)) {
        llvm::ArrayRef<uint32_t> transfer =
            members(index, gaps[index].offloadGroup, slot, offloadGroups,
                    offloadIssuedAt);
        if (transfer.empty())
          continue;
        uint64_t bytes = 0;
        for (uint32_t member : transfer)
          bytes += graph.getTensor(gaps[member].tensor).bytes;
        now += target.transferIssueSeconds;
        double ready = now;
        if (hostLink)
          ready = deviceToHost.transfer(ready, bytes, transfer);
        double done = ssdWrite.transfer(ready, bytes, transfer);
        for (uint32_t member : transfer) {
          result.copyReady[member] = done;
          tensorCopyReady[gaps[member].tensor] = done;
        }
        result.bytesWritten += bytes;
        ++result.transfers;
      }
      for (uint32_t index : releases.at(slot)) {
        const Gap &gap = gaps[index];
        double durable =
            gap.writes ? result.copyReady[index] : tensorCopyReady[gap.tensor];
        result.copyReady[index] = durable;
        result.writeStallSeconds += std::max(0.0, durable - now);
        now = std::max(now, durable);
      }
      for (const uint32_t &index : prefetches.at(slot)) {
        llvm::ArrayRef<uint32_t> transfer =
            members(index, gaps[index].prefetchGroup, slot, prefetchGroups,
                    prefetchIssuedAt);
        if (transfer.empty())
          continue;
        uint64_t bytes = 0;
        now += target.transferIssueSeconds;
        double ready = now;
        for (uint32_t member : transfer) {
          bytes += gaps[member].reloadBytes(graph);
          ready = std::max(ready, tensorCopyReady[gaps[member].tensor]);
        }
        double done = ssdRead.transfer(ready, bytes, transfer);
        if (hostLink)
          done = hostToDevice.transfer(done, bytes, transfer);
        for (uint32_t member : transfer)
          result.reloadReady[member] = done;
        result.bytesRead += bytes;
        ++result.transfers;
      }
      for (uint32_t index : waits.at(slot)) {
        result.readStallSeconds +=
            std::max(0.0, result.reloadReady[index] - now);
        now = std::max(now, result.reloadReady[index]);
      }
      result.pointStart[slot] = now;
      if (slot < returnPoint)
        now += opSeconds[slot];
    }

    result.stepSeconds = now;
    result.computeSeconds =
        std::accumulate(opSeconds.begin(), opSeconds.end(), 0.0);
    result.stallSeconds = std::max(0.0, now - result.computeSeconds);
    result.busySeconds[static_cast<unsigned>(Resource::Compute)] =
        result.computeSeconds;
    result.busySeconds[static_cast<unsigned>(Resource::HostToDevice)] =
        hostToDevice.busy;
    result.busySeconds[static_cast<unsigned>(Resource::DeviceToHost)] =
        deviceToHost.busy;
    result.busySeconds[static_cast<unsigned>(Resource::SsdRead)] = ssdRead.busy;
    result.busySeconds[static_cast<unsigned>(Resource::SsdWrite)] =
        ssdWrite.busy;
    result.idleLatencySeconds = activity.charged;
    state.readFree = ssdRead.freeAt;
    state.writeFree = ssdWrite.freeAt;
    state.lastEnd = activity.lastEnd;
    return result;
  };

  // In steady state a step follows a step just like it: whether its first
  // transfers find the SSD path busy or idle, and for how long, depends on
  // where the previous step's last transfers ended. A first pass starts
  // from a long idle and finds where they end; the second starts from
  // there. Without idle-dependent costs the passes would be the same.
  SsdState state;
  state.workers.assign(target.ssdTransferWorkers, -kNever);
  bool once = !target.hasIdleDependentLatency();
  SimulationResult first = simulateOnce(state, once);
  if (once || first.transfers == 0) {
    if (!once && spans) // no transfers: nothing was recorded, nothing to
      spans->clear();   // record
    return first;
  }
  for (double *free : {&state.readFree, &state.writeFree, &state.lastEnd})
    *free -= first.stepSeconds;
  for (double &free : state.workers)
    free -= first.stepSeconds;
  return simulateOnce(state, true);
}
