//===- LatencyProbe.cpp - Time small transfers through ssdrt --------------===//
//
// The probe's rounds (lone, queued and idle transfers) and their fit into
// the target's latency terms.
//
//===----------------------------------------------------------------------===//

#include "ssd/Replay/LatencyProbe.h"

#include "ssd/Analysis/Planner/Calibration.h"
#include "ssd/Replay/Timing.h"

#include "llvm/ADT/STLExtras.h"

using namespace ssd;
using namespace ssd::replay;

Latencies ProbeTimings::fit(double readBandwidth, double writeBandwidth) const {
  assert(rounds > 0 && writes.size() == std::size(LatencyProbe::kSizes));
  Latencies result;
  result.rounds = rounds;
  result.issue = mean(issues);
  std::vector<planner::TimedTransfer> aloneWrites, aloneReads;
  for (auto [index, bytes] : llvm::enumerate(LatencyProbe::kSizes)) {
    Summary write = summarize(writes[index]), read = summarize(reads[index]);
    LatencyPoint point{bytes, write.mean, read.mean, write.median, read.median};
    aloneWrites.push_back({bytes, point.write});
    aloneReads.push_back({bytes, point.read});
    result.points.push_back(point);
  }
  result.write = planner::fitLatency(aloneWrites, writeBandwidth);
  result.read = planner::fitLatency(aloneReads, readBandwidth);
  result.queuedWrite = planner::fitQueuedLatency(
      result.write, aloneWrites.front(), mean(queuedWrites),
      LatencyProbe::kQueuedPerWorker, writeBandwidth);
  result.queuedRead = planner::fitQueuedLatency(
      result.read, aloneReads.front(), mean(queuedReads),
      LatencyProbe::kQueuedPerWorker, readBandwidth);
  if (idleRounds) {
    std::vector<double> idleWriteMeans, idleReadMeans;
    for (unsigned index = 0; index < std::size(LatencyProbe::kIdleSeconds);
         ++index) {
      idleWriteMeans.push_back(mean(idleWrites[index]));
      idleReadMeans.push_back(mean(idleReads[index]));
    }
    result.idle = planner::fitIdleCurve(LatencyProbe::kIdleSeconds,
                                        idleWriteMeans, idleReadMeans);
  }
  return result;
}

LatencyProbe::~LatencyProbe() {
  for (ssdrt_handle handle : handles)
    ssdrt_handle_free(session.context(), handle);
  for (ssdrt_handle handle : queued)
    ssdrt_handle_free(session.context(), handle);
}

llvm::Error LatencyProbe::prepare() {
  for (uint64_t bytes : kSizes) {
    llvm::Expected<ssdrt_handle> handle = session.createHandle(bytes);
    if (!handle)
      return handle.takeError();
    handles.push_back(*handle);
  }
  for (unsigned index = 0; index < queuedCount(session.workers()); ++index) {
    llvm::Expected<ssdrt_handle> handle = session.createHandle(kSizes[0]);
    if (!handle)
      return handle.takeError();
    queued.push_back(*handle);
  }
  samples.writes.resize(handles.size());
  samples.reads.resize(handles.size());
  samples.idleWrites.resize(std::size(kIdleSeconds));
  samples.idleReads.resize(std::size(kIdleSeconds));
  return llvm::Error::success();
}

llvm::Error LatencyProbe::round() {
  for (auto [index, handle] : llvm::enumerate(handles)) {
    if (llvm::Error error =
            timeWrite(handle, samples.writes[index], &samples.issues))
      return error;
    if (llvm::Error error =
            timeRead(handle, samples.reads[index], &samples.issues))
      return error;
  }
  for (ssdrt_handle handle : queued)
    ssdrt_handle_mark_dirty(session.context(), handle);
  if (llvm::Error error =
          timeQueued(samples.queuedWrites, "probe write",
                     [](ssdrt_context *ctx, ssdrt_handle handle) {
                       return ssdrt_handle_offload(ctx, handle, 0);
                     }))
    return error;
  if (llvm::Error error =
          timeQueued(samples.queuedReads, "probe read",
                     [](ssdrt_context *ctx, ssdrt_handle handle) {
                       return ssdrt_handle_prefetch(ctx, handle, nullptr);
                     }))
    return error;
  ++samples.rounds;
  return llvm::Error::success();
}

llvm::Error LatencyProbe::idleRound() {
  // Starting a transfer after a quiet spell may cost more too, but the
  // target's issue time is what a step pays on the whole: only the other
  // rounds time it.
  for (auto [index, idle] : llvm::enumerate(kIdleSeconds)) {
    spinFor(idle);
    if (llvm::Error error =
            timeWrite(handles.front(), samples.idleWrites[index], nullptr))
      return error;
    spinFor(idle);
    if (llvm::Error error =
            timeRead(handles.front(), samples.idleReads[index], nullptr))
      return error;
  }
  ++samples.idleRounds;
  return llvm::Error::success();
}

/// Appends the time of `transfer` to `times`, and that of the call that
/// started it to `issueTimes` where given.
static llvm::Error record(llvm::Expected<double> transfer, double issue,
                          std::vector<double> &times,
                          std::vector<double> *issueTimes) {
  if (!transfer)
    return transfer.takeError();
  times.push_back(*transfer);
  if (issueTimes)
    issueTimes->push_back(issue);
  return llvm::Error::success();
}

llvm::Error LatencyProbe::timeWrite(ssdrt_handle handle,
                                    std::vector<double> &times,
                                    std::vector<double> *issueTimes) {
  ssdrt_context *ctx = session.context();
  ssdrt_handle_mark_dirty(ctx, handle);
  double issue = 0;
  return record(
      timeTransfer([&] { return ssdrt_handle_offload(ctx, handle, 0); },
                   [&] { return ssdrt_handle_wait(ctx, handle); },
                   "probe write", &issue),
      issue, times, issueTimes);
}

llvm::Error LatencyProbe::timeRead(ssdrt_handle handle,
                                   std::vector<double> &times,
                                   std::vector<double> *issueTimes) {
  ssdrt_context *ctx = session.context();
  double issue = 0;
  return record(
      timeTransfer([&] { return ssdrt_handle_prefetch(ctx, handle, nullptr); },
                   [&] { return ssdrt_handle_wait(ctx, handle); }, "probe read",
                   &issue),
      issue, times, issueTimes);
}

llvm::Error
LatencyProbe::timeQueued(std::vector<double> &times, llvm::StringRef what,
                         int (*start)(ssdrt_context *, ssdrt_handle)) {
  ssdrt_context *ctx = session.context();
  return record(timeTransfer(
                    [&] {
                      return forEachHandle(queued, [&](ssdrt_handle h) {
                        return start(ctx, h);
                      });
                    },
                    [&] { return waitAll(ctx, queued); }, what),
                0, times, nullptr);
}

uint64_t ssd::replay::probeDiskBytes(unsigned workers) {
  uint64_t total = 0;
  for (uint64_t bytes : LatencyProbe::kSizes)
    total += extentBytes(bytes);
  return total + LatencyProbe::queuedCount(workers) *
                     extentBytes(LatencyProbe::kSizes[0]);
}

void ssd::replay::applyLatencies(planner::Target &target,
                                 const Latencies &latency) {
  target.ssdWriteLatencySeconds = latency.write;
  target.ssdReadLatencySeconds = latency.read;
  target.ioLatencySeconds = std::max(latency.write, latency.read);
  target.transferIssueSeconds = latency.issue;
  if (!latency.idle.empty())
    target.ssdIdleLatency = latency.idle;
  target.ssdWriteQueuedLatencySeconds = latency.queuedWrite;
  target.ssdReadQueuedLatencySeconds = latency.queuedRead;
}
