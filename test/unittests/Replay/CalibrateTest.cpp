//===- CalibrateTest.cpp - Tests of the calibration -----------------------===//
//
// A real calibration on a scratch directory (the target it makes is valid,
// host-only, and says how it was measured), the disk pass's bytes, and the
// checks that stop a calibration before any work.
//
//===----------------------------------------------------------------------===//

#include "ReplayTestUtil.h"

#include "ssd/Replay/Calibrate.h"

using namespace ssd;
using namespace ssd::replay;
using ssd::replay::testing::ScratchDir;

namespace {

TEST(Calibrate, MakesAValidTargetThatSaysHowItWasMeasured) {
  ScratchDir dir;
  llvm::Expected<Calibration> calibration = calibrate(dir.str(), {8 << 20, 0});
  ASSERT_TRUE(bool(calibration)) << llvm::toString(calibration.takeError());
  const planner::Target &target = calibration->target;
  EXPECT_FALSE(target.validate());
  EXPECT_EQ(target.name, "calibrated");
  EXPECT_GT(target.computeFlops, 0);
  EXPECT_GT(target.deviceMemoryBandwidth, 0);
  EXPECT_GT(target.deviceMemoryBytes, 0u);
  EXPECT_GT(target.ssdReadBandwidth, 0);
  EXPECT_GT(target.ssdWriteBandwidth, 0);
  EXPECT_GT(*target.ssdWriteLatencySeconds, 0);
  EXPECT_GT(*target.ssdReadLatencySeconds, 0);
  EXPECT_EQ(target.ssdTransferWorkers, RuntimeSession::defaultWorkers());
  EXPECT_EQ(target.ssdIdleLatency.size(),
            std::size(LatencyProbe::kIdleSeconds) - 1);
  const std::string &description = calibration->description;
  EXPECT_EQ(description.rfind("measured by ssd-run --calibrate on ", 0), 0u);
  EXPECT_NE(description.find(" in " + dir.str().str() + ";"), std::string::npos)
      << description;
  // At least 64 rounds of each size, each size shown.
  EXPECT_NE(description.find("over 64 rounds"), std::string::npos)
      << description;
  for (const char *size : {"4096 B: write mean", "262144 B: write mean"})
    EXPECT_NE(description.find(size), std::string::npos) << description;
  llvm::json::Value json = calibration->toJSON();
  EXPECT_EQ(*json.getAsObject()->getString("description"), description);
  // The target reads back as the planner loads target files.
  std::string text;
  llvm::raw_string_ostream(text) << json;
  llvm::Expected<planner::Target> loaded = planner::parseTargetJSON(text);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->ssdTransferWorkers, target.ssdTransferWorkers);
  // The runtime's data files went with its context.
  EXPECT_EQ(dir.numFiles(), 0u);
}

TEST(Calibrate, DiskPassMovesItsBytesEachWay) {
  ScratchDir dir;
  auto session = RuntimeSession::open(dir.str());
  ASSERT_TRUE(bool(session)) << llvm::toString(session.takeError());
  constexpr uint64_t kBytes = (64ull << 20) + 4096;
  llvm::Expected<DiskRates> rates = measureDisk(**session, kBytes);
  ASSERT_TRUE(bool(rates)) << llvm::toString(rates.takeError());
  EXPECT_GT(rates->read, 0);
  EXPECT_GT(rates->write, 0);
  ssdrt_stats_t stats;
  ssdrt_stats((*session)->context(), &stats);
  // Two handles: 64 MiB and one block.
  EXPECT_EQ(stats.bytes_written, kBytes);
  EXPECT_EQ(stats.bytes_read, kBytes);
  EXPECT_EQ(stats.sync_ops, 2u);
}

TEST(Calibrate, StopsBeforeAnyWorkWithoutRoom) {
  ScratchDir dir;
  llvm::Expected<Calibration> calibration =
      calibrate(dir.str(), {1ull << 50, 0});
  ASSERT_FALSE(bool(calibration));
  std::string message = llvm::toString(calibration.takeError());
  EXPECT_NE(message.find("bytes available; the calibration needs "),
            std::string::npos)
      << message;
  EXPECT_EQ(dir.numFiles(), 0u);

  std::string missing = (dir.str() + "/missing").str();
  calibration = calibrate(missing, {8 << 20, 0});
  ASSERT_FALSE(bool(calibration));
  EXPECT_EQ(llvm::toString(calibration.takeError()),
            "scratch directory '" + missing + "' does not exist");
}

} // namespace
