//===- CheckpointTestUtil.h - Shared helpers for checkpoint tests -*- C++ -*-=//
//
// Deterministic tensor contents, uneven splits, temporary directories and a
// "save this pattern checkpoint with N ranks" routine shared by the unit
// tests, the crash-test writer process and the v1 fixtures. The pattern is
// part of the fixtures' meaning: changing `patternByte` or `patternTensors`
// invalidates test/fixtures/checkpoint, so never change them.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_TEST_CHECKPOINT_TESTUTIL_H
#define SSD_TEST_CHECKPOINT_TESTUTIL_H

#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char **environ;

namespace ssd::rt::ckpt::test {

struct PatternTensor {
  std::string name;
  DType dtype;
  std::vector<uint64_t> shape;
  /// The dimension the saving and loading layouts split.
  size_t splitDim;
};

/// Tensors of several dtypes and ranks, sizes that no world size divides.
inline std::vector<PatternTensor> patternTensors(uint64_t bulkBytes = 0) {
  std::vector<PatternTensor> t = {
      {"layer0.weight", DType::F32, {37, 23}, 0},
      {"layer0.proj", DType::BF16, {16, 29}, 1},
      {"embed", DType::I64, {11, 6}, 0},
      {"flags", DType::Bool, {13}, 0},
      {"scale", DType::F64, {}, 0},
      {"counts", DType::I32, {3, 5, 7}, 2},
  };
  if (bulkBytes)
    t.push_back({"bulk", DType::U8, {bulkBytes}, 0});
  return t;
}

/// Byte `byte` of element `index` of tensor `name` at `step`.
inline uint8_t patternByte(const std::string &name, DType dtype, uint64_t step,
                           uint64_t index, unsigned byte) {
  uint64_t h = 1469598103934665603ull ^ step;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  h = (h ^ index) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h = (h + byte) * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  return dtype == DType::Bool ? uint8_t(h & 1) : uint8_t(h);
}

/// The row-major bytes of the box [offsets, offsets + sizes).
inline std::vector<char> patternBox(const PatternTensor &t, uint64_t step,
                                    const std::vector<uint64_t> &offsets,
                                    const std::vector<uint64_t> &sizes) {
  unsigned elem = dtypeSize(t.dtype);
  size_t rank = t.shape.size();
  std::vector<char> out(volume(sizes) * elem);
  std::vector<uint64_t> at(rank, 0);
  for (uint64_t i = 0; i < volume(sizes); ++i) {
    uint64_t global = 0;
    for (size_t d = 0; d < rank; ++d)
      global = global * t.shape[d] + offsets[d] + at[d];
    for (unsigned b = 0; b < elem; ++b)
      out[i * elem + b] = char(patternByte(t.name, t.dtype, step, global, b));
    for (size_t d = rank; d-- > 0;) {
      if (++at[d] < sizes[d])
        break;
      at[d] = 0;
    }
  }
  return out;
}

/// Part `part` of `parts` of [0, total): part i is proportional to i + 1,
/// so sizes differ and small tensors get empty parts.
inline std::pair<uint64_t, uint64_t> unevenPart(uint64_t total, unsigned part,
                                                unsigned parts) {
  uint64_t weightAll = uint64_t(parts) * (parts + 1) / 2;
  auto boundary = [&](unsigned k) {
    return total * (uint64_t(k) * (k + 1) / 2) / weightAll;
  };
  return {boundary(part), boundary(part + 1) - boundary(part)};
}

/// The box rank `rank` of `parts` owns when splitting along `dim`.
inline void ownedBox(const PatternTensor &t, size_t dim, unsigned rank,
                     unsigned parts, std::vector<uint64_t> &offsets,
                     std::vector<uint64_t> &sizes) {
  offsets.assign(t.shape.size(), 0);
  sizes = t.shape;
  if (t.shape.empty())
    return;
  auto [start, count] = unevenPart(t.shape[dim], rank, parts);
  offsets[dim] = start;
  sizes[dim] = count;
}

/// Adds rank `rank`'s share of step `step` of the pattern to `writer` (its
/// row of every tensor's split along the split dimension plus `dimOffset`,
/// scalars on rank 0) and its rank state.
inline void addPatternShare(RankWriter &writer, uint64_t step, unsigned rank,
                            unsigned ranks, size_t dimOffset = 0,
                            uint64_t bulkBytes = 0) {
  for (const PatternTensor &t : patternTensors(bulkBytes)) {
    if (t.shape.empty() && rank != 0)
      continue;
    std::vector<uint64_t> offsets, sizes;
    size_t dim =
        t.shape.empty() ? 0 : (t.splitDim + dimOffset) % t.shape.size();
    ownedBox(t, dim, t.shape.empty() ? 0 : rank, t.shape.empty() ? 1 : ranks,
             offsets, sizes);
    std::vector<char> data = patternBox(t, step, offsets, sizes);
    writer.addChunk(t.name, t.dtype, t.shape, offsets, sizes, data.data());
  }
  writer.setRankState(std::string("rng-") + char('a' + rank % 26),
                      100 * step + rank);
}

/// Writes rank `rank`'s share of step `step` of the pattern into `dir` and
/// returns its record.
inline RankRecord writePatternRank(
    IoEngine &engine, const std::string &dir, uint64_t step, unsigned rank,
    unsigned ranks, size_t dimOffset = 0, uint64_t bulkBytes = 0,
    uint64_t blockBytes = kDefaultChecksumBlockBytes, IoOptions io = {}) {
  RankWriter writer(engine, dir, rank, step, io, blockBytes);
  addPatternShare(writer, step, rank, ranks, dimOffset, bulkBytes);
  return writer.finish();
}

/// Saves step `step` of the pattern under `root` from `ranks` threads and
/// commits it.
inline Manifest savePattern(IoEngine &engine, const std::string &root,
                            uint64_t step, unsigned ranks, size_t dimOffset = 0,
                            uint64_t bulkBytes = 0, CommitOptions commit = {},
                            IoOptions io = {}) {
  std::string dir = beginCheckpoint(root, step);
  std::vector<RankRecord> records(ranks);
  std::vector<std::exception_ptr> errors(ranks);
  std::vector<std::thread> threads;
  for (unsigned rank = 0; rank < ranks; ++rank)
    threads.emplace_back([&, rank] {
      try {
        records[rank] =
            writePatternRank(engine, dir, step, rank, ranks, dimOffset,
                             bulkBytes, commit.checksumBlockBytes, io);
      } catch (...) {
        errors[rank] = std::current_exception();
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (std::exception_ptr &e : errors)
    if (e)
      std::rethrow_exception(e);
  return commitCheckpoint(root, dir, std::move(records), commit);
}

/// Loads the pattern of `step` from `dir` as `ranks` threads splitting
/// along `dimOffset`, compares every byte, and returns what went wrong
/// ("" when every rank got exactly its box).
inline std::string patternLoadFailures(IoEngine &engine, const std::string &dir,
                                       uint64_t step, unsigned ranks,
                                       size_t dimOffset, IoOptions io = {}) {
  std::vector<std::thread> threads;
  std::vector<std::string> failures(ranks);
  for (unsigned rank = 0; rank < ranks; ++rank)
    threads.emplace_back([&, rank] {
      try {
        CheckpointReader reader(engine, dir, io);
        std::vector<PatternTensor> tensors = patternTensors();
        std::vector<std::vector<char>> buffers;
        std::vector<LoadRequest> requests;
        for (const PatternTensor &t : tensors) {
          LoadRequest r{t.name, t.dtype, t.shape, {}, {}, nullptr};
          size_t dim =
              t.shape.empty() ? 0 : (t.splitDim + dimOffset) % t.shape.size();
          ownedBox(t, dim, rank, ranks, r.offsets, r.sizes);
          buffers.emplace_back(volume(r.sizes) * dtypeSize(t.dtype), '\x5a');
          r.dest = buffers.back().data();
          requests.push_back(r);
        }
        reader.load(requests);
        for (size_t i = 0; i < tensors.size(); ++i)
          if (buffers[i] != patternBox(tensors[i], step, requests[i].offsets,
                                       requests[i].sizes))
            failures[rank] += "tensor " + tensors[i].name + " differs; ";
      } catch (const std::exception &e) {
        failures[rank] = e.what();
      }
    });
  for (std::thread &t : threads)
    t.join();
  std::string all;
  for (unsigned rank = 0; rank < ranks; ++rank)
    if (!failures[rank].empty())
      all += "rank " + std::to_string(rank) + ": " + failures[rank] + "\n";
  return all;
}

/// Saves `count` U8 tensors "s000", ... of 5000 bytes each (so each chunk
/// is padded to 8192 bytes in the data file) from one rank; byte j of
/// tensor i is char(i * 131 + j).
inline std::string saveSmallTensors(IoEngine &engine, const std::string &root,
                                    unsigned count) {
  std::string dir = beginCheckpoint(root, 1);
  RankWriter writer(engine, dir, 0, 1);
  for (unsigned i = 0; i < count; ++i) {
    std::vector<char> bytes(5000);
    for (size_t j = 0; j < bytes.size(); ++j)
      bytes[j] = char(i * 131 + j);
    std::vector<uint64_t> shape{bytes.size()}, zero{0};
    char name[8];
    std::snprintf(name, sizeof(name), "s%03u", i);
    writer.addChunk(name, DType::U8, shape, zero, shape, bytes.data());
  }
  std::vector<RankRecord> records{writer.finish()};
  commitCheckpoint(root, dir, records);
  return dir;
}

/// What an `Error` thrown by `fn` said; errnum 0 when nothing was thrown.
struct Caught {
  int errnum = 0;
  std::string message;
};

template <typename Fn> Caught catchError(Fn &&fn) {
  try {
    fn();
  } catch (const Error &e) {
    return {e.errnum, e.what()};
  }
  return {0, "no error"};
}

#ifdef SSD_PATTERN_WRITER
/// Starts the pattern writer (PatternWriter.cpp; the unit tests know its
/// path) with `args` in a process of its own.
inline pid_t spawnPatternWriter(const std::vector<std::string> &args) {
  std::vector<char *> argv{const_cast<char *>(SSD_PATTERN_WRITER)};
  for (const std::string &arg : args)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, SSD_PATTERN_WRITER, nullptr, nullptr, argv.data(),
                  environ) != 0)
    throw std::runtime_error("posix_spawn of the pattern writer failed");
  return pid;
}
#endif

/// The wait status of process `pid` once it has ended.
inline int waitForExit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/// A fresh directory removed with its contents at scope exit.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string templ =
        std::string(base && *base ? base : "/tmp") + "/ssd-ckpt-test-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
      throw std::runtime_error("mkdtemp failed");
    dir = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  const std::string &path() const { return dir; }

private:
  std::string dir;
};

} // namespace ssd::rt::ckpt::test

#endif // SSD_TEST_CHECKPOINT_TESTUTIL_H
