// Partial reloads (`Gap::part`): a tensor whose last uses all go through one
// view of a byte range of it may leave and come back as that range alone.
// A hand-written plan that only a partial reload makes legal must verify,
// simulate to its stated time and stay at or above both lower bounds, which
// once counted the whole tensor wherever its part was touched; the planner
// reads back only the part where that is faster.
#include "ssd/Analysis/Planner/MemoryTimeline.h"
#include "ssd/Analysis/Planner/Planner.h"

#include <gtest/gtest.h>

using namespace ssd::planner;

namespace {
Target slowDisk(double readBandwidth) {
  Target target;
  target.name = "slow-disk";
  target.computeFlops = 1e12;
  target.deviceMemoryBandwidth = 1e12;
  target.ssdWriteBandwidth = 1e4; // 1000 bytes: 100 ms
  target.ssdReadBandwidth = readBandwidth;
  return target;
}

/// #0 a = f(x)  #1 v = split(a), bytes [900, 1000) of a  #2 z = big(x)
/// #3 y = n(v, zUse ? z : nothing). `a` is 1000 bytes, `z` `zBytes`.
struct PartStep {
  StepGraph graph{"part-step"};
  TensorId x, a, v, z, y;
  PartStep(bool withPart, uint64_t zBytes, bool zUsedLast, double bigSeconds) {
    OpCost free{0.0, std::nullopt, std::nullopt};
    OpCost big{bigSeconds, std::nullopt, std::nullopt};
    x = graph.addArgument("x", 4, TensorRole::Input);
    a = graph.addResult(graph.addOp("f", {x}, free), "a", 1000);
    v = graph.addAlias(graph.addOp("split", {a}, free), "v", a);
    if (withPart)
      graph.setPart(v, 900, 100);
    z = graph.addResult(graph.addOp("big", {x}, big), "z", zBytes);
    std::vector<TensorId> operands = {v};
    if (zUsedLast)
      operands.push_back(z);
    y = graph.addResult(graph.addOp("n", operands, free), "y", 4);
    graph.addReturn(y);
  }
};

Gap partialGap(const PartStep &step) {
  Gap gap;
  gap.tensor = step.a;
  gap.offloadSlot = 1;
  gap.releaseSlot = 2;
  gap.prefetchSlot = 2;
  gap.waitPoint = 3;
  gap.part = step.v;
  return gap;
}

/// The options of a plan by `policy` at `budget`.
PlannerOptions optionsFor(Policy policy, uint64_t budget) {
  PlannerOptions options;
  options.memoryBudget = budget;
  options.policy = policy;
  return options;
}
} // namespace

// At 1200 bytes "big" (x, a, z: 2004) keeps `a` away and "n" needs v and z.
// With the whole of `a` back "n" needs 2004 bytes, so no plan of whole
// tensors exists and the bound, counting all of `a` touched at #3, had no
// way to cover it. Reading back bytes [900, 1000) alone, #3 holds 1104.
// Step: a's write (100 ms) stalls the release before "big" (200 ms); the
// 100-byte read (0.1 ms) overlaps "big". 300 ms.
TEST(PartialReload, OnlyThePartCountsWhereOnlyThePartIsNeeded) {
  PartStep step(/*withPart=*/true, /*zBytes=*/1000, /*zUsedLast=*/true, 0.2);
  ASSERT_FALSE(static_cast<bool>(step.graph.verify()));
  Target target = slowDisk(1e6);
  OffloadPlanner planner(step.graph, target);
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  std::optional<LifetimeAnalysis::PartTail> tail =
      lifetimes.getPartTail(step.a);
  ASSERT_TRUE(tail.has_value());
  EXPECT_EQ(tail->view, step.v);
  EXPECT_EQ(tail->from, 3u);
  EXPECT_EQ(tail->lastOther, 1u);

  uint64_t budget = 1200;
  Plan plan;
  plan.policy = "hand";
  plan.memoryBudget = budget;
  plan.gaps = {partialGap(step)};
  plan.finalize();
  llvm::Error error = verifyPlan(step.graph, lifetimes, plan, budget);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  std::vector<uint64_t> live = plan.liveBytes(step.graph, lifetimes);
  EXPECT_EQ(live[2], 4u + 1000u + 100u); // x, z and the part, prefetched
  EXPECT_EQ(live[3], 1000u + 100u + 4u);
  EXPECT_EQ(plan.bytesPrefetched(step.graph), 100u);
  // What a report lists as live: `a` with the part's bytes once it is back.
  MemoryTimeline timeline(step.graph, lifetimes, &plan);
  EXPECT_EQ(timeline.getPeakBytes(), 1104u);
  EXPECT_EQ(timeline.getResidentBytes(step.a, 1), 1000u);
  EXPECT_EQ(timeline.getResidentBytes(step.a, 3), 100u);
  std::vector<TensorId> atUse = timeline.getLiveTensors(3);
  EXPECT_EQ(atUse, (std::vector<TensorId>{step.z, step.a, step.y}));
  SimulationResult simulation = planner.simulate(plan);
  EXPECT_NEAR(simulation.stepSeconds, 1000 / 1e4 + 0.2, 1e-9);
  EXPECT_EQ(simulation.bytesRead, 100u);
  LowerBound bound = planner.lowerBound(budget);
  EXPECT_GE(simulation.stepSeconds, bound.seconds * (1 - 1e-9));
  EXPECT_GE(simulation.stepSeconds, bound.latencySeconds * (1 - 1e-9));
  EXPECT_GT(bound.seconds, 0.2);

  // Without the part the same plan is no plan: `v` needs all of `a`.
  PartStep whole(/*withPart=*/false, 1000, true, 0.2);
  OffloadPlanner wholePlanner(whole.graph, target);
  EXPECT_FALSE(wholePlanner.getLifetimes().getPartTail(whole.a).has_value());
  Plan wholePlan = plan;
  llvm::Error rejected =
      verifyPlan(whole.graph, wholePlanner.getLifetimes(), wholePlan, budget);
  ASSERT_TRUE(static_cast<bool>(rejected));
  EXPECT_NE(llvm::toString(std::move(rejected))
                .find("not every touch from there on is a use of that part"),
            std::string::npos);
}

// A partial reload must be the tensor's last gap and wait in its tail.
TEST(PartialReload, VerifierRejectsAPartOutsideTheTail) {
  PartStep step(/*withPart=*/true, 1000, true, 0.2);
  Target target = slowDisk(1e6);
  OffloadPlanner planner(step.graph, target);
  Plan plan;
  Gap gap = partialGap(step);
  gap.part = step.z; // no view of `a`
  plan.gaps = {gap};
  plan.finalize();
  llvm::Error error =
      verifyPlan(step.graph, planner.getLifetimes(), plan, 1 << 20);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("reads back only view"),
            std::string::npos);
}

// At 1100 bytes "big" (x, a, z: 1504) keeps `a` away; "n" reads only `v`,
// so `a` may come back whole (1004 bytes there) or as its part. On a disk
// that reads 1000 bytes in 100 ms the whole reload stalls "n"; the planner
// reads back the 100 bytes alone (10 ms, overlapped by "big"'s 50 ms).
TEST(PartialReload, PlannerReadsBackOnlyThePartWhenFaster) {
  PartStep step(/*withPart=*/true, /*zBytes=*/500, /*zUsedLast=*/false, 0.05);
  ASSERT_FALSE(static_cast<bool>(step.graph.verify()));
  Target target = slowDisk(1e4);
  OffloadPlanner planner(step.graph, target);
  PlannerOptions options;
  options.memoryBudget = 1100;
  llvm::Expected<Plan> plan = planner.plan(options);
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  ASSERT_EQ(plan->gaps.size(), 1u);
  EXPECT_EQ(plan->gaps[0].tensor, step.a);
  ASSERT_TRUE(plan->gaps[0].part.has_value());
  EXPECT_EQ(*plan->gaps[0].part, step.v);
  EXPECT_EQ(plan->bytesPrefetched(step.graph), 100u);
  Plan whole = *plan;
  whole.gaps[0].part.reset();
  double partial = planner.simulate(*plan).stepSeconds;
  double wholeStep = planner.simulate(whole).stepSeconds;
  EXPECT_LT(partial, wholeStep);
  EXPECT_GE(partial, planner.lowerBound(options.memoryBudget).latencySeconds *
                         (1 - 1e-9));
  // Baselines keep whole reloads.
  options.policy = Policy::ReloadOnUse;
  llvm::Expected<Plan> baseline = planner.plan(options);
  ASSERT_TRUE(static_cast<bool>(baseline));
  for (const Gap &gap : baseline->gaps)
    EXPECT_FALSE(gap.part.has_value());
}

// At 1200 bytes (the budget of the first test) only a partial reload fits
// "n": the sweep, needing memory there, keeps `a` away and reads back its
// part alone, under every heuristic policy; without the part 1200 bytes
// are refused at "n", which needs all of `a` then. Exact does not search
// partial reloads and says so.
TEST(PartialReload, SweepPlansABudgetOnlyAPartialReloadMeets) {
  PartStep step(/*withPart=*/true, /*zBytes=*/1000, /*zUsedLast=*/true, 0.2);
  Target target = slowDisk(1e6);
  OffloadPlanner planner(step.graph, target);
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  EXPECT_EQ(lifetimes.getRequiredBytes(3), 100u + 1000u + 4u);
  uint64_t budget = 1200;
  for (Policy policy : allPolicies()) {
    SCOPED_TRACE(policyName(policy).str());
    PlannerOptions options = optionsFor(policy, budget);
    llvm::Expected<Plan> plan = planner.plan(options);
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    ASSERT_EQ(plan->gaps.size(), 1u);
    EXPECT_EQ(plan->gaps[0].part, std::optional<TensorId>(step.v));
    EXPECT_EQ(plan->bytesPrefetched(step.graph), 100u);
    llvm::Error error = verifyPlan(step.graph, lifetimes, *plan, budget);
    EXPECT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
    EXPECT_GE(planner.simulate(*plan).stepSeconds,
              planner.lowerBound(budget).latencySeconds * (1 - 1e-9));
  }
  PlannerOptions exact;
  exact.memoryBudget = budget;
  exact.policy = Policy::Exact;
  llvm::Expected<Plan> refused = planner.plan(exact);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_NE(llvm::toString(refused.takeError()).find("partial reloads"),
            std::string::npos);

  PartStep whole(/*withPart=*/false, 1000, true, 0.2);
  OffloadPlanner wholePlanner(whole.graph, target);
  PlannerOptions options;
  options.memoryBudget = budget;
  llvm::Expected<Plan> infeasible = wholePlanner.plan(options);
  ASSERT_FALSE(static_cast<bool>(infeasible));
  llvm::Error rest = llvm::handleErrors(
      infeasible.takeError(), [&](const InfeasibleBudgetError &error) {
        EXPECT_EQ(error.point, 3u);
        EXPECT_EQ(error.requiredBytes, 1000u + 1000u + 4u);
      });
  EXPECT_FALSE(static_cast<bool>(rest)) << llvm::toString(std::move(rest));
}

namespace {
/// #0 a = f(x)  #1 v = split(a), bytes [900, 1000) of a  #2 c = k(a)
/// #3 z = big(x, c)  #4 y = n(v, z)  #5 q = big2(x, y)  #6 r = use2(q)
/// #7 s = m(v, r). `a` and `z` are 1000 bytes, `q` 1200: "big2" needs
/// 1208 bytes of its own, so at 1300 the row of `a` must leave between
/// the two uses of its part. `a` is saved for "m", the backward pass: the
/// stash-window policy makes its gap before "m" before the sweep runs.
struct TwoUsesOfAPart {
  StepGraph graph{"two-uses-of-a-part"};
  TensorId x, a, v;
  TwoUsesOfAPart() {
    OpCost free{0.0, std::nullopt, std::nullopt};
    OpCost big{0.2, std::nullopt, std::nullopt};
    x = graph.addArgument("x", 4, TensorRole::Input);
    a = graph.addResult(graph.addOp("f", {x}, free), "a", 1000,
                        TensorRole::SavedActivation);
    v = graph.addAlias(graph.addOp("split", {a}, free), "v", a);
    graph.setPart(v, 900, 100);
    TensorId c = graph.addResult(graph.addOp("k", {a}, free), "c", 4);
    TensorId z = graph.addResult(graph.addOp("big", {x, c}, big), "z", 1000);
    TensorId y = graph.addResult(graph.addOp("n", {v, z}, free), "y", 4);
    TensorId q = graph.addResult(graph.addOp("big2", {x, y}, big), "q", 1200);
    TensorId r = graph.addResult(graph.addOp("use2", {q}, free), "r", 4);
    OpId m = graph.addOp("m", {v, r}, free);
    graph.setBackwardStart(m);
    graph.addReturn(graph.addResult(m, "s", 4));
  }
};
} // namespace

// The part read back for "n" leaves again for "big2" and is read back once
// more for "m": the later gap keeps only the part away. Each heuristic
// policy plans 1300 bytes (refused before: no gap could follow a partial
// one), and the plan verifies; live bytes and the timeline count the part.
TEST(PartialReload, APartReadBackMayLeaveAndComeBackAgain) {
  TwoUsesOfAPart step;
  OffloadPlanner planner(step.graph, slowDisk(1e6));
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  uint64_t budget = 1300;
  for (Policy policy : allPolicies()) {
    SCOPED_TRACE(policyName(policy).str());
    PlannerOptions options = optionsFor(policy, budget);
    options.stashWindow = 0; // `a` leaves right after "n"
    llvm::Expected<Plan> plan = planner.plan(options);
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    // Some policies also move `x` (4 bytes) away before "n".
    unsigned gapsOfA = 0;
    uint64_t readOfA = 0;
    for (const Gap &gap : plan->gaps) {
      if (gap.tensor != step.a)
        continue;
      ++gapsOfA;
      readOfA += gap.reloadBytes(step.graph);
      EXPECT_EQ(gap.part, std::optional<TensorId>(step.v));
    }
    EXPECT_EQ(gapsOfA, 2u);
    EXPECT_EQ(readOfA, 200u);
    llvm::Error error = verifyPlan(step.graph, lifetimes, *plan, budget);
    EXPECT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
    std::vector<uint64_t> live = plan->liveBytes(step.graph, lifetimes);
    EXPECT_EQ(live[5], 4u + 4u + 1200u); // x, y, q: the row is away
    EXPECT_EQ(live[7], 100u + 4u + 4u);  // v's row, r, s
    MemoryTimeline timeline(step.graph, lifetimes, &*plan);
    EXPECT_EQ(timeline.getResidentBytes(step.a, 4), 100u);
    EXPECT_EQ(timeline.getResidentBytes(step.a, 7), 100u);
    auto liveAt = [&](uint32_t point) {
      return llvm::is_contained(timeline.getLiveTensors(point), step.a);
    };
    EXPECT_TRUE(liveAt(4));
    EXPECT_FALSE(liveAt(5));
    EXPECT_TRUE(liveAt(7));
  }
}

// Once a tensor came back as its part, a later reload reads the part too:
// the rest of it is not resident to read into.
TEST(PartialReload, VerifierRejectsAWholeReloadAfterAPartialOne) {
  TwoUsesOfAPart step;
  LifetimeAnalysis lifetimes(step.graph);
  Gap first;
  first.tensor = step.a;
  first.offloadSlot = 1;
  first.releaseSlot = 3;
  first.prefetchSlot = first.waitPoint = 4;
  first.part = step.v;
  Gap second = first;
  second.releaseSlot = 5;
  second.prefetchSlot = second.waitPoint = 7;
  Plan plan;
  plan.gaps = {first, second};
  plan.finalize();
  llvm::Error legal = verifyPlan(step.graph, lifetimes, plan, 1300);
  EXPECT_FALSE(static_cast<bool>(legal)) << llvm::toString(std::move(legal));
  plan.gaps[1].part.reset();
  llvm::Error error = verifyPlan(step.graph, lifetimes, plan, 1u << 20);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("read back whole after a reload of only a part"),
            std::string::npos);
}
