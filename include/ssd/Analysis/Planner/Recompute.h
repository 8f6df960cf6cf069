//===- Recompute.h - The recomputation baseline -----------------*- C++ -*-===//
//
// What users pick today instead of offload: activation checkpointing. At a
// memory budget, which saved activations to drop after their last forward
// use and compute again right before their first backward use, and what the
// extra compute costs. No byte moves; the step is its compute plus the
// recomputed ops. The model is in docs/planner.md ("Recomputation").
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_RECOMPUTE_H
#define SSD_ANALYSIS_PLANNER_RECOMPUTE_H

#include "ssd/Analysis/Planner/Planner.h"

#include "llvm/Support/JSON.h"

namespace ssd::planner {

struct RecomputePlan {
  uint64_t memoryBudget = 0;
  /// Whether the peak with the drops is within the budget. When not, the
  /// drops are those that lowered the peak until no saved activation was
  /// left that lowers it further.
  bool fits = false;
  uint64_t peakBytes = 0;
  /// Where the peak is; when the plan does not fit, the point recomputation
  /// could not bring under the budget.
  uint32_t peakPoint = 0;
  double computeSeconds = 0;
  /// The recomputed ops' time: each op run again once per point at which
  /// the backward pass needs what it makes.
  double extraSeconds = 0;
  double stepSeconds() const { return computeSeconds + extraSeconds; }
  /// Saved activations dropped after their last forward use, in the order
  /// they were chosen.
  std::vector<TensorId> dropped;
  uint64_t droppedBytes = 0;
  /// How many op executions the recomputation adds.
  uint32_t recomputedOps = 0;
  /// Live bytes at every point with the drops and their recomputation.
  std::vector<uint64_t> liveBytes;
};

/// The recomputation baseline of `planner`'s step at `budget`: greedily,
/// while the peak exceeds the budget, drops the saved activation absent at
/// the peak whose recomputation costs the least time per byte, keeping a
/// drop only if it lowers live bytes at that point without raising the peak.
RecomputePlan planRecompute(const OffloadPlanner &planner, uint64_t budget);

/// The report's `recompute` object (docs/planner.md).
llvm::json::Object recomputeToJSON(const RecomputePlan &plan,
                                   const StepGraph &graph);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_RECOMPUTE_H
