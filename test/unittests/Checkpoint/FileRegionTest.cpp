//===- FileRegionTest.cpp - Tensors saved from and loaded into files ------===//
//
// A chunk added from a region of a file (a tensor kept on SSD) and a box
// loaded into one: the bytes round-trip through staging buffers much
// smaller than the tensor, unaligned regions included, across a change of
// layout; faults name the file, the offset and the cause; and the C API
// does the same with its error convention.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/FileRegion.h"
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Checkpoint/ssdckpt.h"

#include <fcntl.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;
using ::testing::HasSubstr;

namespace {

/// Buffers much smaller than the tensors, so every copy takes many pieces.
constexpr uint64_t kBuffer = 8192;
IoOptions tinyStaging() {
  IoOptions io;
  io.stagingBytes = kBuffer;
  io.stagingBuffers = 2;
  return io;
}

constexpr uint64_t kBlock = 4096;

std::vector<char> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Writes `prefix` filler bytes, then `data`, then `suffix` filler bytes.
void writeFile(const std::string &path, uint64_t prefix,
               const std::vector<char> &data, uint64_t suffix = 100) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::string filler(prefix, '\x77');
  out.write(filler.data(), filler.size());
  out.write(data.data(), data.size());
  filler.assign(suffix, '\x66');
  out.write(filler.data(), filler.size());
}

std::vector<char> slice(const std::vector<char> &bytes, uint64_t offset,
                        uint64_t length) {
  return {bytes.begin() + offset, bytes.begin() + offset + length};
}

// Tensors whose layouts make loadIntoFile split at each dimension: whole
// rows, part of a middle dimension, part of the last one, and a scalar.
const std::vector<PatternTensor> kTensors = {
    {"rows", DType::F32, {300, 50}, 0},
    {"middle", DType::U8, {6, 7, 1500}, 1},
    {"long_rows", DType::U8, {3, 10000}, 1},
    {"flat", DType::I64, {2500}, 0},
    {"scalar", DType::F64, {}, 0},
};

TEST(FileRegion, SavedFromFilesAndLoadedIntoFilesAcrossLayouts) {
  TempDir tmp;
  auto engine = makeCheckpointEngine();
  std::string root = tmp.path() + "/root";
  std::string dir = beginCheckpoint(root, 5);
  // Rank 0 saves its half of each tensor from a file at an unaligned
  // offset, rank 1 its half from memory.
  std::vector<RankRecord> records;
  for (unsigned rank = 0; rank < 2; ++rank) {
    RankWriter writer(*engine, dir, rank, 5, tinyStaging(), kBlock);
    for (const PatternTensor &t : kTensors) {
      if (t.shape.empty() && rank == 1)
        continue;
      std::vector<uint64_t> offsets, sizes;
      ownedBox(t, t.splitDim, t.shape.empty() ? 0 : rank,
               t.shape.empty() ? 1 : 2, offsets, sizes);
      std::vector<char> bytes = patternBox(t, 5, offsets, sizes);
      if (rank == 0) {
        std::string source = tmp.path() + "/" + t.name + ".src";
        writeFile(source, 4096 + 123, bytes);
        addChunksFromFile(writer, t.name, t.dtype, t.shape, offsets, sizes,
                          source, 4096 + 123, kBuffer);
      } else {
        writer.addChunk(t.name, t.dtype, t.shape, offsets, sizes, bytes.data());
      }
    }
    records.push_back(writer.finish());
  }
  Manifest manifest = commitCheckpoint(root, dir, std::move(records),
                                       {.checksumBlockBytes = kBlock});
  // Rank 0's third of "rows" (100 rows of 200 bytes) took three pieces of at
  // most 8192 bytes, rank 1's from memory one chunk.
  for (const TensorEntry &t : manifest.tensors)
    if (t.name == "rows")
      EXPECT_EQ(t.chunks.size(), 4u);

  CheckpointReader reader(*engine, dir, tinyStaging());
  for (const PatternTensor &t : kTensors) {
    SCOPED_TRACE(t.name);
    // The whole tensor, and a box cut across the saving layout (the other
    // dimension's middle third, or the middle of a 1-D tensor).
    std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> boxes;
    boxes.push_back({std::vector<uint64_t>(t.shape.size(), 0), t.shape});
    if (!t.shape.empty()) {
      size_t dim = t.shape.size() > 1 ? (t.splitDim + 1) % t.shape.size() : 0;
      std::vector<uint64_t> offsets(t.shape.size(), 0), sizes = t.shape;
      offsets[dim] = t.shape[dim] / 3;
      sizes[dim] = t.shape[dim] / 3 + 1;
      boxes.push_back({offsets, sizes});
    }
    for (auto &[offsets, sizes] : boxes) {
      std::vector<char> expected = patternBox(t, 5, offsets, sizes);
      std::string target = tmp.path() + "/" + t.name + ".dst";
      writeFile(target, 777, std::vector<char>(expected.size(), '\x11'), 50);
      loadIntoFile(reader, {t.name, t.dtype, t.shape, offsets, sizes, nullptr},
                   target, 777, kBuffer);
      std::vector<char> after = readFile(target);
      ASSERT_EQ(after.size(), 777 + expected.size() + 50);
      EXPECT_EQ(slice(after, 777, expected.size()), expected);
      // Nothing outside the region changed.
      EXPECT_EQ(slice(after, 0, 777), std::vector<char>(777, '\x77'));
      EXPECT_EQ(slice(after, 777 + expected.size(), 50),
                std::vector<char>(50, '\x66'));
    }
  }
}

TEST(FileRegion, FaultsNameTheFileOffsetAndCause) {
  TempDir tmp;
  auto engine = makeCheckpointEngine();
  std::string root = tmp.path() + "/root";
  std::string dir = beginCheckpoint(root, 1);
  const PatternTensor &t = kTensors[0];
  std::vector<uint64_t> zeros(2, 0);
  std::vector<char> bytes = patternBox(t, 1, zeros, t.shape);
  {
    RankWriter writer(*engine, dir, 0, 1, tinyStaging(), kBlock);
    // A source that ends 10 bytes before the region does.
    std::string shorter = tmp.path() + "/short.src";
    writeFile(shorter, 64, slice(bytes, 0, bytes.size() - 10), 0);
    Caught c = catchError([&] {
      addChunksFromFile(writer, "rows", t.dtype, t.shape, zeros, t.shape,
                        shorter, 64, kBuffer);
    });
    EXPECT_EQ(c.errnum, ENODATA);
    EXPECT_THAT(c.message, HasSubstr(shorter));
    EXPECT_THAT(c.message, HasSubstr("offset"));
    EXPECT_THAT(c.message, HasSubstr("the file ends early"));
    std::string missing = tmp.path() + "/missing.src";
    c = catchError([&] {
      addChunksFromFile(writer, "rows", t.dtype, t.shape, zeros, t.shape,
                        missing, 0);
    });
    EXPECT_EQ(c.errnum, ENOENT);
    EXPECT_THAT(c.message, HasSubstr(missing));
  }
  abortCheckpoint(dir);

  savePattern(*engine, root, 2, 1);
  CheckpointReader reader(*engine, readLatest(root), tinyStaging());
  PatternTensor w = patternTensors()[0];
  std::vector<uint64_t> origin(w.shape.size(), 0);
  LoadRequest request{w.name, w.dtype, w.shape, origin, w.shape, nullptr};
  // A full disk: /dev/full refuses every write with ENOSPC.
  Caught c = catchError(
      [&] { loadIntoFile(reader, request, "/dev/full", 8192, kBuffer); });
  EXPECT_EQ(c.errnum, ENOSPC);
  EXPECT_THAT(c.message, HasSubstr("/dev/full"));
  EXPECT_THAT(c.message, HasSubstr("8192"));
  std::string missing = tmp.path() + "/missing.dst";
  c = catchError([&] { loadIntoFile(reader, request, missing, 0); });
  EXPECT_EQ(c.errnum, ENOENT);
  EXPECT_THAT(c.message, HasSubstr(missing));
  // The request is checked as a load's is.
  request.dtype = DType::BF16;
  std::string target = tmp.path() + "/target";
  writeFile(target, 0, {}, 0);
  c = catchError([&] { loadIntoFile(reader, request, target, 0); });
  EXPECT_EQ(c.errnum, EINVAL);
  EXPECT_THAT(c.message, HasSubstr("dtype mismatch"));
}

TEST(FileRegion, CApiSavesAndLoadsFileRegions) {
  TempDir tmp;
  std::string root = tmp.path() + "/root";
  const PatternTensor &t = kTensors[1];
  std::vector<uint64_t> zeros(3, 0);
  std::vector<char> bytes = patternBox(t, 3, zeros, t.shape);
  std::string source = tmp.path() + "/source";
  writeFile(source, 4096, bytes);

  ssdckpt_save *save = nullptr;
  ASSERT_EQ(ssdckpt_save_begin(root.c_str(), 3, 0, 1, 1000, 0, &save), 0)
      << ssdckpt_last_error();
  EXPECT_EQ(ssdckpt_save_add_file(save, "middle", SSDRT_DTYPE_U8, 3,
                                  t.shape.data(), zeros.data(), t.shape.data(),
                                  (tmp.path() + "/nope").c_str(), 0),
            -ENOENT);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr(tmp.path() + "/nope"));
  ASSERT_EQ(ssdckpt_save_add_file(save, "middle", SSDRT_DTYPE_U8, 3,
                                  t.shape.data(), zeros.data(), t.shape.data(),
                                  source.c_str(), 4096),
            0)
      << ssdckpt_last_error();
  ASSERT_EQ(ssdckpt_save_commit(save), 0) << ssdckpt_last_error();
  ssdckpt_save_close(save);

  char dir[4096];
  ASSERT_EQ(ssdckpt_latest(root.c_str(), dir, sizeof(dir)), 0);
  ssdckpt_reader *reader = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(dir, &reader), 0) << ssdckpt_last_error();
  EXPECT_EQ(ssdckpt_reader_verify(reader), 0) << ssdckpt_last_error();
  std::string target = tmp.path() + "/target";
  writeFile(target, 0, {}, 0);
  ASSERT_EQ(ssdckpt_reader_load_file(reader, "middle", SSDRT_DTYPE_U8, 3,
                                     t.shape.data(), zeros.data(),
                                     t.shape.data(), target.c_str(), 10),
            0)
      << ssdckpt_last_error();
  std::vector<char> after = readFile(target);
  ASSERT_EQ(after.size(), 10 + bytes.size());
  EXPECT_EQ(slice(after, 10, bytes.size()), bytes);
  EXPECT_EQ(ssdckpt_reader_load_file(reader, "middle", SSDRT_DTYPE_U8, 3,
                                     t.shape.data(), zeros.data(),
                                     t.shape.data(), "/dev/full", 0),
            -ENOSPC);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("/dev/full"));
  ssdckpt_reader_close(reader);
}

} // namespace
