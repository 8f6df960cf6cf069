//===- ScheduleReplay.cpp - Run a plan's schedule with real I/O -----------===//
//
// The replay behind `ssd-run`: a plan's residency ops as runtime calls on
// real buffers, slot by slot, with each op's compute as its modelled time.
//
//===----------------------------------------------------------------------===//

#include "ssd/Replay/ScheduleReplay.h"

#include "ssd/Replay/Timing.h"
#include "ssd/Runtime/DType.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <thread>

using namespace ssd;
using namespace ssd::replay;

uint64_t ssd::replay::replayDiskBytes(const planner::StepGraph &graph,
                                      const planner::Plan &plan) {
  uint64_t bytes = 0;
  llvm::DenseSet<planner::TensorId> moved;
  for (const planner::Gap &gap : plan.gaps)
    if (moved.insert(gap.tensor).second)
      bytes += extentBytes(graph.getTensor(gap.tensor).bytes);
  return bytes;
}

namespace {
/// Where in its tensor's memory `gap`'s reload lands, as [begin, end): the
/// part's range, or the whole tensor.
std::pair<uint64_t, uint64_t> reloadedRange(const planner::Gap &gap,
                                            const planner::StepGraph &graph) {
  uint64_t begin = gap.part ? graph.getPart(*gap.part)->offset : 0;
  return {begin, begin + gap.reloadBytes(graph)};
}

/// The pattern of a tensor's memory under `checkData`: 8 bytes per word,
/// different per tensor and word.
uint64_t patternWord(planner::TensorId tensor, uint64_t word) {
  uint64_t x = (uint64_t(tensor) << 40) + word + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
uint8_t patternByte(planner::TensorId tensor, uint64_t byte) {
  return uint8_t(patternWord(tensor, byte / 8) >> (8 * (byte % 8)));
}
/// What a release leaves in memory under `checkData`: no pattern's bytes.
constexpr uint8_t kPoison = 0xEE;
} // namespace

llvm::Error ScheduleReplay::checkBytes(planner::TensorId tensor, uint64_t begin,
                                       uint64_t end, const char *after) const {
  const auto *data = static_cast<const uint8_t *>(memory.lookup(tensor));
  for (uint64_t byte = begin; byte < end; ++byte)
    if (data[byte] != patternByte(tensor, byte))
      return llvm::createStringError(
          std::make_error_code(std::errc::io_error),
          "data check: byte %llu of tensor '%s' (%llu bytes) is 0x%02x after "
          "%s, 0x%02x was written",
          static_cast<unsigned long long>(byte),
          graph.getTensor(tensor).name.c_str(),
          static_cast<unsigned long long>(graph.getTensor(tensor).bytes),
          data[byte], after, patternByte(tensor, byte));
  return llvm::Error::success();
}

llvm::Error ScheduleReplay::prepare() {
  uint32_t numSlots = graph.numOps() + 1;
  offloadsAt.assign(numSlots, {});
  releasesAt.assign(numSlots, {});
  prefetchesAt.assign(numSlots, {});
  partPrefetchesAt.assign(numSlots, {});
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
      char *data = static_cast<char *>(
          std::aligned_alloc(ssd::rt::kIoAlignment, padded));
      if (!data)
        return llvm::createStringError(
            std::make_error_code(std::errc::not_enough_memory),
            "allocating %llu bytes for a tensor",
            static_cast<unsigned long long>(padded));
      allocations.emplace_back(data, &std::free);
      if (checkData)
        for (uint64_t byte = 0; byte < padded; ++byte)
          data[byte] = char(patternByte(gap.tensor, byte));
      else
        std::memset(data, 1, padded);
      llvm::Expected<ssdrt_handle> handle = session.createHandle(bytes, data);
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
      if (gap.part)
        partPrefetchesAt[gap.prefetchSlot].push_back(index);
      else
        addTransfer(prefetchesAt[gap.prefetchSlot], gap.prefetchGroup,
                    gap.tensor);
      waitsAt[gap.waitPoint].push_back(index);
    }
  }
  return llvm::Error::success();
}

void ScheduleReplay::compute(double seconds) const {
  if (seconds <= 0)
    return;
  if (mode == ComputeMode::Spin)
    spinFor(seconds);
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

llvm::Error ScheduleReplay::resetHandles() {
  ssdrt_context *ctx = session.context();
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
      if (status == 0 && checkData)
        if (llvm::Error error =
                checkBytes(tensor, 0, graph.getTensor(tensor).bytes,
                           "its reload between steps"))
          return error;
    }
    if (llvm::Error error = check(status, "resetting a handle between steps"))
      return error;
    if (onSsd && checkData)
      std::memset(memory[tensor], kPoison, graph.getTensor(tensor).bytes);
  }
  return llvm::Error::success();
}

llvm::Expected<StepMeasurement> ScheduleReplay::runStep() {
  // Untimed: every handle is where the step expects it at entry, in memory
  // for tensors the step computes, on SSD for state that enters there.
  if (llvm::Error error = resetHandles())
    return std::move(error);
  ssdrt_context *ctx = session.context();
  StepMeasurement step;
  // Seconds of data checks, taken out of the step's.
  double untimed = 0;
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
      if (checkData) {
        Clock::time_point checking = Clock::now();
        std::memset(memory[gap.tensor], kPoison,
                    graph.getTensor(gap.tensor).bytes);
        untimed += secondsSince(checking);
      }
    }
    issued = Clock::now();
    for (const Transfer &transfer : prefetchesAt[slot])
      if (llvm::Error error =
              check(ssdrt_handles_prefetch(ctx, transfer.handles.data(),
                                           transfer.destinations.data(),
                                           transfer.handles.size()),
                    "prefetch"))
        return std::move(error);
    // A part lands where it lies in its tensor's memory, as a view reads it.
    for (unsigned index : partPrefetchesAt[slot]) {
      const planner::Gap &gap = plan.gaps[index];
      auto [begin, end] = reloadedRange(gap, graph);
      if (llvm::Error error =
              check(ssdrt_handle_prefetch_range(
                        ctx, handles[gap.tensor],
                        static_cast<char *>(memory[gap.tensor]) + begin, begin,
                        end - begin),
                    "prefetch of a part"))
        return std::move(error);
    }
    step.issueSeconds += secondsSince(issued);
    for (unsigned index : waitsAt[slot]) {
      Clock::time_point began = Clock::now();
      int status = ssdrt_handle_wait(ctx, handles[plan.gaps[index].tensor]);
      step.readStallSeconds += secondsSince(began);
      if (llvm::Error error = check(status, "waiting for a prefetch"))
        return std::move(error);
      if (checkData) {
        Clock::time_point checking = Clock::now();
        const planner::Gap &gap = plan.gaps[index];
        auto [begin, end] = reloadedRange(gap, graph);
        if (llvm::Error error =
                checkBytes(gap.tensor, begin, end, "its reload"))
          return std::move(error);
        untimed += secondsSince(checking);
      }
    }
    if (slot < graph.numOps()) {
      Clock::time_point computing = Clock::now();
      compute(opSeconds[slot]);
      step.computeSeconds += secondsSince(computing);
    }
  }
  step.seconds = secondsSince(start) - untimed;
  return step;
}

llvm::Expected<ReplayResult> ssd::replay::replayPlan(
    RuntimeSession &session, const planner::StepGraph &graph,
    const planner::Plan &plan, llvm::ArrayRef<double> opSeconds,
    const ReplayOptions &options) {
  assert(options.steps >= 1 && options.minSeconds >= 0 &&
         opSeconds.size() == graph.numOps());
  ScheduleReplay replay(session, graph, plan, opSeconds, options.compute,
                        options.checkData);
  if (llvm::Error error = replay.prepare())
    return std::move(error);
  ssdrt_stats_t before;
  ssdrt_stats(session.context(), &before);
  LatencyProbe probe(session);
  if (options.probeLatency)
    if (llvm::Error error = probe.prepare())
      return std::move(error);
  // Probe rounds spread over the replay: at least 16 over the first
  // `steps` steps, and after that a quarter of the time spent stepping.
  constexpr unsigned kMinProbeRounds = 16;
  double probeSeconds = 0;
  ReplayResult result;
  StepMeasurement total;
  auto probeBeforeStep = [&]() -> llvm::Error {
    uint64_t stepIndex = result.stepSeconds.size();
    uint64_t due =
        kMinProbeRounds * std::min<uint64_t>(stepIndex + 1, options.steps);
    Clock::time_point began = Clock::now();
    while (probe.timings().rounds * uint64_t(options.steps) < due ||
           probeSeconds + secondsSince(began) < total.seconds / 4)
      if (llvm::Error error = probe.round())
        return error;
    probeSeconds += secondsSince(began);
    return llvm::Error::success();
  };
  while (result.stepSeconds.size() < options.steps ||
         total.seconds < options.minSeconds) {
    if (options.probeLatency)
      if (llvm::Error error = probeBeforeStep())
        return std::move(error);
    llvm::Expected<StepMeasurement> measured = replay.runStep();
    if (!measured)
      return measured.takeError();
    total.seconds += measured->seconds;
    total.writeStallSeconds += measured->writeStallSeconds;
    total.readStallSeconds += measured->readStallSeconds;
    total.issueSeconds += measured->issueSeconds;
    total.computeSeconds += measured->computeSeconds;
    result.stepSeconds.push_back(measured->seconds);
    if (options.onStep)
      options.onStep(result.stepSeconds.size(), measured->seconds);
  }
  ssdrt_stats_t after;
  ssdrt_stats(session.context(), &after);
  result.runtime.bytes_read = after.bytes_read - before.bytes_read;
  result.runtime.bytes_written = after.bytes_written - before.bytes_written;
  result.runtime.sync_ops = after.sync_ops - before.sync_ops;
  double steps = result.stepSeconds.size();
  result.mean = {total.seconds / steps, total.writeStallSeconds / steps,
                 total.readStallSeconds / steps, total.issueSeconds / steps,
                 total.computeSeconds / steps};
  llvm::sort(result.stepSeconds);
  if (options.probeLatency)
    result.probed = probe.timings();
  return result;
}
