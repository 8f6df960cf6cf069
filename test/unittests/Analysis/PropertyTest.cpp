//===- PropertyTest.cpp - Plans on many random training steps -------------===//
//
// For a thousand generated training steps, a thousand random DAGs and a
// thousand random DAGs with chains of views, on every target preset (some
// with idle and queued latencies added) at random budgets: every policy either
// plans or proves the budget infeasible (and then the budget really is below
// what one op needs); every plan passes the verifier, stays within the budget
// and keeps the storage of every view resident while the view is in use; the
// report's numbers equal an independent re-simulation; no plan beats the
// lower bound; and `ssd` is never slower than a baseline. Random legal plans
// of the small DAGs beat neither the bound nor the exact optimum. Plans made
// on a thread pool, from its own workers too, equal those made serially.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/GraphGenerator.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>

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

/// One step from queues last free at `freeAt` (relative to the step's
/// start), which it leaves where the step does. An SSD transfer that finds
/// its queue busy costs the queued latency; one that finds it idle, the
/// latency plus the idle curve at the time since either SSD queue was
/// last busy.
Replay replayOnce(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                  llvm::ArrayRef<double> opSeconds, const Target &target,
                  const Plan &plan, double (&freeAt)[kNumResources]) {
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
  auto use = [&](Resource resource, double ready, double bytes, double rate) {
    unsigned r = static_cast<unsigned>(resource);
    double start = std::max(ready, freeAt[r]);
    double latency = target.ioLatencySeconds;
    if (resource == Resource::SsdRead || resource == Resource::SsdWrite) {
      bool read = resource == Resource::SsdRead;
      double ssdEnd =
          std::max(freeAt[static_cast<unsigned>(Resource::SsdRead)],
                   freeAt[static_cast<unsigned>(Resource::SsdWrite)]);
      if (ready <= freeAt[r])
        latency = read ? target.ssdReadQueuedLatency()
                       : target.ssdWriteQueuedLatency();
      else
        latency = (read ? target.ssdReadLatency() : target.ssdWriteLatency()) +
                  (ready > ssdEnd ? target.ssdIdlePenalty(ready - ssdEnd) : 0);
    }
    double length = latency + bytes / rate;
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
            // A partial reload reads its part's bytes alone.
            bytes += member.part ? graph.getPart(*member.part)->bytes
                                 : graph.getTensor(member.tensor).bytes;
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

/// The step in steady state: where the target's latencies depend on what
/// ran before, a second step from where the first left the queues.
Replay replay(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
              llvm::ArrayRef<double> opSeconds, const Target &target,
              const Plan &plan) {
  double freeAt[kNumResources];
  std::fill(std::begin(freeAt), std::end(freeAt),
            -std::numeric_limits<double>::infinity());
  Replay first = replayOnce(graph, lifetimes, opSeconds, target, plan, freeAt);
  if (!target.hasIdleDependentLatency())
    return first;
  for (double &free : freeAt)
    free -= first.step;
  return replayOnce(graph, lifetimes, opSeconds, target, plan, freeAt);
}

Target randomTarget(uint64_t seed) {
  std::vector<llvm::StringRef> names = targetPresetNames();
  Target target = *getTargetPreset(names[seed % names.size()]);
  // Slow the disks down now and then so that I/O dominates.
  if (seed % 3 == 0) {
    target.ssdReadBandwidth /= 8;
    target.ssdWriteBandwidth /= 8;
  }
  // Now and then a disk whose transfers cost more after idling, and whose
  // queued transfers cost less (reads) or more (writes) than lone ones.
  if (seed % 4 == 1) {
    target.ssdReadLatencySeconds = 30e-6;
    target.ssdWriteLatencySeconds = 60e-6;
    target.ssdReadQueuedLatencySeconds = 15e-6;
    target.ssdWriteQueuedLatencySeconds = 90e-6;
    target.ssdIdleLatency = {{1e-4, 2e-5}, {1e-3, 1e-4}};
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

/// Checks, from the ops rather than the lifetimes, that no gap moves a view
/// and that a view's storage is resident wherever the view is touched (its
/// definition, its uses, the return): between those the storage may leave,
/// and the rewrite rebuilds the view after the reload.
void expectViewsResident(const StepGraph &graph, const Plan &plan,
                         uint32_t numPoints, uint64_t seed) {
  std::vector<std::vector<uint32_t>> touches(graph.numTensors());
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (TensorId operand : graph.getOp(op).operands)
      touches[operand].push_back(op);
    for (TensorId result : graph.getOp(op).results)
      touches[result].push_back(op);
  }
  for (TensorId value : graph.getReturned())
    touches[value].push_back(numPoints - 1);
  for (const Gap &gap : plan.gaps) {
    EXPECT_FALSE(graph.getTensor(gap.tensor).isAlias()) << "seed " << seed;
    // After a partial reload, only the part's view is touched, and no op
    // reads the tensor itself: the rest of it never comes back.
    if (gap.part) {
      ASSERT_EQ(graph.getTensor(*gap.part).aliasOf, gap.tensor);
      for (OpId op = gap.waitPoint; op < graph.numOps(); ++op)
        for (TensorId operand : graph.getOp(op).operands)
          EXPECT_TRUE(operand == *gap.part ||
                      graph.getStorage(operand) != gap.tensor)
              << "seed " << seed << ": #" << op << " reads '"
              << graph.getTensor(operand).name << "' after only part '"
              << graph.getTensor(*gap.part).name << "' came back";
      EXPECT_FALSE(graph.getTensor(gap.tensor).returned);
      EXPECT_FALSE(graph.getTensor(*gap.part).returned);
    }
    for (TensorId view = 0; view < graph.numTensors(); ++view) {
      const Tensor &info = graph.getTensor(view);
      if (info.aliasOf != gap.tensor)
        continue;
      for (uint32_t point : touches[view])
        EXPECT_TRUE(point < gap.absentFrom() ||
                    point >= gap.absentTo(numPoints))
            << "seed " << seed << ": '" << graph.getTensor(gap.tensor).name
            << "' is absent at #" << point << " where its view '" << info.name
            << "' is touched";
    }
  }
}

/// Graphs whose latency-aware bound is above the bytes-only one (so that
/// checking it against every plan checks something).
unsigned latencyBoundsAbove = 0;

/// The most bytes any one op needs resident: no budget below it plans.
uint64_t largestRequiredBytes(const LifetimeAnalysis &lifetimes) {
  uint64_t required = 0;
  for (uint32_t point = 0; point < lifetimes.numPoints(); ++point)
    required = std::max(required, lifetimes.getRequiredBytes(point));
  return required;
}

/// Plans `graph` at `budget` with every policy and checks each plan.
/// Returns how many plans were made and how many budgets were infeasible.
std::pair<unsigned, unsigned>
checkAllPolicies(const StepGraph &graph, const Target &target, uint64_t seed,
                 double budgetFraction, bool belowFeasible) {
  unsigned plans = 0, infeasible = 0;
  OffloadPlanner planner(graph, target);
  const LifetimeAnalysis &lifetimes = planner.getLifetimes();
  uint64_t required = largestRequiredBytes(lifetimes);
  uint64_t peak = planner.getUnplannedPeak();
  uint64_t budget =
      belowFeasible && required > 0
          ? required - 1
          : required + static_cast<uint64_t>(budgetFraction *
                                             (peak - std::min(peak, required)));
  LowerBound bound = planner.lowerBound(budget);
  if (bound.latencySeconds > bound.seconds * (1 + 1e-9))
    ++latencyBoundsAbove;
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
      EXPECT_FALSE(static_cast<bool>(rest))
          << "seed " << seed << ": " << llvm::toString(std::move(rest));
      ++infeasible;
      continue;
    }
    EXPECT_GE(budget, required) << "seed " << seed;
    ++plans;
    llvm::Error error = verifyPlan(graph, lifetimes, *plan, budget);
    EXPECT_FALSE(static_cast<bool>(error))
        << "seed " << seed << " " << policyName(policy).str() << ": "
        << llvm::toString(std::move(error));
    expectViewsResident(graph, *plan, lifetimes.numPoints(), seed);
    std::vector<uint64_t> live = plan->liveBytes(graph, lifetimes);
    EXPECT_LE(*std::max_element(live.begin(), live.end()), budget);
    if (budget >= peak) {
      EXPECT_TRUE(plan->gaps.empty());
    }

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
      EXPECT_TRUE(
          nearlyEqual(*busy->getNumber(resourceName(static_cast<Resource>(r))),
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
    EXPECT_LE(bound.linkSeconds, bound.seconds);
    EXPECT_LE(bound.seconds, bound.latencySeconds);
    EXPECT_GE(check.step, bound.latencySeconds * (1 - 1e-9))
        << "seed " << seed << " " << policyName(policy).str()
        << ": below the latency-aware lower bound";
    // Grouping every transfer it can (one latency per slot and direction)
    // does not beat it either.
    Plan grouped = *plan;
    groupTransfers(grouped, graph, std::numeric_limits<uint64_t>::max());
    EXPECT_GE(planner.simulate(grouped).stepSeconds,
              bound.latencySeconds * (1 - 1e-9))
        << "seed " << seed << " " << policyName(policy).str()
        << ": grouped, below the latency-aware lower bound";
    if (policy == Policy::Ssd)
      ours = check.step;
    else
      EXPECT_LE(ours, check.step * (1 + 1e-9))
          << "seed " << seed << ": ssd slower than "
          << policyName(policy).str();
  }
  return {plans, infeasible};
}

TEST(Property, RandomTrainingStepsPlanVerifyAndReplay) {
  unsigned plans = 0, infeasible = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    StepGraph graph = generateTrainingStep(randomOptions(seed));
    ASSERT_FALSE(static_cast<bool>(graph.verify()));
    auto [made, refused] =
        checkAllPolicies(graph, randomTarget(seed), seed,
                         ((seed * 37) % 100) / 100.0, seed % 10 == 0);
    plans += made;
    infeasible += refused;
  }
  EXPECT_GT(plans, 4000u);
  EXPECT_GT(infeasible, 0u);
  EXPECT_GT(latencyBoundsAbove, 100u);
}

TEST(Property, OursIsNeverSlowerThanABaselineOnceTransfersAreGrouped) {
  // ssd-offload-pipeline groups small transfers after planning; with
  // PlannerOptions::groupMinBytes every policy judges its plans grouped.
  unsigned compared = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    StepGraph graph = generateTrainingStep(randomOptions(seed));
    Target target = randomTarget(seed);
    OffloadPlanner planner(graph, target);
    const LifetimeAnalysis &lifetimes = planner.getLifetimes();
    uint64_t required = largestRequiredBytes(lifetimes);
    uint64_t peak = planner.getUnplannedPeak();
    uint64_t budget = required + (peak - std::min(peak, required)) / 2;
    uint64_t minBytes = std::max<uint64_t>(1, peak / 8);
    double ours = 0;
    for (Policy policy : allPolicies()) {
      PlannerOptions options;
      options.memoryBudget = budget;
      options.policy = policy;
      options.groupMinBytes = minBytes;
      llvm::Expected<Plan> plan = planner.plan(options);
      ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
      groupTransfers(*plan, graph, minBytes);
      EXPECT_FALSE(
          static_cast<bool>(verifyPlan(graph, lifetimes, *plan, budget)));
      double seconds = planner.simulate(*plan).stepSeconds;
      if (policy == Policy::Ssd) {
        ours = seconds;
        continue;
      }
      ++compared;
      EXPECT_LE(ours, seconds * (1 + 1e-9))
          << "seed " << seed << ": grouped ssd slower than "
          << policyName(policy).str();
    }
  }
  EXPECT_EQ(compared, 800u);
}

/// A random DAG that is no training step: any op may read any earlier
/// tensor, sizes include 0, persistent arguments are updated, returned
/// unchanged or dropped, and costs are missing at random. About
/// `viewPercent` percent of the ops are views of an earlier tensor (chains of
/// views included), which may be returned and even replace persistent state.
/// With `partPercent`, that percentage of the views of a tensor that owns
/// its storage, or of a part of one, are a random byte range of it.
StepGraph randomDag(uint64_t seed, unsigned viewPercent = 0,
                    unsigned partPercent = 0) {
  std::mt19937_64 random(seed);
  auto below = [&](uint64_t bound) { return random() % bound; };
  StepGraph graph("dag" + std::to_string(seed));
  std::vector<TensorId> tensors, persistent;
  const TensorRole roles[] = {TensorRole::Input, TensorRole::Param,
                              TensorRole::OptimizerState, TensorRole::Buffer};
  for (unsigned i = 0, n = 1 + below(6); i < n; ++i) {
    TensorRole role = roles[below(4)];
    TensorId arg = graph.addArgument("arg" + std::to_string(i),
                                     below(5) ? below(1000) : 0, role);
    tensors.push_back(arg);
    if (isPersistentRole(role))
      persistent.push_back(arg);
  }
  std::vector<TensorId> results;
  for (unsigned i = 0, n = 2 + below(60); i < n; ++i) {
    std::vector<TensorId> operands;
    for (unsigned k = 0, m = 1 + below(3); k < m; ++k) {
      // Mostly recent tensors, sometimes anything: long and short lives.
      size_t window =
          below(3) ? std::min<size_t>(tensors.size(), 4) : tensors.size();
      operands.push_back(tensors[tensors.size() - 1 - below(window)]);
    }
    OpCost cost;
    if (below(3))
      cost.seconds = (1 + below(100)) * 1e-5;
    OpId op = graph.addOp("op" + std::to_string(i), operands, cost);
    if (viewPercent && below(100) < viewPercent) {
      TensorId viewed = operands[below(operands.size())];
      TensorId view = graph.addAlias(op, "v" + std::to_string(i), viewed);
      const Tensor &of = graph.getTensor(viewed);
      const Tensor::Part *part = graph.getPart(viewed);
      uint64_t base = part ? part->offset : 0;
      uint64_t span = part ? part->bytes : of.bytes;
      if (partPercent && span > 0 && (!of.isAlias() || part) &&
          below(100) < partPercent) {
        uint64_t offset = below(span);
        graph.setPart(view, base + offset, 1 + below(span - offset));
      }
      tensors.push_back(view);
      results.push_back(view);
      continue;
    }
    for (unsigned k = 0, m = 1 + below(2); k < m; ++k) {
      TensorId result =
          graph.addResult(op, llvm::formatv("t{0}_{1}", i, k).str(),
                          below(6) ? below(2000) : 0);
      tensors.push_back(result);
      results.push_back(result);
    }
  }
  std::vector<bool> returned(graph.numTensors(), false);
  size_t next = results.size();
  for (TensorId arg : persistent) {
    uint64_t choice = below(3);
    if (choice == 0 && next > 0) {
      TensorId value = results[--next];
      graph.addReturn(value, arg);
      returned[value] = true;
    } else if (choice == 1) {
      graph.addReturn(arg, arg);
      returned[arg] = true;
    }
  }
  for (TensorId result : results)
    if (!returned[result] && below(5) == 0) {
      graph.addReturn(result);
      returned[result] = true;
    }
  return graph;
}

TEST(Property, RandomDagsPlanVerifyAndReplay) {
  unsigned plans = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    StepGraph graph = randomDag(seed);
    llvm::Error error = graph.verify();
    ASSERT_FALSE(static_cast<bool>(error))
        << "seed " << seed << ": " << llvm::toString(std::move(error));
    plans += checkAllPolicies(graph, randomTarget(seed + 1), seed,
                              ((seed * 53) % 100) / 100.0, seed % 10 == 0)
                 .first;
  }
  EXPECT_GT(plans, 4000u);
}

TEST(Property, RandomDagsWithViewsPlanVerifyAndReplay) {
  unsigned plans = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    SCOPED_TRACE(seed);
    StepGraph graph = randomDag(seed, /*viewPercent=*/40);
    llvm::Error error = graph.verify();
    ASSERT_FALSE(static_cast<bool>(error))
        << "seed " << seed << ": " << llvm::toString(std::move(error));
    plans += checkAllPolicies(graph, randomTarget(seed + 2), seed,
                              ((seed * 71) % 100) / 100.0, seed % 10 == 0)
                 .first;
  }
  EXPECT_GT(plans, 4000u);
}

TEST(Property, RandomDagsWithPartsPlanVerifyAndReplay) {
  // Views of byte ranges: `ssd` may read back only a part of a tensor, and
  // no plan of any policy may beat the bound, which counts only the part's
  // bytes where only the part is needed.
  unsigned plans = 0, partial = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE(seed);
    StepGraph graph = randomDag(seed, /*viewPercent=*/50, /*partPercent=*/80);
    llvm::Error error = graph.verify();
    ASSERT_FALSE(static_cast<bool>(error))
        << "seed " << seed << ": " << llvm::toString(std::move(error));
    Target target = randomTarget(seed + 3);
    plans += checkAllPolicies(graph, target, seed, ((seed * 29) % 100) / 100.0,
                              seed % 10 == 0)
                 .first;
    OffloadPlanner planner(graph, target);
    PlannerOptions options;
    options.memoryBudget =
        largestRequiredBytes(planner.getLifetimes()) +
        (planner.getUnplannedPeak() -
         std::min(planner.getUnplannedPeak(),
                  largestRequiredBytes(planner.getLifetimes()))) /
            4;
    if (llvm::Expected<Plan> plan = planner.plan(options))
      partial +=
          llvm::count_if(plan->gaps, [](const Gap &gap) { return gap.part; });
    else
      llvm::consumeError(plan.takeError());
  }
  EXPECT_GT(plans, 1500u);
  // Partial reloads happen, so the checks above check them.
  EXPECT_GT(partial, 20u);
}

/// A plan as text, every field that reaches the IR or the report, or the
/// error that replaced it.
std::string describe(llvm::Expected<Plan> plan, const StepGraph &graph) {
  if (!plan)
    return "error: " + llvm::toString(plan.takeError());
  return llvm::formatv("{0} {1} {2}\n{3}", plan->policy, plan->detail,
                       plan->memoryBudget, plan->toJSON(graph))
      .str();
}

TEST(Property, ThreadPoolsLeavePlansAsTheyAre) {
  // As under MLIR: plans made on workers of the pool that also takes their
  // candidates, more of them at once than the pool has threads.
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(2));
  unsigned plans = 0, sweepErrors = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    SCOPED_TRACE(seed);
    StepGraph graph = seed % 2 ? generateTrainingStep(randomOptions(seed))
                               : randomDag(seed, seed % 3 ? 0 : 40);
    Target target = randomTarget(seed);
    OffloadPlanner planner(graph, target);
    // Budgets every op fits in, so that errors come from the search.
    uint64_t required = largestRequiredBytes(planner.getLifetimes());
    uint64_t peak = std::max(planner.getUnplannedPeak(), required);
    for (Policy policy : allPolicies()) {
      PlannerOptions options;
      options.memoryBudget = required + (peak - required) * (seed % 10) / 10;
      options.policy = policy;
      // Unmovable roles make sweeps fail inside the search: the error must
      // be the same whichever candidate fails first in time.
      if (seed % 4 == 0) {
        options.movableRoles = RoleSet();
        options.movableRoles.insert(TensorRole::SavedActivation);
      }
      std::string serial = describe(planner.plan(options), graph);
      EXPECT_EQ(describe(planner.plan(options, &pool), graph), serial);
      EXPECT_EQ(describe(planner.chooseGaps(options, &pool), graph),
                describe(planner.chooseGaps(options), graph));
      std::string nested[3];
      llvm::ThreadPoolTaskGroup outer(pool);
      for (std::string &result : nested)
        outer.async(
            [&] { result = describe(planner.plan(options, &pool), graph); });
      outer.wait();
      for (const std::string &result : nested)
        EXPECT_EQ(result, serial) << policyName(policy).str();
      if (!llvm::StringRef(serial).starts_with("error: "))
        ++plans;
      else if (llvm::StringRef(serial).contains("may not move"))
        ++sweepErrors;
    }
  }
  EXPECT_GT(plans, 500u);
  EXPECT_GT(sweepErrors, 100u);
}

/// A random plan of `graph`, most of them ill-formed (the verifier sorts
/// them out): gaps between random touches at random slots, persistent state
/// entering on SSD (with its next value leaving there, or itself when it is
/// returned unchanged).
Plan randomPlan(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                std::mt19937_64 &random) {
  auto below = [&](uint64_t bound) { return bound ? random() % bound : 0; };
  Plan plan;
  plan.policy = "random";
  uint32_t points = lifetimes.numPoints();
  unsigned density = 1 + below(4);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    if (!info.bytes || info.isAlias())
      continue;
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(tensor);
    bool state = info.isArgument() && isPersistentRole(info.role) &&
                 info.steadyStatePartner;
    bool entered = false, unchanged = false;
    std::vector<uint32_t> used;
    for (uint32_t touch : touches)
      if (touch != lifetimes.returnPoint())
        used.push_back(touch);
    if (state && !used.empty() && below(3) == 0) {
      Gap enter;
      enter.tensor = tensor;
      enter.entersOnSsd = true;
      enter.waitPoint = used.front();
      enter.prefetchSlot = below(used.front() + 1);
      plan.gaps.push_back(enter);
      TensorId partner = *info.steadyStatePartner;
      unchanged = partner == tensor;
      uint32_t from = unchanged ? used.back() + 1
                                : lifetimes.getTouches(partner).front() + 1;
      if (from < points) {
        Gap leave;
        leave.tensor = partner;
        leave.leavesOnSsd = true;
        leave.releaseSlot = from + below(points - from);
        uint32_t defined = lifetimes.getFirstSlotAfterDefinition(partner);
        leave.offloadSlot = defined + below(leave.releaseSlot - defined + 1);
        plan.gaps.push_back(leave);
      }
      entered = true;
    }
    int64_t offload = -1;
    for (uint32_t interval = info.isArgument() && !entered ? 0 : 1;
         interval < touches.size(); ++interval) {
      uint32_t from = interval == 0 ? 0 : touches[interval - 1] + 1;
      uint32_t next = touches[interval];
      if (below(4) >= density || next <= from ||
          (unchanged && next == lifetimes.returnPoint()))
        continue;
      Gap gap;
      gap.tensor = tensor;
      gap.releaseSlot = from + below(next - from);
      gap.prefetchSlot = gap.releaseSlot + 1 + below(next - gap.releaseSlot);
      gap.waitPoint = next;
      if (!entered) {
        uint32_t defined = lifetimes.getFirstSlotAfterDefinition(tensor);
        if (offload < 0)
          offload = defined + below(gap.releaseSlot - defined + 1);
        gap.offloadSlot = offload;
      }
      plan.gaps.push_back(gap);
    }
  }
  plan.finalize();
  return plan;
}

// Random legal plans of the random DAGs of at most 10 ops, each at the
// budget of its own peak: none beats the lower bound nor the exact policy's
// optimum at that budget (a hunt of this kind found the exact search missing
// steady pairs: LowerBoundCounterexampleTest (D) and (E)). Bounded by node
// limits only.
TEST(Property, NoLegalRandomPlanBeatsTheExactOptimum) {
  unsigned verified = 0, compared = 0;
  for (uint64_t seed = 1; seed <= 6000; ++seed) {
    StepGraph graph = randomDag(seed);
    if (graph.numOps() > 10)
      continue;
    Target target = randomTarget(seed);
    if (target.hasIdleDependentLatency() || target.ssdTransferWorkers ||
        target.transferIssueSeconds > 0)
      target = *getTargetPreset("h100-pcie5-pm1743");
    OffloadPlanner planner(graph, target);
    const LifetimeAnalysis &lifetimes = planner.getLifetimes();
    uint64_t required = 0;
    for (uint32_t point = 0; point < lifetimes.numPoints(); ++point)
      required = std::max(required, lifetimes.getRequiredBytes(point));
    std::mt19937_64 random(seed);
    std::map<uint64_t, double> optimumAt;
    for (unsigned i = 0; i < 40; ++i) {
      Plan plan = randomPlan(graph, lifetimes, random);
      uint64_t budget = required;
      for (uint64_t bytes : plan.liveBytes(graph, lifetimes))
        budget = std::max(budget, bytes);
      if (llvm::Error error = verifyPlan(graph, lifetimes, plan, budget)) {
        llvm::consumeError(std::move(error));
        continue;
      }
      ++verified;
      SCOPED_TRACE(seed);
      double step = planner.simulate(plan).stepSeconds;
      EXPECT_GE(step * (1 + 1e-9), planner.lowerBound(budget).latencySeconds);
      // The exact optimum at a few budgets per step: a plan that fits one
      // is no faster than its optimum.
      auto known = optimumAt.lower_bound(budget);
      if ((known == optimumAt.end() || known->first != budget) &&
          optimumAt.size() < 4) {
        PlannerOptions options;
        options.memoryBudget = budget;
        options.policy = Policy::Exact;
        options.exactTimeLimitSeconds = 1e9;
        options.exactNodeLimit = 20'000;
        llvm::Expected<Plan> best = planner.plan(options);
        double optimum = -1;
        if (best)
          optimum = planner.simulate(*best).stepSeconds;
        else
          llvm::consumeError(best.takeError());
        known = optimumAt.emplace(budget, optimum).first;
      }
      if (known == optimumAt.end() || known->second < 0)
        continue;
      ++compared;
      EXPECT_LE(known->second, step * (1 + 1e-9))
          << "a verified plan beats the exact optimum:\n"
          << [&] {
               std::string text;
               llvm::raw_string_ostream os(text);
               plan.print(os, graph);
               return text;
             }();
    }
  }
  // (34,184 and 33,019; before the fixes of (D) and (E) the exact optimum
  // lost to such a plan on seeds 2643, 5160 and 5502.)
  EXPECT_GT(verified, 30000u);
  EXPECT_GT(compared, 30000u);
}

} // namespace
