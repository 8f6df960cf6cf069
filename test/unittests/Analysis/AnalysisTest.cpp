//===- AnalysisTest.cpp - Graph model, lifetimes and the plan verifier ----===//
//
// The analyses on a step small enough to check by hand, and the verifier's
// acceptance and every kind of rejection.
//
//===----------------------------------------------------------------------===//

#include "TinyStep.h"

#include "ssd/Analysis/Planner/MemoryTimeline.h"
#include "ssd/Analysis/Planner/Plan.h"

#include <gtest/gtest.h>

using namespace ssd::planner;
using ssd::planner::testing::TinyStep;

namespace {

std::vector<uint32_t> vec(llvm::ArrayRef<uint32_t> values) {
  return values.vec();
}

TEST(StepGraph, VerifiesUseBeforeDefinition) {
  StepGraph graph;
  TensorId x = graph.addArgument("x", 4, TensorRole::Input);
  OpId op = graph.addOp("f", {x});
  TensorId y = graph.addResult(op, "y", 4);
  EXPECT_FALSE(static_cast<bool>(graph.verify()));
  graph.addOp("g", {y + 1});
  llvm::Error error = graph.verify();
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("before it is defined"),
            std::string::npos);
}

TEST(StepGraph, VerifiesPartners) {
  StepGraph graph;
  TensorId x = graph.addArgument("x", 4, TensorRole::Input);
  TensorId y = graph.addResult(graph.addOp("f", {x}), "y", 4);
  graph.addReturn(y, x);
  llvm::Error error = graph.verify();
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("not a persistent argument"),
            std::string::npos);
  EXPECT_FALSE(static_cast<bool>(TinyStep().graph.verify()));
}

TEST(StepGraph, RoleNamesRoundTrip) {
  for (TensorRole role : {TensorRole::Unknown, TensorRole::Input,
                          TensorRole::Param, TensorRole::OptimizerState,
                          TensorRole::Buffer, TensorRole::SavedActivation,
                          TensorRole::Gradient, TensorRole::Temporary})
    EXPECT_EQ(parseRole(roleName(role)), role);
  EXPECT_EQ(parseRole("weights"), std::nullopt);
  EXPECT_TRUE(isPersistentRole(TensorRole::Buffer));
  EXPECT_FALSE(isPersistentRole(TensorRole::Input));
}

TEST(Lifetimes, TouchesUsesAndLiveRanges) {
  TinyStep step;
  LifetimeAnalysis lifetimes(step.graph);
  EXPECT_EQ(lifetimes.numPoints(), 8u);
  EXPECT_EQ(lifetimes.returnPoint(), 7u);
  EXPECT_EQ(vec(lifetimes.getTouches(step.x)), (std::vector<uint32_t>{0, 5}));
  EXPECT_EQ(vec(lifetimes.getTouches(step.a)),
            (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_EQ(vec(lifetimes.getUses(step.a)), (std::vector<uint32_t>{1, 4}));
  EXPECT_EQ(vec(lifetimes.getUses(step.l)), (std::vector<uint32_t>{3, 7}));
  EXPECT_EQ(vec(lifetimes.getUses(step.m)), (std::vector<uint32_t>{6}));
  EXPECT_EQ(lifetimes.getLiveStart(step.m), 0u);
  EXPECT_EQ(lifetimes.getLiveEnd(step.m), 6u);
  EXPECT_EQ(lifetimes.getLiveStart(step.b), 1u);
  EXPECT_EQ(lifetimes.getLiveEnd(step.b), 3u);
  EXPECT_EQ(lifetimes.getLiveEnd(step.w2), 7u);
  EXPECT_TRUE(lifetimes.mayLeaveOnSsd(step.w2, 7));
  EXPECT_FALSE(lifetimes.mayLeaveOnSsd(step.l, 7));
  EXPECT_FALSE(lifetimes.mayLeaveOnSsd(step.w2, 6));
}

TEST(Lifetimes, RequiredBytesAndLiveBytes) {
  TinyStep step;
  LifetimeAnalysis lifetimes(step.graph);
  EXPECT_EQ(lifetimes.getRequiredBytes(3), 204u); // l, b, gb
  EXPECT_EQ(lifetimes.getRequiredBytes(4), 300u); // gb, a, ga
  EXPECT_EQ(lifetimes.getRequiredBytes(6), 50u);  // w, dw, m, w2, m2
  EXPECT_EQ(lifetimes.getRequiredBytes(7), 4u);   // l; w2, m2 may leave
  std::vector<uint64_t> live = computeUnplannedLiveBytes(step.graph, lifetimes);
  EXPECT_EQ(live,
            (std::vector<uint64_t>{220, 320, 324, 424, 424, 234, 54, 24}));
}

TEST(Lifetimes, InfersRolesFromThePeak) {
  TinyStep step;
  LifetimeAnalysis inferred(step.graph);
  EXPECT_EQ(inferred.getBackwardStart(), 3u);
  EXPECT_EQ(inferred.getRole(step.a), TensorRole::SavedActivation);
  EXPECT_EQ(inferred.getRole(step.b), TensorRole::SavedActivation);
  EXPECT_EQ(inferred.getRole(step.dw), TensorRole::Gradient);
  EXPECT_EQ(inferred.getRole(step.ga), TensorRole::Temporary);
  EXPECT_EQ(inferred.getRole(step.w), TensorRole::Param);
  step.graph.setBackwardStart(2);
  LifetimeAnalysis declared(step.graph);
  EXPECT_EQ(declared.getBackwardStart(), 2u);
  EXPECT_EQ(declared.getRole(step.gb), TensorRole::Temporary);
}

Gap reloadGap(TensorId tensor, uint32_t offload, uint32_t release,
              uint32_t prefetch, uint32_t wait) {
  Gap gap;
  gap.tensor = tensor;
  gap.offloadSlot = offload;
  gap.releaseSlot = release;
  gap.prefetchSlot = prefetch;
  gap.waitPoint = wait;
  return gap;
}

std::string verifyError(const TinyStep &step, Plan plan, uint64_t budget) {
  LifetimeAnalysis lifetimes(step.graph);
  llvm::Error error = verifyPlan(step.graph, lifetimes, plan, budget);
  return error ? llvm::toString(std::move(error)) : std::string();
}

TEST(Plan, LiveBytesAndCounts) {
  TinyStep step;
  LifetimeAnalysis lifetimes(step.graph);
  Plan plan;
  plan.gaps.push_back(reloadGap(step.a, 1, 2, 4, 4));
  Gap enter;
  enter.tensor = step.m;
  enter.entersOnSsd = true;
  enter.prefetchSlot = 5;
  enter.waitPoint = 6;
  plan.gaps.push_back(enter);
  Gap leave;
  leave.tensor = step.m2;
  leave.leavesOnSsd = true;
  leave.offloadSlot = 7;
  leave.releaseSlot = 7;
  plan.gaps.push_back(leave);
  plan.finalize();
  // Sorted by tensor: m, a, m2.
  EXPECT_FALSE(plan.gaps[0].writes); // m enters on SSD
  EXPECT_TRUE(plan.gaps[1].writes);  // a
  EXPECT_TRUE(plan.gaps[2].writes);  // m2
  EXPECT_EQ(plan.liveBytes(step.graph, lifetimes),
            (std::vector<uint64_t>{210, 310, 214, 314, 414, 234, 54, 14}));
  EXPECT_EQ(plan.bytesOffloaded(step.graph), 110u);
  EXPECT_EQ(plan.bytesPrefetched(step.graph), 110u);
  EXPECT_EQ(verifyError(step, plan, 414), "");
  EXPECT_NE(verifyError(step, plan, 413)
                .find("at op 'bwd1' (#4) are 414, "
                      "above the memory budget of 413"),
            std::string::npos);
}

TEST(MemoryTimeline, PeakAndWhatIsLiveThere) {
  TinyStep step;
  LifetimeAnalysis lifetimes(step.graph);
  MemoryTimeline unplanned(step.graph, lifetimes);
  EXPECT_EQ(unplanned.getPeakBytes(), 424u);
  EXPECT_EQ(unplanned.getPeakPoint(), 3u);
  std::vector<TensorId> atPeak = unplanned.getLiveTensors(3);
  EXPECT_EQ(atPeak.size(), 7u); // x, a, b, gb (100 each), w, m (10), l (4)
  EXPECT_EQ(step.graph.getTensor(atPeak.front()).bytes, 100u);
  EXPECT_EQ(atPeak.back(), step.l);

  Plan plan;
  plan.gaps.push_back(reloadGap(step.a, 1, 2, 4, 4));
  plan.finalize();
  MemoryTimeline planned(step.graph, lifetimes, &plan);
  EXPECT_EQ(planned.getLiveBytes()[3], 324u);
  EXPECT_EQ(planned.getPeakBytes(), 424u); // at #4, where a is back
  EXPECT_EQ(planned.getPeakPoint(), 4u);
  std::vector<TensorId> atThree = planned.getLiveTensors(3);
  EXPECT_EQ(llvm::count(atThree, step.a), 0);

  std::string text;
  llvm::raw_string_ostream os(text);
  unplanned.print(os, 2);
  EXPECT_NE(text.find("peak 424 bytes at op 'bwd2' (#3)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("... and 5 more"), std::string::npos) << text;
}

TEST(Plan, ReevictionReusesTheCopy) {
  // x is read at #0, #2 and #4 and leaves in between, twice.
  StepGraph graph;
  TensorId x = graph.addArgument("x", 8, TensorRole::Input);
  TensorId p = graph.addResult(graph.addOp("u", {x}), "p", 1);
  TensorId q = graph.addResult(graph.addOp("v", {p}), "q", 1);
  TensorId r = graph.addResult(graph.addOp("u", {x, q}), "r", 1);
  TensorId s = graph.addResult(graph.addOp("v", {r}), "s", 1);
  TensorId t = graph.addResult(graph.addOp("u", {x, s}), "t", 1);
  graph.addReturn(t);
  LifetimeAnalysis lifetimes(graph);
  Plan plan;
  plan.gaps.push_back(reloadGap(x, 3, 3, 4, 4));
  plan.gaps.push_back(reloadGap(x, 0, 1, 2, 2));
  plan.finalize();
  EXPECT_TRUE(plan.gaps[0].writes);
  EXPECT_FALSE(plan.gaps[1].writes);
  EXPECT_EQ(plan.bytesOffloaded(graph), 8u);
  EXPECT_EQ(plan.bytesPrefetched(graph), 16u);
  EXPECT_FALSE(static_cast<bool>(verifyPlan(graph, lifetimes, plan, 100)));
  // The second gap may not start before the first reload is awaited.
  plan.gaps[1].releaseSlot = 2;
  plan.gaps[1].prefetchSlot = plan.gaps[1].waitPoint = 4;
  llvm::Error error = verifyPlan(graph, lifetimes, plan, 100);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("before the wait of its "
                      "previous reload"),
            std::string::npos);
}

TEST(Plan, VerifierRejectsUnsafePlans) {
  TinyStep step;
  auto single = [&](Gap gap) {
    Plan plan;
    plan.gaps.push_back(gap);
    plan.finalize();
    return verifyError(step, plan, 1000);
  };
  // a is read at #1, so it cannot be gone from slot 1.
  EXPECT_NE(
      single(reloadGap(step.a, 1, 1, 4, 4)).find("first use after slot 1"),
      std::string::npos);
  // The wait must be right before the next use.
  EXPECT_NE(single(reloadGap(step.a, 1, 2, 3, 3)).find("the wait is before"),
            std::string::npos);
  // Prefetch after the wait.
  Gap late = reloadGap(step.a, 1, 2, 4, 4);
  late.prefetchSlot = 5;
  EXPECT_NE(single(late).find("prefetch at slot 5"), std::string::npos);
  // Released before it is defined.
  EXPECT_NE(single(reloadGap(step.b, 0, 0, 2, 2)).find("release at slot 0"),
            std::string::npos);
  // Only persistent arguments enter on SSD.
  Gap enter;
  enter.tensor = step.x;
  enter.entersOnSsd = true;
  enter.prefetchSlot = enter.waitPoint = 0;
  EXPECT_NE(single(enter).find("only a persistent argument"),
            std::string::npos);
  // Only values with a partner leave on SSD.
  Gap leave;
  leave.tensor = step.l;
  leave.leavesOnSsd = true;
  leave.offloadSlot = 3;
  leave.releaseSlot = 4;
  EXPECT_NE(single(leave).find("steady-state partner"), std::string::npos);
}

TEST(Plan, VerifierRejectsMissingCopies) {
  TinyStep step;
  Plan plan;
  Gap gap = reloadGap(step.a, 1, 2, 4, 4);
  plan.gaps.push_back(gap);
  plan.gaps[0].writes = false; // Skips finalize on purpose.
  EXPECT_NE(verifyError(step, plan, 1000).find("without a copy on ssd"),
            std::string::npos);
}

TEST(Plan, VerifierRejectsBrokenSteadyState) {
  TinyStep step;
  Plan plan;
  Gap enter;
  enter.tensor = step.m;
  enter.entersOnSsd = true;
  enter.prefetchSlot = enter.waitPoint = 6;
  plan.gaps.push_back(enter);
  plan.finalize();
  std::string error = verifyError(step, plan, 1000);
  EXPECT_NE(error.find("'m' enters on ssd but its next-step value 'm2' does "
                       "not leave"),
            std::string::npos)
      << error;
}

TEST(Plan, VerifierRejectsInconsistentGroups) {
  TinyStep step;
  Plan plan;
  plan.gaps.push_back(reloadGap(step.a, 1, 2, 4, 4));
  plan.gaps.push_back(reloadGap(step.x, 2, 2, 5, 5));
  plan.finalize();
  for (Gap &gap : plan.gaps)
    gap.offloadGroup = 0;
  EXPECT_NE(verifyError(step, plan, 1000).find("offload group"),
            std::string::npos);
  for (Gap &gap : plan.gaps)
    gap.offloadSlot = 2;
  EXPECT_EQ(verifyError(step, plan, 1000), "");
}

} // namespace
