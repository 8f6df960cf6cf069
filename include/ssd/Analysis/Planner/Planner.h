//===- Planner.h - Offload planning policies and lower bound ----*- C++ -*-===//
//
// The algorithms behind ssd-plan-offload, ssd-insert-prefetch and
// ssd-group-buffers, usable without a pass manager. `OffloadPlanner` holds
// the analyses of one step on one target and plans it under a memory budget
// with one of several policies: ours (`ssd`) and the baselines it is
// measured against, all judged by the same simulator. `lowerBound` says how
// fast any plan could possibly be.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_PLANNER_H
#define SSD_ANALYSIS_PLANNER_PLANNER_H

#include "ssd/Analysis/Planner/Plan.h"
#include "ssd/Analysis/Planner/Simulator.h"
#include "ssd/Analysis/Planner/Target.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace ssd::planner {

enum class Policy : uint8_t {
  /// Ours: Belady-style victims (furthest next use, SSD copies reused),
  /// prefetches scheduled backward from their uses on the simulated queues,
  /// refined by re-simulation; keeps the fastest of its candidate plans.
  Ssd,
  /// `save_on_cpu`: offload what does not fit (least recently used first),
  /// reload synchronously at the use.
  ReloadOnUse,
  /// torchtune's OffloadActivations: offload every saved activation, keep
  /// it resident for a fixed window of ops after its last forward use,
  /// prefetch one reload ahead.
  StashWindow,
  /// PyTorch's AOTAutograd offload pass: largest tensors first; each reload
  /// moves earlier until the compute it overlaps covers its transfer time.
  AotPrefetch,
  /// ZeRO-Infinity: least recently used first, a fixed number of reloads in
  /// flight.
  FixedDepth,
  /// The fastest plan, by an exact search (ExactPlanner.h); small steps
  /// only, so not among allPolicies().
  Exact,
};

/// The heuristic policies: every one plans steps of any size.
llvm::ArrayRef<Policy> allPolicies();
/// Every policy `parsePolicy` accepts: allPolicies(), then `exact`. What
/// `ssd-opt --ssd-list-policies` prints and the passes' errors name.
llvm::ArrayRef<Policy> knownPolicies();
llvm::StringRef policyName(Policy policy);
std::optional<Policy> parsePolicy(llvm::StringRef name);

struct PlannerOptions {
  uint64_t memoryBudget = 0;
  Policy policy = Policy::Ssd;
  /// The roles (LifetimeAnalysis::getRole, so inferred ones count) of the
  /// tensors a plan may put in a gap. A persistent argument enters on SSD,
  /// and a value leaves on SSD, only when its steady-state partner may move
  /// too. When the others do not fit, planning fails with
  /// InfeasibleBudgetError.
  RoleSet movableRoles = RoleSet::all();
  /// Ops an offloaded activation stays resident for (stash-window).
  unsigned stashWindow = 2;
  /// Reloads kept in flight (fixed-depth).
  unsigned prefetchDepth = 2;
  /// Re-simulation rounds of the `ssd` prefetch scheduler.
  unsigned refinementRounds = 3;
  /// Rounds of `ssd` stall repair: each demotes the tensor that stalls
  /// compute the most and re-plans.
  unsigned repairRounds = 8;
  /// How many program points `ssd` may process while it searches, counting
  /// the step's points once per simulation, eviction sweep and prefetch
  /// placement. It starts no candidate or repair round that would take it
  /// past this, and keeps the best plan found (always at least the
  /// baselines and its first candidate). Deterministic, unlike a time
  /// limit.
  uint64_t effortPoints = 4'000'000;
  /// Whether `ssd` also judges the baselines' plans and keeps the fastest.
  bool ssdConsidersBaselines = true;
  /// When not 0, every policy judges its plans as they will run once
  /// groupTransfers(plan, graph, groupMinBytes) has grouped them
  /// (ssd-offload-pipeline groups after planning), so that `ssd` is never
  /// slower than a baseline after grouping either. The plan returned is
  /// not grouped.
  uint64_t groupMinBytes = 0;
  /// `exact`: the largest step it plans, how long it may search, and how
  /// many search nodes it may visit (0: no limit), a limit whose outcome is
  /// the same on every machine.
  size_t exactMaxOps = 80;
  double exactTimeLimitSeconds = 60;
  uint64_t exactNodeLimit = 0;
};

/// The budget is below what the op at `point` needs resident: its operands
/// and results, and the live tensors that may not move there
/// (`PlannerOptions::movableRoles`).
class InfeasibleBudgetError : public llvm::ErrorInfo<InfeasibleBudgetError> {
public:
  static char ID;
  InfeasibleBudgetError(uint32_t point, std::string opName,
                        uint64_t requiredBytes, uint64_t budget,
                        uint64_t unmovableBytes = 0)
      : point(point), opName(std::move(opName)), requiredBytes(requiredBytes),
        budget(budget), unmovableBytes(unmovableBytes) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  /// The op's index (the number of ops for the return).
  uint32_t point;
  std::string opName;
  uint64_t requiredBytes;
  uint64_t budget;
  /// The part of `requiredBytes` that is not the op's own operands and
  /// results but tensors whose roles may not move.
  uint64_t unmovableBytes;
};

/// A true lower bound on the step time of any plan at a budget; see
/// docs/planner.md for the argument.
struct LowerBound {
  double seconds = 0;
  double computeSeconds = 0;
  /// max(compute, the bytes each link must carry / its bandwidth).
  double linkSeconds = 0;
  /// `seconds` with the latency of the fewest transfers any plan needs:
  /// one per direction that must carry bytes (a group moves any number of
  /// tensors at once), paid on each hop before its bytes move. Never below
  /// `seconds`.
  double latencySeconds = 0;
  /// The point whose memory pressure gives `seconds`.
  uint32_t criticalPoint = 0;
};

class OffloadPlanner {
public:
  OffloadPlanner(const StepGraph &graph, const Target &target);

  const StepGraph &getGraph() const { return graph; }
  const Target &getTarget() const { return target; }
  const LifetimeAnalysis &getLifetimes() const { return lifetimes; }
  llvm::ArrayRef<double> getOpSeconds() const { return opSeconds; }
  llvm::ArrayRef<uint64_t> getUnplannedLiveBytes() const {
    return unplannedLive;
  }
  uint64_t getUnplannedPeak() const { return unplannedPeak; }

  /// ssd-plan-offload and ssd-insert-prefetch together: a verified plan
  /// that keeps live bytes within the budget, or InfeasibleBudgetError.
  /// `ssd` makes its candidate plans on `threads` and this thread (serially
  /// without a pool); the plan does not depend on the pool.
  llvm::Expected<Plan> plan(const PlannerOptions &options,
                            llvm::ThreadPoolInterface *threads = nullptr) const;
  /// ssd-plan-offload alone: the gaps of `plan`, each written right after
  /// its definition and reloaded right at its use.
  llvm::Expected<Plan>
  chooseGaps(const PlannerOptions &options,
             llvm::ThreadPoolInterface *threads = nullptr) const;
  /// ssd-insert-prefetch: moves each reload of `plan` as early as the
  /// policy wants and the budget allows.
  void schedulePrefetches(Plan &plan, const PlannerOptions &options) const;

  /// With `spans`, also every transfer on every queue (simulatePlan).
  SimulationResult simulate(const Plan &plan,
                            std::vector<TransferSpan> *spans = nullptr) const;
  LowerBound lowerBound(uint64_t budget) const;

private:
  llvm::Error checkFeasible(uint64_t budget) const;

  const StepGraph &graph;
  const Target &target;
  LifetimeAnalysis lifetimes;
  std::vector<double> opSeconds;
  std::vector<uint64_t> unplannedLive;
  uint64_t unplannedPeak = 0;
};

/// ssd-group-buffers: merges offloads issued at the same slot (and
/// prefetches at the same slot) of tensors smaller than `minBytes` into one
/// transfer each. Returns the number of groups formed.
unsigned groupTransfers(Plan &plan, const StepGraph &graph, uint64_t minBytes);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_PLANNER_H
