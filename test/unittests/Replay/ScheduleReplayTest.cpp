//===- ScheduleReplayTest.cpp - Tests of the schedule replay --------------===//
//
// Plans built by hand (and proven safe by the planner's verifier) replayed
// through a real runtime on real files: the bytes each step moves, one
// durable sync per transfer group, state that enters on SSD put back
// between steps, compute that takes its modelled time, --min-seconds and
// the probe between steps, and a write that the kernel refuses.
//
//===----------------------------------------------------------------------===//

#include "ReplayTestUtil.h"

#include "ssd/Analysis/Planner/Lifetimes.h"
#include "ssd/Replay/ScheduleReplay.h"

#include <cerrno>
#include <numeric>

using namespace ssd;
using namespace ssd::replay;
using namespace ssd::planner;
using ssd::replay::testing::FileSizeLimit;
using ssd::replay::testing::ScratchDir;

namespace {

/// #0 a = f(x)   #1 b = g(x)   #2 c = g2(b)   #3 d = h(a, c)
/// with `a` offloaded and released after #0, prefetched before #2 and
/// awaited before #3 (test/Tools/ssd-run.mlir's step).
struct OneGapStep {
  StepGraph graph{"step"};
  Plan plan;
  TensorId a;

  explicit OneGapStep(uint64_t aBytes = 8192) {
    TensorId x = graph.addArgument("x", 4096, TensorRole::Input);
    a = graph.addResult(graph.addOp("f", {x}), "a", aBytes);
    TensorId b = graph.addResult(graph.addOp("g", {x}), "b", 8192);
    TensorId c = graph.addResult(graph.addOp("g2", {b}), "c", 64);
    graph.addReturn(graph.addResult(graph.addOp("h", {a, c}), "d", 64));
    Gap gap;
    gap.tensor = a;
    gap.offloadSlot = gap.releaseSlot = 1;
    gap.prefetchSlot = 2;
    gap.waitPoint = 3;
    plan.gaps.push_back(gap);
    plan.finalize();
  }
};

/// #0 a, b, c = f(x)   #1 d = g(x)   #2 e = h(a, b, c, d), with a, b and
/// c offloaded after #0 and read back before #2, as one group each way
/// or one transfer per tensor.
struct ThreeGapStep {
  StepGraph graph{"step"};
  Plan plan;

  explicit ThreeGapStep(bool grouped) {
    TensorId x = graph.addArgument("x", 4096, TensorRole::Input);
    OpId f = graph.addOp("f", {x});
    std::vector<TensorId> moved;
    for (const char *name : {"a", "b", "c"})
      moved.push_back(graph.addResult(f, name, 8192));
    TensorId d = graph.addResult(graph.addOp("g", {x}), "d", 64);
    std::vector<TensorId> operands = moved;
    operands.push_back(d);
    graph.addReturn(graph.addResult(graph.addOp("h", operands), "e", 64));
    for (TensorId tensor : moved) {
      Gap gap;
      gap.tensor = tensor;
      gap.offloadSlot = gap.releaseSlot = 1;
      gap.prefetchSlot = gap.waitPoint = 2;
      if (grouped) {
        gap.offloadGroup = 0;
        gap.prefetchGroup = 1;
      }
      plan.gaps.push_back(gap);
    }
    plan.finalize();
  }
};

void expectSafe(const StepGraph &graph, const Plan &plan) {
  LifetimeAnalysis lifetimes(graph);
  llvm::Error error = verifyPlan(graph, lifetimes, plan, 1ull << 40);
  EXPECT_FALSE(error) << llvm::toString(std::move(error));
}

/// A runtime session on a fresh scratch directory for each test.
class ScheduleReplayTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto opened = RuntimeSession::open(dir.str());
    ASSERT_TRUE(bool(opened)) << llvm::toString(opened.takeError());
    session = std::move(*opened);
  }

  /// Replays `plan`; fails the test when the replay fails.
  ReplayResult replay(const StepGraph &graph, const Plan &plan,
                      llvm::ArrayRef<double> opSeconds,
                      const ReplayOptions &options) {
    llvm::Expected<ReplayResult> result =
        replayPlan(*session, graph, plan, opSeconds, options);
    EXPECT_TRUE(bool(result)) << llvm::toString(result.takeError());
    return result ? std::move(*result) : ReplayResult();
  }

  ScratchDir dir;
  std::unique_ptr<RuntimeSession> session;
};

TEST_F(ScheduleReplayTest, EveryStepMovesThePlansBytes) {
  OneGapStep step;
  expectSafe(step.graph, step.plan);
  std::vector<double> opSeconds(step.graph.numOps(), 1e-4);
  ReplayOptions options;
  options.compute = ComputeMode::Model;
  options.steps = 3;
  std::vector<unsigned> reported;
  options.onStep = [&](unsigned number, double seconds) {
    reported.push_back(number);
    EXPECT_GT(seconds, 0);
  };
  ReplayResult result = replay(step.graph, step.plan, opSeconds, options);
  EXPECT_EQ(reported, (std::vector<unsigned>{1, 2, 3}));
  ASSERT_EQ(result.stepSeconds.size(), 3u);
  EXPECT_TRUE(llvm::is_sorted(result.stepSeconds));
  EXPECT_EQ(result.runtime.bytes_written, 3 * 8192u);
  EXPECT_EQ(result.runtime.bytes_read, 3 * 8192u);
  EXPECT_EQ(result.runtime.sync_ops, 3u);
  EXPECT_FALSE(result.probed);
  // Sleeping takes at least the modelled time; the step takes more.
  EXPECT_GE(result.mean.computeSeconds, 4e-4);
  EXPECT_GE(result.mean.seconds, result.mean.computeSeconds);
  EXPECT_GE(result.mean.writeStallSeconds, 0);
  EXPECT_GE(result.mean.readStallSeconds, 0);
  EXPECT_GT(result.mean.issueSeconds, 0);
  EXPECT_EQ(replayDiskBytes(step.graph, step.plan), 8192u);
  OneGapStep small(100);
  EXPECT_EQ(replayDiskBytes(small.graph, small.plan), 4096u);
}

TEST_F(ScheduleReplayTest, AGroupIsOneTransferWithOneSync) {
  for (bool grouped : {true, false}) {
    SCOPED_TRACE(grouped ? "grouped" : "one transfer per tensor");
    ThreeGapStep step(grouped);
    expectSafe(step.graph, step.plan);
    std::vector<double> opSeconds(step.graph.numOps(), 0);
    ReplayOptions options;
    options.steps = 2;
    ReplayResult result = replay(step.graph, step.plan, opSeconds, options);
    EXPECT_EQ(result.runtime.bytes_written, 2 * 3 * 8192u);
    EXPECT_EQ(result.runtime.bytes_read, 2 * 3 * 8192u);
    EXPECT_EQ(result.runtime.sync_ops, grouped ? 2u : 6u);
  }
}

TEST_F(ScheduleReplayTest, StateEnteringOnSsdIsPutBackBetweenSteps) {
  // #0 y = use(w), with w entering on SSD and read back before #0.
  StepGraph graph("step");
  TensorId w = graph.addArgument("w", 8192, TensorRole::Param);
  graph.addReturn(graph.addResult(graph.addOp("use", {w}), "y", 64));
  Plan plan;
  Gap gap;
  gap.tensor = w;
  gap.entersOnSsd = true;
  plan.gaps.push_back(gap);
  plan.finalize();
  std::vector<double> opSeconds(graph.numOps(), 0);
  ReplayOptions options;
  options.steps = 3;
  ReplayResult result = replay(graph, plan, opSeconds, options);
  // Written once, untimed, before the first step; a copy on SSD stays
  // valid, so later resets only drop the memory. Every step reads it.
  EXPECT_EQ(result.runtime.bytes_written, 8192u);
  EXPECT_EQ(result.runtime.sync_ops, 1u);
  EXPECT_EQ(result.runtime.bytes_read, 3 * 8192u);
  EXPECT_EQ(result.mean.writeStallSeconds, 0);
}

TEST_F(ScheduleReplayTest, SpinningComputeTakesTheModelledTime) {
  OneGapStep step;
  std::vector<double> opSeconds = {1e-3, 2e-3, 0, 3e-3};
  ReplayOptions options;
  options.compute = ComputeMode::Spin;
  options.steps = 2;
  ReplayResult result = replay(step.graph, step.plan, opSeconds, options);
  EXPECT_GE(result.mean.computeSeconds, 6e-3);
  EXPECT_LT(result.mean.computeSeconds, 0.5);
  EXPECT_GE(result.stepSeconds.front(), 6e-3);
}

TEST_F(ScheduleReplayTest, MinSecondsRunsStepsUntilTheyTotalIt) {
  // No transfers, whose durable writes could make one step take it all:
  // steps of 4 ms of spinning, until they total 0.2 s.
  OneGapStep step;
  Plan nothingMoves;
  std::vector<double> opSeconds(step.graph.numOps(), 1e-3);
  ReplayOptions options;
  options.steps = 1;
  options.minSeconds = 0.2;
  std::vector<double> inOrder;
  options.onStep = [&](unsigned, double seconds) {
    inOrder.push_back(seconds);
  };
  ReplayResult result = replay(step.graph, nothingMoves, opSeconds, options);
  ASSERT_GE(inOrder.size(), 2u);
  EXPECT_EQ(result.stepSeconds.size(), inOrder.size());
  double beforeLast = std::accumulate(inOrder.begin(), inOrder.end() - 1, 0.0);
  EXPECT_LT(beforeLast, 0.2);
  EXPECT_GE(beforeLast + inOrder.back(), 0.2);
}

TEST_F(ScheduleReplayTest, ProbeRunsBetweenSteps) {
  OneGapStep step;
  std::vector<double> opSeconds(step.graph.numOps(), 0);
  ReplayOptions options;
  options.steps = 2;
  options.probeLatency = true;
  ReplayResult result = replay(step.graph, step.plan, opSeconds, options);
  ASSERT_TRUE(result.probed);
  // At least 16 rounds over the first two steps, and no idle rounds.
  EXPECT_GE(result.probed->rounds, 16u);
  EXPECT_EQ(result.probed->idleRounds, 0u);
  Latencies latency = result.probed->fit(2e9, 1e9);
  EXPECT_GT(latency.write, 0);
  EXPECT_GT(latency.read, 0);
  EXPECT_TRUE(latency.idle.empty());
  // The runtime's counters include the probe's transfers.
  EXPECT_GT(result.runtime.bytes_written, 2 * 8192u);
}

TEST_F(ScheduleReplayTest, ARefusedWriteFailsTheStepWithTheRuntimesMessage) {
  OneGapStep step(64 << 10);
  std::vector<double> opSeconds(step.graph.numOps(), 0);
  ScheduleReplay schedule(*session, step.graph, step.plan, opSeconds,
                          ComputeMode::Spin);
  ASSERT_FALSE(schedule.prepare());
  std::string message;
  {
    FileSizeLimit limit(4096);
    llvm::Expected<StepMeasurement> measured = schedule.runStep();
    ASSERT_FALSE(bool(measured));
    message = llvm::toString(measured.takeError());
  }
  EXPECT_EQ(message.rfind("waiting for an offload failed: ", 0), 0u) << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
}

} // namespace
