//===- latency_probe.cpp - small-transfer latencies through ssdrt ---------===//
//
// What a latency-bound plan's (the MLP's) small transfers cost: the target
// has one latency per transfer, but a plan's small transfers have various
// sizes and go several at a time. This probe times, through the runtime as
// ssd-run uses it (lib/Replay: the same session, timed transfers and
// summaries), one durable write of N bytes, two at once, two as one group
// (ssdrt_handles_offload), both as one buffer, one read, three reads at
// once and three as one group, each repeated 200 times in interleaved
// rounds, and prints mean, median, p10 and p90. With GAP_US, the single
// write and the single read each start after that many microseconds of
// busy-waiting, as a transfer issued after an op's compute does: how the
// latency grows when the I/O threads idled. Each round also starts
// `LatencyProbe::kQueuedPerWorker` transfers per runtime worker at once,
// writes then reads, and the probe derives from their time what a
// transfer queued behind another on a busy worker costs, with ssd-run
// --calibrate's fit (planner::fitQueuedLatency) without the bytes term.
// Built by the build (ssd-latency-probe), run by bench/run/latency-probe.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Calibration.h"
#include "ssd/Replay/LatencyProbe.h"
#include "ssd/Replay/RuntimeSession.h"
#include "ssd/Replay/Timing.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

using namespace ssd::replay;

namespace {
void orExit(llvm::Error error) {
  if (!error)
    return;
  std::fprintf(stderr, "latency_probe: %s\n",
               llvm::toString(std::move(error)).c_str());
  std::exit(1);
}
template <typename T> T orExit(llvm::Expected<T> value) {
  orExit(value.takeError());
  return std::move(*value);
}
void orExit(int status, const char *what) { orExit(check(status, what)); }

void show(const char *name, const std::vector<double> &values) {
  Summary summary = summarize(values);
  std::printf("%-26s mean %.3f ms  median %.3f  p10 %.3f  p90 %.3f\n", name,
              summary.mean * 1e3, summary.median * 1e3, summary.p10 * 1e3,
              summary.p90 * 1e3);
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: latency_probe SCRATCH_DIR BYTES [GAP_US]\n");
    return 2;
  }
  double gapSeconds = argc == 4 ? std::atof(argv[3]) * 1e-6 : 0;
  std::unique_ptr<RuntimeSession> session =
      orExit(RuntimeSession::open(argv[1]));
  ssdrt_context *ctx = session->context();
  uint64_t bytes = std::atoll(argv[2]);
  ssdrt_handle a = orExit(session->createHandle(bytes));
  ssdrt_handle b = orExit(session->createHandle(bytes));
  ssdrt_handle c = orExit(session->createHandle(bytes));
  int64_t shape = static_cast<int64_t>(bytes);
  ssdrt_handle group, memberA, memberB;
  orExit(ssdrt_buffer_create(ctx, 2 * bytes + 512, SSDRT_MEM_HOST, nullptr,
                             &group),
         "creating a buffer");
  orExit(ssdrt_buffer_add(ctx, group, SSDRT_DTYPE_U8, 1, &shape, &memberA),
         "adding to the buffer");
  orExit(ssdrt_buffer_add(ctx, group, SSDRT_DTYPE_U8, 1, &shape, &memberB),
         "adding to the buffer");
  // c is on disk for the reads.
  orExit(ssdrt_handle_offload(ctx, c, 0), "write");
  orExit(ssdrt_handle_wait(ctx, c), "write");

  constexpr unsigned kPerWorker = LatencyProbe::kQueuedPerWorker;
  std::vector<ssdrt_handle> queued;
  for (unsigned index = 0;
       index < LatencyProbe::queuedCount(session->workers()); ++index)
    queued.push_back(orExit(session->createHandle(bytes)));
  std::vector<double> one, two, grouped, buffered, read, threeReads,
      threeGrouped, queuedWrites, queuedReads;
  const ssdrt_handle pair[] = {a, b}, triple[] = {a, b, c};
  auto offloadEach = [&](llvm::ArrayRef<ssdrt_handle> handles,
                         uint32_t flags = SSDRT_OFFLOAD_KEEP) {
    return forEachHandle(handles, [&](ssdrt_handle h) {
      return ssdrt_handle_offload(ctx, h, flags);
    });
  };
  auto prefetchEach = [&](llvm::ArrayRef<ssdrt_handle> handles) {
    return forEachHandle(handles, [&](ssdrt_handle h) {
      return ssdrt_handle_prefetch(ctx, h, nullptr);
    });
  };
  auto markDirty = [&](llvm::ArrayRef<ssdrt_handle> handles) {
    orExit(forEachHandle(
               handles,
               [&](ssdrt_handle h) { return ssdrt_handle_mark_dirty(ctx, h); }),
           "mark dirty");
  };
  auto release = [&](llvm::ArrayRef<ssdrt_handle> handles) {
    orExit(forEachHandle(
               handles,
               [&](ssdrt_handle h) { return ssdrt_handle_release(ctx, h); }),
           "release");
  };
  /// Times `start` then the waits for `handles` into `times`.
  auto timed = [&](std::vector<double> &times, const char *what,
                   llvm::ArrayRef<ssdrt_handle> handles,
                   llvm::function_ref<int()> start) {
    auto waits = [&] { return waitAll(ctx, handles); };
    times.push_back(orExit(timeTransfer(start, waits, what)));
  };
  for (int round = 0; round < 200; ++round) {
    markDirty(a);
    spinFor(gapSeconds);
    timed(one, "write", a, [&] { return offloadEach(a); });

    markDirty(pair);
    timed(two, "write", pair, [&] { return offloadEach(pair); });

    markDirty(pair);
    timed(grouped, "write", pair, [&] {
      return ssdrt_handles_offload(ctx, pair, 2, SSDRT_OFFLOAD_KEEP);
    });

    markDirty(group);
    buffered.push_back(orExit(timeTransfer(
        [&] { return ssdrt_buffer_offload(ctx, group, SSDRT_OFFLOAD_KEEP); },
        [&] { return ssdrt_buffer_wait(ctx, group); }, "write")));

    release(pair);
    spinFor(gapSeconds);
    timed(read, "read", a, [&] { return prefetchEach(a); });

    release(a);
    timed(threeReads, "read", triple, [&] { return prefetchEach(triple); });

    release(triple);
    timed(threeGrouped, "read", triple,
          [&] { return ssdrt_handles_prefetch(ctx, triple, nullptr, 3); });
    release(c);

    markDirty(queued);
    timed(queuedWrites, "write", queued,
          [&] { return offloadEach(queued, 0); });
    timed(queuedReads, "read", queued, [&] { return prefetchEach(queued); });
  }
  std::printf("%lld-byte transfers, %s engine, single ones after %.0f us of "
              "compute\n",
              static_cast<long long>(bytes), session->engineName(),
              gapSeconds * 1e6);
  show("1 durable write", one);
  show("2 durable writes at once", two);
  show("2 as one group", grouped);
  show("2 as one buffer", buffered);
  show("1 read", read);
  show("3 reads at once", threeReads);
  show("3 reads as one group", threeGrouped);
  std::printf("%u per worker at once, %u workers:\n", kPerWorker,
              session->workers());
  show("  durable writes, all", queuedWrites);
  show("  reads, all", queuedReads);
  if (gapSeconds == 0) {
    // The first on each worker costs a lone transfer, each after it the
    // queued latency: the fit with no bytes term (infinite bandwidth) and
    // the lone transfer's time as the latency.
    auto queuedLatency = [&](const std::vector<double> &all,
                             const std::vector<double> &alone) {
      double latency = mean(alone);
      return ssd::planner::fitQueuedLatency(
          latency, {bytes, latency}, mean(all), kPerWorker,
          std::numeric_limits<double>::infinity());
    };
    std::printf("queued durable write %.3f ms, alone %.3f; queued read %.3f "
                "ms, alone %.3f\n",
                queuedLatency(queuedWrites, one) * 1e3, mean(one) * 1e3,
                queuedLatency(queuedReads, read) * 1e3, mean(read) * 1e3);
  }
  return 0;
}
