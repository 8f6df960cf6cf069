//===- ssd-run.cpp - replay a planned step with real I/O ------------------===//
//
// The command line of the replay and calibration libraries (lib/Replay):
// `ssd-run planned.mlir` verifies a planned step, reads its plan back
// (extractPlan), replays it through the runtime on a scratch directory
// and prints what the step achieved next to what the planner predicted;
// `ssd-run --calibrate` measures this machine and writes a target file the
// planner accepts. docs/ssd-run.md describes both.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Replay/Calibrate.h"
#include "ssd/Replay/ScheduleReplay.h"
#include "ssd/Replay/Timing.h"
#include "ssd/Tools/InitAllDialects.h"
#include "ssd/Transforms/ApplyPlan.h"
#include "ssd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <unistd.h>

using namespace mlir;
using namespace mlir::ssd;
using namespace ::ssd::replay;
namespace cl = llvm::cl;
namespace planner = ::ssd::planner;

namespace {
/// The parser of a closed choice whose error names the choices, as the
/// tool's other option errors are worded: "ssd-run: --compute must be spin
/// or model, got 'guess'".
template <typename T> class ChoiceParser : public cl::parser<T> {
public:
  using cl::parser<T>::parser;
  bool parse(cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             T &value) {
    std::string names;
    for (auto [index, choice] : llvm::enumerate(this->Values)) {
      if (choice.Name == arg) {
        value = choice.V.getValue();
        return false;
      }
      names += index == 0                         ? ""
               : index + 1 == this->Values.size() ? " or "
                                                  : ", ";
      names += choice.Name;
    }
    llvm::errs() << "ssd-run: --" << option.ArgStr << " must be " << names
                 << ", got '" << arg << "'\n";
    return true;
  }
  /// The name `value` is given by on the command line.
  llvm::StringRef nameOf(T value) const {
    for (const auto &choice : this->Values)
      if (choice.V.getValue() == value)
        return choice.Name;
    llvm_unreachable("a value outside the choices");
  }
};
} // namespace

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<planned step .mlir>"), cl::init(""));
static cl::opt<std::string>
    scratchDir("scratch-dir", cl::Required,
               cl::desc("Directory for the data files"));
static cl::opt<std::string>
    targetSpec("target", cl::init("h100-pcie5-pm1743"),
               cl::desc("Target preset or JSON file the prediction uses"));
static cl::opt<ComputeMode, false, ChoiceParser<ComputeMode>> computeMode(
    "compute", cl::init(ComputeMode::Spin),
    cl::desc("How each op's modelled time passes"),
    cl::values(clEnumValN(ComputeMode::Spin, "spin", "busy-wait it"),
               clEnumValN(ComputeMode::Model, "model", "sleep it")));
static cl::opt<unsigned> steps("steps", cl::init(3),
                               cl::desc("Steps to run (the mean is reported)"));
static cl::opt<double> minSeconds(
    "min-seconds", cl::init(0),
    cl::desc("Run more steps than --steps until their total reaches this "
             "many seconds: a step of a few latency-bound transfers needs "
             "many samples before its mean settles"));
static cl::opt<bool> probeLatency(
    "probe-latency",
    cl::desc("Between steps (untimed), time durable writes and reads as "
             "--calibrate does, and also predict the step with the latencies "
             "the disk had during the run: on a shared disk whose latency "
             "drifts, this separates the model's error from the drift"));
static cl::opt<bool> checkData(
    "check-data",
    cl::desc("Fill each tensor with its own pattern, overwrite its memory at "
             "each release and check every byte each reload brings back "
             "(untimed); a mismatch fails the replay"));
static cl::opt<std::string>
    functionName("function", cl::init(""),
                 cl::desc("The step function (default: the only one)"));
static cl::opt<bool>
    calibrateMode("calibrate",
                  cl::desc("Measure this machine, write a target"));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Where the JSON goes"));
static cl::opt<std::string>
    calibrateBytes("calibrate-bytes", cl::init("512MiB"),
                   cl::desc("Bytes each calibration transfer pass moves"));
static cl::opt<double> calibrateSeconds(
    "calibrate-seconds", cl::init(3.0),
    cl::desc("Least time the calibration spends timing small transfers"));

static cl::opt<std::string> deviceRates(
    "device-rates", cl::init(""),
    cl::desc("With --calibrate: a target JSON file of the device's rates "
             "(compute_flops, device_memory_bandwidth, op_overhead_seconds, "
             "...), as `python -m ssdopt calibrate` measures them with "
             "torch; the fields it sets replace the built-in host probe's"));

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The --device-rates file, parsed once: checked against a preset before
/// the disk is measured, then applied over the measured target.
struct DeviceRates {
  llvm::json::Value file = nullptr;

  static llvm::Expected<DeviceRates> read() {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(deviceRates);
    if (!text)
      return llvm::createStringError(text.getError(),
                                     "cannot read --device-rates file '%s'",
                                     deviceRates.c_str());
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse((*text)->getBuffer());
    if (!parsed)
      return named(parsed.takeError());
    DeviceRates rates{std::move(*parsed)};
    llvm::Expected<planner::Target> preset =
        planner::getTargetPreset("epyc9654-990pro");
    if (!preset)
      return preset.takeError();
    if (llvm::Expected<planner::Target> checked = rates.apply(*preset);
        !checked)
      return checked.takeError();
    return rates;
  }
  /// `target` with the file's fields applied (the target parser's rules),
  /// its name kept.
  llvm::Expected<planner::Target> apply(const planner::Target &target) const {
    llvm::Expected<planner::Target> merged =
        planner::applyParsedTargetJSON(target, file);
    if (!merged)
      return named(merged.takeError());
    merged->name = target.name;
    return merged;
  }
  std::optional<llvm::StringRef> description() const {
    return file.getAsObject()->getString("description");
  }

private:
  static llvm::Error named(llvm::Error error) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "--device-rates file '%s': %s",
        deviceRates.c_str(), llvm::toString(std::move(error)).c_str());
  }
};

static llvm::Error runCalibration(llvm::raw_ostream &os) {
  llvm::Expected<uint64_t> bytes = planner::parseMemorySize(calibrateBytes);
  if (!bytes)
    return bytes.takeError();
  if (!(calibrateSeconds >= 0))
    return fail("--calibrate-seconds must not be negative");
  // A bad --device-rates file fails before the disk is measured.
  std::optional<DeviceRates> rates;
  if (!deviceRates.empty()) {
    llvm::Expected<DeviceRates> read = DeviceRates::read();
    if (!read)
      return read.takeError();
    rates = std::move(*read);
  }
  llvm::Expected<Calibration> calibration =
      calibrate(scratchDir, {*bytes, calibrateSeconds});
  if (!calibration)
    return calibration.takeError();
  if (rates) {
    llvm::Expected<planner::Target> merged = rates->apply(calibration->target);
    if (!merged)
      return merged.takeError();
    calibration->target = *merged;
    calibration->description +=
        "; the device's rates from " + deviceRates + " replace the host's";
    if (std::optional<llvm::StringRef> said = rates->description())
      calibration->description += " (" + said->str() + ")";
  }
  os << llvm::formatv("{0:2}", calibration->toJSON()) << "\n";
  return llvm::Error::success();
}

static llvm::Expected<func::FuncOp> findStep(ModuleOp module) {
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (!functionName.empty() && func.getSymName() != functionName)
      continue;
    if (found)
      return fail("several step functions; choose one with --function");
    found = func;
  }
  if (!found)
    return fail(llvm::Twine("no step function") +
                (functionName.empty() ? "" : " named ") + functionName);
  return found;
}

/// The JSON report of a replay (docs/ssd-run.md lists the fields).
static llvm::json::Object report(const planner::StepGraph &graph,
                                 const planner::Plan &plan,
                                 const planner::Target &target,
                                 const planner::SimulationResult &predicted,
                                 const RuntimeSession &session,
                                 const ReplayResult &replay) {
  double achieved = replay.mean.seconds;
  unsigned stepsRun = replay.stepSeconds.size();
  Summary stepTimes = summarize(replay.stepSeconds);
  // Bytes the timed steps moved (the untimed resets between steps excluded).
  uint64_t bytesWritten = plan.bytesOffloaded(graph);
  uint64_t bytesRead = plan.bytesPrefetched(graph);
  return llvm::json::Object{
      {"function", graph.getFunctionName()},
      {"target", target.name},
      {"compute", computeMode.getParser().nameOf(computeMode)},
      {"engine", session.engineName()},
      {"steps", static_cast<int64_t>(stepsRun)},
      {"achieved_step_seconds", achieved},
      {"median_step_seconds", stepTimes.median},
      {"p90_step_seconds", stepTimes.p90},
      {"predicted_step_seconds", predicted.stepSeconds},
      {"compute_seconds", predicted.computeSeconds},
      {"achieved_compute_seconds", replay.mean.computeSeconds},
      {"issue_seconds", replay.mean.issueSeconds},
      {"stall_seconds",
       replay.mean.writeStallSeconds + replay.mean.readStallSeconds},
      {"write_stall_seconds", replay.mean.writeStallSeconds},
      {"read_stall_seconds", replay.mean.readStallSeconds},
      {"predicted_stall_seconds", predicted.stallSeconds},
      {"predicted_write_stall_seconds", predicted.writeStallSeconds},
      {"predicted_read_stall_seconds", predicted.readStallSeconds},
      {"predicted_idle_latency_seconds", predicted.idleLatencySeconds},
      {"achieved_over_predicted", achieved / predicted.stepSeconds},
      {"bytes_read", static_cast<int64_t>(bytesRead)},
      {"bytes_written", static_cast<int64_t>(bytesWritten)},
      {"read_gbps", bytesRead / achieved / 1e9},
      {"write_gbps", bytesWritten / achieved / 1e9},
      {"runtime_bytes_read", static_cast<int64_t>(replay.runtime.bytes_read)},
      {"runtime_bytes_written",
       static_cast<int64_t>(replay.runtime.bytes_written)},
      {"runtime_sync_ops", static_cast<int64_t>(replay.runtime.sync_ops)},
  };
}

static llvm::Error runReplay(llvm::raw_ostream &os) {
  if (inputFile.empty())
    return fail("give a planned .mlir file or --calibrate");
  if (!deviceRates.empty())
    return fail("--device-rates goes with --calibrate");
  if (steps == 0)
    return fail("--steps must be at least 1");
  if (!(minSeconds >= 0))
    return fail("--min-seconds must not be negative");
  llvm::Expected<planner::Target> target = planner::loadTarget(targetSpec);
  if (!target)
    return target.takeError();
  if (llvm::Error error = checkDirectory(scratchDir))
    return error;

  DialectRegistry registry;
  registerSSDDialects(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFile + "'");
  llvm::Expected<func::FuncOp> step = findStep(*module);
  if (!step)
    return step.takeError();
  // Nothing runs unless the plan is proven safe first.
  if (failed(verifyPlannedStep(*step, std::nullopt)))
    return fail("the plan does not verify; nothing ran");
  FailureOr<ExtractedPlan> extracted = extractPlan(*step);
  if (failed(extracted))
    return fail("cannot read the plan back");
  const planner::StepGraph &graph = extracted->mapping.graph;
  const planner::Plan &plan = extracted->plan;
  planner::OffloadPlanner offloadPlanner(graph, *target);
  planner::SimulationResult predicted = offloadPlanner.simulate(plan);

  uint64_t probeBytes =
      probeLatency ? probeDiskBytes(RuntimeSession::defaultWorkers()) : 0;
  if (llvm::Error error = checkFreeSpace(
          scratchDir, replayDiskBytes(graph, plan) + probeBytes, "the replay"))
    return error;
  llvm::Expected<std::unique_ptr<RuntimeSession>> session =
      RuntimeSession::open(scratchDir);
  if (!session)
    return session.takeError();
  ReplayOptions options;
  options.compute = computeMode;
  options.steps = steps;
  options.minSeconds = minSeconds;
  options.probeLatency = probeLatency;
  options.checkData = checkData;
  bool progress = steps > 1 && isatty(STDERR_FILENO);
  if (progress)
    options.onStep = [](unsigned step, double seconds) {
      llvm::errs() << llvm::formatv("\rssd-run: step {0}, {1:f3} s", step,
                                    seconds);
    };
  llvm::Expected<ReplayResult> replay = replayPlan(
      **session, graph, plan, offloadPlanner.getOpSeconds(), options);
  if (progress)
    llvm::errs() << "\n";
  if (!replay)
    return replay.takeError();

  llvm::json::Object result =
      report(graph, plan, *target, predicted, **session, *replay);
  if (replay->probed) {
    // The same plan, predicted with what the disk did during the run.
    Latencies latency = replay->probed->fit(target->ssdReadBandwidth,
                                            target->ssdWriteBandwidth);
    planner::Target matched = *target;
    applyLatencies(matched, latency);
    planner::OffloadPlanner matchedPlanner(graph, matched);
    double matchedStep = matchedPlanner.simulate(plan).stepSeconds;
    result["probe_rounds"] = static_cast<int64_t>(latency.rounds);
    result["probe_write_latency_seconds"] = *matched.ssdWriteLatencySeconds;
    result["probe_read_latency_seconds"] = *matched.ssdReadLatencySeconds;
    result["probe_issue_seconds"] = matched.transferIssueSeconds;
    result["probe_write_queued_latency_seconds"] =
        matched.ssdWriteQueuedLatency();
    result["probe_read_queued_latency_seconds"] =
        matched.ssdReadQueuedLatency();
    result["matched_predicted_step_seconds"] = matchedStep;
    result["achieved_over_matched"] = replay->mean.seconds / matchedStep;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(result))) << "\n";
  return llvm::Error::success();
}

/// Runs `command` into the -o file, kept only when it succeeds.
static llvm::Error writeOutput(llvm::Error (*command)(llvm::raw_ostream &)) {
  std::error_code ec;
  llvm::ToolOutputFile output(outputFile, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot open '" + outputFile + "': " + ec.message());
  if (llvm::Error error = command(output.os()))
    return error;
  output.keep();
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "ssd-run: replays a planned step with real I/O, "
                              "or calibrates a target\n");
  if (llvm::Error error =
          writeOutput(calibrateMode ? runCalibration : runReplay)) {
    llvm::errs() << "ssd-run: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}
