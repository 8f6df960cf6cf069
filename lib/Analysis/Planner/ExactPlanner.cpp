//===- ExactPlanner.cpp - The optimal plan of a small step ----------------===//
//
// Depth-first branch and bound over the gaps a plan may have. Each unit is
// one interval of one tensor between two touches that contains a point over
// the budget (or a persistent argument entering on SSD together with its
// partner leaving); its options are the canonical gaps of docs/planner.md,
// "The exact policy". A node is a partial plan; its simulated step is a
// lower bound on every completion (on targets whose transfer costs do not
// depend on what ran before, adding a transfer or a wait never makes
// anything earlier), and a node whose chosen gaps and the most the
// undecided units could free still leave a point over the budget is cut.
// The `ssd` plan is the first upper bound. A time limit and a node limit
// end the search with an error; ExactPruning::Exhaustive walks the same
// space without any cut, so that tests can check the cuts.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/ExactPlanner.h"
#include "ssd/Analysis/Planner/CostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>

using namespace ssd::planner;

char ExactSearchError::ID = 0;

namespace {

/// One way to decide a unit: the gaps it adds (none for "stays").
struct UnitOption {
  llvm::SmallVector<Gap, 2> gaps;
};

struct Unit {
  std::vector<UnitOption> options;
  /// A steady-state pair (argument entering, partner leaving) or one
  /// interval of one tensor.
  bool steady = false;
  /// A steady unit of state returned unchanged (its copy on SSD stays
  /// valid, so it leaves there with no write) or dropped: none of it is
  /// written.
  bool unchanged = false;
  /// Regular intervals that a steady pair excludes: an argument's entry
  /// interval and its partner's last one.
  std::optional<TensorId> excludedBySteady;
  double weight = 0;
  /// The tensor of an interval unit.
  TensorId tensor = 0;
  /// A steady pair frees bytes at points before `enterEnd` (the argument's
  /// first use) through its entry (a read after the point), and at points
  /// from `leaveFrom` (after the partner's last use) through its partner's
  /// exit (a write before the point).
  uint32_t enterEnd = 0, leaveFrom = 0;
  /// The most bytes one option frees at each over-budget point, and the
  /// points (their index in overPoints) where that is not 0.
  std::vector<uint64_t> freeAt;
  std::vector<std::pair<uint32_t, uint64_t>> frees;
};

class ExactSearch {
public:
  ExactSearch(const OffloadPlanner &planner, const PlannerOptions &options,
              ExactPruning pruning)
      : planner(planner), graph(planner.getGraph()),
        lifetimes(planner.getLifetimes()), budget(options.memoryBudget),
        options(options), exhaustive(pruning == ExactPruning::Exhaustive),
        points(lifetimes.numPoints()),
        unplanned(planner.getUnplannedLiveBytes()) {}

  llvm::Expected<Plan> run(ExactStatistics &statistics);

private:
  bool isMovable(TensorId tensor) const {
    return graph.getTensor(tensor).bytes && mayLeave(tensor);
  }
  /// Whether a plan may move the tensor at all (a steady pair's argument or
  /// next-step value may have no bytes).
  bool mayLeave(TensorId tensor) const {
    return !graph.getTensor(tensor).isAlias() &&
           options.movableRoles.contains(lifetimes.getRole(tensor));
  }
  std::vector<uint32_t> overBudgetIn(int64_t from, int64_t to) const {
    std::vector<uint32_t> found;
    for (int64_t point = std::max<int64_t>(from, 0); point <= to; ++point)
      if (unplanned[point] > budget)
        found.push_back(point);
    return found;
  }
  void listUnits();
  void addIntervalUnit(TensorId tensor, uint32_t interval);
  /// A persistent argument entering on SSD and its next-step value leaving
  /// there (none when the argument is dropped).
  void addSteadyUnit(TensorId argument, std::optional<TensorId> partner);
  void search(size_t depth, bool checked);
  void apply(const Gap &gap, int sign);
  bool coverable(size_t depth) const;
  /// The bound from what the over-budget points still force; it may stop
  /// early once it reaches `limit` (`ties`: reaching means equalling).
  double boundFromCover(size_t depth, double limit, bool ties);
  /// Per over-budget point, while the bound is computed: the bytes still
  /// over the budget, what undecided units could free there without a
  /// write, a read or a new write, and the bytes of those that need one.
  struct Deficit {
    int64_t bytes = 0, noWrite = 0, noRead = 0, noNewWrite = 0;
    std::vector<uint64_t> readers, writers, fresh;
  };
  std::vector<Deficit> deficits;
  bool covered() const;
  double simulateCurrent(Plan *out = nullptr) const;
  bool limitReached();
  /// Whether the node visited now may be cut, or (when it fits) is its
  /// subtree's best: all but the exhaustive search's leaves.
  bool decidedByBounds(size_t depth, bool checked);
  /// Whether the node cannot meet the budget or its bound reaches the best
  /// plan so far (the tests of decidedByBounds that no offload slot moves).
  bool cutByCover(size_t depth);

  const OffloadPlanner &planner;
  const StepGraph &graph;
  const LifetimeAnalysis &lifetimes;
  uint64_t budget;
  const PlannerOptions &options;
  bool exhaustive;
  uint32_t points;
  llvm::ArrayRef<uint64_t> unplanned;

  std::vector<Unit> units;
  /// Over-budget points, and per unit (in search order) the most bytes the
  /// units from it on can free at each of them.
  std::vector<uint32_t> overPoints;
  std::vector<std::vector<uint64_t>> coverFrom, steadyCoverFrom;
  /// Rates and least latencies of a chain of writes and of reads, and
  /// compute seconds before each point (as the lower bound has them).
  double writeRate = 0, readRate = 0, writeLatency = 0, readLatency = 0;
  /// Each write's least time on the SSD write queue and on the
  /// device-to-host queue: latency + bytes / bandwidth.
  double ssdWriteLatency = 0, ssdWriteBandwidth = 0, hostLatency = 0,
         deviceToHostBandwidth = 0, ssdReadLatency = 0, ssdReadBandwidth = 0,
         hostToDeviceBandwidth = 0;
  /// The least time `count` transfers of `bytes` in all take through an SSD
  /// queue and a host-link queue (none when `hostBandwidth` is 0), one
  /// after the other on each, the hops pipelined.
  static double chainSeconds(double count, double bytes, double ssdLatency,
                             double ssdBandwidth, double hostLatency,
                             double hostBandwidth) {
    double ssd = count * ssdLatency + bytes / ssdBandwidth;
    if (hostBandwidth <= 0)
      return ssd;
    return std::max(ssd + hostLatency,
                    ssdLatency + count * hostLatency + bytes / hostBandwidth);
  }
  double writeSeconds(double bytes) const {
    return ssdWriteLatency + bytes / ssdWriteBandwidth;
  }
  double hostWriteSeconds(double bytes) const {
    return deviceToHostBandwidth > 0
               ? hostLatency + bytes / deviceToHostBandwidth
               : 0;
  }
  std::vector<double> computeBefore;
  /// Canonical offload slots per tensor (ascending).
  std::vector<std::vector<uint32_t>> offloadSlots;

  // Search state.
  std::vector<Gap> current;
  std::vector<int64_t> absentAt;
  /// Bytes absent at each point whose tensor was written, and that are
  /// read back.
  std::vector<int64_t> writtenAbsentAt, reloadAbsentAt;
  /// How many tensors those are.
  std::vector<int32_t> writtenCountAt, reloadCountAt;
  std::vector<int64_t> offloadOf;
  /// The writes and reads the partial plan issues: how long they hold the
  /// SSD and host-link queues at the least.
  double writeQueueSeconds = 0, deviceToHostSeconds = 0;
  std::vector<uint32_t> gapsOf;
  std::vector<uint8_t> steadyOf;
  std::vector<uint8_t> enteredOf;
  /// Per argument, the index of the steady unit that may make it enter on
  /// SSD (SIZE_MAX if none): until it is decided, the argument's other gaps
  /// may need no write.
  std::vector<size_t> enteringUnitOf;
  double best = 0;
  bool found = false;
  Plan bestPlan;
  double stopAt = 0;
  uint64_t nodes = 0;
  bool stopped = false;
  /// Which limit stopped the search.
  ExactSearchError::Reason stopReason = ExactSearchError::Reason::TimeLimit;
  std::chrono::steady_clock::time_point start;
};

void ExactSearch::addIntervalUnit(TensorId tensor, uint32_t interval) {
  llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
  int64_t previous =
      interval == 0 ? int64_t(-1) : int64_t(touches[interval - 1]);
  uint32_t next = touches[interval];
  std::vector<uint32_t> over = overBudgetIn(previous + 1, int64_t(next) - 1);
  if (over.empty())
    return;
  Unit unit;
  unit.tensor = tensor;
  unit.options.push_back({});
  const Tensor &info = graph.getTensor(tensor);
  // A steady pair decides an argument's entry interval and its partner's
  // interval up to the return.
  bool unchanged = info.steadyStatePartner == tensor;
  if (interval == 0 ? info.isArgument()
                    : (!info.isArgument() || unchanged) &&
                          next == lifetimes.returnPoint())
    unit.excludedBySteady = tensor;
  for (size_t first = 0; first < over.size(); ++first)
    for (size_t last = first; last < over.size(); ++last) {
      uint32_t limit = last + 1 < over.size() ? over[last + 1] : next;
      for (uint32_t prefetch = over[last] + 1;
           prefetch <= std::min(limit, over[last] + 3); ++prefetch) {
        Gap gap;
        gap.tensor = tensor;
        gap.releaseSlot = over[first];
        gap.prefetchSlot = prefetch;
        gap.waitPoint = next;
        unit.options.push_back({{gap}});
      }
      unit.weight =
          std::max(unit.weight, double(info.bytes) * double(last - first + 1));
    }
  units.push_back(std::move(unit));
}

void ExactSearch::addSteadyUnit(TensorId argument,
                                std::optional<TensorId> partner) {
  llvm::ArrayRef<uint32_t> argTouches = lifetimes.getTouches(argument);
  // Returned unchanged or dropped, and used by no op: on SSD all step, for
  // free.
  if (partner ? *partner == argument && argTouches.size() == 1
              : argTouches.empty()) {
    if (overBudgetIn(0, points - 1).empty())
      return;
    Unit unit;
    unit.steady = unit.unchanged = true;
    unit.options.push_back({});
    Gap both;
    both.tensor = argument;
    both.entersOnSsd = both.leavesOnSsd = true;
    unit.options.push_back({{both}});
    unit.weight = double(graph.getTensor(argument).bytes) * points;
    units.push_back(std::move(unit));
    return;
  }
  // A dropped argument has no next value to leave with it.
  llvm::ArrayRef<uint32_t> partnerTouches =
      partner ? lifetimes.getTouches(*partner) : argTouches;
  if (partner && partnerTouches.size() < 2)
    return;
  // An argument no op uses stays on SSD all step while its next value is
  // computed (it holds memory at point 0 alone).
  bool unused = argTouches.empty();
  uint32_t firstUse = unused ? 1 : argTouches.front();
  std::vector<uint32_t> enterOver = overBudgetIn(0, int64_t(firstUse) - 1);
  uint32_t leaveFrom =
      partner ? partnerTouches[partnerTouches.size() - 2] + 1 : points;
  std::vector<uint32_t> leaveOver = overBudgetIn(leaveFrom, points - 1);
  // Entering on SSD also spares the write of the argument's later gaps: the
  // pair is an option wherever the argument may leave during the step.
  bool leavesMidStep =
      !unused && graph.getTensor(argument).bytes &&
      !overBudgetIn(int64_t(firstUse) + 1, int64_t(argTouches.back()) - 1)
           .empty();
  if (enterOver.empty() && leaveOver.empty() && !leavesMidStep)
    return;
  // Entering: back at the first use, prefetched right after the last
  // over-budget point it covers (or at entry if it covers none).
  std::vector<uint32_t> prefetches{0};
  for (size_t last = 0; !unused && last < enterOver.size(); ++last) {
    uint32_t limit =
        last + 1 < enterOver.size() ? enterOver[last + 1] : firstUse;
    for (uint32_t prefetch = enterOver[last] + 1;
         prefetch <= std::min(limit, enterOver[last] + 3); ++prefetch)
      prefetches.push_back(prefetch);
  }
  // Leaving: released at the first over-budget point it covers, or right
  // before the return.
  std::vector<uint32_t> releases(leaveOver.begin(), leaveOver.end());
  if (partner && (releases.empty() || releases.back() != points - 1))
    releases.push_back(points - 1);
  if (!partner)
    releases.push_back(0);
  Unit unit;
  unit.steady = true;
  unit.unchanged = !partner || argument == *partner;
  // (Entering frees an unused argument with no read.)
  unit.enterEnd = unused ? 0 : firstUse;
  unit.leaveFrom = leaveFrom;
  unit.options.push_back({});
  for (uint32_t prefetch : prefetches)
    for (uint32_t release : releases) {
      Gap enter;
      enter.tensor = argument;
      enter.entersOnSsd = true;
      enter.prefetchSlot = prefetch;
      enter.waitPoint = firstUse;
      if (unused) {
        enter.leavesOnSsd = true;
        enter.prefetchSlot = enter.waitPoint = 0;
      }
      if (!partner) {
        unit.options.push_back({{enter}});
        continue;
      }
      Gap leave;
      leave.tensor = *partner;
      leave.leavesOnSsd = true;
      leave.releaseSlot = release;
      unit.options.push_back({{enter, leave}});
    }
  unit.weight = double(graph.getTensor(argument).bytes) * enterOver.size() +
                (partner ? double(graph.getTensor(*partner).bytes) : 0) *
                    leaveOver.size();
  units.push_back(std::move(unit));
}

void ExactSearch::listUnits() {
  for (uint32_t point = 0; point < points; ++point)
    if (unplanned[point] > budget)
      overPoints.push_back(point);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    // (A steady pair may hold a tensor of no bytes: entering or leaving on
    // SSD, it still spares its partner a transfer.)
    if (!mayLeave(tensor))
      continue;
    const Tensor &info = graph.getTensor(tensor);
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    if (isMovable(tensor))
      for (uint32_t interval = info.isArgument() ? 0 : 1;
           interval < touches.size(); ++interval)
        addIntervalUnit(tensor, interval);
    if (info.isArgument() && isPersistentRole(info.role) &&
        info.steadyStatePartner && mayLeave(*info.steadyStatePartner) &&
        lifetimes.mayLeaveOnSsd(*info.steadyStatePartner,
                                lifetimes.returnPoint()))
      addSteadyUnit(tensor, *info.steadyStatePartner);
    // Persistent state the step drops may enter on SSD too.
    if (info.isArgument() && isPersistentRole(info.role) &&
        !info.steadyStatePartner && info.bytes)
      addSteadyUnit(tensor, std::nullopt);
  }
  // Steady pairs first: entering on SSD removes the argument's write, so
  // deciding it after the argument's other gaps would make a node's
  // simulated step no lower bound. Then the units that free the most.
  std::stable_sort(units.begin(), units.end(),
                   [](const Unit &a, const Unit &b) {
                     return std::make_pair(!a.steady, -a.weight) <
                            std::make_pair(!b.steady, -b.weight);
                   });
  enteringUnitOf.assign(graph.numTensors(), SIZE_MAX);
  for (size_t index = 0; index < units.size(); ++index)
    if (units[index].steady && units[index].options.size() > 1)
      enteringUnitOf[units[index].options[1].gaps.front().tensor] = index;

  // A write starts right after its tensor's definition or where another
  // candidate's write may start: moving it earlier to there keeps its
  // place on the queues.
  std::vector<uint32_t> candidateSlots;
  std::vector<uint8_t> isCandidate(graph.numTensors(), 0);
  for (const Unit &unit : units)
    for (const UnitOption &option : unit.options)
      for (const Gap &gap : option.gaps)
        isCandidate[gap.tensor] = 1;
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor)
    if (isCandidate[tensor])
      candidateSlots.push_back(lifetimes.getFirstSlotAfterDefinition(tensor));
  llvm::sort(candidateSlots);
  candidateSlots.erase(
      std::unique(candidateSlots.begin(), candidateSlots.end()),
      candidateSlots.end());
  offloadSlots.resize(graph.numTensors());
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor)
    if (isCandidate[tensor])
      for (uint32_t slot : candidateSlots)
        if (slot >= lifetimes.getFirstSlotAfterDefinition(tensor))
          offloadSlots[tensor].push_back(slot);

  coverFrom.assign(units.size() + 1, std::vector<uint64_t>(overPoints.size()));
  steadyCoverFrom = coverFrom;
  for (size_t index = units.size(); index-- > 0;) {
    std::vector<uint64_t> most(overPoints.size(), 0);
    for (const UnitOption &option : units[index].options) {
      for (size_t k = 0; k < overPoints.size(); ++k) {
        uint64_t freed = 0;
        for (const Gap &gap : option.gaps) {
          auto [from, to] = absentPoints(gap, lifetimes);
          if (overPoints[k] >= from && overPoints[k] < to)
            freed += graph.getTensor(gap.tensor).bytes;
        }
        most[k] = std::max(most[k], freed);
      }
    }
    for (size_t k = 0; k < overPoints.size(); ++k) {
      coverFrom[index][k] = coverFrom[index + 1][k] + most[k];
      steadyCoverFrom[index][k] =
          steadyCoverFrom[index + 1][k] + (units[index].steady ? most[k] : 0);
    }
    for (size_t k = 0; k < overPoints.size(); ++k)
      if (most[k])
        units[index].frees.push_back({uint32_t(k), most[k]});
    units[index].freeAt = std::move(most);
  }

  const Target &target = planner.getTarget();
  bool hostLink = target.hasHostLink();
  writeRate = hostLink ? std::min(target.ssdWriteBandwidth,
                                  target.deviceToHostBandwidth)
                       : target.ssdWriteBandwidth;
  readRate =
      hostLink ? std::min(target.ssdReadBandwidth, target.hostToDeviceBandwidth)
               : target.ssdReadBandwidth;
  hostLatency = hostLink ? target.ioLatencySeconds : 0;
  ssdWriteLatency = target.ssdWriteLatency();
  ssdWriteBandwidth = target.ssdWriteBandwidth;
  ssdReadLatency = target.ssdReadLatency();
  ssdReadBandwidth = target.ssdReadBandwidth;
  hostToDeviceBandwidth = hostLink ? target.hostToDeviceBandwidth : 0;
  deviceToHostBandwidth = hostLink ? target.deviceToHostBandwidth : 0;
  writeLatency = hostLatency + target.ssdWriteLatency();
  readLatency = hostLatency + target.ssdReadLatency();
  computeBefore = computeSecondsBefore(planner.getOpSeconds());
  deficits.resize(overPoints.size());
}

/// The fewest of `bytes` (any order) whose sum reaches `need`.
static uint32_t fewestCovering(std::vector<uint64_t> &bytes, int64_t need) {
  if (need <= 0)
    return 0;
  std::sort(bytes.begin(), bytes.end(), std::greater<uint64_t>());
  uint32_t count = 0;
  for (uint64_t each : bytes) {
    if (need <= 0)
      break;
    need -= int64_t(each);
    ++count;
  }
  return count;
}

/// What covering the rest of each over-budget point costs at the least.
/// Every tensor absent at point q was written before op q starts (unless it
/// entered on SSD: its releases wait for the write), and every one that
/// comes back is read after op q ends (its prefetch issues at a later
/// slot) and awaited before the step ends. What undecided units must still
/// free at q adds such writes and reads: a steady pair frees bytes before
/// its argument's first use by entering on SSD (a read after q, no write)
/// and after it by its partner leaving (a write before q, no read), a unit
/// of an argument that entered on SSD needs a read only, any other unit
/// both. One tensor frees bytes at q through one unit only, so the fewest
/// units that cover the deficit, largest first, count the least transfers.
/// A chain of n transfers of B bytes holds each of its two queues for at
/// least n latencies and B / bandwidth, plus the other hop's latency: op q
/// starts no earlier than the chain of writes ends, and the step ends no
/// earlier than op q and then the chain of reads. The step also lasts as
/// long as the write queues are busy (every write is awaited by its
/// release): the partial plan's writes and new ones, of tensors not
/// written yet, for the deficit at q.
double ExactSearch::boundFromCover(size_t depth, double limit, bool ties) {
  auto reached = [&](double bound) {
    return ties ? bound >= limit : bound > limit;
  };
  size_t count = overPoints.size();
  for (size_t k = 0; k < count; ++k) {
    uint32_t point = overPoints[k];
    Deficit &at = deficits[k];
    at.noWrite = at.noRead = at.noNewWrite = 0;
    at.readers.clear();
    at.writers.clear();
    at.fresh.clear();
    at.bytes = int64_t(unplanned[point]) - absentAt[point] - int64_t(budget);
  }
  // What freeing at a point costs each undecided unit: a read after the
  // point, a write before it (and a new one unless the tensor was written
  // already), or both.
  for (size_t index = depth; index < units.size(); ++index) {
    const Unit &unit = units[index];
    for (auto [k, freed] : unit.frees) {
      Deficit &at = deficits[k];
      if (at.bytes <= 0)
        continue;
      bool reads, writes, writesNew;
      if (unit.steady) {
        // (Where both gaps may free bytes, neither cost is counted.) The
        // partner is not written yet: steady pairs are decided first.
        uint32_t point = overPoints[k];
        bool entry = point < unit.enterEnd, exit = point >= unit.leaveFrom;
        reads = entry && !exit;
        writes = writesNew = exit && !entry && !unit.unchanged;
      } else {
        reads = true;
        writes = !enteredOf[unit.tensor] &&
                 !(enteringUnitOf[unit.tensor] != SIZE_MAX &&
                   enteringUnitOf[unit.tensor] >= depth);
        writesNew = writes && offloadOf[unit.tensor] < 0;
      }
      if (reads)
        at.readers.push_back(freed);
      else
        at.noRead += freed;
      if (writes)
        at.writers.push_back(freed);
      else
        at.noWrite += freed;
      if (writesNew)
        at.fresh.push_back(freed);
      else
        at.noNewWrite += freed;
    }
  }
  double bound = 0;
  double compute = computeBefore.back();
  for (size_t k = 0; k < count; ++k) {
    uint32_t point = overPoints[k];
    Deficit &at = deficits[k];
    int64_t extraWrite = std::max<int64_t>(0, at.bytes - at.noWrite);
    int64_t extraRead = std::max<int64_t>(0, at.bytes - at.noRead);
    double written = writtenAbsentAt[point] + extraWrite;
    double writes =
        writtenCountAt[point] + fewestCovering(at.writers, extraWrite);
    double read = reloadAbsentAt[point] + extraRead;
    double reads = reloadCountAt[point] + fewestCovering(at.readers, extraRead);
    double opStart = computeBefore[point];
    if (writes > 0)
      opStart = std::max(opStart, chainSeconds(writes, written, ssdWriteLatency,
                                               ssdWriteBandwidth, hostLatency,
                                               deviceToHostBandwidth));
    bound = std::max(bound, opStart + compute - computeBefore[point]);
    if (reads > 0)
      bound = std::max(
          bound, opStart + computeBefore[point + 1] - computeBefore[point] +
                     chainSeconds(reads, read, ssdReadLatency, ssdReadBandwidth,
                                  hostLatency, hostToDeviceBandwidth));
    int64_t newWrites = at.bytes - at.noNewWrite;
    if (newWrites > 0) {
      uint32_t fewest = fewestCovering(at.fresh, newWrites);
      double ssd = writeQueueSeconds + fewest * ssdWriteLatency +
                   double(newWrites) / ssdWriteBandwidth;
      double host = deviceToHostBandwidth > 0
                        ? deviceToHostSeconds + fewest * hostLatency +
                              double(newWrites) / deviceToHostBandwidth
                        : 0;
      bound = std::max(bound, std::max(ssd, host));
    }
    if (reached(bound))
      return bound;
  }
  return bound;
}

void ExactSearch::apply(const Gap &gap, int sign) {
  auto [from, to] = absentPoints(gap, lifetimes);
  int64_t bytes = sign * int64_t(graph.getTensor(gap.tensor).bytes);
  bool written = !gap.entersOnSsd && !enteredOf[gap.tensor];
  for (uint32_t point = from; point < to; ++point) {
    absentAt[point] += bytes;
    if (written) {
      writtenAbsentAt[point] += bytes;
      writtenCountAt[point] += sign;
    }
    if (gap.reloads()) {
      reloadAbsentAt[point] += bytes;
      reloadCountAt[point] += sign;
    }
  }
}

bool ExactSearch::coverable(size_t depth) const {
  for (size_t k = 0; k < overPoints.size(); ++k) {
    uint32_t point = overPoints[k];
    int64_t live = int64_t(unplanned[point]) - absentAt[point] -
                   int64_t(coverFrom[depth][k]);
    if (live > int64_t(budget))
      return false;
  }
  return true;
}

bool ExactSearch::covered() const { return coverable(units.size()); }

double ExactSearch::simulateCurrent(Plan *out) const {
  Plan plan;
  plan.gaps = current;
  plan.finalize();
  double seconds = planner.simulate(plan).stepSeconds;
  if (out)
    *out = std::move(plan);
  return seconds;
}

bool ExactSearch::limitReached() {
  if (stopped)
    return true;
  if (options.exactNodeLimit && nodes > options.exactNodeLimit) {
    stopReason = ExactSearchError::Reason::NodeLimit;
    return stopped = true;
  }
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  stopReason = ExactSearchError::Reason::TimeLimit;
  stopped = elapsed.count() >= options.exactTimeLimitSeconds;
  return stopped;
}

bool ExactSearch::cutByCover(size_t depth) {
  if (!coverable(depth))
    return true;
  double limit = found ? best : stopAt;
  double bound = boundFromCover(depth, limit, found);
  return found ? bound >= limit : bound > limit;
}

bool ExactSearch::decidedByBounds(size_t depth, bool checked) {
  if (exhaustive) {
    if (depth < units.size())
      return false;
    if (covered()) {
      double seconds = simulateCurrent();
      if (!found || seconds < best) {
        best = seconds;
        found = true;
        simulateCurrent(&bestPlan);
      }
    }
    return true;
  }
  if (!checked && cutByCover(depth))
    return true;
  double seconds = simulateCurrent();
  // Ties with the heuristic's plan are searched for until one is found, so
  // that its plan is known to lie in the space.
  if (found ? seconds >= best : seconds > stopAt)
    return true;
  if (covered()) {
    // Every further gap only adds transfers: this is the subtree's best.
    best = seconds;
    found = true;
    simulateCurrent(&bestPlan);
    return true;
  }
  return depth == units.size();
}

void ExactSearch::search(size_t depth, bool checked) {
  ++nodes;
  if (limitReached() || decidedByBounds(depth, checked))
    return;
  const Unit &unit = units[depth];
  for (const UnitOption &option : unit.options) {
    if (option.gaps.empty()) {
      search(depth + 1, false);
      continue;
    }
    if (unit.excludedBySteady && steadyOf[*unit.excludedBySteady])
      continue;
    // The gap that writes takes one of its tensor's canonical slots, and
    // every gap of a tensor keeps the slot its first decided gap took.
    const Gap &first = option.gaps.back();
    TensorId written = first.tensor;
    // (An argument that entered on SSD is never written.)
    bool writes = !first.entersOnSsd && !enteredOf[written] && !unit.unchanged;
    bool choosesSlot = writes && offloadOf[written] < 0;
    std::vector<uint32_t> slots;
    if (choosesSlot) {
      for (uint32_t slot : offloadSlots[written])
        if (slot <= first.releaseSlot)
          slots.push_back(slot);
    } else if (writes && offloadOf[written] > int64_t(first.releaseSlot)) {
      continue;
    } else {
      slots.push_back(writes ? offloadOf[written] : 0);
    }
    if (slots.empty())
      continue;
    // (Before the gaps are applied: what an argument that entered on SSD
    // leaves is no written absence.)
    if (unit.steady) {
      steadyOf[option.gaps.front().tensor] =
          steadyOf[option.gaps.back().tensor] = 1;
      enteredOf[option.gaps.front().tensor] = 1;
    }
    for (const Gap &gap : option.gaps) {
      current.push_back(gap);
      apply(gap, +1);
      ++gapsOf[gap.tensor];
    }
    if (choosesSlot) {
      offloadOf[written] = slots.front();
      double bytes = graph.getTensor(written).bytes;
      writeQueueSeconds += writeSeconds(bytes);
      deviceToHostSeconds += hostWriteSeconds(bytes);
    }
    // The budget cover and the bound do not depend on where the write
    // starts: one test for all of the option's slots.
    bool cut = !exhaustive && cutByCover(depth + 1);
    if (cut)
      ++nodes;
    for (size_t s = 0; !cut && s < slots.size() && !stopped; ++s) {
      for (size_t i = current.size() - option.gaps.size(); i < current.size();
           ++i)
        if (current[i].tensor == written)
          current[i].offloadSlot = slots[s];
      if (choosesSlot)
        offloadOf[written] = slots[s];
      search(depth + 1, true);
    }
    if (choosesSlot) {
      offloadOf[written] = -1;
      double bytes = graph.getTensor(written).bytes;
      writeQueueSeconds -= writeSeconds(bytes);
      deviceToHostSeconds -= hostWriteSeconds(bytes);
    }
    for (size_t i = 0; i < option.gaps.size(); ++i) {
      Gap placed = current.back();
      current.pop_back();
      apply(placed, -1);
      --gapsOf[placed.tensor];
    }
    if (unit.steady) {
      steadyOf[option.gaps.front().tensor] =
          steadyOf[option.gaps.back().tensor] = 0;
      enteredOf[option.gaps.front().tensor] = 0;
    }
    if (stopped)
      return;
  }
}

llvm::Expected<Plan> ExactSearch::run(ExactStatistics &statistics) {
  start = std::chrono::steady_clock::now();
  const Target &target = planner.getTarget();
  if (graph.numOps() > options.exactMaxOps)
    return llvm::make_error<ExactSearchError>(
        ExactSearchError::Reason::TooLarge,
        llvm::formatv("the exact policy plans steps of at most {0} ops; this "
                      "one has {1} (plan it with policy=ssd)",
                      options.exactMaxOps, graph.numOps())
            .str());
  // Its space holds whole-tensor reloads only: where a partial reload is
  // possible, a plan outside it can be faster than the "optimum". A step
  // that fits moves nothing, so its optimum is known whatever may be partial.
  bool fits = planner.getUnplannedPeak() <= budget;
  for (TensorId tensor = 0; !fits && tensor < graph.numTensors(); ++tensor)
    if (std::optional<LifetimeAnalysis::PartTail> tail =
            planner.getLifetimes().getPartTail(tensor))
      return llvm::make_error<ExactSearchError>(
          ExactSearchError::Reason::PartialReloads,
          llvm::formatv("the exact policy does not search partial reloads; "
                        "'{0}' may come back as its part '{1}' alone (plan "
                        "this step with policy=ssd)",
                        graph.getTensor(tensor).name,
                        graph.getTensor(tail->view).name)
              .str());
  if (target.hasIdleDependentLatency() || target.ssdTransferWorkers ||
      target.transferIssueSeconds > 0)
    return llvm::make_error<ExactSearchError>(
        ExactSearchError::Reason::UnsupportedTarget,
        llvm::formatv("the exact policy needs transfers whose cost does not "
                      "depend on what ran before; target '{0}' has transfer "
                      "workers, queued or idle latencies or an issue time",
                      target.name)
            .str());

  PlannerOptions heuristic = options;
  heuristic.policy = Policy::Ssd;
  heuristic.groupMinBytes = 0;
  llvm::Expected<Plan> ssdPlan = planner.plan(heuristic);
  if (!ssdPlan)
    return ssdPlan.takeError();
  statistics.heuristicSeconds = planner.simulate(*ssdPlan).stepSeconds;
  stopAt = statistics.heuristicSeconds * (1 + 1e-9);

  listUnits();
  statistics.units = units.size();
  absentAt.assign(points, 0);
  writtenAbsentAt.assign(points, 0);
  reloadAbsentAt.assign(points, 0);
  writtenCountAt.assign(points, 0);
  reloadCountAt.assign(points, 0);
  offloadOf.assign(graph.numTensors(), -1);
  gapsOf.assign(graph.numTensors(), 0);
  steadyOf.assign(graph.numTensors(), 0);
  enteredOf.assign(graph.numTensors(), 0);
  search(0, false);
  statistics.nodes = nodes;
  statistics.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // The exhaustive search keeps the fastest plan of the space even when it
  // is slower than `ssd`'s; the answer is the same as the cut search's.
  found = found && best <= stopAt;
  if (stopped) {
    bool byNodes = stopReason == ExactSearchError::Reason::NodeLimit;
    std::string limit =
        byNodes
            ? llvm::formatv("node limit of {0} nodes", options.exactNodeLimit)
                  .str()
            : llvm::formatv("time limit of {0} s after {1} nodes",
                            llvm::format("%g", options.exactTimeLimitSeconds),
                            nodes)
                  .str();
    return llvm::make_error<ExactSearchError>(
        stopReason,
        llvm::formatv(
            "the exact search reached its {0} before proving a plan optimal "
            "(best so far {1} ms, ssd's {2} ms, lower bound {3} ms); raise "
            "{4} or plan with policy=ssd",
            limit,
            llvm::format("%.6f",
                         (found ? best : statistics.heuristicSeconds) * 1e3),
            llvm::format("%.6f", statistics.heuristicSeconds * 1e3),
            llvm::format("%.6f",
                         planner.lowerBound(budget).latencySeconds * 1e3),
            byNodes ? "exact-node-limit" : "exact-time-limit")
            .str());
  }
  statistics.foundInSpace = found;
  Plan result = found ? std::move(bestPlan) : std::move(*ssdPlan);
  result.policy = policyName(Policy::Exact).str();
  result.detail = found ? "optimal" : "ssd (the search space missed it)";
  result.memoryBudget = budget;
  return result;
}

} // namespace

llvm::Expected<Plan> ssd::planner::planExact(const OffloadPlanner &planner,
                                             const PlannerOptions &options,
                                             ExactStatistics *statistics,
                                             ExactPruning pruning) {
  ExactStatistics local;
  llvm::Expected<Plan> plan = ExactSearch(planner, options, pruning)
                                  .run(statistics ? *statistics : local);
  if (!plan)
    return plan.takeError();
  if (llvm::Error error = verifyPlan(planner.getGraph(), planner.getLifetimes(),
                                     *plan, options.memoryBudget))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "internal error: the exact plan fails verification: %s",
        llvm::toString(std::move(error)).c_str());
  return plan;
}
