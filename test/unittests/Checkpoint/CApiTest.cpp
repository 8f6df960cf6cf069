//===- CApiTest.cpp - The checkpoint C API --------------------------------===//
//
// A two-rank save through ssdckpt.h with records passed as text, an elastic
// load, resume state, and the error convention: negative errno plus a
// message, never an exception.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Checkpoint/ssdckpt.h"

#include <cerrno>
#include <cstdio>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

} // namespace
