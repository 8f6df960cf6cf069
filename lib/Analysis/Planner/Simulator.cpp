//===- Simulator.cpp - Timing of a planned training step ------------------===//
//
// One pass over the slots in program order. Transfers issued at a slot go to
// their queues in the order of their deadlines (offloads by release slot,
// prefetches by wait point); a group moves as one transfer. Starting each
// transfer holds up the compute stream for the target's issue time.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Simulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
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
/// A FIFO resource: one transfer at a time. With `workers`, a transfer
/// waits for the first of the shared workers instead and only its bytes
/// wait for the previous transfer's: latencies overlap.
struct Queue {
  double bandwidth;
  double latency;
  std::vector<double> *workers = nullptr;
  double freeAt = 0;
  double busy = 0;

  double transfer(double ready, uint64_t bytes) {
    double moving = static_cast<double>(bytes) / bandwidth;
    busy += latency + moving;
    if (!workers) {
      freeAt = std::max(ready, freeAt) + latency + moving;
      return freeAt;
    }
    auto worker = std::min_element(workers->begin(), workers->end());
    double start = std::max(ready, *worker);
    freeAt = std::max(start + latency, freeAt) + moving;
    *worker = freeAt;
    return freeAt;
  }
};

/// Gap indices bucketed by slot, each bucket ordered by `key`.
struct SlotBuckets {
  std::vector<uint32_t> begin;
  std::vector<uint32_t> gaps;

  llvm::ArrayRef<uint32_t> at(uint32_t slot) const {
    return llvm::ArrayRef<uint32_t>(gaps).slice(begin[slot],
                                                begin[slot + 1] - begin[slot]);
  }
};

template <typename SlotFn, typename KeyFn, typename FilterFn>
SlotBuckets bucketBySlot(const Plan &plan, uint32_t slots, SlotFn slotOf,
                         KeyFn keyOf, FilterFn include) {
  // Counting sort by slot, then each (small) bucket by key.
  SlotBuckets buckets;
  buckets.begin.assign(slots + 1, 0);
  for (const Gap &gap : plan.gaps)
    if (include(gap))
      ++buckets.begin[slotOf(gap) + 1];
  std::partial_sum(buckets.begin.begin(), buckets.begin.end(),
                   buckets.begin.begin());
  buckets.gaps.resize(buckets.begin.back());
  std::vector<uint32_t> next(buckets.begin.begin(), buckets.begin.end() - 1);
  for (uint32_t index = 0; index < plan.gaps.size(); ++index)
    if (include(plan.gaps[index]))
      buckets.gaps[next[slotOf(plan.gaps[index])]++] = index;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    auto first = buckets.gaps.begin() + buckets.begin[slot];
    auto last = buckets.gaps.begin() + buckets.begin[slot + 1];
    if (last - first > 1)
      std::sort(first, last, [&](uint32_t a, uint32_t b) {
        return std::make_pair(keyOf(plan.gaps[a]), a) <
               std::make_pair(keyOf(plan.gaps[b]), b);
      });
  }
  return buckets;
}
} // namespace

SimulationResult ssd::planner::simulatePlan(const StepGraph &graph,
                                            const LifetimeAnalysis &lifetimes,
                                            llvm::ArrayRef<double> opSeconds,
                                            const Target &target,
                                            const Plan &plan) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  uint32_t points = lifetimes.numPoints();
  uint32_t returnPoint = lifetimes.returnPoint();
  const std::vector<Gap> &gaps = plan.gaps;
  SimulationResult result;
  result.slotTime.assign(points, 0);
  result.pointStart.assign(points, 0);
  result.copyReady.assign(gaps.size(), 0);
  result.reloadReady.assign(gaps.size(), 0);

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

  llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 4>> offloadGroups,
      prefetchGroups;
  std::vector<double> tensorCopyReady(graph.numTensors(), kNever);
  for (uint32_t index = 0; index < gaps.size(); ++index) {
    const Gap &gap = gaps[index];
    if (gap.offloadGroup != kNoGroup && gap.writes)
      offloadGroups[gap.offloadGroup].push_back(index);
    if (gap.prefetchGroup != kNoGroup && gap.reloads())
      prefetchGroups[gap.prefetchGroup].push_back(index);
    if (gap.entersOnSsd)
      tensorCopyReady[gap.tensor] = 0;
  }

  bool hostLink = target.hasHostLink();
  Queue deviceToHost{target.deviceToHostBandwidth, target.ioLatencySeconds};
  Queue hostToDevice{target.hostToDeviceBandwidth, target.ioLatencySeconds};
  std::vector<double> workers(target.ssdTransferWorkers, 0.0);
  std::vector<double> *shared = workers.empty() ? nullptr : &workers;
  Queue ssdWrite{target.ssdWriteBandwidth, target.ssdWriteLatency(), shared};
  Queue ssdRead{target.ssdReadBandwidth, target.ssdReadLatency(), shared};

  // The members of the transfer that `index` belongs to, once per slot.
  llvm::DenseSet<uint32_t> issuedGroups;
  auto members =
      [&](uint32_t index, uint32_t group,
          llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 4>> &groups)
      -> llvm::SmallVector<uint32_t, 4> {
    if (group == kNoGroup)
      return {index};
    if (!issuedGroups.insert(group).second)
      return {};
    return groups[group];
  };

  double now = 0;
  for (uint32_t slot = 0; slot < points; ++slot) {
    result.slotTime[slot] = now;
    issuedGroups.clear();
    for (uint32_t index : offloads.at(slot)) {
      llvm::SmallVector<uint32_t, 4> transfer =
          members(index, gaps[index].offloadGroup, offloadGroups);
      if (transfer.empty())
        continue;
      uint64_t bytes = 0;
      for (uint32_t member : transfer)
        bytes += graph.getTensor(gaps[member].tensor).bytes;
      now += target.transferIssueSeconds;
      double ready = now;
      if (hostLink)
        ready = deviceToHost.transfer(ready, bytes);
      double done = ssdWrite.transfer(ready, bytes);
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
      now = std::max(now, durable);
    }
    issuedGroups.clear();
    for (uint32_t index : prefetches.at(slot)) {
      llvm::SmallVector<uint32_t, 4> transfer =
          members(index, gaps[index].prefetchGroup, prefetchGroups);
      if (transfer.empty())
        continue;
      uint64_t bytes = 0;
      now += target.transferIssueSeconds;
      double ready = now;
      for (uint32_t member : transfer) {
        bytes += graph.getTensor(gaps[member].tensor).bytes;
        ready = std::max(ready, tensorCopyReady[gaps[member].tensor]);
      }
      double done = ssdRead.transfer(ready, bytes);
      if (hostLink)
        done = hostToDevice.transfer(done, bytes);
      for (uint32_t member : transfer)
        result.reloadReady[member] = done;
      result.bytesRead += bytes;
      ++result.transfers;
    }
    for (uint32_t index : waits.at(slot))
      now = std::max(now, result.reloadReady[index]);
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
  result.busySeconds[static_cast<unsigned>(Resource::SsdWrite)] = ssdWrite.busy;
  return result;
}
