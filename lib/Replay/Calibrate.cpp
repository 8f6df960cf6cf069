//===- Calibrate.cpp - Measure this machine into a target -----------------===//
//
// Times the disk and the host and assembles the calibrated target.
//
//===----------------------------------------------------------------------===//

#include "ssd/Replay/Calibrate.h"

#include "ssd/Replay/Timing.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <unistd.h>

using namespace ssd;
using namespace ssd::replay;

llvm::Expected<DiskRates> ssd::replay::measureDisk(RuntimeSession &session,
                                                   uint64_t totalBytes) {
  constexpr uint64_t kChunk = 64ull << 20;
  ssdrt_context *ctx = session.context();
  std::vector<ssdrt_handle> handles;
  for (uint64_t done = 0; done < totalBytes; done += kChunk) {
    llvm::Expected<ssdrt_handle> handle =
        session.createHandle(std::min(kChunk, totalBytes - done));
    if (!handle)
      return handle.takeError();
    void *data;
    ssdrt_handle_data(ctx, *handle, &data);
    uint64_t bytes;
    ssdrt_handle_bytes(ctx, *handle, &bytes);
    memset(data, static_cast<int>(handles.size() + 1), bytes);
    handles.push_back(*handle);
  }
  llvm::Expected<double> write = timeTransfer(
      [&] {
        return forEachHandle(handles, [&](ssdrt_handle h) {
          return ssdrt_handle_offload(ctx, h, 0);
        });
      },
      [&] { return waitAll(ctx, handles); }, "calibration write");
  if (!write)
    return write.takeError();
  llvm::Expected<double> read = timeTransfer(
      [&] {
        return forEachHandle(handles, [&](ssdrt_handle h) {
          return ssdrt_handle_prefetch(ctx, h, nullptr);
        });
      },
      [&] { return waitAll(ctx, handles); }, "calibration read");
  if (!read)
    return read.takeError();
  for (ssdrt_handle handle : handles)
    ssdrt_handle_free(ctx, handle);
  return DiskRates{totalBytes / *read, totalBytes / *write};
}

llvm::Expected<Latencies> ssd::replay::measureLatency(RuntimeSession &session,
                                                      DiskRates bandwidth,
                                                      double seconds) {
  constexpr unsigned kMinRounds = 64, kMaxRounds = 4096;
  LatencyProbe probe(session);
  if (llvm::Error error = probe.prepare())
    return std::move(error);
  Clock::time_point began = Clock::now();
  while (probe.timings().rounds < kMinRounds ||
         (secondsSince(began) < seconds && probe.timings().rounds < kMaxRounds))
    if (llvm::Error error = probe.round())
      return std::move(error);
  // An idle round takes ~60 ms: at least 32, for half the time.
  constexpr unsigned kMinIdleRounds = 32;
  began = Clock::now();
  while (probe.timings().idleRounds < kMinIdleRounds ||
         (secondsSince(began) < seconds / 2 &&
          probe.timings().idleRounds < kMaxRounds))
    if (llvm::Error error = probe.idleRound())
      return std::move(error);
  return probe.timings().fit(bandwidth.read, bandwidth.write);
}

HostRates ssd::replay::measureHost() {
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

llvm::json::Value Calibration::toJSON() const {
  llvm::json::Object json = *target.toJSON().getAsObject();
  json["description"] = description;
  return json;
}

llvm::Expected<Calibration>
ssd::replay::calibrate(llvm::StringRef scratchDirectory,
                       const CalibrationOptions &options) {
  assert(options.latencySeconds >= 0);
  if (llvm::Error error = checkDirectory(scratchDirectory))
    return std::move(error);
  if (llvm::Error error =
          checkFreeSpace(scratchDirectory,
                         extentBytes(options.bytes) +
                             probeDiskBytes(RuntimeSession::defaultWorkers()),
                         "the calibration"))
    return std::move(error);
  llvm::Expected<std::unique_ptr<RuntimeSession>> session =
      RuntimeSession::open(scratchDirectory);
  if (!session)
    return session.takeError();
  llvm::Expected<DiskRates> disk = measureDisk(**session, options.bytes);
  if (!disk)
    return disk.takeError();
  llvm::Expected<Latencies> latency =
      measureLatency(**session, *disk, options.latencySeconds);
  if (!latency)
    return latency.takeError();
  HostRates host = measureHost();
  Calibration result;
  planner::Target &target = result.target;
  target.name = "calibrated";
  target.computeFlops = host.flops;
  target.deviceMemoryBandwidth = host.memoryBandwidth;
  target.deviceMemoryBytes =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  target.ssdReadBandwidth = disk->read;
  target.ssdWriteBandwidth = disk->write;
  applyLatencies(target, *latency);
  target.ssdTransferWorkers = (*session)->workers();
  if (llvm::Error error = target.validate())
    return std::move(error);
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
  result.description =
      llvm::formatv("measured by ssd-run --calibrate on {0} in {1}; latency "
                    "fitted as time - bytes / bandwidth over {2} rounds of "
                    "each size: durable write {3:e3} s, read {4:e3} s; "
                    "starting a transfer {5:e3} s; {6}; extra latency after "
                    "idling (mean of write and read): {7}",
                    (*session)->engineName(), scratchDirectory, latency->rounds,
                    latency->write, latency->read, latency->issue, points, idle)
          .str();
  return result;
}
