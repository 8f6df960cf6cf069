//===- PlannerTest.cpp - Policies, simulator, grouping and report ---------===//
//
// The planner's edge cases (fits, infeasible, persistent state on SSD,
// zero-size tensors, unknown ops), the simulator's timing on plans worked
// out by hand, buffer grouping and the report's contents.
//
//===----------------------------------------------------------------------===//

#include "TinyStep.h"

#include "ssd/Analysis/Planner/CostModel.h"
#include "ssd/Analysis/Planner/GraphGenerator.h"
#include "ssd/Analysis/Planner/MemoryTimeline.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Report.h"

#include <gtest/gtest.h>

#include <map>

using namespace ssd::planner;
using ssd::planner::testing::TinyStep;

namespace {

/// A host-only machine slow enough that the tiny step's transfers take
/// milliseconds: 10 KB/s write, 20 KB/s read, no latency.
Target slowDisk() {
  Target target;
  target.name = "slow-disk";
  target.computeFlops = 1e12;
  target.deviceMemoryBandwidth = 1e12;
  target.ssdWriteBandwidth = 1e4;
  target.ssdReadBandwidth = 2e4;
  return target;
}

PlannerOptions withBudget(uint64_t budget, Policy policy = Policy::Ssd) {
  PlannerOptions options;
  options.memoryBudget = budget;
  options.policy = policy;
  return options;
}

TEST(Planner, PolicyNamesRoundTrip) {
  EXPECT_EQ(allPolicies().size(), 5u);
  for (Policy policy : allPolicies())
    EXPECT_EQ(parsePolicy(policyName(policy)), policy);
  EXPECT_EQ(parsePolicy("belady"), std::nullopt);
  // Every policy the parser accepts is listed (ssd-opt --ssd-list-policies
  // prints this list): the heuristic ones in their order, then exact.
  std::vector<Policy> known(knownPolicies().begin(), knownPolicies().end());
  std::vector<Policy> expected(allPolicies().begin(), allPolicies().end());
  expected.push_back(Policy::Exact);
  EXPECT_EQ(known, expected);
  for (Policy policy : knownPolicies())
    EXPECT_EQ(parsePolicy(policyName(policy)), policy);
}

TEST(Planner, NothingMovesWhenTheStepFits) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  EXPECT_EQ(planner.getUnplannedPeak(), 424u);
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan = planner.plan(withBudget(424, policy));
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    EXPECT_TRUE(plan->gaps.empty()) << policyName(policy).str();
    EXPECT_DOUBLE_EQ(planner.simulate(*plan).stepSeconds, 7e-3);
  }
  EXPECT_DOUBLE_EQ(planner.lowerBound(424).seconds, 7e-3);
}

TEST(Planner, InfeasibleBudgetNamesTheOpAndItsBytes) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan = planner.plan(withBudget(299, policy));
    ASSERT_FALSE(static_cast<bool>(plan));
    bool sawInfeasible = false;
    llvm::handleAllErrors(
        plan.takeError(), [&](const InfeasibleBudgetError &error) {
          sawInfeasible = true;
          EXPECT_EQ(error.point, 4u);
          EXPECT_EQ(error.requiredBytes, 300u);
          EXPECT_EQ(error.budget, 299u);
          EXPECT_NE(error.message().find("op 'bwd1' (#4)"), std::string::npos)
              << error.message();
        });
    EXPECT_TRUE(sawInfeasible);
  }
  EXPECT_TRUE(static_cast<bool>(planner.plan(withBudget(300))));
}

/// A step in which `a` is read through two views, then once more directly
/// after a large temporary:
///
///   #0 a = f(x)      #3 c = h(b)       #6 e = m(vb, d)   return y
///   #1 va = view(a)  #4 d = k(va, c)   #7 z = big(x, e)
///   #2 b = g(x)      #5 vb = t(a)      #8 y = n(a, e)
///
/// `Views` declares them as views of `a`; `Copies` makes them results of
/// their own bytes (what the planner saw before `view_of`); `Reads` reads `a`
/// itself instead and gives the view ops unused 0-byte results: the memory
/// the step really uses, without the constraint that views pin `a`.
struct ViewStep {
  enum Form { Views, Copies, Reads };
  StepGraph graph{"views"};
  TensorId x, a, va, vb;

  explicit ViewStep(Form form) {
    OpCost cost{1e-3, std::nullopt, std::nullopt};
    x = graph.addArgument("x", 100, TensorRole::Input);
    a = graph.addResult(graph.addOp("f", {x}, cost), "a", 1000);
    auto view = [&](llvm::StringRef name) {
      OpId op = graph.addOp(name.str(), {a}, cost);
      if (form == Views)
        return graph.addAlias(op, name.str() + "a", a);
      return graph.addResult(op, name.str() + "a", form == Copies ? 1000 : 0);
    };
    auto use = [&](TensorId view) { return form == Reads ? a : view; };
    va = view("view");
    TensorId b = graph.addResult(graph.addOp("g", {x}, cost), "b", 500);
    TensorId c = graph.addResult(graph.addOp("h", {b}, cost), "c", 10);
    TensorId d = graph.addResult(graph.addOp("k", {use(va), c}, cost), "d", 10);
    vb = view("t");
    TensorId e = graph.addResult(graph.addOp("m", {use(vb), d}, cost), "e", 10);
    graph.addResult(graph.addOp("big", {x, e}, cost), "z", 800);
    graph.addReturn(graph.addResult(graph.addOp("n", {a, e}, cost), "y", 10));
  }
};

TEST(Planner, ViewsShareTheirStorageWhichLeavesBetweenTheirUses) {
  ViewStep views(ViewStep::Views), reads(ViewStep::Reads),
      copies(ViewStep::Copies);
  ASSERT_FALSE(static_cast<bool>(views.graph.verify()));
  Target target = slowDisk();
  OffloadPlanner withViews(views.graph, target), withReads(reads.graph, target),
      withCopies(copies.graph, target);
  const LifetimeAnalysis &lifetimes = withViews.getLifetimes();
  EXPECT_EQ(views.graph.getTensor(views.va).bytes, 0u);
  EXPECT_EQ(views.graph.getTensor(views.vb).bytes, 0u);
  EXPECT_EQ(views.graph.getStorage(views.vb), views.a);
  // `a` is needed where it or a view of it is touched, as if the ops read
  // `a` itself: #2 and #3 may find it away (the view is rebuilt after the
  // reload), and so may #7.
  EXPECT_EQ(lifetimes.getTouches(views.a).vec(),
            (std::vector<uint32_t>{0, 1, 4, 5, 6, 8}));
  EXPECT_EQ(lifetimes.getTouches(views.a).vec(),
            withReads.getLifetimes().getTouches(reads.a).vec());
  EXPECT_EQ(lifetimes.getLiveEnd(views.a), 8u);
  EXPECT_EQ(lifetimes.getRequiredBytes(2), 600u);
  EXPECT_EQ(withViews.getUnplannedPeak(), 1910u);
  EXPECT_EQ(withViews.getUnplannedPeak(), withReads.getUnplannedPeak());
  EXPECT_EQ(withCopies.getUnplannedPeak(), 2610u);
  MemoryTimeline timeline(views.graph, lifetimes);
  std::vector<TensorId> live = timeline.getLiveTensors(4);
  EXPECT_TRUE(llvm::is_contained(live, views.a));
  EXPECT_FALSE(llvm::is_contained(live, views.va));

  // Under a budget that makes `a` leave during #2 and #3, the views cost
  // what reading `a` itself costs: the same gaps, the same step.
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> viewPlan = withViews.plan(withBudget(1200, policy));
    llvm::Expected<Plan> readPlan = withReads.plan(withBudget(1200, policy));
    ASSERT_TRUE(static_cast<bool>(viewPlan))
        << llvm::toString(viewPlan.takeError());
    ASSERT_TRUE(static_cast<bool>(readPlan))
        << llvm::toString(readPlan.takeError());
    ASSERT_EQ(viewPlan->gaps.size(), readPlan->gaps.size());
    for (auto [mine, theirs] : llvm::zip(viewPlan->gaps, readPlan->gaps)) {
      EXPECT_EQ(mine.tensor, theirs.tensor);
      EXPECT_EQ(mine.releaseSlot, theirs.releaseSlot);
      EXPECT_EQ(mine.waitPoint, theirs.waitPoint);
    }
    EXPECT_TRUE(llvm::any_of(viewPlan->gaps, [&](const Gap &gap) {
      return gap.tensor == views.a && gap.releaseSlot <= 2 &&
             gap.waitPoint >= 4;
    })) << policyName(policy).str();
    EXPECT_DOUBLE_EQ(withViews.simulate(*viewPlan).stepSeconds,
                     withReads.simulate(*readPlan).stepSeconds);
  }

  // A hand-made plan that keeps `a` away where a view of it is used is
  // unsafe.
  Plan unsafe;
  Gap gap;
  gap.tensor = views.a;
  gap.offloadSlot = gap.releaseSlot = 2;
  gap.prefetchSlot = gap.waitPoint = 5;
  unsafe.gaps.push_back(gap);
  unsafe.finalize();
  llvm::Error error = verifyPlan(views.graph, lifetimes, unsafe, 1 << 20);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("point 4"),
            std::string::npos);
  Plan onView;
  gap.tensor = views.va;
  onView.gaps.push_back(gap);
  onView.finalize();
  error = verifyPlan(views.graph, lifetimes, onView, 1 << 20);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("is a view of 'a'"),
            std::string::npos);
}

TEST(Planner, ReturnedViewNeedsItsStorageAtTheReturn) {
  StepGraph graph;
  TensorId w = graph.addArgument("w", 1000, TensorRole::Param);
  TensorId x = graph.addArgument("x", 100, TensorRole::Input);
  TensorId wt = graph.addAlias(graph.addOp("t", {w}), "wt", w);
  graph.addResult(graph.addOp("big", {x}), "z", 800);
  graph.addReturn(wt, w);
  ASSERT_FALSE(static_cast<bool>(graph.verify()));
  OffloadPlanner planner(graph, slowDisk());
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  EXPECT_EQ(lifetimes.getLiveEnd(w), lifetimes.returnPoint());
  EXPECT_FALSE(lifetimes.mayLeaveOnSsd(w, lifetimes.returnPoint()));
  EXPECT_FALSE(lifetimes.mayLeaveOnSsd(wt, lifetimes.returnPoint()));
  EXPECT_EQ(lifetimes.getTouches(w).vec(),
            (std::vector<uint32_t>{0, lifetimes.returnPoint()}));
  // Neither leaves on SSD, but `w` may leave during #1 and come back for
  // the return, where the view is rebuilt.
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan = planner.plan(withBudget(1899, policy));
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    ASSERT_EQ(plan->gaps.size(), 1u);
    EXPECT_EQ(plan->gaps[0].tensor, w);
    EXPECT_FALSE(plan->gaps[0].leavesOnSsd);
    EXPECT_FALSE(plan->gaps[0].entersOnSsd);
    EXPECT_EQ(plan->gaps[0].waitPoint, lifetimes.returnPoint());
  }
}

TEST(Planner, EveryPolicyMeetsTheBudgetAndOursIsFastest) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  for (uint64_t budget : {414u, 404u, 350u, 324u, 300u}) {
    double ours = 0;
    for (Policy policy : allPolicies()) {
      llvm::Expected<Plan> plan = planner.plan(withBudget(budget, policy));
      ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
      EXPECT_FALSE(static_cast<bool>(
          verifyPlan(step.graph, planner.getLifetimes(), *plan, budget)));
      double seconds = planner.simulate(*plan).stepSeconds;
      EXPECT_GE(seconds, planner.lowerBound(budget).seconds * (1 - 1e-12));
      if (policy == Policy::Ssd)
        ours = seconds;
      else
        EXPECT_LE(ours, seconds * (1 + 1e-12)) << policyName(policy).str();
    }
  }
}

TEST(Planner, PersistentStateEntersAndLeavesOnSsdTogether) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  // 10 bytes must go at #3; least recently used is m, untouched since entry.
  llvm::Expected<Plan> plan =
      planner.chooseGaps(withBudget(414, Policy::FixedDepth));
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  ASSERT_EQ(plan->gaps.size(), 2u);
  const Gap &enter = plan->gaps[0];
  const Gap &leave = plan->gaps[1];
  EXPECT_EQ(enter.tensor, step.m);
  EXPECT_TRUE(enter.entersOnSsd);
  EXPECT_FALSE(enter.writes);
  EXPECT_EQ(enter.waitPoint, 6u);
  EXPECT_EQ(leave.tensor, step.m2);
  EXPECT_TRUE(leave.leavesOnSsd);
  EXPECT_TRUE(leave.writes);
  EXPECT_EQ(leave.releaseSlot, 7u);
  EXPECT_FALSE(static_cast<bool>(
      verifyPlan(step.graph, planner.getLifetimes(), *plan, 414)));
}

PlannerOptions movingOnly(uint64_t budget, Policy policy,
                          std::initializer_list<TensorRole> roles) {
  PlannerOptions options = withBudget(budget, policy);
  options.movableRoles = RoleSet();
  for (TensorRole role : roles)
    options.movableRoles.insert(role);
  return options;
}

TEST(Planner, RoleListsParse) {
  llvm::Expected<RoleSet> every = parseRoleList("");
  ASSERT_TRUE(static_cast<bool>(every));
  EXPECT_EQ(*every, RoleSet::all());
  llvm::Expected<RoleSet> two = parseRoleList("activation, gradient");
  ASSERT_TRUE(static_cast<bool>(two));
  EXPECT_TRUE(two->contains(TensorRole::SavedActivation));
  EXPECT_TRUE(two->contains(TensorRole::Gradient));
  EXPECT_FALSE(two->contains(TensorRole::Param));
  llvm::Expected<RoleSet> bad = parseRoleList("activation,weights");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("unknown role 'weights'"),
            std::string::npos);
}

TEST(Planner, OnlyMovableRolesMove) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  // 10 bytes must go at #3 and #4. Unrestricted, fixed-depth moves the
  // optimizer state (see above); restricted to activations and inputs,
  // every policy moves `a` or `x`.
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan = planner.plan(movingOnly(
        414, policy, {TensorRole::SavedActivation, TensorRole::Input}));
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    ASSERT_FALSE(plan->gaps.empty()) << policyName(policy).str();
    for (const Gap &gap : plan->gaps)
      EXPECT_TRUE(gap.tensor == step.a || gap.tensor == step.x)
          << policyName(policy).str() << " moves "
          << step.graph.getTensor(gap.tensor).name;
  }
  // Activations alone cannot make room at #4, where `a` is in use.
  llvm::Expected<Plan> activationsOnly =
      planner.plan(movingOnly(414, Policy::Ssd, {TensorRole::SavedActivation}));
  ASSERT_FALSE(static_cast<bool>(activationsOnly));
  llvm::consumeError(activationsOnly.takeError());
}

TEST(Planner, SteadyStateMovesOnlyWithAMovablePartner) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  // The optimizer state may move but its next value (a temporary) may not
  // leave on SSD, so `m` cannot enter on SSD: it is written and read back.
  llvm::Expected<Plan> plan = planner.chooseGaps(
      movingOnly(414, Policy::FixedDepth, {TensorRole::OptimizerState}));
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  ASSERT_EQ(plan->gaps.size(), 1u);
  const Gap &gap = plan->gaps[0];
  EXPECT_EQ(gap.tensor, step.m);
  EXPECT_FALSE(gap.entersOnSsd);
  EXPECT_FALSE(gap.leavesOnSsd);
  EXPECT_TRUE(gap.writes);
  EXPECT_EQ(gap.waitPoint, 6u);
  EXPECT_FALSE(static_cast<bool>(
      verifyPlan(step.graph, planner.getLifetimes(), *plan, 414)));
}

TEST(Planner, UnmovableRolesMakeABudgetInfeasible) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  // At #3 nothing but gradients may move, and none is live yet: l, b and gb
  // (204 bytes) are the op's own, x, w, m and a (220) may not move.
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan =
        planner.plan(movingOnly(414, policy, {TensorRole::Gradient}));
    ASSERT_FALSE(static_cast<bool>(plan));
    bool sawInfeasible = false;
    llvm::handleAllErrors(
        plan.takeError(), [&](const InfeasibleBudgetError &error) {
          sawInfeasible = true;
          EXPECT_EQ(error.point, 3u);
          EXPECT_EQ(error.requiredBytes, 424u);
          EXPECT_EQ(error.unmovableBytes, 220u);
          EXPECT_NE(error.message().find("op 'bwd2' (#3)"), std::string::npos)
              << error.message();
        });
    EXPECT_TRUE(sawInfeasible) << policyName(policy).str();
  }
}

TEST(Planner, ZeroSizeTensorsUnknownOpsAndBranchesPlan) {
  GeneratorOptions options;
  options.layers = 5;
  options.zeroSizeProbability = 0.3;
  options.unknownOpProbability = 0.5;
  options.residualProbability = 0.8;
  options.markBackwardStart = false;
  StepGraph graph = generateTrainingStep(options);
  ASSERT_FALSE(static_cast<bool>(graph.verify()));
  Target target = *getTargetPreset("rtx4090-pcie4-990pro");
  OffloadPlanner planner(graph, target);
  uint64_t budget = planner.getUnplannedPeak() / 2;
  for (Policy policy : allPolicies()) {
    llvm::Expected<Plan> plan = planner.plan(withBudget(budget, policy));
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    for (const Gap &gap : plan->gaps)
      EXPECT_GT(graph.getTensor(gap.tensor).bytes, 0u);
  }
}

/// Reload gaps in order of use.
std::vector<const Gap *> reloadsByUse(const Plan &plan) {
  std::vector<const Gap *> reloads;
  for (const Gap &gap : plan.gaps)
    if (gap.reloads())
      reloads.push_back(&gap);
  llvm::sort(reloads, [](const Gap *a, const Gap *b) {
    return std::make_pair(a->waitPoint, a->tensor) <
           std::make_pair(b->waitPoint, b->tensor);
  });
  return reloads;
}

TEST(Planner, BaselinesFollowTheirDefinitions) {
  GeneratorOptions generator;
  generator.layers = 6;
  StepGraph graph = generateTrainingStep(generator);
  Target target = *getTargetPreset("h100-pcie5-pm1743");
  OffloadPlanner planner(graph, target);
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  uint64_t budget = planner.getUnplannedPeak() * 6 / 10;
  auto planWith = [&](Policy policy) {
    llvm::Expected<Plan> plan = planner.plan(withBudget(budget, policy));
    EXPECT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    return plan ? std::move(*plan) : Plan();
  };

  // save_on_cpu reloads synchronously at the use.
  Plan onUse = planWith(Policy::ReloadOnUse);
  EXPECT_FALSE(reloadsByUse(onUse).empty());
  for (const Gap *gap : reloadsByUse(onUse))
    EXPECT_EQ(gap->prefetchSlot, gap->waitPoint);

  // ZeRO-Infinity keeps two reloads in flight: a reload starts no earlier
  // than the use of the reload two before it.
  Plan fixedDepth = planWith(Policy::FixedDepth);
  std::vector<const Gap *> depth = reloadsByUse(fixedDepth);
  EXPECT_GT(depth.size(), 2u);
  for (size_t i = 2; i < depth.size(); ++i)
    EXPECT_GE(depth[i]->prefetchSlot, depth[i - 2]->waitPoint);

  // torchtune offloads every saved activation and prefetches one ahead.
  Plan stash = planWith(Policy::StashWindow);
  std::vector<bool> evicted(graph.numTensors(), false);
  unsigned savedWithLongGaps = 0;
  for (const Gap &gap : stash.gaps)
    evicted[gap.tensor] = true;
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    auto backward = std::lower_bound(touches.begin(), touches.end(),
                                     lifetimes.getBackwardStart());
    bool longGap = backward != touches.begin() && backward != touches.end() &&
                   *backward > *(backward - 1) + 1 + 2;
    if (lifetimes.getRole(tensor) == TensorRole::SavedActivation &&
        graph.getTensor(tensor).bytes && longGap) {
      ++savedWithLongGaps;
      EXPECT_TRUE(evicted[tensor]) << graph.getTensor(tensor).name;
    }
  }
  EXPECT_GT(savedWithLongGaps, 5u);
  std::vector<const Gap *> ahead = reloadsByUse(stash);
  for (size_t i = 1; i < ahead.size(); ++i)
    EXPECT_GE(ahead[i]->prefetchSlot, ahead[i - 1]->waitPoint);

  // AOTAutograd's pass starts a reload no earlier than needed for the
  // compute in between to cover its transfer.
  std::vector<double> before = computeSecondsBefore(planner.getOpSeconds());
  Plan aot = planWith(Policy::AotPrefetch);
  EXPECT_FALSE(reloadsByUse(aot).empty());
  for (const Gap *gap : reloadsByUse(aot)) {
    double transfer =
        2 * target.ioLatencySeconds +
        graph.getTensor(gap->tensor).bytes *
            (1 / target.ssdReadBandwidth + 1 / target.hostToDeviceBandwidth);
    if (gap->prefetchSlot > 0)
      EXPECT_LT(before[gap->waitPoint] - before[gap->prefetchSlot - 1],
                transfer);
  }
}

TEST(Planner, SplitPassesMatchThePipeline) {
  // ssd-plan-offload then ssd-insert-prefetch reach the same plan as
  // ssd-offload-pipeline.
  Target target = *getTargetPreset("h100-pcie5-4xpm1743");
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    GeneratorOptions generator;
    generator.seed = seed;
    generator.layers = 3 + seed;
    generator.flopsPerByte = seed % 2 ? 2e4 : 1e5;
    StepGraph graph = generateTrainingStep(generator);
    OffloadPlanner planner(graph, target);
    PlannerOptions options =
        withBudget(planner.getUnplannedPeak() * (40 + 10 * (seed % 3)) / 100);
    llvm::Expected<Plan> whole = planner.plan(options);
    ASSERT_TRUE(static_cast<bool>(whole)) << llvm::toString(whole.takeError());
    llvm::Expected<Plan> gaps = planner.chooseGaps(options);
    ASSERT_TRUE(static_cast<bool>(gaps)) << llvm::toString(gaps.takeError());
    for (const Gap &gap : gaps->gaps)
      EXPECT_TRUE(!gap.reloads() || gap.prefetchSlot == gap.waitPoint);
    EXPECT_FALSE(static_cast<bool>(verifyPlan(graph, planner.getLifetimes(),
                                              *gaps, options.memoryBudget)));
    planner.schedulePrefetches(*gaps, options);
    EXPECT_FALSE(static_cast<bool>(verifyPlan(graph, planner.getLifetimes(),
                                              *gaps, options.memoryBudget)));
    EXPECT_DOUBLE_EQ(planner.simulate(*gaps).stepSeconds,
                     planner.simulate(*whole).stepSeconds)
        << "seed " << seed;
  }
}

TEST(Planner, DegenerateSteps) {
  Target target = slowDisk();
  // No ops at all: the return is the only point.
  StepGraph empty("empty");
  TensorId state = empty.addArgument("state", 64, TensorRole::Buffer);
  empty.addReturn(state, state);
  OffloadPlanner emptyPlanner(empty, target);
  EXPECT_EQ(emptyPlanner.getUnplannedPeak(), 64u);
  // Below the peak the buffer stays on SSD across steps, never written.
  llvm::Expected<Plan> plan = emptyPlanner.plan(withBudget(0));
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  ASSERT_EQ(plan->gaps.size(), 1u);
  EXPECT_TRUE(plan->gaps[0].entersOnSsd);
  EXPECT_TRUE(plan->gaps[0].leavesOnSsd);
  EXPECT_EQ(plan->bytesOffloaded(empty), 0u);
  EXPECT_EQ(emptyPlanner.simulate(*plan).stepSeconds, 0.0);

  // An op that reads one tensor twice needs it once; zero-size tensors
  // need nothing.
  StepGraph twice("twice");
  TensorId x = twice.addArgument("x", 10, TensorRole::Input);
  TensorId nothing = twice.addArgument("nothing", 0, TensorRole::Input);
  TensorId y = twice.addResult(twice.addOp("add", {x, x, nothing}), "y", 10);
  twice.addReturn(y);
  OffloadPlanner twicePlanner(twice, target);
  EXPECT_EQ(twicePlanner.getLifetimes().getRequiredBytes(0), 20u);
  EXPECT_TRUE(static_cast<bool>(twicePlanner.plan(withBudget(20))));
}

Plan handPlan(const TinyStep &step) {
  Plan plan;
  plan.memoryBudget = 1000;
  Gap gap;
  gap.tensor = step.a;
  gap.offloadSlot = 1;
  gap.releaseSlot = 2;
  gap.prefetchSlot = 3;
  gap.waitPoint = 4;
  plan.gaps.push_back(gap);
  plan.finalize();
  return plan;
}

TEST(Simulator, HostOnlyTimingByHand) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  SimulationResult result = planner.simulate(handPlan(step));
  // Write issued after #0 (1 ms), 10 ms long; the release before #2 waits
  // until 11 ms. #2 and #3 run to 13 ms; the read issued before #3 (12 ms)
  // takes 5 ms, so #4 waits until 17 ms; three more ops end at 20 ms.
  EXPECT_NEAR(result.stepSeconds, 20e-3, 1e-12);
  EXPECT_NEAR(result.computeSeconds, 7e-3, 1e-12);
  EXPECT_NEAR(result.stallSeconds, 13e-3, 1e-12);
  EXPECT_NEAR(result.copyReady[0], 11e-3, 1e-12);
  EXPECT_NEAR(result.reloadReady[0], 17e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::SsdWrite)],
              10e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::SsdRead)],
              5e-3, 1e-12);
  EXPECT_EQ(result.busySeconds[static_cast<unsigned>(Resource::HostToDevice)],
            0.0);
  EXPECT_EQ(result.bytesWritten, 100u);
  EXPECT_EQ(result.bytesRead, 100u);
  EXPECT_EQ(result.transfers, 2u);
}

TEST(Simulator, OwnReadAndWriteLatencyAndIssueTimeByHand) {
  TinyStep step;
  Target target = slowDisk();
  target.ioLatencySeconds = 1.0; // overridden on both SSD queues
  target.ssdWriteLatencySeconds = 2e-3;
  target.ssdReadLatencySeconds = 1e-3;
  target.transferIssueSeconds = 0.5e-3;
  OffloadPlanner planner(step.graph, target);
  SimulationResult result = planner.simulate(handPlan(step));
  // Issuing the write after #0 takes to 1.5 ms; durable at 1.5+2+10 = 13.5.
  // #2 runs 13.5-14.5; issuing the read takes to 15, read done at 15+1+5 =
  // 21 ms; #3 runs 15-16, #4 waits until 21, and three ops end at 24 ms.
  EXPECT_NEAR(result.copyReady[0], 13.5e-3, 1e-12);
  EXPECT_NEAR(result.reloadReady[0], 21e-3, 1e-12);
  EXPECT_NEAR(result.stepSeconds, 24e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::SsdWrite)],
              12e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::SsdRead)],
              6e-3, 1e-12);
}

/// x -> split -> parts of the given sizes, f(x) -> filler, sum of all
/// returned; every part is offloaded and released right after the split
/// and read back right before the sum.
struct SplitStep {
  explicit SplitStep(std::initializer_list<uint64_t> sizes) {
    TensorId x = graph.addArgument("x", 10, TensorRole::Input);
    OpId producer = graph.addOp("split", {x});
    for (uint64_t bytes : sizes)
      parts.push_back(graph.addResult(
          producer, "part" + std::to_string(parts.size()), bytes));
    std::vector<TensorId> summed = parts;
    summed.push_back(graph.addResult(graph.addOp("f", {x}), "filler", 50));
    graph.addReturn(graph.addResult(graph.addOp("sum", summed), "sum", 1));
    for (TensorId tensor : parts) {
      Gap gap;
      gap.tensor = tensor;
      gap.offloadSlot = 1;
      gap.releaseSlot = 1;
      gap.prefetchSlot = 2;
      gap.waitPoint = 2;
      plan.gaps.push_back(gap);
    }
    plan.finalize();
  }
  StepGraph graph;
  std::vector<TensorId> parts;
  Plan plan;
};

TEST(Simulator, SharedTransferWorkersOverlapLatenciesByHand) {
  SplitStep step({10, 10});
  Target target = slowDisk(); // 10 bytes: 1 ms to write, 0.5 ms to read
  target.ioLatencySeconds = 1e-3;
  auto stepSeconds = [&](unsigned workers) {
    target.ssdTransferWorkers = workers;
    return OffloadPlanner(step.graph, target).simulate(step.plan).stepSeconds;
  };
  // One transfer at a time each way: writes end at 2 and 4 ms, reads
  // (from 4 ms) at 5.5 and 7 ms.
  EXPECT_NEAR(stepSeconds(0), 7e-3, 1e-9);
  // One shared worker: the same, one transfer at a time in all.
  EXPECT_NEAR(stepSeconds(1), 7e-3, 1e-9);
  // Two workers: both latencies from 0, the bytes one after the other:
  // writes end at 2 and 3 ms; reads start at 3 ms, end at 4.5 and 5 ms.
  EXPECT_NEAR(stepSeconds(2), 5e-3, 1e-9);
}

TEST(Simulator, IdleLatencyInSteadyStateByHand) {
  TinyStep step;
  Target target = slowDisk();
  // One I/O thread; 1 ms extra after 1 ms idle, growing by 0.25 ms per ms
  // to 3 ms at 9 ms.
  target.ssdTransferWorkers = 1;
  target.ssdIdleLatency = {{1e-3, 1e-3}, {9e-3, 3e-3}};
  OffloadPlanner planner(step.graph, target);
  SimulationResult result = planner.simulate(handPlan(step));
  // A step after a long idle would write from 1 ms with 3 ms extra (durable
  // at 14 ms), read from 15 ms after 1 ms idle (1 ms extra, resident at 21
  // ms) and end at 24 ms: its last transfer ends 3 ms before the step does.
  // In steady state the write follows 1 + 3 = 4 ms of idle: 1.75 ms extra,
  // durable at 1 + 1.75 + 10 = 12.75 ms. #2 runs to 13.75; the read after
  // 1 ms of idle is resident at 13.75 + 1 + 5 = 19.75 ms; three more ops.
  EXPECT_NEAR(result.copyReady[0], 12.75e-3, 1e-12);
  EXPECT_NEAR(result.reloadReady[0], 19.75e-3, 1e-12);
  EXPECT_NEAR(result.stepSeconds, 22.75e-3, 1e-12);
  EXPECT_NEAR(result.idleLatencySeconds, 2.75e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::SsdWrite)],
              11.75e-3, 1e-12);
  // Without workers the same: the quiet spell counts from the last SSD
  // transfer in either direction, so the read queue, unused since the
  // previous step's read, still waits only 1 ms of idle.
  target.ssdTransferWorkers = 0;
  SimulationResult perQueue =
      OffloadPlanner(step.graph, target).simulate(handPlan(step));
  EXPECT_NEAR(perQueue.idleLatencySeconds, 2.75e-3, 1e-12);
  EXPECT_NEAR(perQueue.stepSeconds, 22.75e-3, 1e-12);
  // Two workers, each idle since its own transfer: a transfer that starts
  // while the other worker's is in flight pays no idle latency (the SSD
  // path is busy), only the lone latency.
  SplitStep split({10, 10});
  target.ssdTransferWorkers = 2;
  target.ssdIdleLatency = {{1e-15, 1.0}};
  // Both writes start together: the first pays 1 s, the second starts
  // while it is in flight. The reads start after the release and a few ps
  // of compute: the first pays, the second starts while it is in flight.
  EXPECT_NEAR(OffloadPlanner(split.graph, target)
                  .simulate(split.plan)
                  .idleLatencySeconds,
              2.0, 1e-9);
}

TEST(Simulator, QueuedTransfersHaveTheirOwnLatencyByHand) {
  SplitStep step({10, 10});
  Target target = slowDisk(); // 10 bytes: 1 ms to write, 0.5 ms to read
  target.ioLatencySeconds = 1e-3;
  target.ssdTransferWorkers = 1;
  auto stepSeconds = [&] {
    return OffloadPlanner(step.graph, target).simulate(step.plan).stepSeconds;
  };
  EXPECT_NEAR(stepSeconds(), 7e-3, 1e-9);
  // The second write and the second read wait for the worker: 0.25 ms
  // each instead of 1. Writes end at 2 and 3.25 ms; the first read finds
  // the worker idle (1 ms), ends at 4.75; the second at 5.5 ms.
  target.ssdWriteQueuedLatencySeconds = 0.25e-3;
  target.ssdReadQueuedLatencySeconds = 0.25e-3;
  EXPECT_TRUE(target.hasIdleDependentLatency());
  EXPECT_NEAR(stepSeconds(), 5.5e-3, 1e-9);
}

TEST(Simulator, HostLinkAndLatencyByHand) {
  TinyStep step;
  Target target = slowDisk();
  target.hostToDeviceBandwidth = target.deviceToHostBandwidth = 1e5;
  target.ioLatencySeconds = 1e-3;
  OffloadPlanner planner(step.graph, target);
  SimulationResult result = planner.simulate(handPlan(step));
  // Offload: D2H 1+1 ms, then write 1+10 ms: durable at 1+2+11 = 14 ms.
  // #2, #3 run 14-16; read from 15 ms: 1+5 ms, then H2D 1+1 ms: 23 ms.
  EXPECT_NEAR(result.copyReady[0], 14e-3, 1e-12);
  EXPECT_NEAR(result.reloadReady[0], 23e-3, 1e-12);
  EXPECT_NEAR(result.stepSeconds, 26e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::DeviceToHost)],
              2e-3, 1e-12);
  EXPECT_NEAR(result.busySeconds[static_cast<unsigned>(Resource::HostToDevice)],
              2e-3, 1e-12);
}

TEST(Grouping, SmallTransfersAtOneSlotMoveTogether) {
  SplitStep step({10, 10, 1000});
  Plan &plan = step.plan;
  Target target = slowDisk();
  target.ioLatencySeconds = 1e-3;
  OffloadPlanner planner(step.graph, target);
  SimulationResult separate = planner.simulate(plan);
  EXPECT_EQ(groupTransfers(plan, step.graph, 100), 2u);
  EXPECT_EQ(plan.gaps[0].offloadGroup, plan.gaps[1].offloadGroup);
  EXPECT_EQ(plan.gaps[2].offloadGroup, kNoGroup); // the third part is large
  EXPECT_NE(plan.gaps[0].prefetchGroup, kNoGroup);
  LifetimeAnalysis lifetimes(step.graph);
  EXPECT_FALSE(
      static_cast<bool>(verifyPlan(step.graph, lifetimes, plan, 2000)));
  SimulationResult grouped = planner.simulate(plan);
  EXPECT_EQ(separate.transfers, 6u);
  EXPECT_EQ(grouped.transfers, 4u);
  EXPECT_EQ(grouped.bytesWritten, separate.bytesWritten);
  EXPECT_NEAR(separate.stepSeconds - grouped.stepSeconds, 2e-3, 1e-9);
}

TEST(Report, ChromeTraceHasOneTrackPerQueueAndEveryTransfer) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  llvm::Expected<Plan> plan = planner.plan(withBudget(324));
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  std::vector<TransferSpan> spans;
  SimulationResult simulation = planner.simulate(*plan, &spans);
  // Each transfer takes both hops where the target has a host link.
  EXPECT_EQ(spans.size(),
            simulation.transfers * (target.hasHostLink() ? 2u : 1u));
  EXPECT_EQ(planner.simulate(*plan).stepSeconds, simulation.stepSeconds);
  for (const TransferSpan &span : spans) {
    EXPECT_LE(span.start, span.end);
    EXPECT_LE(span.end, simulation.stepSeconds * (1 + 1e-12));
    EXPECT_FALSE(span.gaps.empty());
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  writeChromeTrace(os, planner, *plan);
  llvm::Expected<llvm::json::Value> trace = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(trace)) << llvm::toString(trace.takeError());
  const llvm::json::Array *events =
      trace->getAsObject()->getArray("traceEvents");
  ASSERT_TRUE(events);
  std::map<int64_t, std::string> tracks;
  std::map<int64_t, unsigned> slices;
  double computeMicros = 0;
  for (const llvm::json::Value &value : *events) {
    const llvm::json::Object &event = *value.getAsObject();
    int64_t tid = *event.getInteger("tid");
    if (event.getString("ph") == "M" &&
        event.getString("name") == "thread_name")
      tracks[tid] =
          event.getObject("args")->getString("name").value_or("").str();
    if (event.getString("ph") == "X") {
      ++slices[tid];
      if (tid == 1 && event.getString("name") != "stall")
        computeMicros += *event.getNumber("dur");
    }
  }
  EXPECT_EQ(tracks, (std::map<int64_t, std::string>{{1, "compute"},
                                                    {2, "h2d"},
                                                    {3, "d2h"},
                                                    {4, "ssd_read"},
                                                    {5, "ssd_write"}}));
  EXPECT_NEAR(computeMicros, simulation.computeSeconds * 1e6, 1e-6);
  EXPECT_EQ(slices[2] + slices[3] + slices[4] + slices[5], spans.size());
}

TEST(Report, HasEveryFieldAndAPicture) {
  TinyStep step;
  Target target = slowDisk();
  OffloadPlanner planner(step.graph, target);
  llvm::Expected<Plan> plan = planner.plan(withBudget(324));
  ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
  SimulationResult simulation = planner.simulate(*plan);
  llvm::json::Object report =
      buildPlanReport(planner, *plan, simulation, planner.lowerBound(324));
  for (llvm::StringRef key :
       {"function", "ops", "tensors", "memory_budget_bytes",
        "peak_bytes_before", "peak_bytes_after", "compute_seconds",
        "predicted_step_seconds", "stall_seconds", "lower_bound_seconds",
        "lower_bound_latency_seconds", "bytes_offloaded", "bytes_prefetched",
        "policy", "busy_seconds"})
    EXPECT_TRUE(report.get(key)) << key.str();
  EXPECT_EQ(report.getString("policy"), std::optional<llvm::StringRef>("ssd"));
  EXPECT_EQ(report.getString("function"),
            std::optional<llvm::StringRef>("tiny"));
  EXPECT_EQ(report.getInteger("peak_bytes_before"),
            std::optional<int64_t>(424));
  EXPECT_LE(*report.getInteger("peak_bytes_after"), 324);
  const llvm::json::Object *busy = report.getObject("busy_seconds");
  ASSERT_TRUE(busy);
  for (llvm::StringRef resource :
       {"compute", "h2d", "d2h", "ssd_read", "ssd_write"})
    EXPECT_TRUE(busy->get(resource)) << resource.str();

  EXPECT_TRUE(report.getInteger("lower_bound_critical_point"));

  // The plan and the analyses print what they hold.
  std::string text;
  llvm::raw_string_ostream printed(text);
  step.graph.print(printed);
  planner.getLifetimes().print(printed);
  plan->print(printed, step.graph);
  EXPECT_NE(text.find("step 'tiny': 7 ops, 11 tensors"), std::string::npos);
  EXPECT_NE(text.find("'a' bytes=100 role=activation def=#0 uses=[#1, #4]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("plan (ssd"), std::string::npos);
  llvm::json::Value gaps = plan->toJSON(step.graph);
  ASSERT_TRUE(gaps.getAsArray());
  EXPECT_EQ(gaps.getAsArray()->size(), plan->gaps.size());
  if (!plan->gaps.empty()) {
    const llvm::json::Object *first = (*gaps.getAsArray())[0].getAsObject();
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->getString("tensor"));
    EXPECT_TRUE(first->getInteger("bytes"));
  }

  std::string svg;
  llvm::raw_string_ostream os(svg);
  writeMemoryTimelineSVG(os, "tiny <step>", planner.getUnplannedLiveBytes(),
                         plan->liveBytes(step.graph, planner.getLifetimes()),
                         324);
  EXPECT_EQ(os.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("tiny &lt;step&gt;"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(svg.find("<step>"), std::string::npos);
}

} // namespace
