//===- ckptbench.cpp - Checkpoint save and load throughput ----------------===//
//
//   ssd-checkpoint-bench --dir ROOT --bytes B --ranks N [--load-ranks M]
//
// Saves one checkpoint of B bytes from N ranks (threads sharing one I/O
// engine; each rank owns a row slice of four F32 tensors), timing from
// the first byte to the moved `latest` pointer (data, fsyncs, manifest,
// rename, directory fsync included). Then loads it back with M ranks
// (default N) splitting the same tensors by rows, each rank planning and
// reading only its slices with checksum verification, and prints one JSON
// line with both throughputs and the bytes the load read versus the bytes
// its ranks needed. Finally reshards it offline to M ranks into ROOT-resharded
// and reports the bytes that read.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/Checkpoint/Convert.h"
#include "ssd/Runtime/IoEngine.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;

namespace {

constexpr unsigned kTensors = 4;
constexpr uint64_t kColumns = 1024;

struct Options {
  std::string dir;
  uint64_t bytes = 0;
  uint32_t ranks = 4;
  uint32_t loadRanks = 0;
};

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// User plus system CPU seconds this process has used so far.
double cpuSeconds() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  auto toSeconds = [](const timeval &t) { return t.tv_sec + t.tv_usec / 1e6; };
  return toSeconds(usage.ru_utime) + toSeconds(usage.ru_stime);
}

/// Runs `body(rank)` on `ranks` threads and rethrows the first failure.
template <typename Body> void onRanks(uint32_t ranks, Body &&body) {
  std::vector<std::exception_ptr> errors(ranks);
  std::vector<std::thread> threads;
  for (uint32_t rank = 0; rank < ranks; ++rank)
    threads.emplace_back([&, rank] {
      try {
        body(rank);
      } catch (...) {
        errors[rank] = std::current_exception();
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (std::exception_ptr &e : errors)
    if (e)
      std::rethrow_exception(e);
}

int run(const Options &o) {
  uint64_t rows = o.bytes / kTensors / (kColumns * 4);
  std::vector<uint64_t> shape{rows, kColumns};
  uint64_t tensorBytes = rows * kColumns * 4;
  auto engine = makeCheckpointEngine(64);

  // Save: every rank fills its slice once and saves it as all four tensors.
  std::vector<std::vector<char>> sources(o.ranks);
  for (uint32_t rank = 0; rank < o.ranks; ++rank) {
    std::vector<uint64_t> offsets, sizes;
    evenRowSplit(shape, rank, o.ranks, offsets, sizes);
    sources[rank].resize(sizes[0] * kColumns * 4);
    for (size_t i = 0; i < sources[rank].size(); i += 4096)
      sources[rank][i] = char(i >> 12);
  }
  double saveCpu = cpuSeconds();
  auto saveStart = std::chrono::steady_clock::now();
  std::string dir = beginCheckpoint(o.dir, 1);
  std::vector<RankRecord> records(o.ranks);
  onRanks(o.ranks, [&](uint32_t rank) {
    RankWriter writer(*engine, dir, rank, 1);
    std::vector<uint64_t> offsets, sizes;
    evenRowSplit(shape, rank, o.ranks, offsets, sizes);
    for (unsigned t = 0; t < kTensors; ++t)
      writer.addChunk("t" + std::to_string(t), DType::F32, shape, offsets,
                      sizes, sources[rank].data());
    records[rank] = writer.finish();
  });
  commitCheckpoint(o.dir, dir, std::move(records));
  double saveSeconds = seconds(std::chrono::steady_clock::now() - saveStart);
  saveCpu = cpuSeconds() - saveCpu;
  sources.clear();

  // Load with M ranks, each into its own buffers.
  uint32_t loadRanks = o.loadRanks ? o.loadRanks : o.ranks;
  std::vector<uint64_t> readBytes(loadRanks);
  std::vector<std::vector<char>> dests(loadRanks);
  uint64_t needed = 0;
  for (uint32_t rank = 0; rank < loadRanks; ++rank) {
    std::vector<uint64_t> offsets, sizes;
    evenRowSplit(shape, rank, loadRanks, offsets, sizes);
    dests[rank].resize(sizes[0] * kColumns * 4 * kTensors);
    needed += dests[rank].size();
  }
  double loadCpu = cpuSeconds();
  auto loadStart = std::chrono::steady_clock::now();
  onRanks(loadRanks, [&](uint32_t rank) {
    CheckpointReader reader(*engine, readLatest(o.dir));
    std::vector<LoadRequest> requests;
    std::vector<uint64_t> offsets, sizes;
    evenRowSplit(shape, rank, loadRanks, offsets, sizes);
    uint64_t slice = sizes[0] * kColumns * 4;
    for (unsigned t = 0; t < kTensors; ++t)
      requests.push_back({"t" + std::to_string(t), DType::F32, shape, offsets,
                          sizes, dests[rank].data() + t * slice});
    reader.load(requests);
    readBytes[rank] = reader.bytesRead();
  });
  double loadSeconds = seconds(std::chrono::steady_clock::now() - loadStart);
  loadCpu = cpuSeconds() - loadCpu;
  uint64_t read = 0;
  for (uint64_t b : readBytes)
    read += b;
  dests.clear();

  // Offline resharding to M ranks plans every target at once, so each
  // stored block is read once.
  auto reshardStart = std::chrono::steady_clock::now();
  ConversionResult resharded = reshardCheckpoint(
      *engine, readLatest(o.dir), o.dir + "-resharded", loadRanks);
  double reshardSeconds =
      seconds(std::chrono::steady_clock::now() - reshardStart);
  uint64_t total = tensorBytes * kTensors;
  std::printf("{\"engine\": \"%s\", \"bytes\": %llu, \"ranks\": %u, "
              "\"load_ranks\": %u, \"save_seconds\": %.4f, "
              "\"save_bw_bytes\": %.0f, \"load_seconds\": %.4f, "
              "\"load_bw_bytes\": %.0f, \"load_read_bytes\": %llu, "
              "\"load_needed_bytes\": %llu, \"reshard_seconds\": %.4f, "
              "\"reshard_read_bytes\": %llu, \"reshard_needed_bytes\": "
              "%llu, \"save_cpu_seconds\": %.3f, \"load_cpu_seconds\": %.3f}\n",
              engine->name(), (unsigned long long)total, o.ranks, loadRanks,
              saveSeconds, total / saveSeconds, loadSeconds,
              total / loadSeconds, (unsigned long long)read,
              (unsigned long long)needed, reshardSeconds,
              (unsigned long long)resharded.bytesRead,
              (unsigned long long)total, saveCpu, loadCpu);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    const char *value = argv[i + 1];
    if (flag == "--dir")
      o.dir = value;
    else if (flag == "--bytes")
      o.bytes = std::strtoull(value, nullptr, 10);
    else if (flag == "--ranks")
      o.ranks = uint32_t(std::strtoul(value, nullptr, 10));
    else if (flag == "--load-ranks")
      o.loadRanks = uint32_t(std::strtoul(value, nullptr, 10));
    else
      o.dir.clear();
  }
  if (o.dir.empty() || o.bytes < (kTensors * kColumns * 4) || o.ranks == 0 ||
      argc % 2 == 0) {
    std::fprintf(stderr,
                 "usage: %s --dir ROOT --bytes B --ranks N "
                 "[--load-ranks M]\n",
                 argv[0]);
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "ssd-checkpoint-bench: %s\n", e.what());
    return 1;
  }
}
