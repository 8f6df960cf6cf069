//===- PropertyTest.cpp - Plans on many random training steps -------------===//
//
// For hundreds of generated steps, targets and budgets: every policy either
// plans or proves the budget infeasible (and then the budget really is below
// what one op needs); every plan passes the verifier and stays within the
// budget; the report's numbers equal an independent re-simulation; no plan
// beats the lower bound; and `ssd` is never slower than a baseline.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/GraphGenerator.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace ssd::planner;

namespace {

/// A second simulator, written from the semantics in docs/planner.md rather
/// than from Simulator.cpp: it walks events in one list sorted by (slot,
/// kind, deadline) and keeps every queue as a plain "free at" time.
struct Replay {
  double step = 0;
  double busy[kNumResources] = {};
  uint64_t written = 0, read = 0;
};

Replay replay(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
              llvm::ArrayRef<double> opSeconds, const Target &target,
              const Plan &plan) {
  enum Kind { Offload, Release, Prefetch, Wait, Run };
  struct Event {
    uint32_t slot;
    Kind kind;
    uint32_t deadline;
    uint32_t gap;
  };
  std::vector<Event> events;
  for (uint32_t point = 0; point < lifetimes.returnPoint(); ++point)
    events.push_back({point, Run, 0, point});
  for (uint32_t index = 0; index < plan.gaps.size(); ++index) {
    const Gap &gap = plan.gaps[index];
    if (gap.writes)
      events.push_back({gap.offloadSlot, Offload, gap.releaseSlot, index});
    if (!gap.entersOnSsd)
      events.push_back({gap.releaseSlot, Release, 0, index});
    if (!gap.leavesOnSsd) {
      events.push_back({gap.prefetchSlot, Prefetch, gap.waitPoint, index});
      events.push_back({gap.waitPoint, Wait, 0, index});
    }
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event &a, const Event &b) {
                     return std::make_tuple(a.slot, a.kind, a.deadline, a.gap) <
                            std::make_tuple(b.slot, b.kind, b.deadline, b.gap);
                   });
  Replay result;
  double now = 0;
  double freeAt[kNumResources] = {};
  auto use = [&](Resource resource, double ready, double bytes, double rate) {
    unsigned r = static_cast<unsigned>(resource);
    double start = std::max(ready, freeAt[r]);
    double length = target.ioLatencySeconds + bytes / rate;
    freeAt[r] = start + length;
    result.busy[r] += length;
    return freeAt[r];
  };
  std::map<TensorId, double> durable;
  std::map<uint32_t, double> resident;
  std::map<std::pair<uint32_t, uint32_t>, double> groupDone;
  for (const Gap &gap : plan.gaps)
    if (gap.entersOnSsd)
      durable[gap.tensor] = 0;
  for (const Event &event : events) {
    const Gap *gap = event.kind == Run ? nullptr : &plan.gaps[event.gap];
    switch (event.kind) {
    case Run:
      now += opSeconds[event.gap];
      break;
    case Offload: {
      auto key = std::make_pair(event.slot, gap->offloadGroup);
      if (gap->offloadGroup == kNoGroup || !groupDone.count(key)) {
        double bytes = 0;
        for (const Gap &member : plan.gaps)
          if (&member == gap ||
              (gap->offloadGroup != kNoGroup && member.writes &&
               member.offloadGroup == gap->offloadGroup))
            bytes += graph.getTensor(member.tensor).bytes;
        double done = now;
        if (target.hasHostLink())
          done = use(Resource::DeviceToHost, done, bytes,
                     target.deviceToHostBandwidth);
        done = use(Resource::SsdWrite, done, bytes, target.ssdWriteBandwidth);
        result.written += bytes;
        if (gap->offloadGroup != kNoGroup)
          groupDone[key] = done;
        durable[gap->tensor] = done;
      } else {
        durable[gap->tensor] = groupDone[key];
      }
      break;
    }
    case Release:
      now = std::max(now, durable.at(gap->tensor));
      break;
    case Prefetch: {
      auto key = std::make_pair(event.slot + (1u << 31), gap->prefetchGroup);
      if (gap->prefetchGroup == kNoGroup || !groupDone.count(key)) {
        double bytes = 0, ready = now;
        for (uint32_t index = 0; index < plan.gaps.size(); ++index) {
          const Gap &member = plan.gaps[index];
          if (&member == gap ||
              (gap->prefetchGroup != kNoGroup && !member.leavesOnSsd &&
               member.prefetchGroup == gap->prefetchGroup)) {
            bytes += graph.getTensor(member.tensor).bytes;
            ready = std::max(ready, durable.at(member.tensor));
          }
        }
        double done =
            use(Resource::SsdRead, ready, bytes, target.ssdReadBandwidth);
        if (target.hasHostLink())
          done = use(Resource::HostToDevice, done, bytes,
                     target.hostToDeviceBandwidth);
        result.read += bytes;
        if (gap->prefetchGroup != kNoGroup)
          groupDone[key] = done;
        resident[event.gap] = done;
      } else {
        resident[event.gap] = groupDone[key];
      }
      break;
    }
    case Wait:
      now = std::max(now, resident.at(event.gap));
      break;
    }
  }
  result.step = now;
  return result;
}

Target randomTarget(uint64_t seed) {
  std::vector<llvm::StringRef> names = targetPresetNames();
  Target target = *getTargetPreset(names[seed % names.size()]);
  // Slow the disks down now and then so that I/O dominates.
  if (seed % 3 == 0) {
    target.ssdReadBandwidth /= 8;
    target.ssdWriteBandwidth /= 8;
  }
  return target;
}

GeneratorOptions randomOptions(uint64_t seed) {
  GeneratorOptions options;
  options.seed = seed;
  options.layers = 1 + seed % 9;
  options.opsPerLayer = 1 + (seed / 9) % 4;
  options.flopsPerByte = std::vector<double>{1e3, 1.5e4, 5e4, 3e5}[seed % 4];
  options.residualProbability = (seed % 5) / 5.0;
  options.temporaryProbability = (seed % 7) / 7.0;
  options.unknownOpProbability = (seed % 3) / 4.0;
  options.zeroSizeProbability = seed % 4 == 0 ? 0.2 : 0.0;
  options.markBackwardStart = seed % 2;
  return options;
}

bool nearlyEqual(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

TEST(Property, RandomStepsPlanVerifyAndReplay) {
  constexpr unsigned kGraphs = 300;
  unsigned plans = 0, infeasible = 0;
  for (uint64_t seed = 1; seed <= kGraphs; ++seed) {
    StepGraph graph = generateTrainingStep(randomOptions(seed));
    ASSERT_FALSE(static_cast<bool>(graph.verify()));
    Target target = randomTarget(seed);
    OffloadPlanner planner(graph, target);
    const LifetimeAnalysis &lifetimes = planner.getLifetimes();
    uint64_t required = 0;
    for (uint32_t point = 0; point < lifetimes.numPoints(); ++point)
      required = std::max(required, lifetimes.getRequiredBytes(point));
    // Budgets from just below the smallest feasible one to the peak.
    uint64_t peak = planner.getUnplannedPeak();
    double fraction = ((seed * 37) % 100) / 100.0;
    uint64_t budget =
        seed % 10 == 0
            ? required - 1
            : required + static_cast<uint64_t>(fraction * (peak - required));
    LowerBound bound = planner.lowerBound(budget);
    double ours = 0;
    for (Policy policy : allPolicies()) {
      PlannerOptions options;
      options.memoryBudget = budget;
      options.policy = policy;
      llvm::Expected<Plan> plan = planner.plan(options);
      if (!plan) {
        llvm::Error rest = llvm::handleErrors(
            plan.takeError(), [&](const InfeasibleBudgetError &error) {
              EXPECT_LT(budget, required);
              EXPECT_EQ(error.requiredBytes,
                        lifetimes.getRequiredBytes(error.point));
            });
        ASSERT_FALSE(static_cast<bool>(rest))
            << "seed " << seed << ": " << llvm::toString(std::move(rest));
        ++infeasible;
        continue;
      }
      ASSERT_GE(budget, required) << "seed " << seed;
      ++plans;
      llvm::Error error = verifyPlan(graph, lifetimes, *plan, budget);
      ASSERT_FALSE(static_cast<bool>(error))
          << "seed " << seed << " " << policyName(policy).str() << ": "
          << llvm::toString(std::move(error));
      std::vector<uint64_t> live = plan->liveBytes(graph, lifetimes);
      ASSERT_LE(*std::max_element(live.begin(), live.end()), budget);
      if (budget >= peak)
        EXPECT_TRUE(plan->gaps.empty());

      SimulationResult simulation = planner.simulate(*plan);
      llvm::json::Object report =
          buildPlanReport(planner, *plan, simulation, bound);
      Replay check =
          replay(graph, lifetimes, planner.getOpSeconds(), target, *plan);
      EXPECT_TRUE(
          nearlyEqual(*report.getNumber("predicted_step_seconds"), check.step))
          << "seed " << seed << " " << policyName(policy).str();
      EXPECT_TRUE(nearlyEqual(*report.getNumber("stall_seconds"),
                              check.step - simulation.computeSeconds));
      const llvm::json::Object *busy = report.getObject("busy_seconds");
      for (unsigned r = 0; r < kNumResources; ++r)
        EXPECT_TRUE(nearlyEqual(
            *busy->getNumber(resourceName(static_cast<Resource>(r))),
            r == 0 ? simulation.computeSeconds : check.busy[r]))
            << "seed " << seed << " resource " << r;
      EXPECT_EQ(*report.getInteger("bytes_offloaded"),
                static_cast<int64_t>(check.written));
      EXPECT_EQ(*report.getInteger("bytes_prefetched"),
                static_cast<int64_t>(check.read));
      EXPECT_LE(*report.getInteger("peak_bytes_after"),
                static_cast<int64_t>(budget));
      EXPECT_GE(check.step, bound.seconds * (1 - 1e-9))
          << "seed " << seed << ": below the lower bound";
      if (policy == Policy::Ssd)
        ours = check.step;
      else
        EXPECT_LE(ours, check.step * (1 + 1e-9))
            << "seed " << seed << ": ssd slower than "
            << policyName(policy).str();
    }
  }
  EXPECT_GT(plans, 1000u);
  EXPECT_GT(infeasible, 0u);
}

} // namespace
