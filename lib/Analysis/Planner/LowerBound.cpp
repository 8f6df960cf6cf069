//===- LowerBound.cpp - How fast any plan could be ------------------------===//
//
// A true lower bound on the step time of every plan at a budget, from the
// bytes that must be away from device memory at each point and what their
// absence costs the write and read links at the least (docs/planner.md).
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Planner.h"

#include "ssd/Analysis/Planner/CostModel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

using namespace ssd::planner;

namespace {
/// What leaving device memory at a point costs a tensor in the cheapest
/// plan, per byte: writes before the point, reads after it, writes that
/// can only happen once the step's updated state exists.
enum class LeaveCost : unsigned {
  /// Nothing: a persistent argument with no further use.
  Free,
  /// A read: a persistent argument that enters on SSD and is not updated
  /// (or is returned unchanged).
  Read,
  /// A read, and a write of its next-step value at the end.
  ReadAndFinalWrite,
  /// A write: a value that may leave on SSD and is not read again.
  Write,
  /// A write before and a read after.
  WriteAndRead,
};
constexpr unsigned kNumLeaveCosts = 5;
} // namespace

LowerBound OffloadPlanner::lowerBound(uint64_t budget) const {
  // At a point i with E = live - budget > 0, any plan keeps at least E
  // bytes of tensors not touched at i out of device memory. Split them by
  // what that costs at least (LeaveCost) into Wb bytes written before i,
  // R bytes read after i and Wf bytes of next-step values written after the
  // first of them is computed. Then the step takes at least
  //   max(C<i, Wb/w) + max(C>=i, C_i + R/r),  C<f + Wf/w,  (Wb + Wf)/w
  // (w, r: the write and read rates of the slower hop, C<i: compute before
  // i, f: the first op that defines a next-step value). The smallest of
  // these over all ways to cover E is a bound; the classes that cost a
  // subset of another's are used first and the one remaining choice, how
  // much comes from persistent state, is a convex search.
  uint32_t points = lifetimes.numPoints();
  std::array<std::vector<int64_t>, kNumLeaveCosts> available;
  for (auto &bytes : available)
    bytes.assign(points + 1, 0);
  auto addRange = [&](LeaveCost cost, int64_t from, int64_t to, int64_t bytes) {
    if (from > to)
      return;
    available[static_cast<unsigned>(cost)][from] += bytes;
    available[static_cast<unsigned>(cost)][to + 1] -= bytes;
  };
  double finalWritePerByte = std::numeric_limits<double>::infinity();
  uint32_t firstNextValue = points;
  // The fewest bytes read before the first final write of state that is
  // absent at a point: each such argument is read back for a touch after
  // the point, and its next-step value, if computed at or after the
  // argument's last touch (an optimizer's update reads what it replaces),
  // exists only once that read is done. 0 when some pair lacks that order.
  double chainReadBytes = std::numeric_limits<double>::infinity();
  bool everyUpdateAfterItsLastTouch = true;
  std::vector<LeaveCost> costWhileNeeded(graph.numTensors());
  // From this point on an updated argument's next value exists: absent
  // there, the argument costs only its read (the next value's write is
  // counted as the next value's, a candidate itself).
  std::vector<int64_t> readOnlyFrom(graph.numTensors(), INT64_MAX);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    int64_t bytes = info.bytes;
    int64_t start = lifetimes.getLiveStart(tensor);
    int64_t end = lifetimes.getLiveEnd(tensor);
    int64_t lastNeeded = -1;
    for (uint32_t touch : lifetimes.getTouches(tensor))
      if (!lifetimes.mayLeaveOnSsd(tensor, touch))
        lastNeeded = touch;
    bool persistentArgument = info.isArgument() && isPersistentRole(info.role);
    LeaveCost needed = LeaveCost::WriteAndRead;
    LeaveCost afterwards = LeaveCost::Write;
    if (persistentArgument) {
      // A next value that no op computes (another argument, as in a swap)
      // is counted as no update: a cheaper class keeps the bound a bound.
      bool updated =
          info.steadyStatePartner && *info.steadyStatePartner != tensor &&
          graph.getTensor(*info.steadyStatePartner).definingOp.has_value();
      needed = updated ? LeaveCost::ReadAndFinalWrite : LeaveCost::Read;
      afterwards = LeaveCost::Free;
      if (updated) {
        const Tensor &next = graph.getTensor(*info.steadyStatePartner);
        finalWritePerByte =
            std::min(finalWritePerByte, static_cast<double>(next.bytes) /
                                            std::max<int64_t>(bytes, 1));
        firstNextValue = std::min(firstNextValue, *next.definingOp);
        readOnlyFrom[tensor] = *next.definingOp;
        if (lastNeeded >= 0) {
          if (*next.definingOp >= lastNeeded)
            chainReadBytes =
                std::min(chainReadBytes, static_cast<double>(bytes));
          else
            everyUpdateAfterItsLastTouch = false;
        }
      }
    }
    costWhileNeeded[tensor] = needed;
    if (std::optional<LifetimeAnalysis::PartTail> tail =
            lifetimes.getPartTail(tensor)) {
      // After its last other touch a plan may read back only the part, so
      // only the part's bytes cost a read there, and only they must be
      // resident at the tail's touches (`touched` below).
      int64_t part = graph.getPart(tail->view)->bytes;
      addRange(needed, start, tail->lastOther, bytes);
      addRange(needed, tail->lastOther + 1, end, part);
      addRange(LeaveCost::Write, tail->lastOther + 1, end, bytes - part);
      continue;
    }
    if (needed == LeaveCost::ReadAndFinalWrite) {
      addRange(needed, start,
               std::min({end, lastNeeded, readOnlyFrom[tensor] - 1}), bytes);
      addRange(LeaveCost::Read, std::max(start, readOnlyFrom[tensor]),
               std::min(end, lastNeeded), bytes);
    } else
      addRange(needed, start, std::min(end, lastNeeded), bytes);
    addRange(afterwards, std::max(start, lastNeeded + 1), end, bytes);
  }
  // Of those bytes, the ones touched again at or before f, the first op
  // that computes a next-step value, per class: absent at a point i < f,
  // they are read back before op f, so before any final write starts
  // (`early`, kept apart from `available` as `earlyTouch[t]` marks).
  std::array<std::vector<int64_t>, kNumLeaveCosts> early;
  for (auto &bytes : early)
    bytes.assign(points + 1, 0);
  std::vector<int64_t> lastTouchByFirstNext(graph.numTensors(), -1);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    for (uint32_t touch : lifetimes.getTouches(tensor))
      if (touch <= firstNextValue && !lifetimes.mayLeaveOnSsd(tensor, touch))
        lastTouchByFirstNext[tensor] = touch;
    int64_t from = lifetimes.getLiveStart(tensor);
    int64_t to = std::min<int64_t>(lifetimes.getLiveEnd(tensor),
                                   lastTouchByFirstNext[tensor] - 1);
    // A part tail's bytes are no early ones: fewer early bytes only lower
    // the bound, and the part alone is read there.
    if (std::optional<LifetimeAnalysis::PartTail> tail =
            lifetimes.getPartTail(tensor))
      to = std::min<int64_t>(to, tail->lastOther);
    if (from > to)
      continue;
    early[static_cast<unsigned>(costWhileNeeded[tensor])][from] +=
        graph.getTensor(tensor).bytes;
    early[static_cast<unsigned>(costWhileNeeded[tensor])][to + 1] -=
        graph.getTensor(tensor).bytes;
  }
  // Tensors an op needs are no candidates at that point.
  std::array<std::vector<int64_t>, kNumLeaveCosts> touched, touchedEarly;
  for (auto &bytes : touched)
    bytes.assign(points, 0);
  for (auto &bytes : touchedEarly)
    bytes.assign(points, 0);
  bool parts = graph.hasParts();
  for (uint32_t point = 0; point < points; ++point)
    for (TensorId tensor : lifetimes.getTouchedAt(point)) {
      std::optional<LifetimeAnalysis::PartTail> tail =
          parts ? lifetimes.getPartTail(tensor) : std::nullopt;
      if (tail && point > tail->lastOther) {
        touched[static_cast<unsigned>(costWhileNeeded[tensor])][point] +=
            graph.getPart(tail->view)->bytes;
        continue;
      }
      if (!lifetimes.mayLeaveOnSsd(tensor, point)) {
        unsigned cost = static_cast<unsigned>(static_cast<int64_t>(point) >=
                                                      readOnlyFrom[tensor]
                                                  ? LeaveCost::Read
                                                  : costWhileNeeded[tensor]);
        touched[cost][point] += graph.getTensor(tensor).bytes;
        if (static_cast<int64_t>(point) < lastTouchByFirstNext[tensor])
          touchedEarly[cost][point] += graph.getTensor(tensor).bytes;
      }
    }

  bool hostLink = target.hasHostLink();
  double writeRate = hostLink ? std::min(target.ssdWriteBandwidth,
                                         target.deviceToHostBandwidth)
                              : target.ssdWriteBandwidth;
  double readRate =
      hostLink ? std::min(target.ssdReadBandwidth, target.hostToDeviceBandwidth)
               : target.ssdReadBandwidth;
  std::vector<double> computeBefore = computeSecondsBefore(opSeconds);
  double compute = computeBefore.back();
  uint32_t finalWritesAt = std::min(firstNextValue + 1, points);
  double finalWritesFrom = computeBefore[finalWritesAt];
  if (!std::isfinite(finalWritePerByte))
    finalWritePerByte = 0;
  // The least latency a chain of transfers in one direction pays before
  // its last byte arrives: every transfer waits at least the smaller of
  // its hop's idle and queued latencies before its bytes move, the first
  // hop's bytes before the second hop's, and a group moves any number of
  // tensors as one transfer, so one latency per hop is all any plan must
  // pay (divided among no overlapping transfers: the bytes serialise).
  double hostLatency = hostLink ? target.ioLatencySeconds : 0;
  double writeLatency = hostLatency + std::min(target.ssdWriteLatency(),
                                               target.ssdWriteQueuedLatency());
  double readLatency = hostLatency + std::min(target.ssdReadLatency(),
                                              target.ssdReadQueuedLatency());
  // One read of `chainReadBytes` through both hops in turn (store and
  // forward: a transfer's second hop starts once its first is done).
  if (!std::isfinite(chainReadBytes))
    chainReadBytes = 0;
  double chainRead =
      chainReadBytes > 0
          ? readLatency + chainReadBytes / target.ssdReadBandwidth +
                (hostLink ? chainReadBytes / target.hostToDeviceBandwidth : 0)
          : 0;

  LowerBound bound;
  bound.computeSeconds = compute;
  bound.seconds = bound.linkSeconds = bound.latencySeconds = compute;
  std::array<int64_t, kNumLeaveCosts> running{}, runningEarly{};
  for (uint32_t point = 0; point < points; ++point) {
    // `late`: the candidates not touched again by f (all of them, f done).
    std::array<double, kNumLeaveCosts> candidates, late;
    for (unsigned cost = 0; cost < kNumLeaveCosts; ++cost) {
      running[cost] += available[cost][point];
      runningEarly[cost] += early[cost][point];
      candidates[cost] = running[cost] - touched[cost][point];
      late[cost] =
          candidates[cost] - (runningEarly[cost] - touchedEarly[cost][point]);
    }
    double excess =
        static_cast<double>(unplannedLive[point]) - static_cast<double>(budget);
    if (excess <= 0)
      continue;
    auto take = [&](LeaveCost cost, double limit) {
      double amount = std::min(limit, candidates[static_cast<unsigned>(cost)]);
      return std::max(0.0, amount);
    };
    double remaining = excess - take(LeaveCost::Free, excess);

    // Bytes each link must carry whatever the plan (the bound).
    double writeFree = take(LeaveCost::Read, remaining);
    double pairedForWrites =
        take(LeaveCost::ReadAndFinalWrite, remaining - writeFree);
    double minWrites = pairedForWrites * std::min(1.0, finalWritePerByte) +
                       (remaining - writeFree - pairedForWrites);
    double minReads =
        std::max(0.0, remaining - take(LeaveCost::Write, remaining));
    bound.linkSeconds = std::max(
        {bound.linkSeconds, minWrites / writeRate, minReads / readRate});

    double before = computeBefore[point];
    double opTime = computeBefore[point + 1] - before;
    double readOnly = candidates[static_cast<unsigned>(LeaveCost::Read)];
    double paired = take(LeaveCost::ReadAndFinalWrite, remaining);
    double leaving = candidates[static_cast<unsigned>(LeaveCost::Write)];
    // Candidates touched after f: the final writes' state takes the late
    // bytes of state first, what the rest writes and reads back takes the
    // late bytes left (a tensor is absent once; this split is the cheapest).
    double lateState =
        late[static_cast<unsigned>(LeaveCost::ReadAndFinalWrite)];
    double lateWrittenAndRead =
        late[static_cast<unsigned>(LeaveCost::WriteAndRead)];
    // `reused` bytes leave at the cost of a read, `fromState` at a read and
    // a final write; the rest are written first, and also read back once
    // the values that leave for good are used up.
    // With `interior`, inside a search range (where every direction that
    // may carry bytes does: latencies are constant there, so the function
    // stays convex); otherwise at the amounts given. The latencies count
    // only with `withLatency`.
    bool withLatency = false, interior = false;
    auto seconds = [&](double reused, double fromState) {
      double rest = remaining - reused - fromState;
      double writesBefore = rest;
      double reads = reused + fromState + std::max(0.0, rest - leaving);
      double finalWrites = fromState * finalWritePerByte;
      auto latency = [&](double bytes, double perTransfer) {
        return withLatency && (interior || bytes > 0) ? perTransfer : 0.0;
      };
      double writeWait = latency(writesBefore, writeLatency);
      double readWait = latency(reads, readLatency);
      bool finalWritesHappen =
          interior ? finalWritePerByte > 0 && fromState > 0 : finalWrites > 0;
      double finalWait = withLatency && finalWritesHappen ? writeLatency : 0.0;
      double anyWriteWait = std::max(writeWait, finalWait);
      // After i, compute must also reach f before final writes can start,
      // and (counted with latency) the first of these final writes waits
      // for its argument's read, which starts after op i.
      double finalAfter =
          finalWritesAt > point
              ? finalWritesFrom - before + finalWait + finalWrites / writeRate
              : 0;
      if (withLatency && finalWritesHappen) {
        if (everyUpdateAfterItsLastTouch)
          finalAfter = std::max(finalAfter, opTime + chainRead + finalWait +
                                                finalWrites / writeRate);
        // The bytes absent at i and touched again by f come back before
        // op f runs, and final writes start after it: each class uses its
        // bytes touched later first (they cost the same otherwise). No
        // latency for these reads: the term would jump where they start,
        // and the searches need it convex.
        double earlyReads =
            std::max(0.0,
                     reused - late[static_cast<unsigned>(LeaveCost::Read)]) +
            std::max(0.0, fromState - lateState) +
            std::max(0.0, std::max(0.0, rest - leaving) - lateWrittenAndRead -
                              std::max(0.0, lateState - fromState));
        if (finalWritesAt > point + 1)
          finalAfter = std::max(
              finalAfter, std::max(finalWritesFrom - before,
                                   opTime + earlyReads / readRate +
                                       (finalWritesFrom -
                                        computeBefore[finalWritesAt - 1])) +
                              finalWait + finalWrites / writeRate);
      }
      return std::max(
          {std::max(before, writeWait + writesBefore / writeRate) +
               std::max({compute - before, opTime + readWait + reads / readRate,
                         finalAfter}),
           finalWritesFrom + finalWait + finalWrites / writeRate,
           anyWriteWait + (writesBefore + finalWrites) / writeRate});
    };
    // Minimises a function of one amount over [low, high], convex inside
    // (`interior`), with its own values at the ends (where a direction may
    // carry no bytes and pay no latency); an empty range has no cover.
    auto minimise = [&](double low, double high, auto function) {
      if (low > high)
        return std::numeric_limits<double>::infinity();
      interior = false;
      double ends = std::min(function(low), function(high));
      interior = true;
      for (unsigned iteration = 0; iteration < 100 && high - low > 1e-3;
           ++iteration) {
        double third = (high - low) / 3;
        if (function(low + third) <= function(high - third))
          high -= third;
        else
          low += third;
      }
      double inside = std::min(function(low), function(high));
      interior = false;
      return std::min(ends, inside);
    };
    // Persistent state may also leave mid-step like any other tensor (a
    // write before, a read after), so it may count as written and read back.
    double general =
        candidates[static_cast<unsigned>(LeaveCost::WriteAndRead)] + paired;
    // Read-only bytes cost less than persistent state leaving at the end or
    // tensors written and read back, so an optimal cover takes those only
    // once the read-only bytes are used up; until then it mixes read-only
    // bytes with the rest, each costing a write.
    auto cheapest = [&]() {
      double best = minimise(std::max(0.0, remaining - leaving - general),
                             std::min(remaining, readOnly),
                             [&](double reused) { return seconds(reused, 0); });
      double reused = std::min(remaining, readOnly);
      return std::min(
          best,
          minimise(std::max(0.0, remaining - reused - leaving - general),
                   std::min(paired, remaining - reused), [&](double fromState) {
                     return seconds(reused, fromState);
                   }));
    };
    withLatency = false;
    double best = cheapest();
    if (best > bound.seconds) {
      bound.seconds = best;
      bound.criticalPoint = point;
    }
    withLatency = true;
    bound.latencySeconds = std::max(bound.latencySeconds, cheapest());
  }
  bound.seconds = std::max(bound.seconds, bound.linkSeconds);
  bound.latencySeconds = std::max(bound.latencySeconds, bound.seconds);
  return bound;
}
