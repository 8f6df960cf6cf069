//===- TargetTest.cpp - Target descriptions, sizes and the cost model -----===//
//
// Memory-size parsing, presets, the JSON target format and the numbers the
// cost model derives from them.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Analysis/Planner/Calibration.h"
#include "ssd/Analysis/Planner/CostModel.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ssd::planner;

namespace {

uint64_t sizeOf(llvm::StringRef text) {
  llvm::Expected<uint64_t> bytes = parseMemorySize(text);
  EXPECT_TRUE(static_cast<bool>(bytes)) << text.str();
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return 0;
  }
  return *bytes;
}

/// The target as its report form (`toJSON`) parses back.
llvm::Expected<Target> roundTrip(const Target &target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << target.toJSON();
  return parseTargetJSON(os.str());
}

bool rejectsSize(llvm::StringRef text) {
  llvm::Expected<uint64_t> bytes = parseMemorySize(text);
  if (bytes)
    return false;
  llvm::consumeError(bytes.takeError());
  return true;
}

TEST(MemorySize, ParsesBinaryDecimalAndPlainBytes) {
  EXPECT_EQ(sizeOf("512MiB"), 512ull << 20);
  EXPECT_EQ(sizeOf("2GiB"), 2ull << 30);
  EXPECT_EQ(sizeOf("1.5GB"), 1500000000ull);
  EXPECT_EQ(sizeOf("4096"), 4096ull);
  EXPECT_EQ(sizeOf("100KB"), 100000ull);
  EXPECT_EQ(sizeOf("3KiB"), 3072ull);
  EXPECT_EQ(sizeOf(" 8 GiB "), 8ull << 30);
  EXPECT_EQ(sizeOf("1TiB"), 1ull << 40);
  EXPECT_EQ(sizeOf("0"), 0ull);
}

TEST(MemorySize, RejectsGarbage) {
  EXPECT_TRUE(rejectsSize(""));
  EXPECT_TRUE(rejectsSize("abc"));
  EXPECT_TRUE(rejectsSize("12XB"));
  EXPECT_TRUE(rejectsSize("-5MiB"));
  EXPECT_TRUE(rejectsSize("GiB"));
  EXPECT_TRUE(rejectsSize("1e400"));
}

TEST(Target, EveryPresetIsValid) {
  std::vector<llvm::StringRef> names = targetPresetNames();
  ASSERT_GE(names.size(), 4u);
  bool hostOnly = false;
  for (llvm::StringRef name : names) {
    llvm::Expected<Target> target = getTargetPreset(name);
    ASSERT_TRUE(static_cast<bool>(target)) << name.str();
    EXPECT_EQ(target->name, name.str());
    EXPECT_FALSE(static_cast<bool>(target->validate()));
    hostOnly |= !target->hasHostLink();
  }
  EXPECT_TRUE(hostOnly) << "a host-only preset is expected";
}

TEST(Target, UnknownPresetListsTheKnownOnes) {
  llvm::Expected<Target> target = loadTarget("tpu-v9");
  ASSERT_FALSE(static_cast<bool>(target));
  std::string message = llvm::toString(target.takeError());
  EXPECT_NE(message.find("tpu-v9"), std::string::npos);
  EXPECT_NE(message.find("h100-pcie5-pm1743"), std::string::npos);
}

TEST(Target, ParsesJSON) {
  llvm::Expected<Target> target = parseTargetJSON(R"({
    "name": "lab-box",
    "compute_flops": 1e14,
    "device_memory": "16GiB",
    "device_memory_bandwidth": 9e11,
    "host_to_device_bandwidth": 2.5e10,
    "device_to_host_bandwidth": 2.4e10,
    "ssd_read_bandwidth": 3e9,
    "ssd_write_bandwidth": 2e9,
    "io_latency_seconds": 5e-5
  })");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->name, "lab-box");
  EXPECT_EQ(target->deviceMemoryBytes, 16ull << 30);
  EXPECT_DOUBLE_EQ(target->ssdWriteBandwidth, 2e9);
  EXPECT_DOUBLE_EQ(target->deviceToHostBandwidth, 2.4e10);
  EXPECT_DOUBLE_EQ(target->ioLatencySeconds, 5e-5);

  // The report's form reads back as the same target.
  llvm::Expected<Target> again = roundTrip(*target);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_DOUBLE_EQ(again->ssdReadBandwidth, 3e9);
  EXPECT_EQ(again->deviceMemoryBytes, 16ull << 30);
}

TEST(Target, OwnSsdLatenciesIssueTimeAndWorkers) {
  llvm::Expected<Target> shared = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "io_latency_seconds": 3e-4})");
  ASSERT_TRUE(static_cast<bool>(shared)) << llvm::toString(shared.takeError());
  EXPECT_DOUBLE_EQ(shared->ssdReadLatency(), 3e-4);
  EXPECT_DOUBLE_EQ(shared->ssdWriteLatency(), 3e-4);
  EXPECT_DOUBLE_EQ(shared->transferIssueSeconds, 0.0);
  llvm::Expected<Target> own = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "ssd_read_latency_seconds": 1e-4,
          "ssd_write_latency_seconds": 3e-4, "transfer_issue_seconds": 2e-5})");
  ASSERT_TRUE(static_cast<bool>(own)) << llvm::toString(own.takeError());
  EXPECT_DOUBLE_EQ(own->ssdReadLatency(), 1e-4);
  EXPECT_DOUBLE_EQ(own->ssdWriteLatency(), 3e-4);
  EXPECT_DOUBLE_EQ(own->transferIssueSeconds, 2e-5);
  // They read back from the report's form.
  llvm::Expected<Target> again = roundTrip(*own);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_DOUBLE_EQ(again->ssdReadLatency(), 1e-4);
  EXPECT_DOUBLE_EQ(again->ssdWriteLatency(), 3e-4);
  EXPECT_DOUBLE_EQ(again->transferIssueSeconds, 2e-5);
  EXPECT_EQ(own->ssdTransferWorkers, 0u);
  EXPECT_DOUBLE_EQ(own->ssdReadQueuedLatency(), 1e-4);
  EXPECT_FALSE(own->hasIdleDependentLatency());
  llvm::Expected<Target> queued = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "ssd_read_queued_latency_seconds": 1e-5,
          "ssd_write_queued_latency_seconds": 4e-5})");
  ASSERT_TRUE(static_cast<bool>(queued)) << llvm::toString(queued.takeError());
  EXPECT_DOUBLE_EQ(queued->ssdReadQueuedLatency(), 1e-5);
  EXPECT_DOUBLE_EQ(queued->ssdWriteQueuedLatency(), 4e-5);
  EXPECT_DOUBLE_EQ(queued->ssdReadLatency(), 20e-6);
  EXPECT_TRUE(queued->hasIdleDependentLatency());
  llvm::Expected<Target> queuedAgain = roundTrip(*queued);
  ASSERT_TRUE(static_cast<bool>(queuedAgain))
      << llvm::toString(queuedAgain.takeError());
  EXPECT_DOUBLE_EQ(queuedAgain->ssdWriteQueuedLatency(), 4e-5);
  llvm::Expected<Target> workers = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "ssd_transfer_workers": 2})");
  ASSERT_TRUE(static_cast<bool>(workers))
      << llvm::toString(workers.takeError());
  EXPECT_EQ(workers->ssdTransferWorkers, 2u);
  for (
      const char *bad :
      {R"({"base": "h100-pcie5-pm1743", "ssd_transfer_workers": -1})",
       R"({"base": "h100-pcie5-pm1743", "ssd_transfer_workers": 1.5})",
       R"({"base": "h100-pcie5-pm1743", "ssd_read_latency_seconds": -1})",
       R"({"base": "h100-pcie5-pm1743", "ssd_write_latency_seconds": "x"})",
       R"({"base": "h100-pcie5-pm1743", "ssd_read_queued_latency_seconds": -1})",
       R"({"base": "h100-pcie5-pm1743", "transfer_issue_seconds": -1e-6})"}) {
    llvm::Expected<Target> target = parseTargetJSON(bad);
    EXPECT_FALSE(static_cast<bool>(target)) << bad;
    if (!target)
      llvm::consumeError(target.takeError());
  }
}

TEST(Target, IdleLatencyCurve) {
  llvm::Expected<Target> target = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "ssd_idle_latency": [
            {"idle_seconds": 1e-3, "extra_seconds": 1e-4},
            {"idle_seconds": 3e-3, "extra_seconds": 3e-4}]})");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  ASSERT_EQ(target->ssdIdleLatency.size(), 2u);
  // Linear from (0, 0) through the points, flat after the last.
  EXPECT_DOUBLE_EQ(target->ssdIdlePenalty(0), 0.0);
  EXPECT_DOUBLE_EQ(target->ssdIdlePenalty(0.5e-3), 0.5e-4);
  EXPECT_DOUBLE_EQ(target->ssdIdlePenalty(2e-3), 2e-4);
  EXPECT_DOUBLE_EQ(target->ssdIdlePenalty(1.0), 3e-4);
  EXPECT_DOUBLE_EQ(getTargetPreset("h100-pcie5-pm1743")->ssdIdlePenalty(1.0),
                   0.0);
  // The curve reads back from the report's form.
  llvm::Expected<Target> again = roundTrip(*target);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  ASSERT_EQ(again->ssdIdleLatency.size(), 2u);
  EXPECT_DOUBLE_EQ(again->ssdIdleLatency[1].idleSeconds, 3e-3);
  EXPECT_DOUBLE_EQ(again->ssdIdleLatency[1].extraSeconds, 3e-4);

  auto error = [](llvm::StringRef curve) {
    llvm::Expected<Target> bad = parseTargetJSON(
        (R"({"base": "h100-pcie5-pm1743", "ssd_idle_latency": )" + curve + "}")
            .str());
    EXPECT_FALSE(static_cast<bool>(bad)) << curve.str();
    return bad ? std::string() : llvm::toString(bad.takeError());
  };
  for (llvm::StringRef malformed :
       {R"(1e-3)", R"([1e-3])", R"([{"idle_seconds": 1e-3}])",
        R"([{"idle_seconds": 1e-3, "extra_seconds": "x"}])",
        R"([{"idle_seconds": 1e-3, "extra_seconds": 1, "slope": 2}])"})
    EXPECT_NE(error(malformed).find("must be an array of"), std::string::npos);
  for (llvm::StringRef nonsense :
       {R"([{"idle_seconds": 0, "extra_seconds": 1e-4}])",
        R"([{"idle_seconds": 1e-3, "extra_seconds": -1e-4}])",
        R"([{"idle_seconds": 2e-3, "extra_seconds": 1e-4},
            {"idle_seconds": 1e-3, "extra_seconds": 2e-4}])"})
    EXPECT_NE(error(nonsense).find("idle_seconds > 0 and increasing"),
              std::string::npos);
}

TEST(Target, JSONCanStartFromAPreset) {
  llvm::Expected<Target> target = parseTargetJSON(
      R"({"base": "a100-pcie4-pm9a3", "name": "a100-raid", "ssd_read_bandwidth": 2.7e10})");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->name, "a100-raid");
  EXPECT_DOUBLE_EQ(target->ssdReadBandwidth, 2.7e10);
  EXPECT_DOUBLE_EQ(target->computeFlops, 312e12);
}

TEST(Target, JSONErrorsSayWhat) {
  auto error = [](llvm::StringRef text) {
    llvm::Expected<Target> target = parseTargetJSON(text);
    EXPECT_FALSE(static_cast<bool>(target)) << text.str();
    return target ? std::string() : llvm::toString(target.takeError());
  };
  EXPECT_NE(error(R"({"base": "h100-pcie5-pm1743", "ssd_speed": 1})")
                .find("unknown field 'ssd_speed'"),
            std::string::npos);
  EXPECT_NE(error(R"({"base": "h100-pcie5-pm1743", "compute_flops": "fast"})")
                .find("must be a number"),
            std::string::npos);
  EXPECT_NE(
      error(R"({"base": "h100-pcie5-pm1743", "host_to_device_bandwidth": 0})")
          .find("both positive or both 0"),
      std::string::npos);
  EXPECT_NE(error(R"({"compute_flops": 1})").find("must be positive"),
            std::string::npos);
  EXPECT_FALSE(error("[1, 2").empty());
}

TEST(Target, HostOnlyJSON) {
  llvm::Expected<Target> target = parseTargetJSON(
      R"({"base": "h100-pcie5-pm1743", "host_to_device_bandwidth": 0, "device_to_host_bandwidth": 0})");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_FALSE(target->hasHostLink());
}

TEST(Calibration, LatencyIsTheFitWithTheSlopeFixed) {
  // 1 GB/s: 4096 B move in 4.096 us, 65536 B in 65.536 us; the times are
  // 106 and 94 us above that.
  std::vector<TimedTransfer> alone = {{4096, 110.096e-6}, {65536, 159.536e-6}};
  EXPECT_NEAR(fitLatency(alone, 1e9), 100e-6, 1e-12);
  // Noise that leaves no positive latency: the smallest time.
  std::vector<TimedTransfer> noise = {{4096, 3e-6}, {65536, 50e-6}};
  EXPECT_DOUBLE_EQ(fitLatency(noise, 1e9), 3e-6);
}

TEST(Calibration, QueuedLatencyMovesTheLatencyByTheBurstsDifference) {
  // Alone a 4096 B transfer costs 150 us + 4.096 us; queued behind another
  // on its worker, 100 us + 4.096 us (it need not wake the worker). Four per
  // worker started at once: 154.096 + 3 * 104.096 us.
  TimedTransfer first{4096, 154.096e-6};
  double burst = 154.096e-6 + 3 * 104.096e-6;
  EXPECT_NEAR(fitQueuedLatency(150e-6, first, burst, 4, 1e9), 100e-6, 1e-12);
  // The fitted latency over all sizes moves by the same 50 us.
  EXPECT_NEAR(fitQueuedLatency(170e-6, first, burst, 4, 1e9), 120e-6, 1e-12);
  // Contention: queued ones cost more than one alone.
  double contended = 154.096e-6 + 3 * 204.096e-6;
  EXPECT_NEAR(fitQueuedLatency(150e-6, first, contended, 4, 1e9), 200e-6,
              1e-12);
  // Never below 0.
  EXPECT_EQ(fitQueuedLatency(10e-6, first, burst, 4, 1e9), 0.0);
}

TEST(Calibration, IdleCurveIsTheMeanExcessAndNeverFalls) {
  std::vector<double> idle = {0, 1e-3, 2e-3, 5e-3};
  std::vector<double> writes = {300e-6, 500e-6, 400e-6, 700e-6};
  std::vector<double> reads = {100e-6, 200e-6, 200e-6, 400e-6};
  std::vector<IdleLatencyPoint> curve = fitIdleCurve(idle, writes, reads);
  ASSERT_EQ(curve.size(), 3u);
  EXPECT_DOUBLE_EQ(curve[0].idleSeconds, 1e-3);
  EXPECT_NEAR(curve[0].extraSeconds, 150e-6, 1e-12);
  // (100 + 100) / 2 = 100 us would fall below 150: kept at 150.
  EXPECT_NEAR(curve[1].extraSeconds, 150e-6, 1e-12);
  EXPECT_NEAR(curve[2].extraSeconds, 350e-6, 1e-12);
  // A target takes the curve as it is.
  Target target = *getTargetPreset("epyc9654-990pro");
  target.ssdIdleLatency = curve;
  EXPECT_FALSE(static_cast<bool>(target.validate()));
  // Faster after idling than back to back: no extra at all.
  std::vector<IdleLatencyPoint> none =
      fitIdleCurve({0, 1e-3}, {300e-6, 200e-6}, {100e-6, 90e-6});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].extraSeconds, 0.0);
}

TEST(CostModel, ExplicitSecondsWin) {
  Target target = *getTargetPreset("h100-pcie5-pm1743");
  OpCost cost{2e-3, 1e20, 1e20};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(cost, 1 << 30, target), 2e-3);
}

TEST(CostModel, RooflineOfFlopsAndBytes) {
  Target target = *getTargetPreset("h100-pcie5-pm1743");
  OpCost computeBound{std::nullopt, 989e12, 1e3};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(computeBound, 0, target), 1.0);
  OpCost memoryBound{std::nullopt, 1.0, 3.35e12};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(memoryBound, 0, target), 1.0);
  OpCost flopsOnly{std::nullopt, 989e9, std::nullopt};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(flopsOnly, 1ull << 40, target), 1e-3);
}

TEST(CostModel, UnknownOpsCostTheBytesTheyTouch) {
  Target target = *getTargetPreset("h100-pcie5-pm1743");
  EXPECT_DOUBLE_EQ(estimateOpSeconds(OpCost{}, 3350000000ull, target), 1e-3);
  EXPECT_DOUBLE_EQ(estimateOpSeconds(OpCost{}, 0, target), 0.0);
}

TEST(CostModel, OpOverheadIsAddedToEveryModelledOp) {
  Target target = *getTargetPreset("h100-pcie5-pm1743");
  target.opOverheadSeconds = 5e-6;
  // Roofline, unknown op and an op that touches nothing (a view) each pay
  // it once; a measured time already includes it.
  OpCost computeBound{std::nullopt, 989e12, 1e3};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(computeBound, 0, target), 1.0 + 5e-6);
  EXPECT_DOUBLE_EQ(estimateOpSeconds(OpCost{}, 3350000000ull, target),
                   1e-3 + 5e-6);
  OpCost view{std::nullopt, 0.0, 0.0};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(view, 0, target), 5e-6);
  OpCost measured{2e-3, 1e20, 1e20};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(measured, 0, target), 2e-3);
}

TEST(Target, DeviceRatesApplyOverAMeasuredTarget) {
  // What `ssd-run --calibrate --device-rates` does: the disk's target with
  // the device's compute, memory rate and op overhead from another file.
  Target disk = *getTargetPreset("epyc9654-990pro");
  disk.ssdReadBandwidth = 1.1e9;
  llvm::Expected<Target> merged = applyTargetJSON(
      disk, R"({"compute_flops": 6e10, "device_memory_bandwidth": 9e9,
                "op_overhead_seconds": 4e-6, "description": "probe"})");
  ASSERT_TRUE(static_cast<bool>(merged)) << llvm::toString(merged.takeError());
  EXPECT_EQ(merged->computeFlops, 6e10);
  EXPECT_EQ(merged->deviceMemoryBandwidth, 9e9);
  EXPECT_EQ(merged->opOverheadSeconds, 4e-6);
  EXPECT_EQ(merged->ssdReadBandwidth, 1.1e9); // kept
  EXPECT_EQ(merged->name, disk.name);
  // It reads back from the target's own JSON.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << merged->toJSON();
  llvm::Expected<Target> back = parseTargetJSON(text);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->opOverheadSeconds, 4e-6);
  // The same rules as a whole file: a negative overhead, a typo.
  llvm::Expected<Target> negative =
      applyTargetJSON(disk, R"({"op_overhead_seconds": -1e-6})");
  ASSERT_FALSE(static_cast<bool>(negative));
  EXPECT_NE(llvm::toString(negative.takeError()).find("op_overhead_seconds"),
            std::string::npos);
  llvm::Expected<Target> typo =
      applyTargetJSON(disk, R"({"op_overhead": 1e-6})");
  ASSERT_FALSE(static_cast<bool>(typo));
  EXPECT_NE(llvm::toString(typo.takeError()).find("unknown field"),
            std::string::npos);
}

TEST(Target, OpTimeTableParsesRoundTripsAndIsChecked) {
  Target base = *getTargetPreset("epyc9654-990pro");
  llvm::Expected<Target> table = applyTargetJSON(base, R"({"op_time_table": [
      {"ops": ["aten.mm"], "by": "flops", "points": [[0, 1e-5], [1e9, 2e-2]],
       "description": "probe"},
      {"ops": ["*"], "by": "bytes", "points": [[8, 3e-6], [8e6, 1e-3]]}]})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  ASSERT_EQ(table->opTimeTable.size(), 2u);
  EXPECT_EQ(table->opTimeTable[0].by, OpTimeCurve::Work::Flops);
  EXPECT_EQ(table->opTimeTable[1].points[1].seconds, 1e-3);
  EXPECT_EQ(table->ssdReadBandwidth, base.ssdReadBandwidth); // kept
  std::string text;
  llvm::raw_string_ostream os(text);
  os << table->toJSON();
  llvm::Expected<Target> back = parseTargetJSON(text);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->opTimeTable.size(), 2u);
  EXPECT_EQ(back->opTimeTable[0].ops, std::vector<std::string>{"aten.mm"});
  EXPECT_EQ(back->opTimeTable[0].points[1].work, 1e9);
  // No table: the presets' JSON has none, and none comes back.
  EXPECT_EQ(
      llvm::json::Value(base.toJSON()).getAsObject()->get("op_time_table"),
      nullptr);

  auto error = [&](llvm::StringRef json) {
    llvm::Expected<Target> bad = applyTargetJSON(base, json);
    EXPECT_FALSE(static_cast<bool>(bad)) << json.str();
    return bad ? std::string() : llvm::toString(bad.takeError());
  };
  EXPECT_NE(error(R"({"op_time_table": [{"ops": ["aten.mm"], "by": "time",
                  "points": [[1, 1]]}]})")
                .find("'by' must be"),
            std::string::npos);
  EXPECT_NE(error(R"({"op_time_table": [{"ops": ["aten.mm"], "by": "flops",
                  "points": [[2, 1e-3], [1, 2e-3]]}]})")
                .find("increasing work"),
            std::string::npos);
  EXPECT_NE(error(R"({"op_time_table": [{"ops": ["aten.mm"], "by": "flops",
                  "points": [[1, -1e-3]]}]})")
                .find("'aten.mm' needs points"),
            std::string::npos);
  EXPECT_NE(error(R"({"op_time_table": [{"ops": [], "by": "flops",
                  "points": [[1, 1e-3]]}]})")
                .find("non-empty list of op names"),
            std::string::npos);
  EXPECT_NE(error(R"({"op_time_table": [{"ops": ["aten.mm"], "by": "flops",
                  "points": [[1, 1e-3]], "rate": 1}]})")
                .find("unknown key 'rate'"),
            std::string::npos);
  EXPECT_NE(error(R"({"op_time_table": [{"ops": ["aten.mm"], "by": "flops",
                  "points": [[1, 1e-3, 2]]}]})")
                .find("not [work, seconds]"),
            std::string::npos);
}

TEST(CostModel, MeasuredCurvesTimeTheOpsTheyName) {
  Target target = *getTargetPreset("epyc9654-990pro");
  target.opOverheadSeconds = 1.0; // never added to a curve's time
  OpTimeCurve matmul{{"aten.mm", "aten.addmm"},
                     OpTimeCurve::Work::Flops,
                     {{1e6, 2e-5}, {1.01e8, 1.02e-3}}};
  OpTimeCurve rest{
      {"*"}, OpTimeCurve::Work::Bytes, {{0, 3e-6}, {4e6, 4.03e-4}}};
  target.opTimeTable = {rest, matmul}; // a named curve beats `*` in any order
  OpCost mm{std::nullopt, 5.1e7, 4096.0};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(mm, 0, target, "aten.mm.default"), 5.2e-4);
  EXPECT_DOUBLE_EQ(estimateOpSeconds(mm, 0, target, "aten.addmm"), 5.2e-4);
  // Below the first point: the first's time; past the last: its rate.
  OpCost tiny{std::nullopt, 1.0, 8.0};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(tiny, 0, target, "aten.mm"), 2e-5);
  OpCost huge{std::nullopt, 2.02e8, 8.0};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(huge, 0, target, "aten.mm"), 2.04e-3);
  // Other ops (a prefix that is not a whole name segment too) by bytes; the
  // bytes the op touches where the kernel gave none.
  OpCost add{std::nullopt, 0.0, 2e6};
  EXPECT_DOUBLE_EQ(estimateOpSeconds(add, 0, target, "aten.mmx"), 2.03e-4);
  EXPECT_DOUBLE_EQ(estimateOpSeconds(OpCost{}, 2000000, target, "linalg.add"),
                   2.03e-4);
  EXPECT_DOUBLE_EQ(
      estimateOpSeconds(OpCost{std::nullopt, 0.0, 0.0}, 0, target, "aten.view"),
      3e-6);
  // A measured time still wins.
  EXPECT_DOUBLE_EQ(
      estimateOpSeconds(OpCost{2e-3, 1e20, 1e20}, 0, target, "aten.mm"), 2e-3);
  // Without `*`, an op no curve names keeps the roofline and the overhead.
  target.opTimeTable = {matmul};
  EXPECT_DOUBLE_EQ(
      estimateOpSeconds(OpCost{std::nullopt, 0.0, 0.0}, 0, target, "aten.view"),
      1.0);
}

TEST(CostModel, FlopsOfKnownOps) {
  llvm::SmallVector<int64_t> lhs = {8, 768}, rhs = {768, 512}, out = {8, 512};
  llvm::SmallVector<llvm::ArrayRef<int64_t>> operands = {lhs, rhs};
  llvm::SmallVector<llvm::ArrayRef<int64_t>> results = {out};
  EXPECT_EQ(estimateFlops("linalg.matmul", operands, results),
            std::optional<double>(2.0 * 8 * 512 * 768));
  llvm::SmallVector<int64_t> bias = {512};
  llvm::SmallVector<llvm::ArrayRef<int64_t>> addmm = {bias, lhs, rhs};
  EXPECT_EQ(estimateFlops("aten.addmm", addmm, results),
            std::optional<double>(2.0 * 8 * 512 * 768));
  llvm::SmallVector<int64_t> image = {1, 3, 32, 32}, filter = {16, 3, 3, 3},
                             conv = {1, 16, 30, 30};
  llvm::SmallVector<llvm::ArrayRef<int64_t>> convOperands = {image, filter};
  llvm::SmallVector<llvm::ArrayRef<int64_t>> convResults = {conv};
  EXPECT_EQ(
      estimateFlops("linalg.conv_2d_nchw_fchw", convOperands, convResults),
      std::optional<double>(2.0 * 16 * 30 * 30 * 27));
  EXPECT_EQ(estimateFlops("arith.addf", operands, results),
            std::optional<double>(8 * 512));
  EXPECT_EQ(estimateFlops("mydialect.magic", operands, results), std::nullopt);
}

} // namespace
