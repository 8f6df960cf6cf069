//===- RoundTripTest.cpp - Save with N ranks, load with M -----------------===//
//
// Every pair of world sizes in {1, 2, 3, 4, 7}, row and column splits on
// both sides, uneven parts (some empty), several dtypes and a scalar; ranks
// are threads sharing one I/O engine. Also checks that elastic loads read
// only the blocks they need and the N->M rules for non-tensor state.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;

namespace {

constexpr unsigned kWorldSizes[] = {1, 2, 3, 4, 7};

/// Small blocks and buffers so that chunks span several checksum blocks and
/// the staging ring wraps.
CommitOptions smallBlocks() {
  CommitOptions c;
  c.checksumBlockBytes = 4096;
  return c;
}

IoOptions smallStaging() {
  IoOptions io;
  io.stagingBytes = 16384;
  io.stagingBuffers = 3;
  return io;
}

class RoundTrip
    : public ::testing::TestWithParam<std::tuple<unsigned, size_t>> {};

TEST_P(RoundTrip, LoadsOnEveryWorldSizeAndSplit) {
  auto [saveRanks, saveDim] = GetParam();
  TempDir tmp;
  auto engine = makeCheckpointEngine(16);
  Manifest saved = savePattern(*engine, tmp.path(), 5, saveRanks, saveDim, 0,
                               smallBlocks(), smallStaging());
  EXPECT_EQ(saved.worldSize, saveRanks);
  std::string dir = readLatest(tmp.path());
  CheckpointReader(*engine, dir).verifyAll();
  for (unsigned loadRanks : kWorldSizes)
    for (size_t loadDim : {size_t(0), size_t(1)})
      EXPECT_EQ(patternLoadFailures(*engine, dir, 5, loadRanks, loadDim,
                                    smallStaging()),
                "")
          << loadRanks << " ranks splitting dimension offset " << loadDim;
}

INSTANTIATE_TEST_SUITE_P(WorldSizes, RoundTrip,
                         ::testing::Combine(::testing::ValuesIn(kWorldSizes),
                                            ::testing::Values(size_t(0),
                                                              size_t(1))));

TEST(ElasticLoad, ReshardReadsEachNeededByteOnce) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(16);
  PatternTensor t{"w", DType::F32, {1024, 256}, 0};
  std::string dir = beginCheckpoint(tmp.path(), 1);
  std::vector<RankRecord> records;
  for (unsigned rank = 0; rank < 4; ++rank) {
    RankWriter writer(*engine, dir, rank, 1, {}, 4096);
    std::vector<uint64_t> offsets, sizes;
    ownedBox(t, 0, rank, 4, offsets, sizes);
    writer.addChunk("w", t.dtype, t.shape, offsets, sizes,
                    patternBox(t, 1, offsets, sizes).data());
    records.push_back(writer.finish());
  }
  Manifest m = commitCheckpoint(tmp.path(), dir, records, smallBlocks());

  // All three target ranks planned together: every block read once.
  CheckpointReader all(*engine, dir);
  std::vector<std::vector<char>> out(3);
  std::vector<LoadRequest> requests;
  for (unsigned rank = 0; rank < 3; ++rank) {
    LoadRequest r{"w", t.dtype, t.shape, {}, {}, nullptr};
    ownedBox(t, 0, rank, 3, r.offsets, r.sizes);
    out[rank].resize(volume(r.sizes) * 4);
    r.dest = out[rank].data();
    requests.push_back(r);
  }
  all.load(requests);
  uint64_t stored = 0;
  for (const Chunk &c : m.tensors[0].chunks)
    stored += (c.length + 4095) / 4096 * 4096;
  EXPECT_EQ(all.bytesRead(), stored);
  for (unsigned rank = 0; rank < 3; ++rank)
    EXPECT_EQ(out[rank],
              patternBox(t, 1, requests[rank].offsets, requests[rank].sizes));

  // One target rank alone reads its bytes plus at most one block of
  // rounding at each end of each chunk it touches.
  CheckpointReader one(*engine, dir);
  one.load(std::span<const LoadRequest>(&requests[1], 1));
  uint64_t needed = out[1].size();
  EXPECT_GE(one.bytesRead(), needed);
  EXPECT_LE(one.bytesRead(), needed + 2 * 4096 * 4);
}

TEST(SmallTensors, ChunksEndToEndAreReadTogether) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  std::string dir = saveSmallTensors(*engine, tmp.path(), 64);
  std::vector<std::vector<char>> out(64, std::vector<char>(5000));
  auto requests = [&](unsigned stride) {
    std::vector<LoadRequest> all;
    // Asked for last to first: the reader sorts by file offset.
    for (unsigned i = 64; i-- > 0;)
      if (i % stride == 0) {
        char name[8];
        std::snprintf(name, sizeof(name), "s%03u", i);
        all.push_back({name, DType::U8, {5000}, {0}, {5000}, out[i].data()});
      }
    return all;
  };
  CheckpointReader all(*engine, dir);
  all.load(requests(1));
  EXPECT_EQ(all.readsIssued(), 1u);
  EXPECT_EQ(all.bytesRead(), 64u * 8192);
  for (unsigned i = 0; i < 64; ++i)
    for (size_t j = 0; j < 5000; j += 997)
      ASSERT_EQ(out[i][j], char(i * 131 + j)) << i << " " << j;

  // Every other tensor: no two chunks are adjacent, and no byte between
  // them is read.
  CheckpointReader half(*engine, dir);
  half.load(requests(2));
  EXPECT_EQ(half.readsIssued(), 32u);
  EXPECT_EQ(half.bytesRead(), 32u * 8192);

  // A read holds at most one staging buffer.
  IoOptions small;
  small.stagingBytes = 64 << 10;
  CheckpointReader bounded(*engine, dir, small);
  bounded.load(requests(1));
  EXPECT_EQ(bounded.readsIssued(), 8u);
  bounded.verifyAll();
  EXPECT_EQ(bounded.readsIssued(), 16u);
}

TEST(StagingRing, ReadsThroughHugePageBuffersDeliverEveryByte) {
  // Buffers of 2 MiB and more are rounded up to whole huge pages and kept
  // for the next load: reads of one staging buffer that is not a multiple
  // of 2 MiB, several of them per chunk and a short last one, wrapping a
  // ring of two, each land in place, and a buffer taken back still holding
  // another checkpoint's bytes delivers only this one's.
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  const uint64_t shape[] = {(9u << 20) + 12288}, origin[] = {0};
  std::vector<char> data(shape[0]);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = char(i * 7 + (i >> 12));
  auto save = [&](uint64_t step, const std::vector<char> &bytes) {
    std::string dir = beginCheckpoint(tmp.path(), step);
    std::vector<RankRecord> records(1);
    {
      RankWriter writer(*engine, dir, 0, step, {}, 64 << 10);
      writer.addChunk("w", DType::U8, shape, origin, shape, bytes.data());
      records[0] = writer.finish();
    }
    CommitOptions blocks;
    blocks.checksumBlockBytes = 64 << 10;
    commitCheckpoint(tmp.path(), dir, std::move(records), blocks);
    return dir;
  };
  std::string dir = save(1, data);
  std::vector<char> other(data.size());
  for (size_t i = 0; i < other.size(); ++i)
    other[i] = char(~data[i]);
  std::string otherDir = save(2, other);
  {
    CheckpointReader first(*engine, otherDir);
    std::vector<char> out(other.size());
    LoadRequest whole{"w", DType::U8, {shape[0]}, {0}, {shape[0]}, out.data()};
    first.load({&whole, 1});
    EXPECT_TRUE(out == other);
  }
  for (uint64_t staging : {uint64_t(2u << 20) + (64 << 10), uint64_t(4u << 20),
                           uint64_t(8u << 20)}) {
    IoOptions io;
    io.stagingBytes = staging;
    io.stagingBuffers = 2;
    CheckpointReader reader(*engine, dir, io);
    std::vector<char> out(data.size(), '\x5C');
    LoadRequest whole{"w", DType::U8, {shape[0]}, {0}, {shape[0]}, out.data()};
    reader.load({&whole, 1});
    EXPECT_EQ(reader.readsIssued(), (data.size() + staging - 1) / staging)
        << staging;
    EXPECT_TRUE(out == data) << "staging " << staging;
    // A box starting inside a buffer's second huge page.
    std::vector<char> part(3u << 20);
    LoadRequest box{"w",           DType::U8,  {shape[0]}, {(2u << 20) + 4000},
                    {part.size()}, part.data()};
    reader.load({&box, 1});
    EXPECT_TRUE(
        std::equal(part.begin(), part.end(), data.begin() + (2u << 20) + 4000))
        << "staging " << staging;
  }
}

TEST(StagingRing, AReusedRingLeavesNoOldBytesInTheFile) {
  // The second writer takes back the first one's ring, whose buffers still
  // hold its bytes: only the tensor and zeros reach the second file.
  TempDir tmp;
  auto engine = makeCheckpointEngine();
  std::string dir = beginCheckpoint(tmp.path(), 1);
  const uint64_t big[] = {3 * 16384}, small[] = {10}, origin[] = {0};
  std::vector<char> old(big[0], '\xAB'), data(small[0], '\x11');
  {
    RankWriter first(*engine, dir, 0, 1, smallStaging(), 4096);
    first.addChunk("old", DType::U8, big, origin, big, old.data());
    first.finish();
  }
  RankRecord record;
  {
    RankWriter second(*engine, dir, 1, 1, smallStaging(), 4096);
    second.addChunk("new", DType::U8, small, origin, small, data.data());
    record = second.finish();
  }
  std::FILE *file = std::fopen((dir + "/" + record.state.file).c_str(), "rb");
  ASSERT_NE(file, nullptr);
  std::vector<char> bytes(8192, '\x5C');
  bytes.resize(std::fread(bytes.data(), 1, bytes.size(), file));
  std::fclose(file);
  ASSERT_EQ(bytes.size(), 4096u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 10),
            std::string(data.begin(), data.end()));
  EXPECT_EQ(std::count(bytes.begin() + 10, bytes.end(), '\0'), 4096 - 10);
}

TEST(ElasticLoad, RankStateFollowsTheDocumentedRules) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  savePattern(*engine, tmp.path(), 9, 3);
  CheckpointReader reader(*engine, readLatest(tmp.path()));
  // Same world size: each rank gets its own state back.
  ResumeState same = reader.resumeState(2, 3);
  EXPECT_EQ(same.step, 9u);
  EXPECT_TRUE(same.rngRestored);
  EXPECT_EQ(same.rng, "rng-c");
  EXPECT_EQ(same.dataLoaderPosition, 902u);
  EXPECT_FALSE(same.positionIsGlobal);
  // 3 -> 5: ranks below 3 continue their stream, the others must seed; the
  // data-loader position becomes the global sum.
  ResumeState grown = reader.resumeState(4, 5);
  EXPECT_FALSE(grown.rngRestored);
  EXPECT_TRUE(grown.positionIsGlobal);
  EXPECT_EQ(grown.dataLoaderPosition, 900u + 901u + 902u);
  EXPECT_TRUE(reader.resumeState(1, 2).rngRestored);
  EXPECT_THROW(reader.resumeState(2, 2), Error);
}

TEST(ChunkGridIndex, PlansInTimeLinearInChunks) {
  // 200k row chunks and 200k one-row requests; an all-pairs planner would
  // make 4e10 comparisons.
  constexpr uint64_t kRows = 200000;
  TensorEntry rows{"r", DType::U8, {kRows, 3}, {}};
  for (uint64_t i = 0; i < kRows; ++i)
    rows.chunks.push_back({{i, 0}, {1, 3}, "f", 0, 3, {}});
  ChunkGrid rowGrid(rows, "rows");
  uint64_t hits = 0;
  for (uint64_t i = 0; i < kRows; ++i) {
    std::vector<uint64_t> offsets{i, 1}, sizes{1, 2};
    rowGrid.forEachOverlap(offsets, sizes, [&](size_t c) { hits += c == i; });
  }
  EXPECT_EQ(hits, kRows);

  // A 300x300 block grid, queried by a box that straddles 2x2 blocks.
  TensorEntry blocks{"b", DType::U8, {3000, 3000}, {}};
  for (uint64_t i = 0; i < 300; ++i)
    for (uint64_t j = 0; j < 300; ++j)
      blocks.chunks.push_back({{i * 10, j * 10}, {10, 10}, "f", 0, 100, {}});
  ChunkGrid blockGrid(blocks, "blocks");
  std::vector<size_t> found;
  std::vector<uint64_t> offsets{15, 25}, sizes{10, 10};
  blockGrid.forEachOverlap(offsets, sizes,
                           [&](size_t c) { found.push_back(c); });
  EXPECT_EQ(found, (std::vector<size_t>{302, 303, 602, 603}));
}

TEST(ChunkGridIndex, RowsSplitInOrderFindWhatTheGridFinds) {
  // Rows split in order are answered from the chunks' row ends, without a
  // grid; the same chunks in reverse order are answered by the grid. Both
  // must name the same chunks for any box that is not empty.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    uint64_t cols = 1 + rng() % 5;
    TensorEntry inOrder{"t", DType::U8, {0, cols}, {}};
    uint64_t row = 0;
    size_t chunks = 1 + rng() % 6;
    for (size_t c = 0; c < chunks; ++c) {
      uint64_t rows = 1 + rng() % 4;
      inOrder.chunks.push_back(
          {{row, 0}, {rows, cols}, "f", 0, rows * cols, {}});
      row += rows;
    }
    inOrder.shape[0] = row;
    TensorEntry reversed = inOrder;
    std::reverse(reversed.chunks.begin(), reversed.chunks.end());
    ChunkGrid fast(inOrder, "in order"), grid(reversed, "reversed");
    for (int query = 0; query < 20; ++query) {
      uint64_t r0 = rng() % row, c0 = rng() % cols;
      std::vector<uint64_t> offsets{r0, c0};
      std::vector<uint64_t> sizes{1 + rng() % (row - r0),
                                  1 + rng() % (cols - c0)};
      std::vector<size_t> a, b;
      fast.forEachOverlap(offsets, sizes, [&](size_t c) { a.push_back(c); });
      grid.forEachOverlap(offsets, sizes,
                          [&](size_t c) { b.push_back(chunks - 1 - c); });
      std::sort(b.begin(), b.end());
      EXPECT_EQ(a, b) << "trial " << trial << " box [" << r0 << "+" << sizes[0]
                      << ", " << c0 << "+" << sizes[1] << "]";
    }
  }
}

} // namespace
