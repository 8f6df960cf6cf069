//===- ExactPlanner.h - The optimal plan of a small step --------*- C++ -*-===//
//
// `policy=exact`: a branch-and-bound search for the fastest plan of a small
// step, every candidate judged by the same simulator as every policy
// (simulatePlan) and the result proved by the same verifier, so that the
// heuristics' distance from the optimum is known (docs/planner.md, "The
// exact policy", says which plans it searches and why that space holds an
// optimum). It refuses steps larger than `PlannerOptions::exactMaxOps` and
// targets whose transfer costs depend on what ran before, and it fails with
// ExactSearchError when its time limit or its node limit ends the search.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_EXACTPLANNER_H
#define SSD_ANALYSIS_PLANNER_EXACTPLANNER_H

#include "ssd/Analysis/Planner/Planner.h"

namespace ssd::planner {

/// Why the exact search gave no plan: the step or the target is outside
/// what it solves (too many ops, a partial reload possible, costs that
/// depend on history), or the time limit or the node limit ended it first.
class ExactSearchError : public llvm::ErrorInfo<ExactSearchError> {
public:
  enum class Reason {
    TooLarge,
    PartialReloads,
    UnsupportedTarget,
    TimeLimit,
    NodeLimit
  };
  static char ID;
  ExactSearchError(Reason reason, std::string message)
      : reason(reason), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

  Reason reason;
  std::string message;
};

struct ExactStatistics {
  /// Search nodes visited: partial plans tested (the budget cover test and
  /// the bound run once per option, its offload slots share them; only the
  /// nodes they do not cut are simulated).
  uint64_t nodes = 0;
  double seconds = 0;
  /// The candidate gaps the search decided, one unit per tensor interval
  /// (an argument's entry on SSD with its partner's exit is one unit).
  uint32_t units = 0;
  /// Whether the search found a plan at least as fast as `ssd`'s (else the
  /// answer is `ssd`'s plan and the search space missed it: a bug in the
  /// space's argument, reported rather than hidden).
  bool foundInSpace = false;
  /// The `ssd` plan's simulated step, the search's first upper bound.
  double heuristicSeconds = 0;
};

/// How the search walks its space. `Exhaustive` visits every plan of the
/// same canonical space without any cut (no bound, no budget cover test, no
/// stop at a node that fits, no `ssd` upper bound) and keeps the fastest
/// that fits: exponential, for tests that check the cuts on tiny steps.
enum class ExactPruning { BranchAndBound, Exhaustive };

/// The fastest plan of the step under `options.memoryBudget`, verified, or
/// InfeasibleBudgetError, or ExactSearchError. `options.policy` is ignored.
llvm::Expected<Plan>
planExact(const OffloadPlanner &planner, const PlannerOptions &options,
          ExactStatistics *statistics = nullptr,
          ExactPruning pruning = ExactPruning::BranchAndBound);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_EXACTPLANNER_H
