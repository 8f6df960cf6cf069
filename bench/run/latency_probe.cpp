//===- latency_probe.cpp - small-transfer latencies through ssdrt ---------===//
//
// What a latency-bound plan's (the MLP's) small transfers cost: the target
// has one latency per transfer, but a plan's small transfers have various
// sizes and go several at a time. This probe times,
// through the runtime as ssd-run uses it, one durable write of N bytes, two
// at once, two as one group (ssdrt_handles_offload), both as one buffer, one
// read, three reads at once and three as one group, each
// repeated 200 times in interleaved rounds, and prints mean, median, p10
// and p90. With GAP_US, the single write and the single read each start
// after that many microseconds of busy-waiting, as a transfer issued after
// an op's compute does: how the latency grows when the I/O threads idled.
// Each round also starts 4 transfers per runtime worker at once, writes
// then reads, and the probe derives from their time what a transfer
// queued behind another on a busy worker costs, as `ssd-run --calibrate`
// does (planner::fitQueuedLatency, without the bytes term).
// Built and run by bench/run/latency-probe.
//
//===----------------------------------------------------------------------===//

#include "ssd/Runtime/ssdrt.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void check(int status, const char *what) {
  if (status == 0)
    return;
  std::fprintf(stderr, "latency_probe: %s failed: %s\n", what,
               ssdrt_last_error());
  std::exit(1);
}

double mean(const std::vector<double> &values) {
  double sum = 0;
  for (double value : values)
    sum += value;
  return sum / values.size();
}

void show(const char *name, std::vector<double> values) {
  double average = mean(values);
  std::sort(values.begin(), values.end());
  std::printf("%-26s mean %.3f ms  median %.3f  p10 %.3f  p90 %.3f\n", name,
              average * 1e3, values[values.size() / 2] * 1e3,
              values[values.size() / 10] * 1e3,
              values[values.size() * 9 / 10] * 1e3);
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: latency_probe SCRATCH_DIR BYTES [GAP_US]\n");
    return 2;
  }
  double gapSeconds = argc == 4 ? std::atof(argv[3]) * 1e-6 : 0;
  auto gap = [gapSeconds] {
    Clock::time_point until =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(gapSeconds));
    while (Clock::now() < until) {
    }
  };
  ssdrt_options options;
  ssdrt_options_init(&options);
  options.directory = argv[1];
  options.flags = SSDRT_OPT_HOST_ONLY;
  ssdrt_context *ctx;
  check(ssdrt_context_create(&options, &ctx), "creating the context");
  int64_t bytes = std::atoll(argv[2]);
  ssdrt_handle a, b, c, group, memberA, memberB;
  for (ssdrt_handle *h : {&a, &b, &c})
    check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &bytes, SSDRT_MEM_HOST,
                              nullptr, h),
          "creating a handle");
  check(ssdrt_buffer_create(ctx, 2 * bytes + 512, SSDRT_MEM_HOST, nullptr,
                            &group),
        "creating a buffer");
  check(ssdrt_buffer_add(ctx, group, SSDRT_DTYPE_U8, 1, &bytes, &memberA),
        "adding to the buffer");
  check(ssdrt_buffer_add(ctx, group, SSDRT_DTYPE_U8, 1, &bytes, &memberB),
        "adding to the buffer");
  // c is on disk for the reads.
  check(ssdrt_handle_offload(ctx, c, 0), "write");
  check(ssdrt_handle_wait(ctx, c), "write");

  constexpr unsigned kPerWorker = 4;
  std::vector<ssdrt_handle> queued(kPerWorker * options.workers);
  for (ssdrt_handle &handle : queued)
    check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &bytes, SSDRT_MEM_HOST,
                              nullptr, &handle),
          "creating a handle");
  std::vector<double> one, two, grouped, buffered, read, threeReads,
      threeGrouped, queuedWrites, queuedReads;
  const ssdrt_handle pair[] = {a, b}, triple[] = {a, b, c};
  for (int round = 0; round < 200; ++round) {
    check(ssdrt_handle_mark_dirty(ctx, a), "mark dirty");
    gap();
    Clock::time_point start = Clock::now();
    check(ssdrt_handle_offload(ctx, a, SSDRT_OFFLOAD_KEEP), "write");
    check(ssdrt_handle_wait(ctx, a), "write");
    one.push_back(secondsSince(start));

    check(ssdrt_handle_mark_dirty(ctx, a), "mark dirty");
    check(ssdrt_handle_mark_dirty(ctx, b), "mark dirty");
    start = Clock::now();
    check(ssdrt_handle_offload(ctx, a, SSDRT_OFFLOAD_KEEP), "write");
    check(ssdrt_handle_offload(ctx, b, SSDRT_OFFLOAD_KEEP), "write");
    check(ssdrt_handle_wait(ctx, a), "write");
    check(ssdrt_handle_wait(ctx, b), "write");
    two.push_back(secondsSince(start));

    check(ssdrt_handle_mark_dirty(ctx, a), "mark dirty");
    check(ssdrt_handle_mark_dirty(ctx, b), "mark dirty");
    start = Clock::now();
    check(ssdrt_handles_offload(ctx, pair, 2, SSDRT_OFFLOAD_KEEP), "write");
    check(ssdrt_handle_wait(ctx, a), "write");
    check(ssdrt_handle_wait(ctx, b), "write");
    grouped.push_back(secondsSince(start));

    check(ssdrt_handle_mark_dirty(ctx, group), "mark dirty");
    start = Clock::now();
    check(ssdrt_buffer_offload(ctx, group, SSDRT_OFFLOAD_KEEP), "write");
    check(ssdrt_buffer_wait(ctx, group), "write");
    buffered.push_back(secondsSince(start));

    check(ssdrt_handle_release(ctx, a), "release");
    check(ssdrt_handle_release(ctx, b), "release");
    gap();
    start = Clock::now();
    check(ssdrt_handle_prefetch(ctx, a, nullptr), "read");
    check(ssdrt_handle_wait(ctx, a), "read");
    read.push_back(secondsSince(start));

    check(ssdrt_handle_release(ctx, a), "release");
    start = Clock::now();
    for (ssdrt_handle h : {a, b, c})
      check(ssdrt_handle_prefetch(ctx, h, nullptr), "read");
    for (ssdrt_handle h : {a, b, c})
      check(ssdrt_handle_wait(ctx, h), "read");
    threeReads.push_back(secondsSince(start));

    for (ssdrt_handle h : triple)
      check(ssdrt_handle_release(ctx, h), "release");
    start = Clock::now();
    check(ssdrt_handles_prefetch(ctx, triple, nullptr, 3), "read");
    for (ssdrt_handle h : triple)
      check(ssdrt_handle_wait(ctx, h), "read");
    threeGrouped.push_back(secondsSince(start));
    check(ssdrt_handle_release(ctx, c), "release");

    for (ssdrt_handle h : queued)
      check(ssdrt_handle_mark_dirty(ctx, h), "mark dirty");
    start = Clock::now();
    for (ssdrt_handle h : queued)
      check(ssdrt_handle_offload(ctx, h, 0), "write");
    for (ssdrt_handle h : queued)
      check(ssdrt_handle_wait(ctx, h), "write");
    queuedWrites.push_back(secondsSince(start));
    start = Clock::now();
    for (ssdrt_handle h : queued)
      check(ssdrt_handle_prefetch(ctx, h, nullptr), "read");
    for (ssdrt_handle h : queued)
      check(ssdrt_handle_wait(ctx, h), "read");
    queuedReads.push_back(secondsSince(start));
  }
  std::printf("%lld-byte transfers, %s engine, single ones after %.0f us of "
              "compute\n",
              static_cast<long long>(bytes), ssdrt_engine_name(ctx),
              gapSeconds * 1e6);
  show("1 durable write", one);
  show("2 durable writes at once", two);
  show("2 as one group", grouped);
  show("2 as one buffer", buffered);
  show("1 read", read);
  show("3 reads at once", threeReads);
  show("3 reads as one group", threeGrouped);
  std::printf("%u per worker at once, %u workers:\n", kPerWorker,
              options.workers);
  show("  durable writes, all", queuedWrites);
  show("  reads, all", queuedReads);
  if (gapSeconds == 0) {
    // The first on each worker costs a lone transfer, each after it the
    // queued latency.
    auto queuedLatency = [&](const std::vector<double> &all,
                             const std::vector<double> &alone) {
      return (mean(all) - mean(alone)) / (kPerWorker - 1);
    };
    std::printf("queued durable write %.3f ms, alone %.3f; queued read %.3f "
                "ms, alone %.3f\n",
                queuedLatency(queuedWrites, one) * 1e3, mean(one) * 1e3,
                queuedLatency(queuedReads, read) * 1e3, mean(read) * 1e3);
  }
  ssdrt_context_destroy(ctx);
  return 0;
}
