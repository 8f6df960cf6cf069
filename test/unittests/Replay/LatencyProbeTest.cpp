//===- LatencyProbeTest.cpp - Tests of the latency probe ------------------===//
//
// The fit of a probe's samples on numbers made by hand (a disk with known
// latencies), the rounds of a real probe on real files, the probe's data
// bytes, and how a fit lands in a target.
//
//===----------------------------------------------------------------------===//

#include "ReplayTestUtil.h"

#include "ssd/Replay/LatencyProbe.h"

using namespace ssd;
using namespace ssd::replay;
using ssd::replay::testing::ScratchDir;

namespace {

constexpr unsigned kNumSizes = std::size(LatencyProbe::kSizes);
constexpr unsigned kNumIdle = std::size(LatencyProbe::kIdleSeconds);

/// Samples of a disk whose lone write costs 100 us + bytes at 1 GB/s and
/// lone read 50 us + bytes at 2 GB/s, whose queued transfers cost 30 us
/// (write) and 20 us (read) more than their bytes, whose calls take 5 us,
/// and which needs 1 us more per 0.25 ms of idling.
ProbeTimings handMade(bool withIdle) {
  constexpr double kWriteBandwidth = 1e9, kReadBandwidth = 2e9;
  ProbeTimings timings;
  timings.rounds = 3;
  for (uint64_t bytes : LatencyProbe::kSizes) {
    double write = 100e-6 + bytes / kWriteBandwidth;
    double read = 50e-6 + bytes / kReadBandwidth;
    // Noise that keeps the mean: a write's median is its mean, a read's
    // (with a heavy tail) 0.6 of it.
    timings.writes.push_back({write * 0.5, write, write * 1.5});
    timings.reads.push_back({read * 0.5, read * 0.6, read * 1.9});
  }
  // The first transfer on each worker costs a lone one, each later one its
  // queued latency and its bytes.
  uint64_t smallest = LatencyProbe::kSizes[0];
  unsigned later = LatencyProbe::kQueuedPerWorker - 1;
  timings.queuedWrites.assign(3,
                              100e-6 + smallest / kWriteBandwidth +
                                  later * (30e-6 + smallest / kWriteBandwidth));
  timings.queuedReads.assign(3,
                             50e-6 + smallest / kReadBandwidth +
                                 later * (20e-6 + smallest / kReadBandwidth));
  timings.issues.assign(6, 5e-6);
  if (withIdle) {
    timings.idleRounds = 1;
    for (double idle : LatencyProbe::kIdleSeconds) {
      timings.idleWrites.push_back({100e-6 + idle / 0.25e-3 * 1e-6});
      timings.idleReads.push_back({50e-6 + idle / 0.25e-3 * 1e-6});
    }
  } else {
    timings.idleWrites.resize(kNumIdle);
    timings.idleReads.resize(kNumIdle);
  }
  return timings;
}

TEST(LatencyProbe, FitRecoversTheLatenciesOfAKnownDisk) {
  Latencies latency = handMade(true).fit(2e9, 1e9);
  EXPECT_EQ(latency.rounds, 3u);
  EXPECT_NEAR(latency.write, 100e-6, 1e-12);
  EXPECT_NEAR(latency.read, 50e-6, 1e-12);
  EXPECT_NEAR(latency.issue, 5e-6, 1e-15);
  EXPECT_NEAR(latency.queuedWrite, 30e-6, 1e-12);
  EXPECT_NEAR(latency.queuedRead, 20e-6, 1e-12);
  ASSERT_EQ(latency.points.size(), kNumSizes);
  for (auto [point, bytes] : llvm::zip(latency.points, LatencyProbe::kSizes)) {
    EXPECT_EQ(point.bytes, bytes);
    EXPECT_NEAR(point.write, 100e-6 + bytes / 1e9, 1e-12);
    EXPECT_NEAR(point.writeMedian, point.write, 1e-12);
    EXPECT_NEAR(point.read, 50e-6 + bytes / 2e9, 1e-12);
    EXPECT_NEAR(point.readMedian, point.read * 0.6, 1e-12);
  }
  ASSERT_EQ(latency.idle.size(), kNumIdle - 1);
  EXPECT_DOUBLE_EQ(latency.idle.front().idleSeconds, 0.25e-3);
  EXPECT_NEAR(latency.idle.front().extraSeconds, 1e-6, 1e-12);
  EXPECT_DOUBLE_EQ(latency.idle.back().idleSeconds, 20e-3);
  EXPECT_NEAR(latency.idle.back().extraSeconds, 80e-6, 1e-12);
}

TEST(LatencyProbe, FitWithoutIdleRoundsHasNoCurve) {
  EXPECT_TRUE(handMade(false).fit(2e9, 1e9).idle.empty());
}

TEST(LatencyProbe, RoundsTimeEveryTransferThroughTheRuntime) {
  ScratchDir dir;
  auto session = RuntimeSession::open(dir.str());
  ASSERT_TRUE(bool(session)) << llvm::toString(session.takeError());
  ssdrt_stats_t before;
  ssdrt_stats((*session)->context(), &before);
  {
    LatencyProbe probe(**session);
    ASSERT_FALSE(probe.prepare());
    for (int round = 0; round < 3; ++round)
      ASSERT_FALSE(probe.round());
    ASSERT_FALSE(probe.idleRound());
    const ProbeTimings &timings = probe.timings();
    EXPECT_EQ(timings.rounds, 3u);
    EXPECT_EQ(timings.idleRounds, 1u);
    for (unsigned size = 0; size < kNumSizes; ++size) {
      ASSERT_EQ(timings.writes[size].size(), 3u);
      ASSERT_EQ(timings.reads[size].size(), 3u);
      for (double seconds : timings.writes[size])
        EXPECT_GT(seconds, 0);
    }
    // Each lone write and read was started by one timed call.
    EXPECT_EQ(timings.issues.size(), 3 * 2 * kNumSizes);
    EXPECT_EQ(timings.queuedWrites.size(), 3u);
    EXPECT_EQ(timings.queuedReads.size(), 3u);
    for (unsigned idle = 0; idle < kNumIdle; ++idle) {
      ASSERT_EQ(timings.idleWrites[idle].size(), 1u);
      ASSERT_EQ(timings.idleReads[idle].size(), 1u);
      // A write after 20 ms of spinning took its time after the spin.
      EXPECT_LT(timings.idleWrites[idle][0], 0.5);
    }
    Latencies latency = timings.fit(1e9, 1e9);
    EXPECT_EQ(latency.points.size(), kNumSizes);
    EXPECT_EQ(latency.idle.size(), kNumIdle - 1);
  }
  ssdrt_stats_t after;
  ssdrt_stats((*session)->context(), &after);
  // Per round every size written and read once and the queued ones once
  // each way; the idle round writes and reads the smallest per spell.
  uint64_t sizes = 0;
  for (uint64_t bytes : LatencyProbe::kSizes)
    sizes += extentBytes(bytes);
  uint64_t queued = LatencyProbe::queuedCount((*session)->workers()) * 4096;
  uint64_t expected = 3 * (sizes + queued) + kNumIdle * 4096;
  EXPECT_EQ(after.bytes_written - before.bytes_written, expected);
  EXPECT_EQ(after.bytes_read - before.bytes_read, expected);
}

TEST(LatencyProbe, DataBytesAreOneExtentPerHandle) {
  EXPECT_EQ(probeDiskBytes(2), 4096u + 12288 + 65536 + 262144 + 8 * 4096);
  EXPECT_EQ(probeDiskBytes(0), probeDiskBytes(1));
}

TEST(LatencyProbe, AFitSetsTheTargetsLatencyTerms) {
  planner::Target target;
  target.ssdIdleLatency = {{1e-3, 7e-6}};
  Latencies latency = handMade(false).fit(2e9, 1e9);
  applyLatencies(target, latency);
  EXPECT_EQ(*target.ssdWriteLatencySeconds, latency.write);
  EXPECT_EQ(*target.ssdReadLatencySeconds, latency.read);
  EXPECT_EQ(target.ioLatencySeconds, latency.write);
  EXPECT_EQ(target.transferIssueSeconds, latency.issue);
  EXPECT_EQ(target.ssdWriteQueuedLatency(), latency.queuedWrite);
  EXPECT_EQ(target.ssdReadQueuedLatency(), latency.queuedRead);
  // No idle rounds: the target's curve stays.
  ASSERT_EQ(target.ssdIdleLatency.size(), 1u);
  applyLatencies(target, handMade(true).fit(2e9, 1e9));
  EXPECT_EQ(target.ssdIdleLatency.size(), kNumIdle - 1);
}

} // namespace
