//===- CApiTest.cpp - The checkpoint C API --------------------------------===//
//
// A two-rank save through ssdckpt.h with records passed as text, a save by
// ranks that meet in the directory, an elastic load, resume state, the
// removal of an uncommitted save, and the error convention: negative errno
// plus a message, never an exception.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Checkpoint/ssdckpt.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;
using ::testing::HasSubstr;

namespace {

TEST(CApi, SavesWithTextRecordsAndLoadsElastically) {
  TempDir tmp;
  char dir[4096];
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 8, dir, sizeof(dir)), 0)
      << ssdckpt_last_error();
  const uint64_t shape[2] = {4, 3};
  float values[12];
  for (int i = 0; i < 12; ++i)
    values[i] = float(i);
  char *records[2] = {nullptr, nullptr};
  for (uint32_t rank = 0; rank < 2; ++rank) {
    ssdckpt_writer *w = nullptr;
    ASSERT_EQ(ssdckpt_writer_open(dir, rank, 8, &w), 0) << ssdckpt_last_error();
    const uint64_t offsets[2] = {2 * rank, 0}, sizes[2] = {2, 3};
    EXPECT_EQ(ssdckpt_writer_add(w, "w", SSDRT_DTYPE_F32, 2, shape, offsets,
                                 sizes, values + 6 * rank),
              0);
    const char rng[] = {'r', char('0' + rank)};
    EXPECT_EQ(ssdckpt_writer_set_state(w, rng, 2, 10 + rank), 0);
    EXPECT_EQ(ssdckpt_writer_finish(w, &records[rank]), 0);
    ssdckpt_writer_close(w);
  }
  ASSERT_EQ(ssdckpt_commit(tmp.path().c_str(), dir, records, 2, 1), 0)
      << ssdckpt_last_error();
  ssdckpt_free(records[0]);
  ssdckpt_free(records[1]);

  char latest[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), latest, sizeof(latest)), 0);
  EXPECT_STREQ(latest, dir);
  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(latest, &r), 0) << ssdckpt_last_error();
  const uint64_t offsets[2] = {0, 2}, sizes[2] = {4, 1};
  float column[4];
  ASSERT_EQ(ssdckpt_reader_load(r, "w", SSDRT_DTYPE_F32, 2, shape, offsets,
                                sizes, column),
            0)
      << ssdckpt_last_error();
  EXPECT_EQ(column[0], 2.f);
  EXPECT_EQ(column[3], 11.f);
  EXPECT_EQ(ssdckpt_reader_verify(r), 0);

  uint64_t step = 0, position = 0;
  char rng[8];
  size_t rngBytes = 0;
  int restored = -1, global = -1;
  EXPECT_EQ(ssdckpt_reader_resume_state(r, 1, 3, &step, rng, sizeof(rng),
                                        &rngBytes, &restored, &position,
                                        &global),
            0);
  EXPECT_EQ(step, 8u);
  EXPECT_EQ(std::string(rng, rngBytes), "r1");
  EXPECT_EQ(restored, 1);
  EXPECT_EQ(position, 21u);
  EXPECT_EQ(global, 1);
  EXPECT_EQ(ssdckpt_reader_resume_state(r, 0, 2, nullptr, rng, 1, &rngBytes,
                                        nullptr, nullptr, nullptr),
            -ERANGE);
  EXPECT_EQ(rngBytes, 2u);

  EXPECT_EQ(ssdckpt_reader_load(r, "w", SSDRT_DTYPE_BF16, 2, shape, offsets,
                                sizes, column),
            -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("dtype mismatch"));
  EXPECT_EQ(ssdckpt_reader_load(r, "w", SSDRT_DTYPE_F8E4M3, 2, shape, offsets,
                                sizes, column),
            -EINVAL);
  EXPECT_EQ(ssdckpt_reader_load(r, "nope", SSDRT_DTYPE_F32, 2, shape, offsets,
                                sizes, column),
            -ENOENT);
  ssdckpt_reader_close(r);
}

TEST(CApi, RanksInSeparateProcessesCommitTheirTextRecords) {
  TempDir tmp;
  char dir[4096];
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 6, dir, sizeof(dir)), 0);
  constexpr unsigned kRanks = 3;
  // One process per rank, as under torchrun; each prints its record.
  std::vector<FILE *> pipes;
  for (unsigned rank = 0; rank < kRanks; ++rank) {
    std::string command = std::string(SSD_PATTERN_WRITER) + " --rank " + dir +
                          " 6 " + std::to_string(rank) + " " +
                          std::to_string(kRanks);
    pipes.push_back(::popen(command.c_str(), "r"));
    ASSERT_TRUE(pipes.back());
  }
  std::vector<std::string> texts;
  for (FILE *pipe : pipes) {
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
      text.append(buf, n);
    EXPECT_EQ(::pclose(pipe), 0);
    texts.push_back(text);
  }
  std::vector<const char *> records;
  for (const std::string &t : texts)
    records.push_back(t.c_str());
  ASSERT_EQ(ssdckpt_commit(tmp.path().c_str(), dir, records.data(), kRanks, 0),
            0)
      << ssdckpt_last_error();
  auto engine = ssd::rt::ckpt::makeCheckpointEngine(8);
  EXPECT_EQ(patternLoadFailures(*engine, dir, 6, 4, 1), "");
}

TEST(CApi, RanksMeetInTheDirectoryAndCommitOnce) {
  TempDir tmp;
  const uint64_t shape[1] = {6};
  const float values[6] = {1, 2, 3, 4, 5, 6};
  std::string dirs[2];
  int status[2] = {-1, -1};
  std::vector<std::thread> ranks;
  for (uint32_t rank = 0; rank < 2; ++rank)
    ranks.emplace_back([&, rank] {
      ssdckpt_save *save = nullptr;
      status[rank] =
          ssdckpt_save_begin(tmp.path().c_str(), 3, rank, 2, 10000, 1, &save);
      if (status[rank] != 0)
        return;
      dirs[rank] = ssdckpt_save_dir(save);
      const uint64_t offsets[1] = {3 * rank}, sizes[1] = {3};
      status[rank] = ssdckpt_save_add(save, "v", SSDRT_DTYPE_F32, 1, shape,
                                      offsets, sizes, values + 3 * rank);
      const char rng[] = {char('a' + rank)};
      if (status[rank] == 0)
        status[rank] = ssdckpt_save_set_state(save, rng, 1, 40 + rank);
      if (status[rank] == 0 && rank == 0)
        status[rank] = ssdckpt_save_set_state_tree(
            save, R"({"lr": "1e-3", "names": ["v", null]})");
      if (status[rank] == 0)
        status[rank] = ssdckpt_save_commit(save);
      if (status[rank] == 0 && ssdckpt_save_commit(save) != -EINVAL)
        status[rank] = 1;
      ssdckpt_save_close(save);
    });
  for (std::thread &rank : ranks)
    rank.join();
  EXPECT_EQ(status[0], 0);
  EXPECT_EQ(status[1], 0);
  EXPECT_EQ(dirs[0], tmp.path() + "/step-000000000003");
  EXPECT_EQ(dirs[1], dirs[0]);
  char latest[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), latest, sizeof(latest)), 0);
  EXPECT_EQ(latest, dirs[0]);
  auto engine = ssd::rt::ckpt::makeCheckpointEngine(8);
  ssd::rt::ckpt::CheckpointReader reader(*engine, latest);
  float whole[6];
  ssd::rt::ckpt::LoadRequest request{
      "v", ssd::rt::ckpt::DType::F32, {6}, {0}, {6}, whole};
  reader.load({&request, 1});
  EXPECT_TRUE(std::equal(whole, whole + 6, values));
  const ssd::rt::ckpt::Manifest &manifest = reader.manifest();
  ASSERT_EQ(manifest.ranks.size(), 2u);
  EXPECT_EQ(manifest.ranks[1].rng, "b");
  EXPECT_EQ(manifest.ranks[1].dataLoaderPosition, 41u);
  // Rank 0's state tree, in the manifest and back through the C API.
  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(latest, &r), 0) << ssdckpt_last_error();
  char *tree = nullptr;
  ASSERT_EQ(ssdckpt_reader_state_tree(r, &tree), 0) << ssdckpt_last_error();
  EXPECT_EQ(parseJson(tree, "tree").find("lr")->asString(), "1e-3");
  ssdckpt_free(tree);
  ssdckpt_reader_close(r);
}

TEST(CApi, StateTreesAreCheckedAndAbsentFromVersionOne) {
  EXPECT_EQ(ssdckpt_check_state_tree(R"({"a": [1, -2, "x"]})"), 0);
  EXPECT_EQ(ssdckpt_check_state_tree("{\"a\": 1.5}"), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("the state tree: invalid JSON"));
  EXPECT_EQ(ssdckpt_check_state_tree(
                (std::string(63, '[') + std::string(63, ']')).c_str()),
            0);
  EXPECT_EQ(ssdckpt_check_state_tree(
                (std::string(64, '[') + std::string(64, ']')).c_str()),
            -EINVAL);
  ssdckpt_reader *r = nullptr;
  std::string v1 =
      std::string(SSD_CHECKPOINT_FIXTURES) + "/v1/step-000000000003";
  ASSERT_EQ(ssdckpt_reader_open(v1.c_str(), &r), 0) << ssdckpt_last_error();
  char *tree = nullptr;
  EXPECT_EQ(ssdckpt_reader_state_tree(r, &tree), -ENOENT);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("has no state tree"));
  ssdckpt_reader_close(r);
  // Only rank 0 records the state tree: the commit refuses another's.
  TempDir tmp;
  char dir[4096];
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 1, dir, sizeof(dir)), 0);
  char *records[2] = {nullptr, nullptr};
  for (uint32_t rank = 0; rank < 2; ++rank) {
    ssdckpt_writer *w = nullptr;
    ASSERT_EQ(ssdckpt_writer_open(dir, rank, 1, &w), 0);
    ASSERT_EQ(ssdckpt_writer_set_state_tree(w, "[1]"), 0);
    ASSERT_EQ(ssdckpt_writer_finish(w, &records[rank]), 0);
    ssdckpt_writer_close(w);
  }
  EXPECT_EQ(ssdckpt_commit(tmp.path().c_str(), dir, records, 2, 0), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("rank 1 recorded a state tree; only rank 0"));
  ssdckpt_free(records[0]);
  ssdckpt_free(records[1]);
}

TEST(CApi, SaveFailuresAreCodesWithMessages) {
  TempDir tmp;
  ssdckpt_save *save = nullptr;
  EXPECT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 1, 2, 2, 0, 0, &save),
            -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("rank 2 of 2"));
  EXPECT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 1, 1, 2, 20, 0, &save),
            -ETIMEDOUT);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("rank 1 timed out after 20 ms waiting for rank 0"));
  ASSERT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 1, 0, 2, 20, 0, &save), 0)
      << ssdckpt_last_error();
  EXPECT_EQ(ssdckpt_save_commit(save), -ETIMEDOUT);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("is not committed: no record from rank 1 after 20 ms"));
  EXPECT_EQ(ssdckpt_save_add(save, "v", SSDRT_DTYPE_F32, 0, nullptr, nullptr,
                             nullptr, "abcd"),
            -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("already committed its part"));
  ssdckpt_save_close(save);
  EXPECT_EQ(ssdckpt_save_commit(nullptr), -EINVAL);
  EXPECT_STREQ(ssdckpt_save_dir(nullptr), "");
}

TEST(CApi, AbortRemovesOnlyAnUncommittedSave) {
  TempDir tmp;
  auto engine = ssd::rt::ckpt::makeCheckpointEngine(8);
  savePattern(*engine, tmp.path(), 1, 2);
  char dir[4096];
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 2, dir, sizeof(dir)), 0);
  ssdckpt_writer *w = nullptr;
  ASSERT_EQ(ssdckpt_writer_open(dir, 0, 2, &w), 0);
  const uint64_t shape[1] = {2};
  const int32_t values[2] = {7, 8};
  const uint64_t offsets[1] = {0};
  EXPECT_EQ(ssdckpt_writer_add(w, "x", SSDRT_DTYPE_I32, 1, shape, offsets,
                               shape, values),
            0);
  char *record = nullptr;
  EXPECT_EQ(ssdckpt_writer_finish(w, &record), 0);
  ssdckpt_free(record);
  ssdckpt_writer_close(w);

  EXPECT_EQ(ssdckpt_abort(dir), 0) << ssdckpt_last_error();
  EXPECT_FALSE(std::filesystem::exists(dir));
  std::string committed = tmp.path() + "/step-000000000001";
  EXPECT_EQ(ssdckpt_abort(committed.c_str()), -EEXIST);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("is committed; abort refuses to remove it"));
  EXPECT_EQ(patternLoadFailures(*engine, committed, 1, 3, 0), "");
  char latest[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), latest, sizeof(latest)), 0);
  EXPECT_EQ(latest, committed);
  EXPECT_EQ(ssdckpt_abort(nullptr), -EINVAL);
}

TEST(CApi, ErrorsAreCodesWithMessages) {
  TempDir tmp;
  ssdckpt_reader *r = nullptr;
  EXPECT_EQ(ssdckpt_reader_open(tmp.path().c_str(), &r), -ENOENT);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("is not a committed checkpoint"));
  EXPECT_EQ(ssdckpt_reader_open(nullptr, &r), -EINVAL);
  char small[4];
  EXPECT_EQ(ssdckpt_begin(tmp.path().c_str(), 1, small, sizeof(small)),
            -ERANGE);
  EXPECT_EQ(ssdckpt_latest(tmp.path().c_str(), small, sizeof(small)), -ENOENT);
  const char *bad[] = {"{"};
  EXPECT_EQ(ssdckpt_commit(tmp.path().c_str(), tmp.path().c_str(), bad, 1, 0),
            -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("record of rank 0"));
  EXPECT_EQ(ssdckpt_gc(tmp.path().c_str(), 0), -EINVAL);
}

TEST(CApi, CopiesRegionsOnSeveralThreads) {
  // Regions of uneven sizes (empty ones too), more bytes than one thread
  // takes, so that shares meet inside regions; every byte lands once.
  std::vector<uint64_t> sizes = {0, 1, 4095, 3 << 20, 0, 5 << 20, 17, 1 << 20};
  uint64_t total = 0;
  for (uint64_t n : sizes)
    total += n;
  std::vector<unsigned char> src(total), dest(total + sizes.size());
  for (uint64_t i = 0; i < total; ++i)
    src[i] = (unsigned char)(i * 2654435761u >> 13);
  for (unsigned threads : {1u, 2u, 3u, 0u}) {
    std::fill(dest.begin(), dest.end(), 0xAB);
    // Destination regions one byte apart: the gaps stay untouched.
    std::vector<ssdckpt_copy_region> regions;
    uint64_t from = 0, to = 0;
    for (uint64_t n : sizes) {
      regions.push_back({dest.data() + to, src.data() + from, n});
      from += n;
      to += n + 1;
    }
    ASSERT_EQ(ssdckpt_copy_regions(regions.data(), regions.size(), threads), 0)
        << ssdckpt_last_error();
    from = to = 0;
    for (uint64_t n : sizes) {
      EXPECT_TRUE(std::equal(src.begin() + from, src.begin() + from + n,
                             dest.begin() + to))
          << "threads " << threads << ", region of " << n << " bytes";
      EXPECT_EQ(dest[to + n], 0xAB) << "threads " << threads;
      from += n;
      to += n + 1;
    }
  }
  EXPECT_EQ(ssdckpt_copy_regions(nullptr, 0, 2), 0);
  EXPECT_EQ(ssdckpt_copy_regions(nullptr, 1, 2), -EINVAL);
}

TEST(CApi, DescribesDTypesTensorsAndTheRoot) {
  const char *name = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(ssdckpt_dtype_info(SSDRT_DTYPE_BF16, &name, &bytes), 0);
  EXPECT_STREQ(name, "BF16");
  EXPECT_EQ(bytes, 2u);
  ASSERT_EQ(ssdckpt_dtype_info(SSDRT_DTYPE_BOOL, &name, &bytes), 0);
  EXPECT_STREQ(name, "BOOL");
  EXPECT_EQ(bytes, 1u);
  EXPECT_EQ(ssdckpt_dtype_info(SSDRT_DTYPE_F8E5M2, &name, nullptr), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("not supported in checkpoints"));

  TempDir tmp;
  auto engine = ssd::rt::ckpt::makeCheckpointEngine(8);
  savePattern(*engine, tmp.path(), 4, 2);
  char dir[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), dir, sizeof(dir)), 0);
  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(dir, &r), 0) << ssdckpt_last_error();
  uint64_t step = 0;
  uint32_t worldSize = 0, version = 0;
  size_t count = 0;
  ASSERT_EQ(ssdckpt_reader_info(r, &step, &worldSize, &version, &count), 0);
  EXPECT_EQ(step, 4u);
  EXPECT_EQ(worldSize, 2u);
  EXPECT_EQ(version, ssd::rt::ckpt::kFormatVersion);
  // Every tensor as the C++ reader sees it, through the C calls.
  ssd::rt::ckpt::CheckpointReader reader(*engine, dir);
  const auto &tensors = reader.manifest().tensors;
  ASSERT_EQ(count, tensors.size());
  for (size_t i = 0; i < count; ++i) {
    const char *tensorName = nullptr;
    int dtype = -1, ndim = -1;
    uint64_t shape[32];
    ASSERT_EQ(
        ssdckpt_reader_tensor(r, i, &tensorName, &dtype, &ndim, shape, 32), 0)
        << ssdckpt_last_error();
    EXPECT_EQ(tensorName, tensors[i].name);
    const char *dtypeName = nullptr;
    ASSERT_EQ(ssdckpt_dtype_info(dtype, &dtypeName, nullptr), 0);
    EXPECT_STREQ(dtypeName, ssd::rt::ckpt::dtypeName(tensors[i].dtype));
    ASSERT_EQ(size_t(ndim), tensors[i].shape.size());
    EXPECT_TRUE(std::equal(shape, shape + ndim, tensors[i].shape.begin()));
    if (ndim > 0) {
      EXPECT_EQ(ssdckpt_reader_tensor(r, i, nullptr, nullptr, &ndim, shape,
                                      size_t(ndim) - 1),
                -ERANGE);
      EXPECT_EQ(size_t(ndim), tensors[i].shape.size());
    }
  }
  EXPECT_EQ(
      ssdckpt_reader_tensor(r, count, nullptr, nullptr, nullptr, nullptr, 0),
      -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("is outside the checkpoint's"));
  // All of them in one call: the same answers.
  {
    std::vector<const char *> names(count);
    std::vector<int> dtypes(count), ndims(count);
    size_t needed = 0;
    EXPECT_EQ(ssdckpt_reader_tensors(r, count, names.data(), dtypes.data(),
                                     ndims.data(), nullptr, 0, &needed),
              -ERANGE);
    size_t expected = 0;
    for (const auto &t : tensors)
      expected += t.shape.size();
    ASSERT_EQ(needed, expected);
    ASSERT_GT(needed, 0u);
    std::vector<uint64_t> dims(needed);
    ASSERT_EQ(ssdckpt_reader_tensors(r, count, names.data(), dtypes.data(),
                                     ndims.data(), dims.data(), dims.size(),
                                     nullptr),
              0)
        << ssdckpt_last_error();
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(names[i], tensors[i].name);
      EXPECT_EQ(dtypes[i], int(tensors[i].dtype));
      ASSERT_EQ(size_t(ndims[i]), tensors[i].shape.size());
      EXPECT_TRUE(std::equal(dims.begin() + at, dims.begin() + at + ndims[i],
                             tensors[i].shape.begin()));
      at += ndims[i];
    }
    EXPECT_EQ(ssdckpt_reader_tensors(r, count + 1, names.data(), dtypes.data(),
                                     ndims.data(), dims.data(), dims.size(),
                                     nullptr),
              -EINVAL);
  }
  ssdckpt_reader_close(r);

  // An uncommitted leftover next to the committed step.
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 5, dir, sizeof(dir)), 0);
  char *json = nullptr;
  ASSERT_EQ(ssdckpt_list(tmp.path().c_str(), &json), 0) << ssdckpt_last_error();
  std::string text = json;
  ssdckpt_free(json);
  auto listing = ssd::rt::ckpt::parseJson(text, "listing");
  ASSERT_EQ(listing.items().size(), 2u);
  const auto &first = listing.items()[0];
  EXPECT_EQ(first.find("name")->asString(), "step-000000000004");
  EXPECT_EQ(first.find("step")->magnitude(), 4u);
  EXPECT_TRUE(first.find("committed")->asBool());
  EXPECT_TRUE(first.find("latest")->asBool());
  EXPECT_GT(first.find("bytes")->magnitude(), 0u);
  EXPECT_FALSE(listing.items()[1].find("committed")->asBool());
  EXPECT_FALSE(listing.items()[1].find("latest")->asBool());
  std::string missing = tmp.path() + "/none";
  EXPECT_EQ(ssdckpt_list(missing.c_str(), &json), -ENOENT);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("none"));
}

TEST(CApi, LoadsManyBoxesInOneCall) {
  TempDir tmp;
  const uint64_t shape[2] = {4, 3};
  const int64_t values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const uint64_t zero[2] = {0, 0};
  ssdckpt_save *save = nullptr;
  ASSERT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 2, 0, 1, 1000, 0, &save), 0);
  ASSERT_EQ(ssdckpt_save_add(save, "a", SSDRT_DTYPE_I64, 2, shape, zero, shape,
                             values),
            0);
  ASSERT_EQ(ssdckpt_save_add(save, "b", SSDRT_DTYPE_I64, 2, shape, zero, shape,
                             values),
            0);
  ASSERT_EQ(ssdckpt_save_commit(save), 0) << ssdckpt_last_error();
  ssdckpt_save_close(save);
  char dir[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), dir, sizeof(dir)), 0);
  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(dir, &r), 0);
  // Rows 1..2 of a, column 2 of b, and all of b.
  const uint64_t rowOffsets[2] = {1, 0}, rowSizes[2] = {2, 3};
  const uint64_t colOffsets[2] = {0, 2}, colSizes[2] = {4, 1};
  int64_t rows[6] = {}, column[4] = {}, whole[12] = {};
  ssdckpt_request requests[3] = {
      {"a", SSDRT_DTYPE_I64, 2, shape, rowOffsets, rowSizes, rows},
      {"b", SSDRT_DTYPE_I64, 2, shape, colOffsets, colSizes, column},
      {"b", SSDRT_DTYPE_I64, 2, shape, zero, shape, whole}};
  ASSERT_EQ(ssdckpt_reader_load_many(r, requests, 3), 0)
      << ssdckpt_last_error();
  EXPECT_TRUE(std::equal(rows, rows + 6, values + 3));
  EXPECT_EQ(column[0], 2);
  EXPECT_EQ(column[3], 11);
  EXPECT_TRUE(std::equal(whole, whole + 12, values));
  EXPECT_EQ(ssdckpt_reader_load_many(r, nullptr, 0), 0);
  requests[1].dtype = SSDRT_DTYPE_F32;
  EXPECT_EQ(ssdckpt_reader_load_many(r, requests, 3), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("dtype mismatch"));
  ssdckpt_reader_close(r);
}

TEST(CApi, SavesManyChunksInOneCall) {
  TempDir tmp;
  // 300 tensors of 1 to 300 bytes, two of them halves of one tensor.
  std::vector<std::vector<uint8_t>> bytes(300);
  std::vector<std::string> names(300);
  std::vector<uint64_t> shapes(300), zero(1, 0), half{150}, whole{300};
  std::vector<ssdckpt_chunk> chunks;
  for (size_t i = 0; i < 300; ++i) {
    bytes[i].resize(i + 1);
    for (size_t j = 0; j <= i; ++j)
      bytes[i][j] = uint8_t(i * 7 + j);
    names[i] = "t" + std::to_string(i);
    shapes[i] = i + 1;
  }
  for (size_t i = 0; i < 298; ++i)
    chunks.push_back({names[i].c_str(), SSDRT_DTYPE_U8, 1, &shapes[i],
                      zero.data(), &shapes[i], bytes[i].data()});
  chunks.push_back({"split", SSDRT_DTYPE_U8, 1, whole.data(), zero.data(),
                    half.data(), bytes[299].data()});
  chunks.push_back({"split", SSDRT_DTYPE_U8, 1, whole.data(), half.data(),
                    half.data(), bytes[299].data() + 150});
  ssdckpt_save *save = nullptr;
  ASSERT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 3, 0, 1, 1000, 0, &save), 0);

  // A bad dtype in the last chunk: refused before any chunk is added.
  chunks.back().dtype = 1000;
  EXPECT_EQ(ssdckpt_save_add_many(save, chunks.data(), chunks.size()), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("chunk 299 of 300: dtype code"));
  chunks.back().dtype = SSDRT_DTYPE_U8;
  EXPECT_EQ(ssdckpt_save_add_many(save, nullptr, 1), -EINVAL);
  ASSERT_EQ(ssdckpt_save_add_many(save, chunks.data(), chunks.size()), 0)
      << ssdckpt_last_error();
  ASSERT_EQ(ssdckpt_save_add_many(save, nullptr, 0), 0);
  ASSERT_EQ(ssdckpt_save_commit(save), 0) << ssdckpt_last_error();
  ssdckpt_save_close(save);

  char dir[4096];
  ASSERT_EQ(ssdckpt_latest(tmp.path().c_str(), dir, sizeof(dir)), 0);
  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(dir, &r), 0);
  std::vector<std::vector<uint8_t>> out(299);
  std::vector<ssdckpt_request> requests;
  for (size_t i = 0; i < 298; ++i) {
    out[i].resize(i + 1);
    requests.push_back({names[i].c_str(), SSDRT_DTYPE_U8, 1, &shapes[i],
                        zero.data(), &shapes[i], out[i].data()});
  }
  out[298].resize(300);
  requests.push_back({"split", SSDRT_DTYPE_U8, 1, whole.data(), zero.data(),
                      whole.data(), out[298].data()});
  ASSERT_EQ(ssdckpt_reader_load_many(r, requests.data(), requests.size()), 0)
      << ssdckpt_last_error();
  for (size_t i = 0; i < 298; ++i)
    ASSERT_EQ(out[i], bytes[i]) << i;
  EXPECT_EQ(out[298], bytes[299]);
  EXPECT_EQ(ssdckpt_reader_verify(r), 0) << ssdckpt_last_error();
  ssdckpt_reader_close(r);

  // A box outside its shape stops the call at that chunk, naming it.
  ASSERT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 4, 0, 1, 1000, 0, &save), 0);
  std::vector<ssdckpt_chunk> bad{chunks[0], chunks[299]};
  bad[1].offsets = whole.data();
  EXPECT_EQ(ssdckpt_save_add_many(save, bad.data(), 2), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("chunk 1 of 2: " + tmp.path() +
                        "/step-000000000004/rank-00000.data: tensor "
                        "\"split\": box lies outside the shape"));
  ssdckpt_save_close(save);

  // So does a name that is not UTF-8, which the rank's record could not hold.
  ASSERT_EQ(ssdckpt_save_begin(tmp.path().c_str(), 5, 0, 1, 1000, 0, &save), 0);
  bad = {chunks[0], chunks[1]};
  bad[1].name = "w\xff";
  EXPECT_EQ(ssdckpt_save_add_many(save, bad.data(), 2), -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(),
              HasSubstr("chunk 1 of 2: " + tmp.path() +
                        "/step-000000000005/rank-00000.data: a tensor name is "
                        "not UTF-8"));
  ssdckpt_save_close(save);
}

/// Copies `from` to `to` as a file of the same size that holds only the
/// byte ranges [offset, offset + length) of `ranges` (zeros elsewhere).
void copyRanges(const std::string &from, const std::string &to,
                const std::vector<std::pair<uint64_t, uint64_t>> &ranges) {
  std::FILE *in = std::fopen(from.c_str(), "rb");
  std::FILE *out = std::fopen(to.c_str(), "wb");
  ASSERT_TRUE(in && out);
  std::fseek(in, 0, SEEK_END);
  long size = std::ftell(in);
  std::vector<char> zeros(size), buffer;
  std::fwrite(zeros.data(), 1, zeros.size(), out);
  for (auto [offset, length] : ranges) {
    buffer.resize(length);
    std::fseek(in, long(offset), SEEK_SET);
    ASSERT_EQ(std::fread(buffer.data(), 1, length, in), length);
    std::fseek(out, long(offset), SEEK_SET);
    std::fwrite(buffer.data(), 1, length, out);
  }
  std::fclose(in);
  std::fclose(out);
}

/// The ranges of file `file` in a plan's JSON text.
std::vector<std::pair<uint64_t, uint64_t>> rangesIn(const char *json,
                                                    const std::string &file) {
  JsonValue plan = parseJson(json, "plan");
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const JsonValue &r : plan.find("reads")->items())
    if (r.find("file")->asString() == file)
      out.push_back(
          {r.find("offset")->magnitude(), r.find("length")->magnitude()});
  return out;
}

TEST(CApi, PlansTheRangesALoadReadsAndVerifiesOneFile) {
  // Two ranks save rows [0, 2048) and [2048, 4096) of a 4096 x 512 F32
  // tensor (4 MiB each: four checksum blocks of 1 MiB).
  TempDir tmp;
  char dir[4096];
  ASSERT_EQ(ssdckpt_begin(tmp.path().c_str(), 1, dir, sizeof(dir)), 0);
  const uint64_t shape[2] = {4096, 512};
  std::vector<float> values(4096 * 512);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i);
  char *records[2] = {nullptr, nullptr};
  for (uint32_t rank = 0; rank < 2; ++rank) {
    ssdckpt_writer *w = nullptr;
    ASSERT_EQ(ssdckpt_writer_open(dir, rank, 1, &w), 0);
    const uint64_t offsets[2] = {2048 * rank, 0}, sizes[2] = {2048, 512};
    ASSERT_EQ(ssdckpt_writer_add(w, "w", SSDRT_DTYPE_F32, 2, shape, offsets,
                                 sizes, values.data() + 2048 * 512 * rank),
              0);
    ASSERT_EQ(ssdckpt_writer_finish(w, &records[rank]), 0);
    ssdckpt_writer_close(w);
  }
  ASSERT_EQ(ssdckpt_commit(tmp.path().c_str(), dir, records, 2, 0), 0)
      << ssdckpt_last_error();
  ssdckpt_free(records[0]);
  ssdckpt_free(records[1]);
  std::string data0 = std::string(dir) + "/rank-00000.data";
  std::string data1 = std::string(dir) + "/rank-00001.data";

  ssdckpt_reader *r = nullptr;
  ASSERT_EQ(ssdckpt_reader_open(dir, &r), 0);
  // Rows [3000, 3010): only rank 1's file, one block of it.
  const uint64_t offsets[2] = {3000, 0}, sizes[2] = {10, 512};
  std::vector<float> rows(10 * 512);
  ssdckpt_request request{"w",     SSDRT_DTYPE_F32, 2,          shape,
                          offsets, sizes,           rows.data()};
  char *json = nullptr;
  ASSERT_EQ(ssdckpt_reader_plan(r, &request, 1, &json), 0)
      << ssdckpt_last_error();
  JsonValue plan = parseJson(json, "plan");
  ASSERT_EQ(plan.find("files")->items().size(), 2u);
  EXPECT_EQ(plan.find("files")->items()[1].find("file")->asString(),
            "rank-00001.data");
  EXPECT_EQ(plan.find("files")->items()[1].find("bytes")->magnitude(),
            4u << 20);
  auto ranges = rangesIn(json, "rank-00001.data");
  EXPECT_TRUE(rangesIn(json, "rank-00000.data").empty());
  ASSERT_EQ(ranges.size(), 1u);
  // Rows 3000..3009 are bytes [952 * 2048, 962 * 2048) of rank 1's chunk:
  // its block 1.
  EXPECT_EQ(ranges[0].first, 1u << 20);
  EXPECT_EQ(ranges[0].second, 1u << 20);
  ssdckpt_free(json);
  ssdckpt_reader_close(r);

  // A copy holding only the planned ranges loads the box bit-identically.
  TempDir sparse;
  std::string copy = sparse.path() + "/step-000000000001";
  ASSERT_EQ(::mkdir(copy.c_str(), 0755), 0);
  std::filesystem::copy_file(std::string(dir) + "/manifest.json",
                             copy + "/manifest.json",
                             std::filesystem::copy_options::overwrite_existing);
  copyRanges(data0, copy + "/rank-00000.data", {});
  copyRanges(data1, copy + "/rank-00001.data", ranges);
  ASSERT_EQ(ssdckpt_reader_open(copy.c_str(), &r), 0);
  ASSERT_EQ(ssdckpt_reader_load_many(r, &request, 1), 0)
      << ssdckpt_last_error();
  EXPECT_TRUE(
      std::equal(rows.begin(), rows.end(), values.begin() + 3000 * 512));
  // Rank 0's file is zeros there: verifying it (or everything) fails naming
  // it.
  EXPECT_EQ(ssdckpt_reader_verify_file(r, "rank-00000.data"), -EBADMSG);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("rank-00000.data at offset 0"));
  EXPECT_EQ(ssdckpt_reader_verify(r), -EBADMSG);
  EXPECT_EQ(ssdckpt_reader_verify_file(r, "nothing.data"), -ENOENT);
  EXPECT_EQ(ssdckpt_reader_plan_verify(r, "nothing.data", &json), -ENOENT);
  ssdckpt_reader_close(r);

  // Completing rank 0's file from its verify plan makes it verify, while
  // rank 1's still fails.
  ASSERT_EQ(ssdckpt_reader_open(dir, &r), 0);
  ASSERT_EQ(ssdckpt_reader_plan_verify(r, "rank-00000.data", &json), 0);
  auto whole0 = rangesIn(json, "rank-00000.data");
  EXPECT_TRUE(rangesIn(json, "rank-00001.data").empty());
  ssdckpt_free(json);
  ssdckpt_reader_close(r);
  copyRanges(data0, copy + "/rank-00000.data", whole0);
  ASSERT_EQ(ssdckpt_reader_open(copy.c_str(), &r), 0);
  EXPECT_EQ(ssdckpt_reader_verify_file(r, "rank-00000.data"), 0)
      << ssdckpt_last_error();
  EXPECT_EQ(ssdckpt_reader_verify_file(r, "rank-00001.data"), -EBADMSG);
  ssdckpt_reader_close(r);
  ASSERT_EQ(::truncate((copy + "/rank-00000.data").c_str(), 4096), 0);
  ASSERT_EQ(ssdckpt_reader_open(copy.c_str(), &r), 0);
  EXPECT_EQ(ssdckpt_reader_verify_file(r, "rank-00000.data"), -ENODATA);
  ssdckpt_reader_close(r);
}

} // namespace

namespace {

TEST(CApi, RanksWithRootsOfTheirOwnHandOverRecordsForAManifest) {
  // Each rank writes into a root of its own (a node's local disk) and hands
  // over its record; the manifest is assembled from the records, and the
  // step is whole once the data files and the manifest meet (the object
  // store's step directory; here a third local directory).
  TempDir tmp;
  const uint64_t shape[1] = {8};
  const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  char *records[2] = {nullptr, nullptr};
  std::string dirs[2];
  for (uint32_t rank = 0; rank < 2; ++rank) {
    std::string root = tmp.path() + "/node" + std::to_string(rank);
    ssdckpt_save *save = nullptr;
    ASSERT_EQ(ssdckpt_save_begin_record(root.c_str(), 5, rank, &save), 0)
        << ssdckpt_last_error();
    dirs[rank] = ssdckpt_save_dir(save);
    EXPECT_EQ(dirs[rank], root + "/step-000000000005");
    const uint64_t offsets[1] = {4 * rank}, sizes[1] = {4};
    ASSERT_EQ(ssdckpt_save_add(save, "v", SSDRT_DTYPE_F32, 1, shape, offsets,
                               sizes, values + 4 * rank),
              0);
    if (rank == 0)
      ASSERT_EQ(ssdckpt_save_set_state_tree(save, "{\"epoch\": 3}"), 0);
    EXPECT_EQ(ssdckpt_save_commit(save), -EINVAL);
    ASSERT_EQ(ssdckpt_save_finish(save, &records[rank]), 0)
        << ssdckpt_last_error();
    char *again = nullptr;
    EXPECT_EQ(ssdckpt_save_finish(save, &again), -EINVAL);
    ssdckpt_save_close(save);
  }
  char *manifest = nullptr;
  ASSERT_EQ(ssdckpt_assemble_manifest("remote", records, 2, &manifest), 0)
      << ssdckpt_last_error();
  std::string step = tmp.path() + "/store/step-000000000005";
  std::filesystem::create_directories(step);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    std::string file = "/rank-0000" + std::to_string(rank) + ".data";
    std::filesystem::copy_file(dirs[rank] + file, step + file);
  }
  std::FILE *f = std::fopen((step + "/manifest.json").c_str(), "wb");
  std::fputs(manifest, f);
  std::fclose(f);
  ssdckpt_free(manifest);
  auto engine = ssd::rt::ckpt::makeCheckpointEngine(8);
  ssd::rt::ckpt::CheckpointReader reader(*engine, step);
  float whole[8];
  ssd::rt::ckpt::LoadRequest request{
      "v", ssd::rt::ckpt::DType::F32, {8}, {0}, {8}, whole};
  reader.load({&request, 1});
  EXPECT_TRUE(std::equal(whole, whole + 8, values));
  ASSERT_TRUE(reader.manifest().stateTree);
  EXPECT_EQ(reader.manifest().stateTree->find("epoch")->magnitude(), 3u);
  // Records that do not fit together are refused, as at a commit.
  std::swap(records[0], records[1]);
  EXPECT_EQ(ssdckpt_assemble_manifest("remote", records, 2, &manifest),
            -EINVAL);
  EXPECT_THAT(ssdckpt_last_error(), HasSubstr("remote: record 0 comes from "
                                              "rank 1"));
  ssdckpt_free(records[0]);
  ssdckpt_free(records[1]);
}

} // namespace
