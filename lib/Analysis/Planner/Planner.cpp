//===- Planner.cpp - Offload planning policies and lower bound ------------===//
//
// Every policy is a victim rule plus a prefetch rule on one engine:
//
// 1. The eviction sweep walks the points in program order, keeping the
//    live bytes at its point (range additions on a difference array that
//    the sweep line consumes). Where live bytes exceed the budget it evicts
//    candidates until they fit. A candidate is an interval of a tensor
//    between two touches (or from entry to the first touch of an argument,
//    or from the last use of a value that may be returned as a handle to
//    the exit); a heap orders them by the policy's victim rule. The victim
//    is released at the violating point (the latest slot that helps, which
//    leaves its write the most time) and reloaded at its next touch.
//    Persistent arguments evicted before their first use enter on SSD and
//    drag their next-step value out at the exit, and vice versa.
// 2. The prefetch scheduler visits reloads in order of use and moves each
//    as early as the policy asks, but never past a point where the reloaded
//    bytes would break the budget (a rightmost-violation query).
//
// Both steps are O((ops + touches) log ops), so whole-step planning stays
// near-linear. `PlanSearch` runs every policy: a baseline is a search with
// one candidate, `ssd` searches over victim rules and transfer schedules on
// the simulator (on the caller's thread pool), repairs the worst stalls, and
// keeps the fastest plan, baselines included. The lower bound is in
// LowerBound.cpp.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Planner.h"

#include "ssd/Analysis/Planner/CostModel.h"
#include "ssd/Analysis/Planner/ExactPlanner.h"

#include "LiveTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <queue>

using namespace ssd::planner;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

char InfeasibleBudgetError::ID = 0;

void InfeasibleBudgetError::log(llvm::raw_ostream &os) const {
  os << "memory budget of " << budget << " bytes is below the " << requiredBytes
     << " bytes that " << opName << " needs resident at once";
  if (unmovableBytes)
    os << " (" << unmovableBytes
       << " of them tensors whose roles may not move)";
  os << "; no plan can meet it";
}

std::error_code InfeasibleBudgetError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {
/// Every policy, once: its name and whether it plans steps of any size. The
/// lists, the names and the parser below all read this table.
struct PolicyInfo {
  Policy policy;
  llvm::StringLiteral name;
  bool heuristic;
};
constexpr PolicyInfo kPolicyTable[] = {
    {Policy::Ssd, "ssd", true},
    {Policy::ReloadOnUse, "reload-on-use", true},
    {Policy::StashWindow, "stash-window", true},
    {Policy::AotPrefetch, "aot-prefetch", true},
    {Policy::FixedDepth, "fixed-depth", true},
    {Policy::Exact, "exact", false},
};

template <bool HeuristicOnly> llvm::ArrayRef<Policy> policiesOfTable() {
  static const std::vector<Policy> policies = [] {
    std::vector<Policy> listed;
    for (const PolicyInfo &info : kPolicyTable)
      if (info.heuristic || !HeuristicOnly)
        listed.push_back(info.policy);
    return listed;
  }();
  return policies;
}
} // namespace

llvm::ArrayRef<Policy> ssd::planner::allPolicies() {
  return policiesOfTable<true>();
}

llvm::ArrayRef<Policy> ssd::planner::knownPolicies() {
  return policiesOfTable<false>();
}

llvm::StringRef ssd::planner::policyName(Policy policy) {
  for (const PolicyInfo &info : kPolicyTable)
    if (info.policy == policy)
      return info.name;
  return "unknown";
}

std::optional<Policy> ssd::planner::parsePolicy(llvm::StringRef name) {
  for (const PolicyInfo &info : kPolicyTable)
    if (info.name == name)
      return info.policy;
  return std::nullopt;
}

namespace {

/// How diagnostics name a program point.
std::string pointName(const StepGraph &graph, uint32_t point) {
  if (point == graph.numOps())
    return "the return";
  return "op '" + graph.getOp(point).name + "' (#" + std::to_string(point) +
         ")";
}

/// Live bytes seen by a sweep that only moves forward: range additions
/// anywhere and queries at the sweep's point, both O(1). Points behind the
/// sweep are not kept up to date; the sweep never looks at them again.
class SweepLine {
public:
  explicit SweepLine(llvm::ArrayRef<uint64_t> initial)
      : initial(initial), delta(initial.size() + 1, 0) {}

  /// Adds `delta` to the points [from, to) that the sweep has not passed.
  void add(uint32_t from, uint32_t to, int64_t change) {
    from = std::max(from, current);
    to = std::min<uint32_t>(to, initial.size());
    if (from >= to || !change)
      return;
    if (from == current)
      running += change;
    else
      delta[from] += change;
    delta[to] -= change;
  }

  /// Live bytes at `point`, which is not before the previous query's.
  int64_t at(uint32_t point) {
    assert(point >= current && "the sweep only moves forward");
    while (current < point)
      running += delta[++current];
    return static_cast<int64_t>(initial[point]) + running;
  }

private:
  llvm::ArrayRef<uint64_t> initial;
  std::vector<int64_t> delta;
  uint32_t current = 0;
  /// The sum of the additions that cover `current`.
  int64_t running = 0;
};

/// Which candidate interval to evict first.
enum class VictimRule {
  /// Belady: the interval whose next touch is furthest away.
  FurthestNextUse,
  /// Belady among the intervals that need no write before they leave (an
  /// SSD copy exists, or a persistent argument can enter on SSD), then
  /// Belady among the rest: keeps the write queue free for what must go.
  CopiesFirst,
  /// Belady within classes, the class chosen by running estimates of the
  /// write queue: reuse SSD copies first, then intervals that need a write
  /// while the queue can finish it before the release, then persistent
  /// arguments entering on SSD while their next-step values' writes at the
  /// end stall less than writing now would, then whatever stalls least.
  WriteAware,
  /// The interval with the most byte-points: bytes x interval length.
  LargestArea,
  /// The interval whose last touch is the oldest.
  LeastRecentlyUsed,
  /// The largest tensor.
  Largest,
  /// The smallest interval whose bytes alone cover what the point still
  /// exceeds the budget by (among the first `kBestFitScan` by next use),
  /// else Belady: one victim that fits, not two that overshoot.
  BestFit,
};

/// How many candidates `BestFit` looks at, most promising first.
constexpr unsigned kBestFitScan = 64;

llvm::StringRef victimRuleName(VictimRule rule) {
  switch (rule) {
  case VictimRule::FurthestNextUse:
    return "furthest-next-use";
  case VictimRule::CopiesFirst:
    return "copies-first";
  case VictimRule::WriteAware:
    return "write-aware";
  case VictimRule::LargestArea:
    return "largest-area";
  case VictimRule::LeastRecentlyUsed:
    return "least-recently-used";
  case VictimRule::Largest:
    return "largest";
  case VictimRule::BestFit:
    return "best-fit";
  }
  return "unknown";
}

/// When reloads start, before the budget clamps them.
enum class PrefetchRule {
  AtUse,
  FixedDepth,
  CoverTransferByCompute,
  AsSoonAsMemoryAllows,
};

struct Candidate {
  /// Demoted tensors come after every other candidate.
  int demotion;
  double key;
  uint64_t bytes;
  TensorId tensor;
  uint32_t interval;

  bool operator<(const Candidate &other) const {
    return std::make_tuple(-demotion, key, bytes,
                           -static_cast<int64_t>(tensor)) <
           std::make_tuple(-other.demotion, other.key, other.bytes,
                           -static_cast<int64_t>(other.tensor));
  }
};

/// What evicting a candidate costs, for the write-aware rule.
enum class CandidateClass : unsigned {
  NeedsWrite,
  ReusesCopy,
  EntersOnSsd,
  LeavesOnSsd,
};

/// The eviction sweep for one victim rule. Interval k of a tensor lies
/// between touch k-1 (entry for k = 0 of an argument) and touch k; the
/// interval that ends in a touch at which the tensor may leave on SSD
/// extends to the exit.
class EvictionSweep {
public:
  EvictionSweep(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                llvm::ArrayRef<double> opSeconds, const Target &target,
                llvm::ArrayRef<uint64_t> unplannedLive, uint64_t budget,
                VictimRule rule, llvm::ArrayRef<uint8_t> movable,
                llvm::ArrayRef<uint8_t> demotion)
      : graph(graph), lifetimes(lifetimes), target(target), budget(budget),
        rule(rule), movable(movable), demotion(demotion), live(unplannedLive),
        hasCopy(graph.numTensors(), false) {
    if (graph.hasParts())
      listPartReloads();
    plan.memoryBudget = budget;
    intervalStart.reserve(graph.numTensors() + 1);
    uint32_t intervals = 0;
    for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
      intervalStart.push_back(intervals);
      intervals += lifetimes.getTouches(tensor).size() + 1;
    }
    gapOfInterval.assign(intervals, kNoGap);
    overBudgetBefore.assign(unplannedLive.size() + 1, 0);
    for (size_t point = 0; point < unplannedLive.size(); ++point)
      overBudgetBefore[point + 1] =
          overBudgetBefore[point] + (unplannedLive[point] > budget);
    computeBefore = computeSecondsBefore(opSeconds);
    // Final writes of next-step values hide behind the compute after the
    // first of them is defined.
    uint32_t firstUpdate = lifetimes.returnPoint();
    for (const Tensor &tensor : graph.getTensors())
      if (tensor.steadyStatePartner && tensor.definingOp)
        firstUpdate = std::min(firstUpdate, *tensor.definingOp);
    tailWindow =
        computeBefore[lifetimes.returnPoint()] -
        computeBefore[std::min(firstUpdate + 1, lifetimes.returnPoint())];
    secondsPerWrittenByte = 1 / target.ssdWriteBandwidth;
    if (target.hasHostLink())
      secondsPerWrittenByte =
          std::max(secondsPerWrittenByte, 1 / target.deviceToHostBandwidth);
  }

  /// torchtune's policy: every saved activation leaves between its last
  /// forward and first backward touch, `window` ops after that last touch.
  void evictSavedActivations(unsigned window) {
    uint32_t backwardStart = lifetimes.getBackwardStart();
    for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
      uint64_t bytes = graph.getTensor(tensor).bytes;
      if (lifetimes.getRole(tensor) != TensorRole::SavedActivation || !bytes ||
          !movable[tensor])
        continue;
      llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
      auto firstBackward =
          std::lower_bound(touches.begin(), touches.end(), backwardStart);
      if (firstBackward == touches.begin() || firstBackward == touches.end())
        continue;
      uint32_t interval = firstBackward - touches.begin();
      uint32_t release = *(firstBackward - 1) + 1 + window;
      if (release >= *firstBackward || leavesAt(tensor, interval))
        continue;
      addReloadGap(tensor, interval, release, *firstBackward);
    }
  }

  llvm::Expected<Plan> run() {
    std::vector<uint32_t> touchesPassed(graph.numTensors(), 0);
    for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor)
      if (graph.getTensor(tensor).isArgument())
        push(tensor, 0);
    for (uint32_t point = 0; point < lifetimes.numPoints(); ++point) {
      while (live.at(point) > static_cast<int64_t>(budget)) {
        std::optional<Candidate> candidate = nextVictim(point);
        if (!candidate && readBackOnlyPart(point))
          continue;
        if (!candidate) {
          // Every tensor that may move is away: what stays is the op's own
          // bytes and those of tensors whose roles may not move.
          uint64_t resident = live.at(point);
          uint64_t own = lifetimes.getRequiredBytes(point);
          return llvm::make_error<InfeasibleBudgetError>(
              point, pointName(graph, point), resident, budget,
              resident > own ? resident - own : 0);
        }
        evict(*candidate, point);
      }
      // Intervals that start after this point become candidates for the
      // points that follow.
      for (TensorId tensor : lifetimes.getTouchedAt(point))
        push(tensor, ++touchesPassed[tensor]);
    }
    plan.finalize();
    return std::move(plan);
  }

private:
  static constexpr uint32_t kNoGap = ~0u;

  /// The index in `plan.gaps` of the gap of an evicted interval, or kNoGap.
  uint32_t gapOf(TensorId tensor, uint32_t interval) const {
    assert(interval <= lifetimes.getTouches(tensor).size() &&
           "a tensor's intervals end at its last touch");
    return gapOfInterval[intervalStart[tensor] + interval];
  }

  /// Steady state moves a tensor together with its partner: an argument
  /// enters on SSD only if its next-step value may leave (not when a view of
  /// that value is returned resident).
  bool partnerMayMove(TensorId tensor) const {
    const std::optional<TensorId> &partner =
        graph.getTensor(tensor).steadyStatePartner;
    return !partner ||
           (movable[*partner] &&
            (!graph.getTensor(tensor).isArgument() ||
             lifetimes.mayLeaveOnSsd(*partner, lifetimes.returnPoint())));
  }

  /// Whether evicting the interval makes a persistent argument enter on SSD.
  bool entersAt(TensorId tensor, uint32_t interval) const {
    const Tensor &info = graph.getTensor(tensor);
    return interval == 0 && info.isArgument() && isPersistentRole(info.role) &&
           partnerMayMove(tensor);
  }

  /// Whether the interval ends on SSD. An unused argument that may not
  /// enter on SSD (its next-step value cannot leave) is written and dropped.
  bool leavesAt(TensorId tensor, uint32_t interval) const {
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    return touches.empty() ||
           (partnerMayMove(tensor) && interval < touches.size() &&
            lifetimes.mayLeaveOnSsd(tensor, touches[interval]));
  }

  /// The interval that may end on SSD: the one ending in the return touch.
  uint32_t leaveInterval(TensorId tensor) const {
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    return touches.empty() ? 0 : touches.size() - 1;
  }

  bool hasGap(TensorId tensor, uint32_t interval) const {
    return gapOf(tensor, interval) != kNoGap;
  }

  void push(TensorId tensor, uint32_t interval) {
    const Tensor &info = graph.getTensor(tensor);
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    if (!info.bytes || !movable[tensor] ||
        (interval == 0 && !info.isArgument()) ||
        (interval >= touches.size() && !touches.empty()))
      return;
    bool leaves = leavesAt(tensor, interval);
    // An unused argument can only stay on SSD.
    if (touches.empty() && !leaves && !entersAt(tensor, interval))
      return;
    int64_t previous = interval == 0
                           ? int64_t(-1)
                           : static_cast<int64_t>(touches[interval - 1]);
    int64_t next =
        interval < touches.size() ? touches[interval] : lifetimes.returnPoint();
    if (!leaves && next <= previous + 1)
      return;
    int64_t end = leaves ? lifetimes.numPoints() : next;
    // Live bytes never exceed the unplanned ones, so an interval without an
    // unplanned point over the budget could only ever be dropped as stale.
    if (overBudgetBefore[end] == overBudgetBefore[previous + 1])
      return;
    // After a partial reload only the part is resident to move.
    uint64_t bytes =
        partOnly(tensor) ? graph.getPart(*partOnly(tensor))->bytes : info.bytes;
    double priority = 0;
    switch (rule) {
    case VictimRule::FurthestNextUse:
    case VictimRule::WriteAware:
    case VictimRule::BestFit:
      priority =
          leaves ? lifetimes.numPoints() + 1.0 : static_cast<double>(next);
      break;
    case VictimRule::CopiesFirst: {
      bool needsNoWrite = hasCopy[tensor] || entersAt(tensor, interval);
      priority =
          (needsNoWrite ? lifetimes.numPoints() + 2.0 : 0.0) +
          (leaves ? lifetimes.numPoints() + 1.0 : static_cast<double>(next));
      break;
    }
    case VictimRule::LargestArea:
      priority =
          static_cast<double>(bytes) * static_cast<double>(end - previous);
      break;
    case VictimRule::LeastRecentlyUsed:
      priority = -static_cast<double>(previous);
      break;
    case VictimRule::Largest:
      priority = static_cast<double>(bytes);
      break;
    }
    CandidateClass kind = CandidateClass::NeedsWrite;
    if (rule == VictimRule::WriteAware) {
      if (entersAt(tensor, interval))
        kind = CandidateClass::EntersOnSsd;
      else if (hasCopy[tensor])
        kind = CandidateClass::ReusesCopy;
      else if (leaves)
        kind = CandidateClass::LeavesOnSsd;
    }
    heaps[static_cast<unsigned>(kind)].push(
        Candidate{demotion.empty() ? 0 : demotion[tensor], priority, bytes,
                  tensor, interval});
  }

  /// The part that a tensor's gaps read back once one read back only that
  /// part (`readBackOnlyPart`): every later gap does too.
  std::optional<TensorId> partOnly(TensorId tensor) const {
    if (partWait.empty() || partWait[tensor] == kNoPart)
      return std::nullopt;
    return lifetimes.getReloadablePart(tensor, partWait[tensor]);
  }

  /// Whether `gap` follows its tensor's first partial reload (kNoPart is
  /// after every slot).
  bool followsPart(const Gap &gap) const {
    return !partWait.empty() && gap.absentFrom() > partWait[gap.tensor];
  }

  /// Where a tensor may come back as its part alone (`getReloadablePart`):
  /// per point, the movable tensors whose interval ending there may.
  void listPartReloads() {
    partWait.assign(graph.numTensors(), kNoPart);
    partReloadsAt.resize(lifetimes.numPoints());
    for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
      if (!movable[tensor] || !graph.getTensor(tensor).bytes)
        continue;
      llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
      for (uint32_t interval = 1; interval < touches.size(); ++interval)
        if (lifetimes.getReloadablePart(tensor, touches[interval]))
          partReloadsAt[touches[interval]].push_back({tensor, interval});
    }
  }

  /// When no victim is left at `point`, one tensor touched there through
  /// its part alone keeps only that part: its gap ending at `point` reads
  /// back just the part, and so do its later gaps. One at a time, so that
  /// no more tensors than needed change: first one away already (its gap
  /// writes nothing new), else one that is resident, given a new gap
  /// released right before `point`; of those the one that frees the most.
  /// Only where no whole-tensor plan was found, so the plans of budgets
  /// that fit without it stay as they were. Whether one did.
  bool readBackOnlyPart(uint32_t point) {
    if (partReloadsAt.empty())
      return false;
    std::optional<std::pair<TensorId, uint32_t>> chosen;
    auto rank = [&](TensorId tensor, uint32_t interval) {
      uint64_t bytes = graph.getTensor(tensor).bytes;
      uint64_t part =
          graph.getPart(*lifetimes.getReloadablePart(tensor, point))->bytes;
      return std::make_tuple(hasGap(tensor, interval), bytes - part);
    };
    for (auto [tensor, interval] : partReloadsAt[point])
      if (!partOnly(tensor) &&
          (!chosen ||
           rank(tensor, interval) > rank(chosen->first, chosen->second)))
        chosen = {tensor, interval};
    if (!chosen)
      return false;
    auto [tensor, interval] = *chosen;
    // Its gaps from `interval` on (the torchtune rule makes later ones
    // before the sweep) read back the part now: account them again.
    llvm::SmallVector<uint32_t, 4> gaps;
    for (uint32_t later = interval;
         later <= lifetimes.getTouches(tensor).size(); ++later)
      if (uint32_t index = gapOf(tensor, later); index != kNoGap)
        gaps.push_back(index);
    for (uint32_t index : gaps)
      account(plan.gaps[index], +1);
    partWait[tensor] = point;
    for (uint32_t index : gaps) {
      plan.gaps[index].part = partOnly(tensor);
      account(plan.gaps[index], -1);
    }
    if (!hasGap(tensor, interval))
      addReloadGap(tensor, interval, point, point, partOnly(tensor));
    return true;
  }

  /// Whether evicting `candidate` at `point` would free nothing.
  bool isStale(const Candidate &candidate, uint32_t point) const {
    if (uint32_t existing = gapOf(candidate.tensor, candidate.interval);
        existing != kNoGap) {
      const Gap &gap = plan.gaps[existing];
      return gap.entersOnSsd || gap.releaseSlot <= point;
    }
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(candidate.tensor);
    uint32_t next = candidate.interval < touches.size()
                        ? touches[candidate.interval]
                        : lifetimes.returnPoint();
    return !leavesAt(candidate.tensor, candidate.interval) && next <= point;
  }

  /// The top of a class's heap after dropping stale entries.
  const Candidate *top(CandidateClass kind, uint32_t point) {
    auto &heap = heaps[static_cast<unsigned>(kind)];
    while (!heap.empty() && isStale(heap.top(), point))
      heap.pop();
    return heap.empty() ? nullptr : &heap.top();
  }

  /// Seconds to write the next-step value of a persistent argument that
  /// enters on SSD (nothing when it is returned unchanged or not at all).
  double finalWriteSeconds(TensorId argument) const {
    const std::optional<TensorId> &partner =
        graph.getTensor(argument).steadyStatePartner;
    if (!partner || *partner == argument)
      return 0;
    return graph.getTensor(*partner).bytes * secondsPerWrittenByte;
  }

  /// The estimated stall of releasing `candidate` at `point` after writing
  /// it, and the time its write would complete.
  std::pair<double, double> estimateWrite(const Candidate &candidate,
                                          uint32_t point) const {
    double issued =
        computeBefore[lifetimes.getFirstSlotAfterDefinition(candidate.tensor)] +
        estimatedStall;
    double done = std::max(writeQueueFree, issued) + target.ssdWriteLatency() +
                  candidate.bytes * secondsPerWrittenByte;
    return {done - (computeBefore[point] + estimatedStall), done};
  }

  std::optional<Candidate> take(CandidateClass kind, uint32_t point,
                                bool writes) {
    Candidate candidate = *top(kind, point);
    heaps[static_cast<unsigned>(kind)].pop();
    if (writes) {
      auto [stall, done] = estimateWrite(candidate, point);
      writeQueueFree = done;
      estimatedStall += std::max(0.0, stall);
    }
    return candidate;
  }

  std::optional<Candidate> nextVictim(uint32_t point) {
    if (rule == VictimRule::BestFit)
      return bestFit(point);
    if (rule != VictimRule::WriteAware) {
      auto &heap = heaps[static_cast<unsigned>(CandidateClass::NeedsWrite)];
      if (heap.empty())
        return std::nullopt;
      Candidate candidate = heap.top();
      heap.pop();
      return candidate;
    }
    if (top(CandidateClass::ReusesCopy, point))
      return take(CandidateClass::ReusesCopy, point, false);
    const Candidate *write = top(CandidateClass::NeedsWrite, point);
    double writeStall = std::numeric_limits<double>::infinity();
    if (write)
      writeStall = std::max(0.0, estimateWrite(*write, point).first);
    if (write && writeStall <= 0)
      return take(CandidateClass::NeedsWrite, point, true);
    if (const Candidate *enter = top(CandidateClass::EntersOnSsd, point)) {
      // Entering on SSD moves the write to the partner at the step's end;
      // worth it while those final writes fit in the compute after the
      // first update, or stall less than writing now would.
      double finalWrite = finalWriteSeconds(enter->tensor);
      double extraTail = std::max(0.0, finalWrites + finalWrite - tailWindow) -
                         std::max(0.0, finalWrites - tailWindow);
      if (extraTail <= writeStall) {
        finalWrites += finalWrite;
        return take(CandidateClass::EntersOnSsd, point, false);
      }
    }
    const Candidate *leave = top(CandidateClass::LeavesOnSsd, point);
    if (leave && (!write || estimateWrite(*leave, point).first <
                                estimateWrite(*write, point).first))
      return take(CandidateClass::LeavesOnSsd, point, true);
    if (write)
      return take(CandidateClass::NeedsWrite, point, true);
    if (leave)
      return take(CandidateClass::LeavesOnSsd, point, true);
    return std::nullopt;
  }

  /// Among the most promising candidates, the smallest whose bytes cover
  /// the point's excess (the most promising of equal size), else the most
  /// promising one.
  std::optional<Candidate> bestFit(uint32_t point) {
    auto &heap = heaps[static_cast<unsigned>(CandidateClass::NeedsWrite)];
    uint64_t excess = live.at(point) - budget;
    llvm::SmallVector<Candidate, kBestFitScan> seen;
    while (!heap.empty() && seen.size() < kBestFitScan) {
      Candidate candidate = heap.top();
      heap.pop();
      if (!isStale(candidate, point))
        seen.push_back(candidate);
    }
    if (seen.empty())
      return std::nullopt;
    size_t chosen = 0;
    std::optional<size_t> fit;
    for (size_t index = 0; index < seen.size(); ++index)
      if (seen[index].bytes >= excess &&
          (!fit || seen[index].bytes < seen[*fit].bytes))
        fit = index;
    if (fit)
      chosen = *fit;
    Candidate victim = seen[chosen];
    for (size_t index = 0; index < seen.size(); ++index)
      if (index != chosen)
        heap.push(seen[index]);
    return victim;
  }

  /// Adds `sign` times the bytes that `gap` keeps away where it does.
  void account(const Gap &gap, int sign) {
    forEachAbsence(gap, followsPart(gap), graph, lifetimes,
                   [&](uint32_t from, uint32_t to, uint64_t bytes) {
                     live.add(from, to, sign * static_cast<int64_t>(bytes));
                   });
  }

  void addGap(const Gap &gap, uint32_t interval) {
    account(gap, -1);
    gapOfInterval[intervalStart[gap.tensor] + interval] = plan.gaps.size();
    hasCopy[gap.tensor] = true;
    plan.gaps.push_back(gap);
  }

  void addReloadGap(TensorId tensor, uint32_t interval, uint32_t release,
                    uint32_t next,
                    std::optional<TensorId> part = std::nullopt) {
    Gap gap;
    gap.tensor = tensor;
    gap.offloadSlot = lifetimes.getFirstSlotAfterDefinition(tensor);
    gap.releaseSlot = release;
    gap.prefetchSlot = gap.waitPoint = next;
    gap.part = part;
    addGap(gap, interval);
  }

  /// A persistent argument enters on SSD and stays there until its first
  /// touch (or the whole step when it has none). Lowers live bytes only, so
  /// points already swept stay within the budget.
  void enterOnSsd(TensorId argument) {
    if (hasGap(argument, 0))
      return;
    Gap gap;
    gap.tensor = argument;
    gap.entersOnSsd = true;
    if (leavesAt(argument, 0))
      gap.leavesOnSsd = true;
    else
      gap.prefetchSlot = gap.waitPoint = lifetimes.getTouches(argument).front();
    addGap(gap, 0);
  }

  /// A value is returned as a handle, released at `release`.
  void leaveOnSsd(TensorId value, uint32_t release) {
    uint32_t interval = leaveInterval(value);
    if (hasGap(value, interval))
      return;
    Gap gap;
    gap.tensor = value;
    gap.leavesOnSsd = true;
    gap.offloadSlot = lifetimes.getFirstSlotAfterDefinition(value);
    gap.releaseSlot = release;
    addGap(gap, interval);
  }

  /// Steady state: an argument enters on SSD iff its next-step value leaves
  /// on SSD. The partner leaves at the last slot; the sweep pulls that
  /// release earlier if it needs the memory.
  void tieSteadyState(TensorId tensor) {
    const Tensor &info = graph.getTensor(tensor);
    if (!info.steadyStatePartner)
      return;
    TensorId partner = *info.steadyStatePartner;
    if (info.isArgument() && hasGap(tensor, 0) &&
        plan.gaps[gapOf(tensor, 0)].entersOnSsd)
      leaveOnSsd(partner, lifetimes.returnPoint());
    if (info.returned && hasGap(tensor, leaveInterval(tensor)) &&
        plan.gaps[gapOf(tensor, leaveInterval(tensor))].leavesOnSsd)
      enterOnSsd(partner);
  }

  void evict(const Candidate &candidate, uint32_t point) {
    TensorId tensor = candidate.tensor;
    uint32_t interval = candidate.interval;
    if (uint32_t existing = gapOf(tensor, interval); existing != kNoGap) {
      // Evicted already but released later than this point: release here.
      Gap &gap = plan.gaps[existing];
      if (!gap.entersOnSsd && gap.releaseSlot > point) {
        account(gap, +1);
        gap.releaseSlot = point;
        account(gap, -1);
      }
      return;
    }
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    bool leaves = leavesAt(tensor, interval);
    uint32_t next =
        interval < touches.size() ? touches[interval] : lifetimes.returnPoint();
    if (!leaves && next <= point)
      return; // The interval ended before this point.
    if (entersAt(tensor, interval)) {
      enterOnSsd(tensor);
    } else if (leaves) {
      leaveOnSsd(tensor, point);
    } else {
      addReloadGap(tensor, interval, point, next, partOnly(tensor));
      return;
    }
    tieSteadyState(tensor);
  }

  const StepGraph &graph;
  const LifetimeAnalysis &lifetimes;
  const Target &target;
  uint64_t budget;
  VictimRule rule;
  /// Whether each tensor's role may move.
  llvm::ArrayRef<uint8_t> movable;
  llvm::ArrayRef<uint8_t> demotion;
  SweepLine live;
  /// How many points before each point exceed the budget unplanned.
  std::vector<uint32_t> overBudgetBefore;
  Plan plan;
  /// Candidates by class; rules other than WriteAware use one heap.
  std::array<std::priority_queue<Candidate>, 4> heaps;
  /// Compute seconds before each point, and the write-aware rule's running
  /// estimates of the stall so far and of when the write queue drains.
  std::vector<double> computeBefore;
  double secondsPerWrittenByte;
  double estimatedStall = 0;
  double writeQueueFree = 0;
  /// Seconds of final writes chosen so far, and the compute they can hide
  /// behind.
  double finalWrites = 0;
  double tailWindow = 0;
  /// Where each tensor's intervals start in `gapOfInterval` (a tensor with
  /// n touches has n + 1), and the gap of each evicted interval there: the
  /// sweep looks one up per victim and per stale check.
  std::vector<uint32_t> intervalStart;
  std::vector<uint32_t> gapOfInterval;
  /// Tensors that are or will be on SSD by the end of the sweep so far.
  std::vector<bool> hasCopy;
  /// Where a tensor may come back as its part alone, and the wait of the
  /// first gap of each tensor that does, or kNoPart (both empty when no view
  /// of the step is a part).
  static constexpr uint32_t kNoPart = ~0u;
  std::vector<std::vector<std::pair<TensorId, uint32_t>>> partReloadsAt;
  std::vector<uint32_t> partWait;
};

struct PlanningContext {
  PlanningContext(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                  llvm::ArrayRef<double> opSeconds, const Target &target,
                  RoleSet movableRoles)
      : graph(graph), lifetimes(lifetimes), opSeconds(opSeconds),
        target(target), movable(graph.numTensors()) {
    for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor)
      movable[tensor] = movableRoles.contains(lifetimes.getRole(tensor)) &&
                        !graph.getTensor(tensor).isAlias();
  }

  const StepGraph &graph;
  const LifetimeAnalysis &lifetimes;
  llvm::ArrayRef<double> opSeconds;
  const Target &target;
  /// Whether each tensor's role may move (PlannerOptions::movableRoles);
  /// views never do, their storage moves.
  std::vector<uint8_t> movable;

  /// The measure of planning effort: the step's points once for every
  /// pass over it (a simulation, an eviction sweep, a prefetch placement).
  mutable uint64_t processedPoints = 0;

  void countPass() const { processedPoints += lifetimes.numPoints(); }

  /// PlannerOptions::groupMinBytes: plans are judged grouped.
  uint64_t groupMinBytes = 0;

  SimulationResult simulate(const Plan &plan) const {
    countPass();
    if (groupMinBytes == 0)
      return simulatePlan(graph, lifetimes, opSeconds, target, plan);
    Plan grouped = plan;
    groupTransfers(grouped, graph, groupMinBytes);
    return simulatePlan(graph, lifetimes, opSeconds, target, grouped);
  }

  double readSeconds(uint64_t bytes) const {
    double seconds = target.ssdReadLatency() +
                     static_cast<double>(bytes) / target.ssdReadBandwidth;
    if (target.hasHostLink())
      seconds += target.ioLatencySeconds +
                 static_cast<double>(bytes) / target.hostToDeviceBandwidth;
    return seconds;
  }
};

/// Reload gaps of `plan` in order of use (wait point, then tensor).
std::vector<uint32_t> reloadsInUseOrder(const PlanningContext &context,
                                        const Plan &plan) {
  return bucketBySlot(
             plan, context.lifetimes.numPoints(),
             [](const Gap &gap) { return gap.waitPoint; },
             [](const Gap &gap) { return gap.tensor; },
             [](const Gap &gap) { return gap.reloads(); })
      .gaps;
}

/// Places every reload at max(desired slot, the earliest slot from which
/// its bytes fit), visiting reloads in order of use so that earlier uses
/// claim free memory first.
void placePrefetches(const PlanningContext &context, Plan &plan,
                     llvm::ArrayRef<uint32_t> order,
                     llvm::ArrayRef<uint32_t> desiredSlot) {
  context.countPass();
  for (uint32_t index : order)
    plan.gaps[index].prefetchSlot = plan.gaps[index].waitPoint;
  LiveTree live(plan.liveBytes(context.graph, context.lifetimes));
  int64_t budget = plan.memoryBudget;
  for (size_t position = 0; position < order.size(); ++position) {
    Gap &gap = plan.gaps[order[position]];
    int64_t bytes = context.graph.getTensor(gap.tensor).bytes;
    uint32_t earliest = gap.absentFrom();
    // Only a blocked point at or after the desired slot can move the slot.
    int64_t blocked = live.lastAbove(std::max(earliest, desiredSlot[position]),
                                     gap.waitPoint, budget - bytes);
    uint32_t slot =
        std::max<int64_t>({static_cast<int64_t>(desiredSlot[position]),
                           blocked + 1, static_cast<int64_t>(earliest)});
    slot = std::min(slot, gap.waitPoint);
    live.add(slot, gap.waitPoint, bytes);
    gap.prefetchSlot = slot;
  }
}

/// The latest slot at or before `limit` that compute reaches by `time`.
uint32_t latestSlotBy(llvm::ArrayRef<double> slotTime, uint32_t limit,
                      double time) {
  const double *end = slotTime.begin() + limit + 1;
  const double *after = std::upper_bound(slotTime.begin(), end, time);
  return after == slotTime.begin() ? 0 : (after - slotTime.begin()) - 1;
}

/// Desired slots for the simple rules.
std::vector<uint32_t> desiredSlots(const PlanningContext &context,
                                   const Plan &plan,
                                   llvm::ArrayRef<uint32_t> order,
                                   PrefetchRule rule, unsigned depth) {
  std::vector<uint32_t> desired(order.size(), 0);
  std::vector<double> computeBefore;
  if (rule == PrefetchRule::CoverTransferByCompute)
    computeBefore = computeSecondsBefore(context.opSeconds);
  for (size_t position = 0; position < order.size(); ++position) {
    const Gap &gap = plan.gaps[order[position]];
    switch (rule) {
    case PrefetchRule::AtUse:
      desired[position] = gap.waitPoint;
      break;
    case PrefetchRule::FixedDepth:
      desired[position] =
          position >= depth ? plan.gaps[order[position - depth]].waitPoint : 0;
      break;
    case PrefetchRule::CoverTransferByCompute: {
      double transfer =
          context.readSeconds(context.graph.getTensor(gap.tensor).bytes);
      desired[position] = latestSlotBy(computeBefore, gap.waitPoint,
                                       computeBefore[gap.waitPoint] - transfer);
      break;
    }
    case PrefetchRule::AsSoonAsMemoryAllows:
      desired[position] = 0;
      break;
    }
  }
  return desired;
}

/// Backward list scheduling on the simulated read queues: the latest time
/// each reload could start and still be resident when compute reaches its
/// use, given the reloads after it, then the slot compute reaches by then.
std::vector<uint32_t>
slotsBackwardFromUses(const PlanningContext &context, const Plan &plan,
                      llvm::ArrayRef<uint32_t> order,
                      const SimulationResult &simulation) {
  const Target &target = context.target;
  std::vector<uint32_t> desired(order.size(), 0);
  double hostToDeviceFree = std::numeric_limits<double>::infinity();
  double readFree = hostToDeviceFree;
  for (size_t position = order.size(); position-- > 0;) {
    const Gap &gap = plan.gaps[order[position]];
    double bytes = context.graph.getTensor(gap.tensor).bytes;
    double end = std::min(simulation.slotTime[gap.waitPoint], hostToDeviceFree);
    if (target.hasHostLink()) {
      end -= target.ioLatencySeconds + bytes / target.hostToDeviceBandwidth;
      hostToDeviceFree = end;
    }
    double readStart = std::min(end, readFree) - target.ssdReadLatency() -
                       bytes / target.ssdReadBandwidth;
    readFree = readStart;
    desired[position] =
        latestSlotBy(simulation.slotTime, gap.waitPoint, readStart);
  }
  return desired;
}

struct Evaluated {
  Plan plan;
  double stepSeconds = std::numeric_limits<double>::infinity();
  uint64_t bytesMoved = 0;

  bool betterThan(const Evaluated &other) const {
    return std::make_pair(stepSeconds, bytesMoved) <
           std::make_pair(other.stepSeconds, other.bytesMoved);
  }
};

Evaluated evaluated(const PlanningContext &context, Plan plan,
                    double stepSeconds) {
  Evaluated result;
  result.stepSeconds = stepSeconds;
  result.bytesMoved =
      plan.bytesOffloaded(context.graph) + plan.bytesPrefetched(context.graph);
  result.plan = std::move(plan);
  return result;
}

Evaluated evaluate(const PlanningContext &context, Plan plan) {
  double stepSeconds = context.simulate(plan).stepSeconds;
  return evaluated(context, std::move(plan), stepSeconds);
}

/// Issues offloads in the order of their releases: each write goes out
/// right after its definition but never before a write that is needed
/// earlier, so that the FIFO write queue serves the earliest deadline first.
void orderWritesByDeadline(const PlanningContext &context, Plan &plan) {
  std::vector<uint32_t> writes =
      bucketBySlot(
          plan, context.lifetimes.numPoints(),
          [](const Gap &gap) { return gap.releaseSlot; },
          [](const Gap &gap) { return gap.tensor; },
          [](const Gap &gap) { return gap.writes; })
          .gaps;
  uint32_t issued = 0;
  for (uint32_t index : writes) {
    Gap &gap = plan.gaps[index];
    gap.offloadSlot =
        std::min(std::max(gap.offloadSlot, issued), gap.releaseSlot);
    issued = gap.offloadSlot;
  }
}

/// The `ssd` transfer schedule. Reloads: backward from the uses on the
/// simulated queues, re-simulated and refined, against as soon as memory
/// allows. Writes: right after the definition, or in deadline order. The
/// fastest combination wins.
Evaluated scheduleOnQueues(const PlanningContext &context, const Plan &gaps,
                           unsigned rounds) {
  std::optional<Evaluated> best;
  // Reordering the writes moves no reload: one order serves both.
  std::vector<uint32_t> order = reloadsInUseOrder(context, gaps);
  std::vector<uint32_t> previousSlots(order.size());
  for (bool byDeadline : {false, true}) {
    Plan plan = gaps;
    if (byDeadline)
      orderWritesByDeadline(context, plan);
    std::string writes = byDeadline ? "+writes-by-deadline" : "";
    Plan eager = plan;
    placePrefetches(context, eager, order,
                    desiredSlots(context, eager, order,
                                 PrefetchRule::AsSoonAsMemoryAllows, 0));
    Evaluated candidate = evaluate(context, std::move(eager));
    candidate.plan.detail = "as-soon-as-memory-allows" + writes;
    if (!best || candidate.betterThan(*best))
      best = std::move(candidate);
    SimulationResult simulation = context.simulate(plan);
    for (unsigned round = 0; round < rounds; ++round) {
      for (size_t position = 0; position < order.size(); ++position)
        previousSlots[position] = plan.gaps[order[position]].prefetchSlot;
      placePrefetches(context, plan, order,
                      slotsBackwardFromUses(context, plan, order, simulation));
      // The same reloads again: this round and every later one would
      // simulate and offer the plan of the round before. The effort counts
      // them all the same, so that the rest of the search does not change.
      if (round > 0 &&
          llvm::all_of(llvm::seq<size_t>(0, order.size()), [&](size_t i) {
            return plan.gaps[order[i]].prefetchSlot == previousSlots[i];
          })) {
        for (unsigned skipped = 1 + 2 * (rounds - round - 1); skipped--;)
          context.countPass();
        break;
      }
      simulation = context.simulate(plan);
      // Every plan here moves the same bytes: the plan is copied only when
      // it is faster.
      if (simulation.stepSeconds < best->stepSeconds) {
        best = evaluated(context, plan, simulation.stepSeconds);
        best->plan.detail = "backward-from-use" + writes;
      }
    }
  }
  return std::move(*best);
}

/// The tensor, not in `tried`, whose release or reload stalls compute the
/// longest in the simulation of `plan`.
std::optional<TensorId> worstStaller(const PlanningContext &context,
                                     const Plan &plan,
                                     const std::vector<bool> &tried) {
  SimulationResult simulation = context.simulate(plan);
  std::optional<TensorId> worst;
  double longest = 0;
  for (uint32_t index = 0; index < plan.gaps.size(); ++index) {
    const Gap &gap = plan.gaps[index];
    if (tried[gap.tensor])
      continue;
    double stall = 0;
    if (!gap.entersOnSsd)
      stall =
          simulation.copyReady[index] - simulation.slotTime[gap.releaseSlot];
    if (gap.reloads())
      stall = std::max(stall, simulation.reloadReady[index] -
                                  simulation.slotTime[gap.waitPoint]);
    if (stall > longest) {
      longest = stall;
      worst = gap.tensor;
    }
  }
  return worst;
}

/// Starts each reload of `best` as late as the simulated queues allow
/// without making the step slower: the memory a reload holds before its
/// use is then as small as the schedule permits. Tries the latest slots
/// backward from the uses, then halfway there.
void delayPrefetches(const PlanningContext &context, Evaluated &best) {
  std::vector<uint32_t> order = reloadsInUseOrder(context, best.plan);
  std::vector<uint32_t> latest = slotsBackwardFromUses(
      context, best.plan, order, context.simulate(best.plan));
  for (unsigned share : {2u, 1u}) {
    Plan later = best.plan;
    for (size_t position = 0; position < order.size(); ++position) {
      Gap &gap = later.gaps[order[position]];
      uint32_t target = std::min(latest[position], gap.waitPoint);
      if (target > gap.prefetchSlot)
        gap.prefetchSlot += (target - gap.prefetchSlot) * share / 2;
    }
    double stepSeconds = context.simulate(later).stepSeconds;
    if (stepSeconds <= best.stepSeconds) {
      best.plan = std::move(later);
      best.stepSeconds = stepSeconds;
      return;
    }
  }
}

/// Drops the gaps of `best` that the budget does not need: the eviction
/// sweep takes victims one at a time, so a gap taken early can become
/// redundant once later, larger ones free the same points (the exact
/// policy found such plans up to 9% faster on small steps). Most costly
/// first (bytes written and read), each removal kept when the budget still
/// holds everywhere and the step gets faster; a steady-state pair (an
/// argument entering on SSD, its partner leaving) goes as one, or else
/// becomes a plain gap (written at entry, no final write). Skipped where a
/// simulation per gap would exceed `effortPoints`. Whether any went.
bool dropRedundantGaps(const PlanningContext &context, Evaluated &best,
                       uint64_t budget, uint64_t effortPoints) {
  const StepGraph &graph = context.graph;
  const LifetimeAnalysis &lifetimes = context.lifetimes;
  uint64_t points = lifetimes.numPoints();
  if (best.plan.gaps.empty() || best.plan.gaps.size() * points > effortPoints)
    return false;
  bool dropped = false;
  // Each removal: the gaps it takes out (indices into the current plan are
  // found again by tensor and absent range after every change).
  struct Removal {
    llvm::SmallVector<std::pair<TensorId, uint32_t>, 2> gaps;
    uint64_t cost = 0;
  };
  std::vector<Removal> removals;
  auto gapCost = [&](const Gap &gap) {
    return (gap.writes ? graph.getTensor(gap.tensor).bytes : 0) +
           (gap.reloads() ? gap.reloadBytes(graph) : 0);
  };
  for (const Gap &gap : best.plan.gaps) {
    const Tensor &info = graph.getTensor(gap.tensor);
    if (gap.leavesOnSsd && !gap.entersOnSsd && info.steadyStatePartner)
      continue; // goes with its argument's entry
    Removal removal;
    removal.gaps.push_back({gap.tensor, gap.absentFrom()});
    removal.cost = gapCost(gap);
    if (gap.entersOnSsd && info.steadyStatePartner) {
      for (const Gap &other : best.plan.gaps)
        if (other.tensor == *info.steadyStatePartner && other.leavesOnSsd &&
            &other != &gap) {
          removal.gaps.push_back({other.tensor, other.absentFrom()});
          removal.cost += gapCost(other);
        }
    }
    removals.push_back(std::move(removal));
  }
  llvm::stable_sort(removals, [](const Removal &a, const Removal &b) {
    return a.cost > b.cost;
  });
  // Back on device from `entry`'s start to where live bytes exceed the
  // budget, absent from there to its reload; false if that cannot fit.
  auto writeInsteadOfEntering =
      [&](Plan &trial, std::vector<uint64_t> &trialLive, const Gap &entry) {
        uint64_t bytes = graph.getTensor(entry.tensor).bytes;
        auto [from, to] = absentPoints(entry, lifetimes);
        uint32_t release = from;
        while (release < to && trialLive[release] <= budget)
          ++release;
        if (release == to)
          return false;
        for (uint32_t point = release; point < to; ++point)
          trialLive[point] -= bytes;
        for (uint32_t point = 0; point < trialLive.size(); ++point)
          if (trialLive[point] > budget)
            return false;
        Gap gap = entry;
        gap.entersOnSsd = false;
        gap.offloadSlot = 0;
        gap.releaseSlot = release;
        trial.gaps.push_back(gap);
        return true;
      };
  std::vector<uint64_t> live = best.plan.liveBytes(graph, lifetimes);
  // Removals first: a conversion made early could block a removal.
  for (bool convert : {false, true})
    for (const Removal &removal : removals) {
      Plan trial = best.plan;
      std::vector<uint64_t> trialLive = live;
      bool fits = true;
      Gap entry;
      for (auto [tensor, from] : removal.gaps) {
        auto found = llvm::find_if(trial.gaps, [&](const Gap &gap) {
          return gap.tensor == tensor && gap.absentFrom() == from;
        });
        if (found == trial.gaps.end()) {
          fits = false;
          break;
        }
        if (found->entersOnSsd)
          entry = *found;
        auto next = std::next(found);
        bool nextOfTensor = next != trial.gaps.end() && next->tensor == tensor;
        bool afterPart = found != trial.gaps.begin() &&
                         std::prev(found)->tensor == tensor &&
                         std::prev(found)->part;
        // A first partial reload that another follows stays: without it the
        // later one would keep the whole tensor away, not just the part.
        if (found->part && !afterPart && nextOfTensor) {
          fits = false;
          break;
        }
        forEachAbsence(*found, afterPart, graph, lifetimes,
                       [&](uint32_t from, uint32_t to, uint64_t bytes) {
                         for (uint32_t point = from; point < to; ++point)
                           fits &= (trialLive[point] += bytes) <= budget;
                       });
        // A later gap of the tensor now writes, from the same slot.
        if (found->writes && nextOfTensor)
          next->offloadSlot = found->offloadSlot;
        trial.gaps.erase(found);
      }
      // A steady pair that cannot go may become a plain gap: the argument
      // written at entry and released where it stops fitting, its partner
      // returned resident (no final write at the end of the step).
      if (convert && !fits && removal.gaps.size() == 2 && entry.entersOnSsd &&
          !entry.leavesOnSsd)
        fits = writeInsteadOfEntering(trial, trialLive, entry);
      if (!fits || (convert && !entry.entersOnSsd))
        continue;
      trial.finalize();
      double stepSeconds = context.simulate(trial).stepSeconds;
      if (stepSeconds < best.stepSeconds) {
        best = evaluated(context, std::move(trial), stepSeconds);
        live = std::move(trialLive);
        dropped = true;
      }
    }
  return dropped;
}

/// One plan the search makes and judges: a baseline's, or one victim rule's
/// with the queue-driven schedule.
struct SearchCandidate {
  std::optional<Policy> baseline;
  VictimRule rule;
};

/// Runs `task(0)` .. `task(count - 1)`, each index once, on this thread and
/// on up to `threads->getMaxConcurrency() - 1` tasks of `threads`, or on
/// this thread alone without a pool. Tasks take the next index when they
/// finish, so uneven tasks balance; what each computes depends only on its
/// index.
void forEachIndex(size_t count, llvm::ThreadPoolInterface *threads,
                  llvm::function_ref<void(size_t)> task) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t index; (index = next.fetch_add(1)) < count;)
      task(index);
  };
  if (!threads || count < 2) {
    work();
    return;
  }
  llvm::ThreadPoolTaskGroup helpers(*threads);
  size_t helperCount =
      std::min<size_t>(std::max(threads->getMaxConcurrency(), 1u), count) - 1;
  for (size_t helper = 0; helper < helperCount; ++helper)
    helpers.async(work);
  work();
  // The caller may itself be a worker of this pool (MLIR plans functions in
  // parallel on it). A worker that waits runs queued tasks, ours among them,
  // instead of blocking, so a pool whose threads all plan cannot deadlock.
  // The wait also orders every task's writes before the caller's reads.
  helpers.wait();
}

struct BaselineRules {
  VictimRule victims;
  PrefetchRule prefetch;
  bool evictsSavedActivations = false;
};

BaselineRules rulesOf(Policy policy) {
  switch (policy) {
  case Policy::ReloadOnUse:
    return {VictimRule::LeastRecentlyUsed, PrefetchRule::AtUse};
  case Policy::StashWindow:
    return {VictimRule::LeastRecentlyUsed, PrefetchRule::FixedDepth, true};
  case Policy::AotPrefetch:
    return {VictimRule::Largest, PrefetchRule::CoverTransferByCompute};
  case Policy::FixedDepth:
    return {VictimRule::LeastRecentlyUsed, PrefetchRule::FixedDepth};
  case Policy::Ssd:
  case Policy::Exact:
    break;
  }
  llvm_unreachable("ssd and exact search instead of following fixed rules");
}

llvm::Expected<Plan> sweep(const PlanningContext &context,
                           llvm::ArrayRef<uint64_t> unplannedLive,
                           uint64_t budget, VictimRule rule,
                           std::optional<unsigned> stashWindow,
                           llvm::ArrayRef<uint8_t> demotion = {}) {
  context.countPass();
  EvictionSweep sweep(context.graph, context.lifetimes, context.opSeconds,
                      context.target, unplannedLive, budget, rule,
                      context.movable, demotion);
  if (stashWindow)
    sweep.evictSavedActivations(*stashWindow);
  return sweep.run();
}

/// A baseline's gaps: its victim rule's sweep. When the step fits, nothing
/// moves: stash-window would otherwise offload every saved activation.
llvm::Expected<Plan> baselineGaps(const PlanningContext &context,
                                  llvm::ArrayRef<uint64_t> unplannedLive,
                                  Policy baseline,
                                  const PlannerOptions &options) {
  Plan plan;
  if (llvm::all_of(unplannedLive, [&](uint64_t bytes) {
        return bytes <= options.memoryBudget;
      })) {
    plan.memoryBudget = options.memoryBudget;
  } else {
    BaselineRules rules = rulesOf(baseline);
    std::optional<unsigned> stash;
    if (rules.evictsSavedActivations)
      stash = options.stashWindow;
    llvm::Expected<Plan> swept = sweep(
        context, unplannedLive, options.memoryBudget, rules.victims, stash);
    if (!swept)
      return swept.takeError();
    plan = std::move(*swept);
  }
  plan.policy = policyName(baseline).str();
  return plan;
}

/// A baseline's reloads: its prefetch rule, within the budget.
void scheduleBaseline(const PlanningContext &context, Plan &plan,
                      Policy baseline, const PlannerOptions &options) {
  std::vector<uint32_t> order = reloadsInUseOrder(context, plan);
  BaselineRules rules = rulesOf(baseline);
  unsigned depth = baseline == Policy::StashWindow ? 1 : options.prefetchDepth;
  placePrefetches(context, plan, order,
                  desiredSlots(context, plan, order, rules.prefetch, depth));
}

/// The passes over the step that one scheduleOnQueues call makes: per
/// write order, the eager placement and its simulation, the simulation of
/// the reloads at their uses, and a placement and a simulation per round.
unsigned schedulePasses(unsigned rounds) { return 2 * (3 + 2 * rounds); }

/// The passes one candidate of `ssd`'s own takes: its sweep and its
/// schedule.
unsigned ownCandidatePasses(const PlannerOptions &options) {
  return 1 + schedulePasses(options.refinementRounds);
}

/// The search behind OffloadPlanner::plan, one path for every policy. A
/// baseline's search has one candidate, the baseline's own plan. `ssd`'s has
/// the baselines' plans (so that it is never slower than any of them) and
/// then one plan per victim rule of its own, most promising first, while the
/// effort lasts; it repairs the stalls of the best of them and finally
/// delays its reloads.
///
/// Every candidate is independent of the others, so they are made in
/// parallel on the caller's thread pool and then judged in list order,
/// whatever order they finished in: the plan does not depend on the pool.
class PlanSearch {
public:
  PlanSearch(PlanningContext &context, llvm::ArrayRef<uint64_t> unplannedLive,
             const PlannerOptions &options, llvm::ThreadPoolInterface *threads)
      : context(context), unplannedLive(unplannedLive), options(options),
        threads(threads), candidates(listCandidates()) {}

  llvm::Expected<Evaluated> run() {
    std::vector<Outcome> made = makeCandidates(groupBySweep());
    if (llvm::Error error = firstError(made))
      return std::move(error);
    // Our own candidates lose gaps they do not need before they are
    // compared: a rule whose plan is slower only for such gaps (arguments
    // entering on SSD whose updates are then written at the end) may win
    // without them.
    if (options.policy == Policy::Ssd) {
      unsigned own = llvm::count_if(
          candidates, [](const SearchCandidate &c) { return !c.baseline; });
      for (size_t index = 0; index < candidates.size(); ++index)
        if (!candidates[index].baseline)
          dropAndReschedule(**made[index], options.effortPoints / own);
    }
    std::optional<VictimRule> bestRule;
    Evaluated best = fastest(made, bestRule);
    // A baseline's plan is its definition; only `ssd` refines its own.
    if (options.policy != Policy::Ssd)
      return best;
    if (llvm::Error error = repairStalls(best, *bestRule))
      return std::move(error);
    delayPrefetches(context, best);
    dropAndReschedule(best, options.effortPoints);
    return best;
  }

private:
  /// What a candidate became: its plan, or the error that stopped its
  /// group. Empty for a candidate whose group failed before reaching it,
  /// the error going to the group's first candidate.
  using Outcome = std::optional<llvm::Expected<Evaluated>>;

  /// Step 1: the candidates in the order they are judged. The effort each
  /// takes is known before it is made (a fixed number of passes over the
  /// step), so the list is too.
  std::vector<SearchCandidate> listCandidates() const {
    if (options.policy != Policy::Ssd)
      return {{options.policy, rulesOf(options.policy).victims}};
    std::vector<SearchCandidate> list;
    if (options.ssdConsidersBaselines)
      for (Policy baseline : allPolicies())
        if (baseline != Policy::Ssd)
          list.push_back({baseline, rulesOf(baseline).victims});
    // A baseline is a sweep, a placement and a simulation; our first
    // candidate is always made, so that the search has one to repair, and
    // every other one only where all of it fits in the effort left (on the
    // 100k-op step of bench/planner one takes half of the default effort).
    uint64_t points = context.lifetimes.numPoints();
    uint64_t effort = 3 * list.size() * points;
    uint64_t perCandidate = ownCandidatePasses(options) * points;
    unsigned own = 0;
    for (VictimRule rule : {VictimRule::FurthestNextUse, VictimRule::WriteAware,
                            VictimRule::CopiesFirst, VictimRule::LargestArea,
                            VictimRule::LeastRecentlyUsed, VictimRule::Largest,
                            VictimRule::BestFit}) {
      if (own && effort + perCandidate > options.effortPoints)
        break;
      list.push_back({std::nullopt, rule});
      ++own;
      effort += perCandidate;
    }
    return list;
  }

  /// Step 2: the candidates that share an eviction sweep, made by one task:
  /// one victim rule of ours, or the baselines with the same victim rule.
  std::vector<std::vector<size_t>> groupBySweep() const {
    auto sharesSweep = [](const SearchCandidate &a, const SearchCandidate &b) {
      if (!a.baseline || !b.baseline)
        return false;
      BaselineRules first = rulesOf(*a.baseline), second = rulesOf(*b.baseline);
      return first.victims == second.victims &&
             first.evictsSavedActivations == second.evictsSavedActivations;
    };
    std::vector<std::vector<size_t>> groups;
    for (size_t index = 0; index < candidates.size(); ++index) {
      auto shared =
          llvm::find_if(groups, [&](const std::vector<size_t> &group) {
            return sharesSweep(candidates[group.front()], candidates[index]);
          });
      if (shared == groups.end())
        groups.push_back({index});
      else
        shared->push_back(index);
    }
    return groups;
  }

  /// Step 3: the parallel runs. A group writes only its own candidates'
  /// outcomes, and counts its effort in a context of its own; the search's
  /// effort is their sum, whatever the schedule.
  std::vector<Outcome>
  makeCandidates(llvm::ArrayRef<std::vector<size_t>> groups) {
    std::vector<Outcome> made(candidates.size());
    std::vector<uint64_t> processed(groups.size(), 0);
    // Our own candidates take longest: they start first.
    forEachIndex(groups.size(), threads, [&](size_t order) {
      size_t group = groups.size() - 1 - order;
      PlanningContext groupContext = context;
      groupContext.processedPoints = 0;
      makeGroup(groupContext, groups[group], made);
      processed[group] = groupContext.processedPoints;
    });
    for (uint64_t points : processed)
      context.processedPoints += points;
    return made;
  }

  void makeGroup(const PlanningContext &groupContext,
                 llvm::ArrayRef<size_t> members,
                 llvm::MutableArrayRef<Outcome> made) const {
    const SearchCandidate &first = candidates[members.front()];
    if (!first.baseline) {
      made[members.front()].emplace(makeOwn(groupContext, first.rule));
      return;
    }
    llvm::Expected<Plan> gaps =
        baselineGaps(groupContext, unplannedLive, *first.baseline, options);
    if (!gaps) {
      made[members.front()].emplace(gaps.takeError());
      return;
    }
    for (size_t index : members) {
      Policy baseline = *candidates[index].baseline;
      Plan plan = *gaps;
      plan.policy = policyName(baseline).str();
      // The detail says which of `ssd`'s candidates won; a baseline's own
      // plan needs none.
      if (options.policy == Policy::Ssd)
        plan.detail = "baseline:" + plan.policy;
      scheduleBaseline(groupContext, plan, baseline, options);
      made[index].emplace(evaluate(groupContext, std::move(plan)));
    }
  }

  /// One victim rule of ours with the queue-driven schedule.
  llvm::Expected<Evaluated>
  makeOwn(const PlanningContext &groupContext, VictimRule rule,
          llvm::ArrayRef<uint8_t> demotion = {}) const {
    llvm::Expected<Plan> gaps =
        sweep(groupContext, unplannedLive, options.memoryBudget, rule,
              std::nullopt, demotion);
    if (!gaps)
      return gaps.takeError();
    Evaluated own =
        scheduleOnQueues(groupContext, *gaps, options.refinementRounds);
    own.plan.detail = victimRuleName(rule).str() + "+" + own.plan.detail;
    return own;
  }

  /// Step 4: the first candidate in list order that failed decides the
  /// error, whichever failed first in time.
  static llvm::Error firstError(llvm::MutableArrayRef<Outcome> made) {
    for (size_t index = 0; index < made.size(); ++index) {
      if (!made[index] || *made[index])
        continue;
      for (size_t other = index + 1; other < made.size(); ++other)
        if (made[other] && !*made[other])
          llvm::consumeError(made[other]->takeError());
      return made[index]->takeError();
    }
    return llvm::Error::success();
  }

  /// Step 5: the fastest candidate, the earliest in the list on a tie, and
  /// the victim rule stall repair sweeps with: that of our fastest
  /// candidate where it beats the baselines, else that of our first.
  Evaluated fastest(llvm::MutableArrayRef<Outcome> made,
                    std::optional<VictimRule> &bestRule) const {
    std::optional<Evaluated> best;
    for (size_t index = 0; index < candidates.size(); ++index) {
      Evaluated &candidate = **made[index];
      bool better = !best || candidate.betterThan(*best);
      if (!candidates[index].baseline && (!bestRule || better))
        bestRule = candidates[index].rule;
      if (better)
        best = std::move(candidate);
    }
    return std::move(*best);
  }

  /// After the reloads start as late as they may (earlier, they fill the
  /// memory that a dropped gap would need), drops what `plan` does not
  /// need; what is left is scheduled again from its gaps alone, as
  /// ssd-insert-prefetch would schedule it (so that the split passes still
  /// reach the plan), and kept if faster.
  void dropAndReschedule(Evaluated &plan, uint64_t effortPoints) {
    Evaluated fewer = plan;
    if (!dropRedundantGaps(context, fewer, options.memoryBudget, effortPoints))
      return;
    Plan gaps = fewer.plan;
    for (Gap &gap : gaps.gaps) {
      gap.offloadSlot =
          context.lifetimes.getFirstSlotAfterDefinition(gap.tensor);
      gap.prefetchSlot = gap.waitPoint;
    }
    Evaluated scheduled =
        scheduleOnQueues(context, gaps, options.refinementRounds);
    delayPrefetches(context, scheduled);
    if (scheduled.stepSeconds < plan.stepSeconds) {
      scheduled.plan.detail = plan.plan.detail + "+dropped";
      plan = std::move(scheduled);
    }
  }

  /// Step 6: stall repair. Demotes the tensor that stalls compute the most
  /// so that the sweep evicts something else instead, and keeps what helps,
  /// while a whole round (a simulation to find the culprit, then a
  /// candidate) fits in the effort left.
  llvm::Error repairStalls(Evaluated &best, VictimRule rule) {
    std::vector<uint8_t> demotion(context.graph.numTensors(), 0);
    std::vector<bool> tried(context.graph.numTensors(), false);
    uint64_t perRound =
        (1 + ownCandidatePasses(options)) * context.lifetimes.numPoints();
    for (unsigned round = 0;
         round < options.repairRounds &&
         context.processedPoints + perRound <= options.effortPoints;
         ++round) {
      std::optional<TensorId> culprit = worstStaller(context, best.plan, tried);
      if (!culprit)
        break;
      tried[*culprit] = true;
      ++demotion[*culprit];
      llvm::Expected<Evaluated> candidate = makeOwn(context, rule, demotion);
      if (!candidate)
        return candidate.takeError();
      if (!candidate->betterThan(best)) {
        --demotion[*culprit];
        continue;
      }
      best = std::move(*candidate);
      best.plan.detail += "+repaired";
    }
    return llvm::Error::success();
  }

  PlanningContext &context;
  llvm::ArrayRef<uint64_t> unplannedLive;
  const PlannerOptions &options;
  llvm::ThreadPoolInterface *threads;
  std::vector<SearchCandidate> candidates;
};

} // namespace

OffloadPlanner::OffloadPlanner(const StepGraph &graph, const Target &target)
    : graph(graph), target(target), lifetimes(graph),
      opSeconds(computeOpSeconds(graph, target)),
      unplannedLive(computeUnplannedLiveBytes(graph, lifetimes)) {
  for (uint64_t bytes : unplannedLive)
    unplannedPeak = std::max(unplannedPeak, bytes);
}

llvm::Error OffloadPlanner::checkFeasible(uint64_t budget) const {
  for (uint32_t point = 0; point < lifetimes.numPoints(); ++point) {
    uint64_t required = lifetimes.getRequiredBytes(point);
    if (required <= budget)
      continue;
    return llvm::make_error<InfeasibleBudgetError>(
        point, pointName(graph, point), required, budget);
  }
  return llvm::Error::success();
}

llvm::Expected<Plan>
OffloadPlanner::chooseGaps(const PlannerOptions &options,
                           llvm::ThreadPoolInterface *threads) const {
  llvm::Expected<Plan> planned = plan(options, threads);
  if (!planned)
    return planned.takeError();
  // The victims come out of the whole search; the transfer schedule is
  // ssd-insert-prefetch's to make again.
  for (Gap &gap : planned->gaps) {
    gap.offloadSlot = lifetimes.getFirstSlotAfterDefinition(gap.tensor);
    gap.prefetchSlot = gap.waitPoint;
  }
  return planned;
}

void OffloadPlanner::schedulePrefetches(Plan &plan,
                                        const PlannerOptions &options) const {
  PlanningContext context(graph, lifetimes, opSeconds, target,
                          options.movableRoles);
  // The split passes schedule exact's gaps as they schedule ours.
  if (options.policy == Policy::Ssd || options.policy == Policy::Exact) {
    std::string detail = plan.detail;
    Evaluated scheduled =
        scheduleOnQueues(context, plan, options.refinementRounds);
    delayPrefetches(context, scheduled);
    plan = std::move(scheduled.plan);
    plan.detail = detail.empty() ? plan.detail : detail + "+" + plan.detail;
    return;
  }
  scheduleBaseline(context, plan, options.policy, options);
}

llvm::Expected<Plan>
OffloadPlanner::plan(const PlannerOptions &options,
                     llvm::ThreadPoolInterface *threads) const {
  if (llvm::Error error = checkFeasible(options.memoryBudget))
    return std::move(error);
  if (options.policy == Policy::Exact)
    return planExact(*this, options);
  PlanningContext context(graph, lifetimes, opSeconds, target,
                          options.movableRoles);
  context.groupMinBytes = options.groupMinBytes;
  llvm::Expected<Evaluated> best =
      PlanSearch(context, unplannedLive, options, threads).run();
  if (!best)
    return best.takeError();
  Plan result = std::move(best->plan);
  result.policy = policyName(options.policy).str();
  result.memoryBudget = options.memoryBudget;
  // Where only a part of a tensor is used after its last reload, read back
  // just that part when the simulation says the step is no slower for it,
  // judged as the search judged the plan (grouped where the options group).
  if (options.policy == Policy::Ssd) {
    Plan partial = result;
    if (reloadPartsOnly(partial, graph, lifetimes) &&
        context.simulate(partial).stepSeconds <= best->stepSeconds)
      result = std::move(partial);
  }
  if (llvm::Error error =
          verifyPlan(graph, lifetimes, result, options.memoryBudget))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the %s plan fails "
                             "verification: %s",
                             result.policy.c_str(),
                             llvm::toString(std::move(error)).c_str());
  return result;
}

SimulationResult
OffloadPlanner::simulate(const Plan &plan,
                         std::vector<TransferSpan> *spans) const {
  return simulatePlan(graph, lifetimes, opSeconds, target, plan, spans);
}

unsigned ssd::planner::groupTransfers(Plan &plan, const StepGraph &graph,
                                      uint64_t minBytes) {
  unsigned groups = 0;
  // Per slot, the first eligible gap seen there until a second one makes
  // the slot a group, then that group (kGrouped set). The planner groups
  // every plan it simulates, so this is one pass without a map.
  constexpr uint32_t kNone = ~0u, kGrouped = 1u << 31;
  std::vector<uint32_t> atSlot;
  auto group = [&](auto slotOf, auto eligible, auto groupOf) {
    atSlot.assign(graph.numOps() + 1, kNone);
    for (uint32_t index = 0; index < plan.gaps.size(); ++index) {
      Gap &gap = plan.gaps[index];
      if (!eligible(gap) || graph.getTensor(gap.tensor).bytes >= minBytes)
        continue;
      uint32_t slot = slotOf(gap);
      if (slot >= atSlot.size()) // not a point of the step: verifyPlan says
        atSlot.resize(slot + 1, kNone);
      uint32_t &seen = atSlot[slot];
      if (seen == kNone) {
        seen = index;
        continue;
      }
      if (!(seen & kGrouped)) {
        groupOf(plan.gaps[seen]) = groups;
        seen = kGrouped | groups++;
      }
      groupOf(gap) = seen & ~kGrouped;
    }
  };
  group([](const Gap &gap) { return gap.offloadSlot; },
        [](const Gap &gap) { return gap.writes; },
        [](Gap &gap) -> uint32_t & { return gap.offloadGroup; });
  group([](const Gap &gap) { return gap.prefetchSlot; },
        [](const Gap &gap) { return gap.reloads(); },
        [](Gap &gap) -> uint32_t & { return gap.prefetchGroup; });
  return groups;
}
