//===- ssd-run.cpp - replay a planned step with real I/O ------------------===//
//
// Runs the schedule of a planned training step whose compute is opaque: the
// offloads, releases, prefetches and waits go through the ssdrt runtime to
// real files in a scratch directory, and each op's compute takes the cost
// model's time, busy-waited (`--compute=spin`) or slept (`--compute=model`,
// which leaves the CPU to the I/O threads). It prints what the step achieved
// next to what the planner predicted. `--calibrate` measures this machine's
// disk and memory and writes a target file the planner accepts.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Calibration.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Dialect/SSD/IR/SSDDialect.h"
#include "ssd/Runtime/ssdrt.h"
#include "ssd/Transforms/ApplyPlan.h"
#include "ssd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::ssd;
namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<planned step .mlir>"), cl::init(""));
static cl::opt<std::string>
    scratchDir("scratch-dir", cl::Required,
               cl::desc("Directory for the data files"));
static cl::opt<std::string>
    targetSpec("target", cl::init("h100-pcie5-pm1743"),
               cl::desc("Target preset or JSON file the prediction uses"));
static cl::opt<std::string>
    computeMode("compute", cl::init("spin"),
                cl::desc("spin: busy-wait each op's time; model: sleep it"));
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
static cl::opt<std::string>
    functionName("function", cl::init(""),
                 cl::desc("The step function (default: the only one)"));
static cl::opt<bool>
    calibrate("calibrate", cl::desc("Measure this machine, write a target"));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Where the JSON goes"));
static cl::opt<std::string>
    calibrateBytes("calibrate-bytes", cl::init("512MiB"),
                   cl::desc("Bytes each calibration transfer pass moves"));
static cl::opt<double> calibrateSeconds(
    "calibrate-seconds", cl::init(3.0),
    cl::desc("Least time the calibration spends timing small transfers"));

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Whole 4 KiB blocks for `bytes`: what a transfer occupies in the data
/// file, and what memory O_DIRECT moves in place.
uint64_t extentBytes(uint64_t bytes) {
  return std::max<uint64_t>(4096, (bytes + 4095) / 4096 * 4096);
}

/// Busy-waits `seconds`, as a compute kernel holds its CPU.
void spinFor(double seconds) {
  auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(seconds));
  while (Clock::now() < until) {
  }
}

/// Fails with the runtime's message when an ssdrt call fails.
llvm::Error check(int status, llvm::StringRef what) {
  if (status == 0)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "%s failed: %s", what.str().c_str(),
      ssdrt_last_error()[0] ? ssdrt_last_error() : strerror(-status));
}

/// An ssdrt context on the scratch directory, destroyed on scope exit.
class Runtime {
public:
  static llvm::Expected<std::unique_ptr<Runtime>> open(llvm::StringRef dir) {
    if (!llvm::sys::fs::is_directory(dir))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "scratch directory '%s' does not exist",
                                     dir.str().c_str());
    auto runtime = std::make_unique<Runtime>();
    runtime->directory = dir.str();
    ssdrt_options options;
    ssdrt_options_init(&options);
    options.directory = runtime->directory.c_str();
    options.flags = SSDRT_OPT_HOST_ONLY;
    runtime->workers = options.workers;
    if (llvm::Error error = check(ssdrt_context_create(&options, &runtime->ctx),
                                  "creating the runtime context"))
      return std::move(error);
    return runtime;
  }
  ~Runtime() { ssdrt_context_destroy(ctx); }

  /// The transfer threads a context has (what `open` leaves as it is).
  static unsigned defaultWorkers() {
    ssdrt_options options;
    ssdrt_options_init(&options);
    return options.workers;
  }

  /// A handle of `bytes` in `memory`, or in memory the runtime allocates
  /// (and frees at a release) when null.
  llvm::Expected<ssdrt_handle> createHandle(uint64_t bytes,
                                            void *memory = nullptr) {
    int64_t shape = static_cast<int64_t>(bytes);
    ssdrt_handle handle;
    if (llvm::Error error =
            check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &shape,
                                      SSDRT_MEM_HOST, memory, &handle),
                  "creating a handle"))
      return std::move(error);
    return handle;
  }

  ssdrt_context *ctx = nullptr;
  /// The runtime's transfer threads: how many transfers it moves at once.
  unsigned workers = 0;

private:
  std::string directory;
};

/// What one step did. Stalls are split by what the step waited for: a
/// durable write (a release) or a read (a wait).
struct StepMeasurement {
  double seconds = 0;
  double writeStallSeconds = 0;
  double readStallSeconds = 0;
  /// Time inside the calls that start transfers and release memory (they
  /// may block: staging back-pressure, allocation of reload memory), and
  /// time the compute really took.
  double issueSeconds = 0;
  double computeSeconds = 0;
};

/// Replays a plan: per slot the offloads, releases, prefetches and waits,
/// then the op's compute.
class ScheduleRunner {
public:
  ScheduleRunner(Runtime &runtime, const planner::StepGraph &graph,
                 const planner::Plan &plan, llvm::ArrayRef<double> opSeconds,
                 bool spin)
      : runtime(runtime), graph(graph), plan(plan), opSeconds(opSeconds),
        spin(spin) {}

  llvm::Error prepare();
  llvm::Expected<StepMeasurement> runStep();

private:
  llvm::Error resetHandles();
  void compute(double seconds) const;

  Runtime &runtime;
  const planner::StepGraph &graph;
  const planner::Plan &plan;
  llvm::ArrayRef<double> opSeconds;
  bool spin;
  /// One runtime handle per tensor that the plan moves, and its memory.
  /// The memory is allocated and touched once, before any step, and every
  /// reload reads into it: a training framework reuses freed memory through
  /// its caching allocator, so mapping and faulting in fresh pages at each
  /// prefetch would time a cost the step does not have.
  llvm::DenseMap<planner::TensorId, ssdrt_handle> handles;
  llvm::DenseMap<planner::TensorId, void *> memory;
  std::vector<std::unique_ptr<char, decltype(&std::free)>> allocations;
  /// What one runtime call starts: a plan's transfer group, or one tensor.
  struct Transfer {
    std::vector<ssdrt_handle> handles;
    std::vector<void *> destinations;
  };
  /// Per slot, the transfers that start there; and gap indices per slot of
  /// the releases and waits.
  std::vector<std::vector<Transfer>> offloadsAt, prefetchesAt;
  std::vector<std::vector<unsigned>> releasesAt, waitsAt;
};
} // namespace

llvm::Error ScheduleRunner::prepare() {
  uint32_t numSlots = graph.numOps() + 1;
  offloadsAt.assign(numSlots, {});
  releasesAt.assign(numSlots, {});
  prefetchesAt.assign(numSlots, {});
  waitsAt.assign(numSlots, {});
  // A group moves as one transfer, as the planner's simulation times it.
  // Group ids are unique in a plan and each group starts at one slot.
  llvm::DenseMap<uint32_t, unsigned> groupIndex;
  auto addTransfer = [&](std::vector<Transfer> &transfers, uint32_t group,
                         planner::TensorId tensor) {
    Transfer *transfer;
    if (group == planner::kNoGroup) {
      transfer = &transfers.emplace_back();
    } else {
      auto [it, added] = groupIndex.try_emplace(group, transfers.size());
      if (added)
        transfers.emplace_back();
      transfer = &transfers[it->second];
    }
    transfer->handles.push_back(handles[tensor]);
    transfer->destinations.push_back(memory[tensor]);
  };
  for (auto [index, gap] : llvm::enumerate(plan.gaps)) {
    uint64_t bytes = graph.getTensor(gap.tensor).bytes;
    if (bytes == 0)
      continue;
    if (!handles.count(gap.tensor)) {
      uint64_t padded = extentBytes(bytes);
      char *data = static_cast<char *>(std::aligned_alloc(4096, padded));
      if (!data)
        return llvm::createStringError(
            std::make_error_code(std::errc::not_enough_memory),
            "allocating %llu bytes for a tensor",
            static_cast<unsigned long long>(padded));
      allocations.emplace_back(data, &std::free);
      std::memset(data, 1, padded);
      llvm::Expected<ssdrt_handle> handle = runtime.createHandle(bytes, data);
      if (!handle)
        return handle.takeError();
      handles[gap.tensor] = *handle;
      memory[gap.tensor] = data;
    }
    if (!gap.entersOnSsd) {
      if (gap.writes)
        addTransfer(offloadsAt[gap.offloadSlot], gap.offloadGroup, gap.tensor);
      releasesAt[gap.releaseSlot].push_back(index);
    }
    if (gap.reloads()) {
      addTransfer(prefetchesAt[gap.prefetchSlot], gap.prefetchGroup,
                  gap.tensor);
      waitsAt[gap.waitPoint].push_back(index);
    }
  }
  return llvm::Error::success();
}

void ScheduleRunner::compute(double seconds) const {
  if (seconds <= 0)
    return;
  if (spin)
    spinFor(seconds);
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

llvm::Error ScheduleRunner::resetHandles() {
  ssdrt_context *ctx = runtime.ctx;
  llvm::DenseSet<planner::TensorId> entering;
  for (const planner::Gap &gap : plan.gaps)
    if (gap.entersOnSsd)
      entering.insert(gap.tensor);
  for (auto &[tensor, handle] : handles) {
    int32_t state;
    if (llvm::Error error =
            check(ssdrt_handle_state(ctx, handle, &state), "handle state"))
      return error;
    bool onSsd = entering.contains(tensor);
    int status = 0;
    if (onSsd && state == SSDRT_STATE_BOTH) {
      status = ssdrt_handle_release(ctx, handle);
    } else if (onSsd && state == SSDRT_STATE_RESIDENT) {
      status = ssdrt_handle_offload(ctx, handle, 0);
      if (status == 0)
        status = ssdrt_handle_wait(ctx, handle);
    } else if (!onSsd && state == SSDRT_STATE_BOTH) {
      status = ssdrt_handle_mark_dirty(ctx, handle);
    } else if (!onSsd && state == SSDRT_STATE_ON_DISK) {
      status = ssdrt_handle_prefetch(ctx, handle, memory[tensor]);
      if (status == 0)
        status = ssdrt_handle_wait(ctx, handle);
      if (status == 0)
        status = ssdrt_handle_mark_dirty(ctx, handle);
    }
    if (llvm::Error error = check(status, "resetting a handle between steps"))
      return error;
  }
  return llvm::Error::success();
}

llvm::Expected<StepMeasurement> ScheduleRunner::runStep() {
  // Untimed: every handle is where the step expects it at entry, in memory
  // for tensors the step computes, on SSD for state that enters there.
  if (llvm::Error error = resetHandles())
    return std::move(error);
  ssdrt_context *ctx = runtime.ctx;
  StepMeasurement step;
  Clock::time_point start = Clock::now();
  for (uint32_t slot = 0; slot <= graph.numOps(); ++slot) {
    Clock::time_point issued = Clock::now();
    for (const Transfer &transfer : offloadsAt[slot])
      if (llvm::Error error =
              check(ssdrt_handles_offload(ctx, transfer.handles.data(),
                                          transfer.handles.size(),
                                          SSDRT_OFFLOAD_KEEP),
                    "offload"))
        return std::move(error);
    step.issueSeconds += secondsSince(issued);
    for (unsigned index : releasesAt[slot]) {
      const planner::Gap &gap = plan.gaps[index];
      ssdrt_handle handle = handles[gap.tensor];
      if (gap.writes) {
        Clock::time_point began = Clock::now();
        int status = ssdrt_handle_wait(ctx, handle);
        step.writeStallSeconds += secondsSince(began);
        if (llvm::Error error = check(status, "waiting for an offload"))
          return std::move(error);
      }
      issued = Clock::now();
      if (llvm::Error error =
              check(ssdrt_handle_release(ctx, handle), "release"))
        return std::move(error);
      step.issueSeconds += secondsSince(issued);
    }
    issued = Clock::now();
    for (const Transfer &transfer : prefetchesAt[slot])
      if (llvm::Error error =
              check(ssdrt_handles_prefetch(ctx, transfer.handles.data(),
                                           transfer.destinations.data(),
                                           transfer.handles.size()),
                    "prefetch"))
        return std::move(error);
    step.issueSeconds += secondsSince(issued);
    for (unsigned index : waitsAt[slot]) {
      Clock::time_point began = Clock::now();
      int status = ssdrt_handle_wait(ctx, handles[plan.gaps[index].tensor]);
      step.readStallSeconds += secondsSince(began);
      if (llvm::Error error = check(status, "waiting for a prefetch"))
        return std::move(error);
    }
    if (slot < graph.numOps()) {
      Clock::time_point computing = Clock::now();
      compute(opSeconds[slot]);
      step.computeSeconds += secondsSince(computing);
    }
  }
  step.seconds = secondsSince(start);
  return step;
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

/// Sequential write then read of `totalBytes` in 64 MiB handles, all in
/// flight at once as a plan's transfers would be; returns bytes/s each way.
static llvm::Expected<std::pair<double, double>>
measureDisk(Runtime &runtime, uint64_t totalBytes) {
  constexpr uint64_t kChunk = 64ull << 20;
  std::vector<ssdrt_handle> handles;
  for (uint64_t done = 0; done < totalBytes; done += kChunk) {
    llvm::Expected<ssdrt_handle> handle =
        runtime.createHandle(std::min(kChunk, totalBytes - done));
    if (!handle)
      return handle.takeError();
    void *data;
    ssdrt_handle_data(runtime.ctx, *handle, &data);
    uint64_t bytes;
    ssdrt_handle_bytes(runtime.ctx, *handle, &bytes);
    memset(data, static_cast<int>(handles.size() + 1), bytes);
    handles.push_back(*handle);
  }
  auto timed = [&](auto issue, llvm::StringRef what) -> llvm::Expected<double> {
    Clock::time_point start = Clock::now();
    for (ssdrt_handle handle : handles)
      if (llvm::Error error = check(issue(handle), what))
        return std::move(error);
    for (ssdrt_handle handle : handles)
      if (llvm::Error error =
              check(ssdrt_handle_wait(runtime.ctx, handle), what))
        return std::move(error);
    return static_cast<double>(totalBytes) / secondsSince(start);
  };
  llvm::Expected<double> write = timed(
      [&](ssdrt_handle h) { return ssdrt_handle_offload(runtime.ctx, h, 0); },
      "calibration write");
  if (!write)
    return write.takeError();
  llvm::Expected<double> read = timed(
      [&](ssdrt_handle h) {
        return ssdrt_handle_prefetch(runtime.ctx, h, nullptr);
      },
      "calibration read");
  if (!read)
    return read.takeError();
  for (ssdrt_handle handle : handles)
    ssdrt_handle_free(runtime.ctx, handle);
  return std::make_pair(*read, *write);
}

/// What the calibration times, through the runtime as a replay uses it,
/// for the target's latency terms (planner/Calibration.h fits them). The
/// transfers that plans move are a partial block, a few pages, a quarter
/// MiB: durable writes (the runtime syncs every offload) and reads are
/// timed alone at several sizes. Times have a heavy tail (a durable write's
/// mean is often several times its median when the disk is shared) and a
/// plan's step time is the sum of a few such latencies, so each size's time
/// is a mean over many rounds, interleaved across sizes: at least 64 and for
/// at least --calibrate-seconds (3 s by default: this VM's disk has bursts
/// of seconds). The calls that start the transfers are timed too: the
/// target's issue time. Each round then starts several smallest transfers
/// at once, for the queued latencies. Separate rounds, after those, time
/// the smallest write and read after the I/O path sat idle for each of
/// `kIdleSeconds` (busy-waiting, as compute would), for the idle curve.
struct LatencyPoint {
  uint64_t bytes = 0;
  double write = 0, read = 0, writeMedian = 0, readMedian = 0;
};
struct Latencies {
  double write = 0;
  double read = 0;
  /// Mean time of the call that starts a transfer (before its wait).
  double issue = 0;
  /// The latency of a transfer queued behind another on a busy worker.
  double queuedWrite = 0, queuedRead = 0;
  std::vector<LatencyPoint> points;
  std::vector<planner::IdleLatencyPoint> idle;
  unsigned rounds = 0;
};

/// Rounds of durable writes and reads of each latency-bound size, through
/// the runtime as a replay uses it; `fit` turns them into latencies.
class LatencyProbe {
public:
  /// The sizes latency-bound transfers have: from one block to where the
  /// bandwidth term starts to dominate. Runtime memory moves each in one
  /// device operation, whatever its size.
  static constexpr uint64_t kSizes[] = {4096, 10240, 65536, 262144};
  /// Quiet spells before a transfer, as compute between a plan's transfers
  /// makes them: from a fraction of a millisecond to where the cost stops
  /// growing on the disks measured (docs/benchmarks.md).
  static constexpr double kIdleSeconds[] = {0,    0.25e-3, 0.5e-3, 1e-3,
                                            2e-3, 5e-3,    20e-3};
  /// Smallest-size transfers started at once, per runtime worker, to time
  /// them queued: each worker runs several back to back.
  static constexpr unsigned kQueuedPerWorker = 4;
  static unsigned queuedCount(unsigned workers) {
    return kQueuedPerWorker * std::max(1u, workers);
  }

  explicit LatencyProbe(Runtime &runtime) : runtime(runtime) {}
  ~LatencyProbe() {
    for (ssdrt_handle handle : handles)
      ssdrt_handle_free(runtime.ctx, handle);
    for (ssdrt_handle handle : queued)
      ssdrt_handle_free(runtime.ctx, handle);
  }

  llvm::Error prepare() {
    for (uint64_t bytes : kSizes) {
      llvm::Expected<ssdrt_handle> handle = runtime.createHandle(bytes);
      if (!handle)
        return handle.takeError();
      handles.push_back(*handle);
    }
    for (unsigned index = 0; index < queuedCount(runtime.workers); ++index) {
      llvm::Expected<ssdrt_handle> handle = runtime.createHandle(kSizes[0]);
      if (!handle)
        return handle.takeError();
      queued.push_back(*handle);
    }
    writes.resize(handles.size());
    reads.resize(handles.size());
    idleWrites.resize(std::size(kIdleSeconds));
    idleReads.resize(std::size(kIdleSeconds));
    return llvm::Error::success();
  }

  /// One durable write and one read of each size, one after another; then
  /// `kQueuedPerWorker` smallest writes per worker started at once, and as
  /// many reads.
  llvm::Error round() {
    for (auto [index, handle] : llvm::enumerate(handles)) {
      if (llvm::Error error = timeWrite(handle, writes[index], &issues))
        return error;
      if (llvm::Error error = timeRead(handle, reads[index], &issues))
        return error;
    }
    ssdrt_context *ctx = runtime.ctx;
    for (ssdrt_handle handle : queued)
      ssdrt_handle_mark_dirty(ctx, handle);
    if (llvm::Error error =
            timeAtOnce(queuedWrites, "probe write",
                       [&](auto h) { return ssdrt_handle_offload(ctx, h, 0); }))
      return error;
    if (llvm::Error error = timeAtOnce(queuedReads, "probe read", [&](auto h) {
          return ssdrt_handle_prefetch(ctx, h, nullptr);
        }))
      return error;
    ++rounds;
    return llvm::Error::success();
  }

  /// The smallest write and read after no idle time and after each of
  /// `kIdleSeconds`. Kept apart from `round`: a disk that idles most of the
  /// time is slower even back to back (the host lets its idle CPUs sleep
  /// deeper), which would bias the latencies a busy replay sees.
  llvm::Error idleRound() {
    // Starting a transfer after a quiet spell may cost more too, but the
    // target's issue time is what a step pays on the whole: only the
    // other rounds time it.
    for (auto [index, idle] : llvm::enumerate(kIdleSeconds)) {
      spinFor(idle);
      if (llvm::Error error =
              timeWrite(handles.front(), idleWrites[index], nullptr))
        return error;
      spinFor(idle);
      if (llvm::Error error =
              timeRead(handles.front(), idleReads[index], nullptr))
        return error;
    }
    ++idleRounds;
    return llvm::Error::success();
  }

  unsigned roundsDone() const { return rounds; }
  unsigned idleRoundsDone() const { return idleRounds; }

  Latencies fit(double readBandwidth, double writeBandwidth) const {
    auto mean = [](llvm::ArrayRef<double> values) {
      return std::accumulate(values.begin(), values.end(), 0.0) / values.size();
    };
    auto median = [](std::vector<double> values) {
      llvm::sort(values);
      return values[values.size() / 2];
    };
    Latencies result;
    result.rounds = rounds;
    result.issue = mean(issues);
    std::vector<planner::TimedTransfer> aloneWrites, aloneReads;
    for (auto [index, bytes] : llvm::enumerate(kSizes)) {
      LatencyPoint point{bytes, mean(writes[index]), mean(reads[index]),
                         median(writes[index]), median(reads[index])};
      aloneWrites.push_back({bytes, point.write});
      aloneReads.push_back({bytes, point.read});
      result.points.push_back(point);
    }
    result.write = planner::fitLatency(aloneWrites, writeBandwidth);
    result.read = planner::fitLatency(aloneReads, readBandwidth);
    result.queuedWrite = planner::fitQueuedLatency(
        result.write, aloneWrites.front(), mean(queuedWrites), kQueuedPerWorker,
        writeBandwidth);
    result.queuedRead = planner::fitQueuedLatency(
        result.read, aloneReads.front(), mean(queuedReads), kQueuedPerWorker,
        readBandwidth);
    if (idleRounds) {
      std::vector<double> idleWriteMeans, idleReadMeans;
      for (unsigned index = 0; index < std::size(kIdleSeconds); ++index) {
        idleWriteMeans.push_back(mean(idleWrites[index]));
        idleReadMeans.push_back(mean(idleReads[index]));
      }
      result.idle =
          planner::fitIdleCurve(kIdleSeconds, idleWriteMeans, idleReadMeans);
    }
    return result;
  }

private:
  /// Times a durable write of `handle` into `times`, and the call that
  /// starts it into `issueTimes` where given.
  llvm::Error timeWrite(ssdrt_handle handle, std::vector<double> &times,
                        std::vector<double> *issueTimes) {
    ssdrt_handle_mark_dirty(runtime.ctx, handle);
    return timeTransfer(handle, times, issueTimes, "probe write", [&] {
      return ssdrt_handle_offload(runtime.ctx, handle, 0);
    });
  }
  llvm::Error timeRead(ssdrt_handle handle, std::vector<double> &times,
                       std::vector<double> *issueTimes) {
    return timeTransfer(handle, times, issueTimes, "probe read", [&] {
      return ssdrt_handle_prefetch(runtime.ctx, handle, nullptr);
    });
  }
  /// Starts a transfer of every `queued` handle, waits for all; records
  /// the time.
  template <typename Start>
  llvm::Error timeAtOnce(std::vector<double> &times, llvm::StringRef what,
                         Start start) {
    Clock::time_point began = Clock::now();
    for (ssdrt_handle handle : queued)
      if (llvm::Error error = check(start(handle), what))
        return error;
    for (ssdrt_handle handle : queued)
      if (llvm::Error error =
              check(ssdrt_handle_wait(runtime.ctx, handle), what))
        return error;
    times.push_back(secondsSince(began));
    return llvm::Error::success();
  }
  template <typename Start>
  llvm::Error timeTransfer(ssdrt_handle handle, std::vector<double> &times,
                           std::vector<double> *issueTimes,
                           llvm::StringRef what, Start start) {
    Clock::time_point began = Clock::now();
    if (llvm::Error error = check(start(), what))
      return error;
    if (issueTimes)
      issueTimes->push_back(secondsSince(began));
    if (llvm::Error error = check(ssdrt_handle_wait(runtime.ctx, handle), what))
      return error;
    times.push_back(secondsSince(began));
    return llvm::Error::success();
  }

  Runtime &runtime;
  std::vector<ssdrt_handle> handles;
  std::vector<std::vector<double>> writes, reads, idleWrites, idleReads;
  std::vector<ssdrt_handle> queued;
  std::vector<double> queuedWrites, queuedReads;
  std::vector<double> issues;
  unsigned rounds = 0, idleRounds = 0;
};

static llvm::Expected<Latencies>
measureLatency(Runtime &runtime, double readBandwidth, double writeBandwidth) {
  constexpr unsigned kMinRounds = 64, kMaxRounds = 4096;
  LatencyProbe probe(runtime);
  if (llvm::Error error = probe.prepare())
    return std::move(error);
  Clock::time_point began = Clock::now();
  while (probe.roundsDone() < kMinRounds ||
         (secondsSince(began) < calibrateSeconds &&
          probe.roundsDone() < kMaxRounds))
    if (llvm::Error error = probe.round())
      return std::move(error);
  // An idle round takes ~60 ms: at least 32, for half the time.
  constexpr unsigned kMinIdleRounds = 32;
  began = Clock::now();
  while (probe.idleRoundsDone() < kMinIdleRounds ||
         (secondsSince(began) < calibrateSeconds / 2 &&
          probe.idleRoundsDone() < kMaxRounds))
    if (llvm::Error error = probe.idleRound())
      return std::move(error);
  return probe.fit(readBandwidth, writeBandwidth);
}

/// FLOP/s of a plain single-threaded multiply-add loop, and bytes/s of
/// memcpy: the host-only target's compute and memory rates.
static std::pair<double, double> measureHost() {
  constexpr size_t kElements = 1 << 22;
  std::vector<float> a(kElements, 1.0f), b(kElements, 0.5f);
  Clock::time_point start = Clock::now();
  constexpr int kRounds = 16;
  for (int round = 0; round < kRounds; ++round)
    for (size_t i = 0; i < kElements; ++i)
      a[i] = a[i] * 0.999f + b[i];
  double flops = 2.0 * kElements * kRounds / secondsSince(start);
  // Both buffers are touched first so that page faults are not timed.
  std::vector<char> src(256 << 20, 1), dst(256 << 20, 0);
  start = Clock::now();
  constexpr int kCopies = 4;
  for (int copy = 0; copy < kCopies; ++copy) {
    src[copy] = static_cast<char>(copy);
    memcpy(dst.data(), src.data(), src.size());
  }
  double bandwidth = 2.0 * kCopies * src.size() / secondsSince(start);
  // Keep the results observable so that the work is not optimised away.
  volatile float sinkA = a[kElements / 2];
  volatile char sinkB = dst[kCopies - 1];
  (void)sinkA;
  (void)sinkB;
  return {flops, bandwidth};
}

/// The latency probe's data-file bytes.
static uint64_t probeBytes() {
  uint64_t total = 0;
  for (uint64_t bytes : LatencyProbe::kSizes)
    total += extentBytes(bytes);
  return total + LatencyProbe::queuedCount(Runtime::defaultWorkers()) *
                     extentBytes(LatencyProbe::kSizes[0]);
}

/// Fails, before any work starts, unless the scratch directory's
/// filesystem has `bytes` available.
static llvm::Error checkFreeSpace(uint64_t bytes, llvm::StringRef what) {
  llvm::ErrorOr<llvm::sys::fs::space_info> space =
      llvm::sys::fs::disk_space(scratchDir);
  if (!space)
    return llvm::createStringError(
        space.getError(), "cannot read the free space of '%s': %s",
        scratchDir.c_str(), space.getError().message().c_str());
  if (space->available >= bytes)
    return llvm::Error::success();
  return llvm::createStringError(
      std::make_error_code(std::errc::no_space_on_device),
      "scratch directory '%s' has %llu bytes available; %s needs %llu",
      scratchDir.c_str(), static_cast<unsigned long long>(space->available),
      what.str().c_str(), static_cast<unsigned long long>(bytes));
}

/// Sets the target's SSD latencies, idle-latency curve (where measured)
/// and issue time from a probe's fit. Reads and durable writes get
/// latencies of their own: a write waits for its fdatasync and costs about
/// twice a read here. `io_latency_seconds` (which only the host<->device
/// hops of a device target would use) is the larger.
static void applyLatencies(planner::Target &target, const Latencies &latency) {
  target.ssdWriteLatencySeconds = latency.write;
  target.ssdReadLatencySeconds = latency.read;
  target.ioLatencySeconds = std::max(latency.write, latency.read);
  target.transferIssueSeconds = latency.issue;
  if (!latency.idle.empty())
    target.ssdIdleLatency = latency.idle;
  target.ssdWriteQueuedLatencySeconds = latency.queuedWrite;
  target.ssdReadQueuedLatencySeconds = latency.queuedRead;
}

static llvm::Error runCalibration(llvm::raw_ostream &os) {
  llvm::Expected<uint64_t> bytes = planner::parseMemorySize(calibrateBytes);
  if (!bytes)
    return bytes.takeError();
  if (!(calibrateSeconds >= 0))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--calibrate-seconds must not be negative");
  if (!llvm::sys::fs::is_directory(scratchDir))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "scratch directory '%s' does not exist",
                                   scratchDir.c_str());
  if (llvm::Error error =
          checkFreeSpace(extentBytes(*bytes) + probeBytes(), "the calibration"))
    return error;
  llvm::Expected<std::unique_ptr<Runtime>> runtime = Runtime::open(scratchDir);
  if (!runtime)
    return runtime.takeError();
  llvm::Expected<std::pair<double, double>> disk =
      measureDisk(**runtime, *bytes);
  if (!disk)
    return disk.takeError();
  llvm::Expected<Latencies> latency =
      measureLatency(**runtime, disk->first, disk->second);
  if (!latency)
    return latency.takeError();
  auto [flops, memoryBandwidth] = measureHost();
  planner::Target target;
  target.name = "calibrated";
  target.computeFlops = flops;
  target.deviceMemoryBandwidth = memoryBandwidth;
  target.deviceMemoryBytes =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  target.ssdReadBandwidth = disk->first;
  target.ssdWriteBandwidth = disk->second;
  applyLatencies(target, *latency);
  target.ssdTransferWorkers = (*runtime)->workers;
  if (llvm::Error error = target.validate())
    return error;
  llvm::json::Object json = *target.toJSON().getAsObject();
  std::string points;
  for (const LatencyPoint &point : latency->points)
    points +=
        llvm::formatv("{0}{1} B: write mean {2:e3} s (median {3:e3} "
                      "s), read mean {4:e3} s (median {5:e3} s)",
                      points.empty() ? "" : "; ", point.bytes, point.write,
                      point.writeMedian, point.read, point.readMedian)
            .str();
  std::string idle;
  for (const planner::IdleLatencyPoint &point : latency->idle)
    idle +=
        llvm::formatv("{0}{1:e3} s after {2:e3} s", idle.empty() ? "" : ", ",
                      point.extraSeconds, point.idleSeconds)
            .str();
  json["description"] =
      llvm::formatv("measured by ssd-run --calibrate on {0} in {1}; latency "
                    "fitted as time - bytes / bandwidth over {2} rounds of "
                    "each size: durable write {3:e3} s, read {4:e3} s; "
                    "starting a transfer {5:e3} s; {6}; extra latency after "
                    "idling (mean of write and read): {7}",
                    ssdrt_engine_name((*runtime)->ctx), scratchDir.getValue(),
                    latency->rounds, latency->write, latency->read,
                    latency->issue, points, idle)
          .str();
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(json))) << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Running a plan
//===----------------------------------------------------------------------===//

static llvm::Expected<func::FuncOp> findStep(ModuleOp module) {
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (!functionName.empty() && func.getSymName() != functionName)
      continue;
    if (found)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "several step functions; choose one with --function");
    found = func;
  }
  if (!found)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "no step function%s%s",
        functionName.empty() ? "" : " named ", functionName.c_str());
  return found;
}

static llvm::Error runPlan(MLIRContext &context, llvm::raw_ostream &os) {
  if (computeMode != "spin" && computeMode != "model")
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--compute must be spin or model, got '%s'",
                                   computeMode.c_str());
  if (steps == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--steps must be at least 1");
  if (!(minSeconds >= 0))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--min-seconds must not be negative");
  llvm::Expected<planner::Target> target = planner::loadTarget(targetSpec);
  if (!target)
    return target.takeError();
  if (!llvm::sys::fs::is_directory(scratchDir))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "scratch directory '%s' does not exist",
                                   scratchDir.c_str());

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot parse '%s'", inputFile.c_str());
  llvm::Expected<func::FuncOp> step = findStep(*module);
  if (!step)
    return step.takeError();
  // Nothing runs unless the plan is proven safe first.
  if (failed(verifyPlannedStep(*step, std::nullopt)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the plan does not verify; nothing ran");
  FailureOr<ExtractedPlan> extracted = extractPlan(*step);
  if (failed(extracted))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read the plan back");
  const planner::StepGraph &graph = extracted->mapping.graph;
  planner::OffloadPlanner offloadPlanner(graph, *target);
  planner::SimulationResult predicted =
      offloadPlanner.simulate(extracted->plan);

  // Every tensor the plan moves has an extent of its own in the data files.
  uint64_t diskBytes = probeLatency ? probeBytes() : 0;
  llvm::DenseSet<planner::TensorId> moved;
  for (const planner::Gap &gap : extracted->plan.gaps)
    if (moved.insert(gap.tensor).second)
      diskBytes += extentBytes(graph.getTensor(gap.tensor).bytes);
  if (llvm::Error error = checkFreeSpace(diskBytes, "the replay"))
    return error;

  llvm::Expected<std::unique_ptr<Runtime>> runtime = Runtime::open(scratchDir);
  if (!runtime)
    return runtime.takeError();
  ScheduleRunner runner(**runtime, graph, extracted->plan,
                        offloadPlanner.getOpSeconds(), computeMode == "spin");
  if (llvm::Error error = runner.prepare())
    return error;
  bool progress = steps > 1 && isatty(STDERR_FILENO);
  ssdrt_stats_t before;
  ssdrt_stats((*runtime)->ctx, &before);
  double totalSeconds = 0, writeStall = 0, readStall = 0, issue = 0,
         computed = 0;
  std::vector<double> stepSeconds;
  LatencyProbe probe(**runtime);
  if (probeLatency)
    if (llvm::Error error = probe.prepare())
      return error;
  // Probe rounds spread over the replay: at least 16 over the first
  // --steps steps, and after that a quarter of the time spent stepping.
  constexpr unsigned kMinProbeRounds = 16;
  double probeSeconds = 0;
  auto probeBeforeStep = [&]() -> llvm::Error {
    uint64_t stepIndex = stepSeconds.size();
    uint64_t due = kMinProbeRounds * std::min<uint64_t>(stepIndex + 1, steps);
    Clock::time_point began = Clock::now();
    while (probe.roundsDone() * uint64_t(steps) < due ||
           probeSeconds + secondsSince(began) < totalSeconds / 4)
      if (llvm::Error error = probe.round())
        return error;
    probeSeconds += secondsSince(began);
    return llvm::Error::success();
  };
  while (stepSeconds.size() < steps || totalSeconds < minSeconds) {
    if (probeLatency)
      if (llvm::Error error = probeBeforeStep())
        return error;
    llvm::Expected<StepMeasurement> measured = runner.runStep();
    if (!measured)
      return measured.takeError();
    totalSeconds += measured->seconds;
    writeStall += measured->writeStallSeconds;
    readStall += measured->readStallSeconds;
    issue += measured->issueSeconds;
    computed += measured->computeSeconds;
    stepSeconds.push_back(measured->seconds);
    if (progress)
      llvm::errs() << llvm::formatv("\rssd-run: step {0}, {1:f3} s",
                                    stepSeconds.size(), measured->seconds);
  }
  if (progress)
    llvm::errs() << "\n";
  unsigned stepsRun = stepSeconds.size();
  llvm::sort(stepSeconds);
  ssdrt_stats_t after;
  ssdrt_stats((*runtime)->ctx, &after);

  double achieved = totalSeconds / stepsRun;
  // Bytes the timed steps moved (the untimed resets between steps excluded).
  uint64_t bytesWritten = extracted->plan.bytesOffloaded(graph);
  uint64_t bytesRead = extracted->plan.bytesPrefetched(graph);
  llvm::json::Object result{
      {"function", graph.getFunctionName()},
      {"target", target->name},
      {"compute", computeMode.getValue()},
      {"engine", ssdrt_engine_name((*runtime)->ctx)},
      {"steps", static_cast<int64_t>(stepsRun)},
      {"achieved_step_seconds", achieved},
      {"median_step_seconds", stepSeconds[stepsRun / 2]},
      {"p90_step_seconds", stepSeconds[stepsRun * 9 / 10]},
      {"predicted_step_seconds", predicted.stepSeconds},
      {"compute_seconds", predicted.computeSeconds},
      {"achieved_compute_seconds", computed / stepsRun},
      {"issue_seconds", issue / stepsRun},
      {"stall_seconds", (writeStall + readStall) / stepsRun},
      {"write_stall_seconds", writeStall / stepsRun},
      {"read_stall_seconds", readStall / stepsRun},
      {"predicted_stall_seconds", predicted.stallSeconds},
      {"predicted_write_stall_seconds", predicted.writeStallSeconds},
      {"predicted_read_stall_seconds", predicted.readStallSeconds},
      {"predicted_idle_latency_seconds", predicted.idleLatencySeconds},
      {"achieved_over_predicted", achieved / predicted.stepSeconds},
      {"bytes_read", static_cast<int64_t>(bytesRead)},
      {"bytes_written", static_cast<int64_t>(bytesWritten)},
      {"read_gbps", bytesRead / achieved / 1e9},
      {"write_gbps", bytesWritten / achieved / 1e9},
      {"runtime_bytes_read",
       static_cast<int64_t>(after.bytes_read - before.bytes_read)},
      {"runtime_bytes_written",
       static_cast<int64_t>(after.bytes_written - before.bytes_written)},
      {"runtime_sync_ops",
       static_cast<int64_t>(after.sync_ops - before.sync_ops)},
  };
  if (probeLatency) {
    // The same plan, predicted with what the disk did during the run.
    Latencies latency =
        probe.fit(target->ssdReadBandwidth, target->ssdWriteBandwidth);
    planner::Target matched = *target;
    applyLatencies(matched, latency);
    planner::OffloadPlanner matchedPlanner(graph, matched);
    double matchedStep = matchedPlanner.simulate(extracted->plan).stepSeconds;
    result["probe_rounds"] = static_cast<int64_t>(latency.rounds);
    result["probe_write_latency_seconds"] = *matched.ssdWriteLatencySeconds;
    result["probe_read_latency_seconds"] = *matched.ssdReadLatencySeconds;
    result["probe_issue_seconds"] = matched.transferIssueSeconds;
    result["probe_write_queued_latency_seconds"] =
        matched.ssdWriteQueuedLatency();
    result["probe_read_queued_latency_seconds"] =
        matched.ssdReadQueuedLatency();
    result["matched_predicted_step_seconds"] = matchedStep;
    result["achieved_over_matched"] = achieved / matchedStep;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(result))) << "\n";
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "ssd-run: replays a planned step with real I/O, "
                              "or calibrates a target\n");
  std::error_code ec;
  llvm::ToolOutputFile output(outputFile, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "ssd-run: cannot open '" << outputFile
                 << "': " << ec.message() << "\n";
    return 1;
  }
  llvm::Error error = llvm::Error::success();
  if (calibrate) {
    error = runCalibration(output.os());
  } else {
    if (inputFile.empty()) {
      llvm::errs() << "ssd-run: give a planned .mlir file or --calibrate\n";
      return 1;
    }
    DialectRegistry registry;
    registry
        .insert<SSDDialect, func::FuncDialect, arith::ArithDialect,
                math::MathDialect, tensor::TensorDialect, linalg::LinalgDialect,
                tosa::TosaDialect, scf::SCFDialect, memref::MemRefDialect,
                bufferization::BufferizationDialect>();
    MLIRContext context(registry);
    context.allowUnregisteredDialects();
    error = runPlan(context, output.os());
  }
  if (error) {
    llvm::errs() << "ssd-run: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  output.keep();
  return 0;
}
