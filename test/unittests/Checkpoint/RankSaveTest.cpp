//===- RankSaveTest.cpp - Ranks in separate processes save together -------===//
//
// The rendezvous and commit of `RankSave`: ranks as processes of their own
// (the pattern writer) and as threads meet in the checkpoint directory, in
// any order of arrival, and commit once; a rank that never comes, crashes
// before its commit, or is left alone times out naming whom it waited for;
// a damaged record or data file is named with its cause; a directory begun
// again under a rank is noticed. A failed save never moves `latest`.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

namespace {

/// The names in `dir`, sorted.
std::vector<std::string> filesIn(const std::string &dir) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool exists(const std::string &path) {
  return ::access(path.c_str(), F_OK) == 0;
}

/// Polls for `path` for at most 10 s.
bool appears(const std::string &path) {
  for (int i = 0; i < 2000 && !exists(path); ++i)
    std::this_thread::sleep_for(5ms);
  return exists(path);
}

RankSaveOptions withTimeout(std::chrono::milliseconds timeout) {
  RankSaveOptions options;
  options.timeout = timeout;
  return options;
}

class RankSaves : public ::testing::Test {
protected:
  void SetUp() override { engine = makeCheckpointEngine(8); }

  std::string stepDir(uint64_t step) {
    return tmp.path() + "/" + checkpointDirName(step);
  }

  /// Rank `rank` of `ranks` saves its pattern share of `step` and commits.
  void saveShare(uint64_t step, unsigned rank, unsigned ranks,
                 RankSaveOptions options = withTimeout(10s)) {
    RankSave save(*engine, tmp.path(), step, rank, ranks, options);
    addPatternShare(save.writer(), step, rank, ranks);
    save.commit();
  }

  TempDir tmp;
  std::unique_ptr<IoEngine> engine;
};

TEST_F(RankSaves, OneRankCommitsAlone) {
  RankSave save(*engine, tmp.path(), 4, 0, 1);
  EXPECT_EQ(save.directory(), stepDir(4));
  addPatternShare(save.writer(), 4, 0, 1);
  save.commit();
  EXPECT_EQ(readLatest(tmp.path()), stepDir(4));
  // One rank needs no rendezvous: no mark, no record.
  EXPECT_EQ(filesIn(stepDir(4)),
            (std::vector<std::string>{kManifestName, rankDataFileName(0)}));
  EXPECT_EQ(patternLoadFailures(*engine, stepDir(4), 4, 3, 0), "");
  Caught twice = catchError([&] { save.commit(); });
  EXPECT_EQ(twice.errnum, EINVAL);
  EXPECT_THAT(twice.message, HasSubstr("rank 0 already committed its part"));
}

TEST_F(RankSaves, ProcessesMeetWhateverTheOrderOfArrival) {
  // Ranks 1 and 2 arrive before rank 0 has begun, and poll for its mark.
  constexpr unsigned kRanks = 3;
  std::vector<pid_t> pids;
  for (unsigned rank : {2u, 1u})
    pids.push_back(
        spawnPatternWriter({"--save", tmp.path(), "5", std::to_string(rank),
                            std::to_string(kRanks), "10000"}));
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(exists(stepDir(5)));
  pids.push_back(spawnPatternWriter(
      {"--save", tmp.path(), "5", "0", std::to_string(kRanks), "10000"}));
  for (pid_t pid : pids) {
    int status = waitForExit(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  EXPECT_EQ(readLatest(tmp.path()), stepDir(5));
  // The records and the mark are gone: a committed checkpoint holds the
  // manifest and the data files only.
  EXPECT_EQ(
      filesIn(stepDir(5)),
      (std::vector<std::string>{kManifestName, rankDataFileName(0),
                                rankDataFileName(1), rankDataFileName(2)}));
  EXPECT_EQ(patternLoadFailures(*engine, stepDir(5), 5, 4, 1), "");
}

TEST_F(RankSaves, RankZeroWaitsForALateRank) {
  std::thread late([&] {
    ASSERT_TRUE(appears(stepDir(2) + "/" + kBegunMarkerName));
    std::this_thread::sleep_for(100ms);
    saveShare(2, 1, 2);
  });
  saveShare(2, 0, 2);
  late.join();
  EXPECT_EQ(readLatest(tmp.path()), stepDir(2));
  EXPECT_EQ(patternLoadFailures(*engine, stepDir(2), 2, 1, 0), "");
}

TEST_F(RankSaves, MissingRanksTimeOutByName) {
  savePattern(*engine, tmp.path(), 1, 1);
  RankSave save(*engine, tmp.path(), 2, 0, 3, withTimeout(50ms));
  addPatternShare(save.writer(), 2, 0, 3);
  auto start = std::chrono::steady_clock::now();
  Caught c = catchError([&] { save.commit(); });
  EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms);
  EXPECT_EQ(c.errnum, ETIMEDOUT);
  EXPECT_EQ(c.message, "checkpoint " + stepDir(2) +
                           " is not committed: no record from ranks 1, 2 "
                           "after 50 ms");
  EXPECT_EQ(readLatest(tmp.path()), stepDir(1));
  EXPECT_FALSE(exists(stepDir(2) + "/" + kManifestName));
}

TEST_F(RankSaves, ACrashedRankLeavesTheStepUncommitted) {
  savePattern(*engine, tmp.path(), 1, 1);
  RankSave save(*engine, tmp.path(), 2, 0, 2, withTimeout(300ms));
  pid_t pid = spawnPatternWriter(
      {"--save", tmp.path(), "2", "1", "2", "10000", "--crash-before-commit"});
  int status = waitForExit(pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  // It died with its data file written and no record published.
  EXPECT_TRUE(exists(stepDir(2) + "/" + rankDataFileName(1)));
  addPatternShare(save.writer(), 2, 0, 2);
  Caught c = catchError([&] { save.commit(); });
  EXPECT_EQ(c.errnum, ETIMEDOUT);
  EXPECT_THAT(c.message, HasSubstr("is not committed: no record from rank 1 "
                                   "after 300 ms"));
  EXPECT_EQ(readLatest(tmp.path()), stepDir(1));
  EXPECT_EQ(patternLoadFailures(*engine, stepDir(1), 1, 2, 0), "");
}

TEST_F(RankSaves, ARankAloneWaitsForRankZeroToBegin) {
  Caught c = catchError(
      [&] { RankSave save(*engine, tmp.path(), 3, 1, 2, withTimeout(1s)); });
  EXPECT_EQ(c.errnum, ETIMEDOUT);
  EXPECT_EQ(c.message, "rank 1 timed out after 1 s waiting for rank 0 to "
                       "begin checkpoint " +
                           stepDir(3) + " (no " + stepDir(3) + "/" +
                           kBegunMarkerName + ")");
}

TEST_F(RankSaves, ARankWaitsForRankZeroToCommit) {
  RankSave rankZero(*engine, tmp.path(), 3, 0, 2);
  Caught c = catchError([&] { saveShare(3, 1, 2, withTimeout(50ms)); });
  EXPECT_EQ(c.errnum, ETIMEDOUT);
  EXPECT_EQ(c.message, "rank 1 published its record, but rank 0 did not "
                       "commit " +
                           stepDir(3) + " within 50 ms");
  EXPECT_TRUE(exists(stepDir(3) + "/" + rankRecordFileName(1)));
}

/// Rank 1 publishes its record, `damage` changes what it left in the
/// directory, then rank 0 commits; returns what rank 0's commit threw.
template <typename Damage>
Caught commitAfterDamage(IoEngine &engine, const std::string &root,
                         Damage damage) {
  RankSave rankZero(engine, root, 7, 0, 2, withTimeout(10s));
  addPatternShare(rankZero.writer(), 7, 0, 2);
  std::thread rankOne([&] {
    RankSave save(engine, root, 7, 1, 2, withTimeout(300ms));
    addPatternShare(save.writer(), 7, 1, 2);
    catchError([&] { save.commit(); });
  });
  std::string dir = rankZero.directory();
  EXPECT_TRUE(appears(dir + "/" + rankRecordFileName(1)));
  damage(dir);
  Caught c = catchError([&] { rankZero.commit(); });
  rankOne.join();
  EXPECT_FALSE(exists(dir + "/" + kManifestName));
  EXPECT_FALSE(exists(root + "/" + kLatestName));
  return c;
}

TEST_F(RankSaves, ADamagedRecordIsNamedWithItsCause) {
  Caught c = commitAfterDamage(*engine, tmp.path(), [](const std::string &dir) {
    std::ofstream(dir + "/" + rankRecordFileName(1), std::ios::trunc) << "{";
  });
  EXPECT_EQ(c.errnum, EINVAL);
  EXPECT_THAT(c.message, HasSubstr("checkpoint " + stepDir(7) +
                                   " is not committed: " + stepDir(7) + "/" +
                                   rankRecordFileName(1) + ": "));
}

TEST_F(RankSaves, AMissingDataFileIsNamedWithItsCause) {
  Caught c = commitAfterDamage(*engine, tmp.path(), [](const std::string &dir) {
    ASSERT_EQ(::unlink((dir + "/" + rankDataFileName(1)).c_str()), 0);
  });
  EXPECT_EQ(c.errnum, ENOENT);
  EXPECT_THAT(c.message,
              HasSubstr("is not committed: rank 1 published its record, but "
                        "its data file rank-00001.data is missing: No such "
                        "file or directory"));
}

TEST_F(RankSaves, ATruncatedDataFileIsNamedWithItsCause) {
  Caught c = commitAfterDamage(*engine, tmp.path(), [](const std::string &dir) {
    ASSERT_EQ(::truncate((dir + "/" + rankDataFileName(1)).c_str(), 4096), 0);
  });
  EXPECT_EQ(c.errnum, EINVAL);
  EXPECT_THAT(c.message, HasSubstr("rank 1's data file rank-00001.data holds "
                                   "4096 bytes, its record says "));
}

TEST_F(RankSaves, ADirectoryBegunAgainUnderARankIsNoticed) {
  // A crashed attempt at step 2 left its directory with the mark in it; rank
  // 1 of the next attempt takes that mark for the new one and starts
  // writing before rank 0 begins the step again.
  {
    // Gone at the end of the block, never committed.
    RankSave crashed(*engine, tmp.path(), 2, 0, 2);
  }
  RankSave rankOne(*engine, tmp.path(), 2, 1, 2, withTimeout(50ms));
  addPatternShare(rankOne.writer(), 2, 1, 2);
  RankSave rankZero(*engine, tmp.path(), 2, 0, 2, withTimeout(50ms));
  Caught c = catchError([&] { rankOne.commit(); });
  EXPECT_EQ(c.errnum, ESTALE);
  EXPECT_EQ(c.message, stepDir(2) +
                           " was begun again by rank 0 while rank 1 wrote "
                           "its data file in it; this rank's data file is "
                           "lost");
}

TEST_F(RankSaves, ABadLayoutOrACommittedStepIsRefused) {
  Caught c = catchError([&] { RankSave(*engine, tmp.path(), 1, 2, 2); });
  EXPECT_EQ(c.errnum, EINVAL);
  EXPECT_THAT(c.message, HasSubstr("rank 2 of 2 is not a rank of the world"));
  saveShare(1, 0, 1);
  c = catchError([&] { RankSave(*engine, tmp.path(), 1, 0, 1); });
  EXPECT_EQ(c.errnum, EEXIST);
  EXPECT_THAT(c.message, HasSubstr("beginning checkpoint step 1 in " +
                                   tmp.path() + " failed: checkpoint " +
                                   stepDir(1) + " is already committed"));
}

} // namespace
