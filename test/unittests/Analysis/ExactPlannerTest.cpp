//===- ExactPlannerTest.cpp - The exact policy against the others ---------===//
//
// On random small training steps the exact plan is verified, its search
// finds a plan at least as fast as `ssd`'s in its own space (so the space
// the docs argue holds an optimum does hold the heuristics' plans' equal),
// it is no slower than any policy and no faster than the lower bound; on the
// smallest steps it equals the fastest plan of an exhaustive walk of its
// space without any cut, so its bounds cut off no optimum. And it refuses
// what it cannot solve: a step too large, a target whose costs depend on
// history, a time or node limit reached. The searches here are bounded by
// node limits, never by wall time, so their outcome is the same on every
// machine however loaded.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/ExactPlanner.h"
#include "ssd/Analysis/Planner/GraphGenerator.h"

#include <gtest/gtest.h>

using namespace ssd::planner;

namespace {

GeneratorOptions smallStep(uint64_t seed) {
  GeneratorOptions options;
  options.seed = seed;
  options.layers = 1;
  options.opsPerLayer = 1 + seed % 3;
  options.flopsPerByte = std::vector<double>{1e3, 1.5e4, 5e4, 3e5}[seed % 4];
  options.residualProbability = (seed % 5) / 5.0;
  options.temporaryProbability = (seed % 3) / 3.0;
  options.unknownOpProbability = 0.1;
  options.markBackwardStart = seed % 2;
  return options;
}

/// A budget `share` of the way from the most any op needs resident to the
/// unplanned peak: always feasible, and below the peak.
uint64_t budgetBetween(const OffloadPlanner &planner, double share) {
  uint64_t required = 0;
  for (uint32_t point = 0; point < planner.getLifetimes().numPoints(); ++point)
    required =
        std::max(required, planner.getLifetimes().getRequiredBytes(point));
  return required +
         static_cast<uint64_t>((planner.getUnplannedPeak() - required) * share);
}

Target h100() { return llvm::cantFail(getTargetPreset("h100-pcie5-pm1743")); }

ExactSearchError::Reason reasonOf(llvm::Error error) {
  ExactSearchError::Reason reason = ExactSearchError::Reason::TooLarge;
  bool matched = false;
  llvm::handleAllErrors(std::move(error), [&](const ExactSearchError &exact) {
    reason = exact.reason;
    matched = true;
  });
  EXPECT_TRUE(matched);
  return reason;
}

/// Options whose search only a node limit ends: the time limit is out of
/// reach, so a loaded machine changes nothing.
PlannerOptions nodeLimited(uint64_t budget, uint64_t nodeLimit) {
  PlannerOptions options;
  options.memoryBudget = budget;
  options.exactTimeLimitSeconds = 1e9;
  options.exactNodeLimit = nodeLimit;
  return options;
}

TEST(ExactPlanner, NoPolicyBeatsItAndItNeverBeatsTheBound) {
  Target target = h100();
  unsigned solved = 0, limited = 0, belowEveryBaseline = 0;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    StepGraph graph = generateTrainingStep(smallStep(seed));
    OffloadPlanner planner(graph, target);
    for (unsigned percent : {50u, 20u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " at " +
                   std::to_string(percent) + "%");
      PlannerOptions options =
          nodeLimited(budgetBetween(planner, percent / 100.0), 400'000);
      ExactStatistics statistics;
      llvm::Expected<Plan> exact = planExact(planner, options, &statistics);
      if (!exact) {
        // The search is exponential: one of these steps (seed 8 at 20%,
        // about 9.5 million nodes) outlasts the limit; nothing else may
        // fail.
        llvm::handleAllErrors(
            exact.takeError(), [&](const ExactSearchError &error) {
              EXPECT_EQ(error.reason, ExactSearchError::Reason::NodeLimit);
            });
        ++limited;
        continue;
      }
      ++solved;
      EXPECT_LE(statistics.nodes, options.exactNodeLimit);
      EXPECT_EQ(exact->policy, "exact");
      EXPECT_TRUE(statistics.foundInSpace);
      double seconds = planner.simulate(*exact).stepSeconds;
      double tolerance = 1e-9 * seconds;
      EXPECT_GE(seconds + tolerance,
                planner.lowerBound(options.memoryBudget).latencySeconds);
      bool beatsAll = true;
      for (Policy policy : allPolicies()) {
        PlannerOptions other = options;
        other.policy = policy;
        llvm::Expected<Plan> plan = planner.plan(other);
        ASSERT_TRUE(static_cast<bool>(plan))
            << llvm::toString(plan.takeError());
        double theirs = planner.simulate(*plan).stepSeconds;
        EXPECT_LE(seconds, theirs + tolerance) << policyName(policy).str();
        if (policy != Policy::Ssd && seconds >= theirs - tolerance)
          beatsAll = false;
      }
      belowEveryBaseline += beatsAll;
    }
  }
  // The steps must actually need planning, and the search must sometimes
  // find what no baseline does.
  EXPECT_GE(solved, 31u);
  EXPECT_LE(limited, 1u);
  EXPECT_GE(belowEveryBaseline, 1u);
}

// The bound, the budget-cover cut, the stop at a node that fits and the
// `ssd` upper bound may cut off no plan faster than the one kept: on every
// 1-layer step at tight budgets whose whole space (up to 200,000 nodes) an
// exhaustive walk visits, both find the same fastest simulated step. (A 5%
// slack in the cut on the simulated step fails it.)
TEST(ExactPlanner, ItsCutsKeepTheOptimumOfTheSmallestSteps) {
  Target target = h100();
  unsigned compared = 0, pruned = 0, improved = 0;
  for (uint64_t seed = 1; seed <= 32; ++seed) {
    StepGraph graph = generateTrainingStep(smallStep(seed));
    OffloadPlanner planner(graph, target);
    for (unsigned percent : {20u, 5u, 0u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " at " +
                   std::to_string(percent) + "%");
      PlannerOptions options =
          nodeLimited(budgetBetween(planner, percent / 100.0), 200'000);
      ExactStatistics all;
      llvm::Expected<Plan> exhaustive =
          planExact(planner, options, &all, ExactPruning::Exhaustive);
      if (!exhaustive) {
        // Too large a space to walk whole here.
        llvm::handleAllErrors(
            exhaustive.takeError(), [&](const ExactSearchError &error) {
              EXPECT_EQ(error.reason, ExactSearchError::Reason::NodeLimit);
            });
        continue;
      }
      ExactStatistics cut;
      llvm::Expected<Plan> exact = planExact(planner, options, &cut);
      ASSERT_TRUE(static_cast<bool>(exact))
          << llvm::toString(exact.takeError());
      EXPECT_TRUE(all.foundInSpace);
      EXPECT_EQ(all.units, cut.units);
      double theirs = planner.simulate(*exhaustive).stepSeconds;
      double ours = planner.simulate(*exact).stepSeconds;
      EXPECT_NEAR(ours, theirs, 1e-9 * theirs);
      ++compared;
      pruned += cut.nodes < all.nodes;
      improved += theirs < all.heuristicSeconds * (1 - 1e-9);
    }
  }
  // Most of the steps are compared (72 of 96), the cuts did cut on most,
  // and on many (17) the optimum is faster than `ssd`'s plan, so that the
  // search had to find it past its first upper bound.
  EXPECT_GE(compared, 60u);
  EXPECT_GE(pruned, 40u);
  EXPECT_GE(improved, 10u);
}

// The final writes of a step wait for what must come back before the first
// update runs: on this step the latency-aware bound is the optimum, which a
// bound that lets those reads overlap the final writes misses by a third.
//
//   #0 a = f(x)  #1 b = g(a)  #2 c = h(b)  #3 d = k(c, a)  #4 m2 = upd(m, d)
//
// (every op free, a disk that writes 100 bytes in 10 ms and reads them in
// 5 ms, no latency). At 300 bytes, point 2 (m, a, b, c: 500 live; the op
// needs b and c) keeps m and a away, and both are read back by op 4, the
// first to compute a next-step value: a's write before point 2 (10 ms),
// then both reads (10 ms), then m2's write or m's own (10 ms) in series.
TEST(LowerBound, FinalWritesWaitForTheReadsBeforeTheFirstUpdate) {
  StepGraph graph("chain");
  OpCost free{0.0, std::nullopt, std::nullopt};
  TensorId x = graph.addArgument("x", 100, TensorRole::Input);
  TensorId m = graph.addArgument("m", 100, TensorRole::OptimizerState);
  TensorId a = graph.addResult(graph.addOp("f", {x}, free), "a", 100);
  TensorId b = graph.addResult(graph.addOp("g", {a}, free), "b", 200);
  TensorId c = graph.addResult(graph.addOp("h", {b}, free), "c", 100);
  TensorId d = graph.addResult(graph.addOp("k", {c, a}, free), "d", 100);
  TensorId m2 = graph.addResult(graph.addOp("upd", {m, d}, free), "m2", 100);
  graph.addReturn(m2, m);
  ASSERT_FALSE(static_cast<bool>(graph.verify()));
  Target target;
  target.name = "slow-disk";
  target.computeFlops = 1e12;
  target.deviceMemoryBandwidth = 1e12;
  target.ssdWriteBandwidth = 1e4;
  target.ssdReadBandwidth = 2e4;
  OffloadPlanner planner(graph, target);
  ASSERT_EQ(planner.getUnplannedPeak(), 500u);
  double written = 100 / target.ssdWriteBandwidth;
  double expected = written + 200 / target.ssdReadBandwidth + written;
  LowerBound bound = planner.lowerBound(300);
  EXPECT_NEAR(bound.latencySeconds, expected, 1e-12);
  // The bytes-only bound lets the reads overlap the final write.
  EXPECT_LT(bound.seconds, expected * 0.7);
  PlannerOptions options;
  options.memoryBudget = 300;
  options.policy = Policy::Exact;
  options.exactNodeLimit = 100000;
  llvm::Expected<Plan> plan = planner.plan(options);
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  EXPECT_NEAR(planner.simulate(*plan).stepSeconds, expected, 1e-12);
}

TEST(ExactPlanner, ThroughThePlannerItIsThePolicyExact) {
  Target target = h100();
  StepGraph graph = generateTrainingStep(smallStep(3));
  OffloadPlanner planner(graph, target);
  PlannerOptions options;
  options.memoryBudget = budgetBetween(planner, 0.5);
  options.policy = *parsePolicy("exact");
  llvm::Expected<Plan> plan = planner.plan(options);
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->policy, "exact");
  EXPECT_FALSE(llvm::is_contained(allPolicies(), Policy::Exact));
}

TEST(ExactPlanner, RefusesAStepTooLarge) {
  Target target = h100();
  StepGraph graph = generateTrainingStep(generatorOptionsForOps(200, 1));
  ASSERT_GT(graph.numOps(), 80u);
  OffloadPlanner planner(graph, target);
  PlannerOptions options;
  options.memoryBudget = planner.getUnplannedPeak() / 2;
  llvm::Expected<Plan> plan = planExact(planner, options);
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(reasonOf(plan.takeError()), ExactSearchError::Reason::TooLarge);
}

// #0 a = f(x)  #1 v = split(a), bytes [900, 1000) of a  #2 z = big(x)
// #3 y = n(v, z): `a` may come back as `v`'s 100 bytes alone, a plan the
// exact space does not hold (at 1200 bytes it is the only one that fits),
// so the search must refuse rather than call a slower plan optimal.
TEST(ExactPlanner, RefusesAStepWhereAPartialReloadIsPossible) {
  StepGraph graph("part-step");
  OpCost free{0.0, std::nullopt, std::nullopt};
  TensorId x = graph.addArgument("x", 4, TensorRole::Input);
  TensorId a = graph.addResult(graph.addOp("f", {x}, free), "a", 1000);
  TensorId v = graph.addAlias(graph.addOp("split", {a}, free), "v", a);
  graph.setPart(v, 900, 100);
  TensorId z = graph.addResult(graph.addOp("big", {x}, free), "z", 1000);
  graph.addReturn(graph.addResult(graph.addOp("n", {v, z}, free), "y", 4));
  OffloadPlanner planner(graph, h100());
  PlannerOptions options;
  options.memoryBudget = planner.getUnplannedPeak() - 1;
  llvm::Expected<Plan> plan = planExact(planner, options);
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(reasonOf(plan.takeError()),
            ExactSearchError::Reason::PartialReloads);
}

TEST(ExactPlanner, RefusesATargetWithHistoryDependentCosts) {
  Target target = h100();
  target.ssdTransferWorkers = 4;
  StepGraph graph = generateTrainingStep(smallStep(2));
  OffloadPlanner planner(graph, target);
  PlannerOptions options;
  options.memoryBudget = budgetBetween(planner, 0.5);
  llvm::Expected<Plan> plan = planExact(planner, options);
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(reasonOf(plan.takeError()),
            ExactSearchError::Reason::UnsupportedTarget);
}

TEST(ExactPlanner, SaysWhenItsTimeLimitEndsTheSearch) {
  Target target = h100();
  StepGraph graph = generateTrainingStep(smallStep(5));
  OffloadPlanner planner(graph, target);
  PlannerOptions options;
  options.memoryBudget = budgetBetween(planner, 0.5);
  options.exactTimeLimitSeconds = 0;
  llvm::Expected<Plan> plan = planExact(planner, options);
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(reasonOf(plan.takeError()), ExactSearchError::Reason::TimeLimit);
}

TEST(ExactPlanner, SaysWhenItsNodeLimitEndsTheSearch) {
  Target target = h100();
  StepGraph graph = generateTrainingStep(smallStep(5));
  OffloadPlanner planner(graph, target);
  // The search proves this step's optimum after 1956 nodes: one fewer
  // ends it, and as many do not.
  PlannerOptions options = nodeLimited(budgetBetween(planner, 0.5), 0);
  ExactStatistics statistics;
  ASSERT_TRUE(static_cast<bool>(planExact(planner, options, &statistics)));
  options.exactNodeLimit = statistics.nodes - 1;
  llvm::Expected<Plan> plan = planExact(planner, options);
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(reasonOf(plan.takeError()), ExactSearchError::Reason::NodeLimit);
  options.exactNodeLimit = statistics.nodes;
  llvm::Expected<Plan> again = planExact(planner, options);
  EXPECT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
}

} // namespace
