//===- Plan.h - Residency plan of a training step ---------------*- C++ -*-===//
//
// A plan is a list of gaps: periods during which a tensor is not in device
// memory. Each gap maps onto the ssd dialect's residency ops at slots, where
// slot s lies between point s-1 and point s (slot 0 is function entry, slot
// N right before the return):
//
//   offload at offloadSlot   `%h, %t = ssd.offload %x` (only when `writes`)
//   release at releaseSlot   `ssd.release %x after %t`: memory free from
//                            point releaseSlot on
//   prefetch at prefetchSlot `%r = ssd.prefetch %h`: memory back from point
//                            prefetchSlot on
//   wait at waitPoint        `%x2 = ssd.wait %r, %h` right before that op
//
// A gap that `entersOnSsd` starts at function entry (a persistent argument
// passed as a handle: no offload, no release); one that `leavesOnSsd` ends
// at function exit (a returned value passed back as a handle: no prefetch,
// no wait). At one slot, offloads issue first, then releases, prefetches and
// the waits of the op at that point. The verifier proves a plan safe
// without simulating it.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_PLAN_H
#define SSD_ANALYSIS_PLANNER_PLAN_H

#include "ssd/Analysis/Planner/Lifetimes.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace ssd::planner {

inline constexpr uint32_t kNoGroup = std::numeric_limits<uint32_t>::max();

struct Gap {
  TensorId tensor = 0;
  bool entersOnSsd = false;
  bool leavesOnSsd = false;
  /// The gap copies the tensor out. False when an up-to-date copy is on SSD
  /// already (the tensor entered on SSD or an earlier gap wrote it: tensors
  /// are immutable), so the release awaits that earlier write.
  bool writes = false;
  uint32_t offloadSlot = 0;
  uint32_t releaseSlot = 0;
  uint32_t prefetchSlot = 0;
  uint32_t waitPoint = 0;
  /// Transfers of one group move as one buffer (ssd-group-buffers).
  uint32_t offloadGroup = kNoGroup;
  uint32_t prefetchGroup = kNoGroup;
  /// A partial reload: only view `part`'s byte range comes back (the
  /// tensor's part tail, `LifetimeAnalysis::getPartTail`), and the uses from
  /// the wait on read it; the rest of the tensor stays away to its end. Its
  /// wait must be in the tail, and every later gap of the tensor is one too:
  /// it keeps the part alone away and reads it back again.
  std::optional<TensorId> part;

  /// Points [absentFrom, absentTo) at which the tensor holds no memory.
  uint32_t absentFrom() const { return entersOnSsd ? 0 : releaseSlot; }
  uint32_t absentTo(uint32_t numPoints) const {
    return leavesOnSsd ? numPoints : prefetchSlot;
  }
  bool reloads() const { return !leavesOnSsd; }
  /// The bytes its reload reads: the part's, or the whole tensor's.
  uint64_t reloadBytes(const StepGraph &graph) const {
    return part ? graph.getPart(*part)->bytes : graph.getTensor(tensor).bytes;
  }
};

/// The points at which `gap` saves memory: its absence clipped to the
/// tensor's unplanned live range (an unused argument that stays on SSD all
/// step saves memory only at point 0). Half-open; empty when from >= to.
std::pair<uint32_t, uint32_t> absentPoints(const Gap &gap,
                                           const LifetimeAnalysis &lifetimes);

/// Calls `away(from, to, bytes)` for each run of points [from, to) at which
/// `gap` keeps `bytes` of its tensor out of device memory: the whole tensor
/// over its absence (`absentPoints`), and after a partial reload
/// (`Gap::part`) all but the part to the tensor's end. A gap that follows
/// a partial reload of its tensor (`afterPart`) keeps only the part away:
/// the rest is away already. Empty runs are skipped.
template <typename Away>
void forEachAbsence(const Gap &gap, bool afterPart, const StepGraph &graph,
                    const LifetimeAnalysis &lifetimes, Away &&away) {
  uint64_t bytes = graph.getTensor(gap.tensor).bytes;
  auto [from, to] = absentPoints(gap, lifetimes);
  if (from < to)
    away(from, to, afterPart ? gap.reloadBytes(graph) : bytes);
  uint32_t end = lifetimes.getLiveEnd(gap.tensor) + 1;
  if (gap.part && !afterPart && std::max(from, to) < end)
    away(std::max(from, to), end, bytes - gap.reloadBytes(graph));
}

struct Plan {
  /// The policy that produced the plan, and for `ssd` which candidate won.
  std::string policy;
  std::string detail;
  uint64_t memoryBudget = 0;
  /// Sorted by tensor, then by position in the step.
  std::vector<Gap> gaps;

  /// Sorts the gaps and sets `writes`: the first gap of a tensor that did
  /// not enter on SSD writes, later ones reuse that copy.
  void finalize();
  uint64_t bytesOffloaded(const StepGraph &graph) const;
  uint64_t bytesPrefetched(const StepGraph &graph) const;
  /// Live bytes at every point with the plan applied.
  std::vector<uint64_t> liveBytes(const StepGraph &graph,
                                  const LifetimeAnalysis &lifetimes) const;
  void print(llvm::raw_ostream &os, const StepGraph &graph) const;
  /// One object per gap: the tensor's name and bytes, where it is
  /// (`argument`: its position among the arguments, or `op` and `result`:
  /// its defining op's index and result number), the flags and the slots.
  llvm::json::Value toJSON(const StepGraph &graph) const;
};

/// forEachAbsence over every gap of `plan`, in any order:
/// `away(gap, from, to, bytes)`.
template <typename Away>
void forEachAbsence(const Plan &plan, const StepGraph &graph,
                    const LifetimeAnalysis &lifetimes, Away &&away) {
  // A gap releasing after its tensor's first partial reload follows it.
  std::vector<uint32_t> firstPartWait;
  if (graph.hasParts()) {
    firstPartWait.assign(graph.numTensors(), UINT32_MAX);
    for (const Gap &gap : plan.gaps)
      if (gap.part)
        firstPartWait[gap.tensor] =
            std::min(firstPartWait[gap.tensor], gap.waitPoint);
  }
  for (const Gap &gap : plan.gaps) {
    bool afterPart =
        !firstPartWait.empty() && gap.absentFrom() > firstPartWait[gap.tensor];
    forEachAbsence(gap, afterPart, graph, lifetimes,
                   [&](uint32_t from, uint32_t to, uint64_t bytes) {
                     away(gap, from, to, bytes);
                   });
  }
}

/// Makes every gap of `plan` that may read back only a part of its tensor
/// do so: the tensor's last gap, reloading for a touch in its part tail
/// (`LifetimeAnalysis::getPartTail`). Such a reload reads fewer bytes and
/// holds fewer to the tensor's end, so it is never slower nor larger.
/// Returns how many it changed; `plan` must be finalized (sorted).
unsigned reloadPartsOnly(Plan &plan, const StepGraph &graph,
                         const LifetimeAnalysis &lifetimes);

/// The static check behind ssd-verify-plan: every gap is well formed (no use
/// of the tensor while it is absent, every write awaited by its release,
/// every read awaited right before its use, reads only of data that was
/// written), persistent state is steady (an argument enters on SSD iff its
/// next-step value leaves on SSD) and live bytes never exceed `budget`.
llvm::Error verifyPlan(const StepGraph &graph,
                       const LifetimeAnalysis &lifetimes, const Plan &plan,
                       uint64_t budget);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_PLAN_H
