//===- FaultTest.cpp - Damaged checkpoints and failing saves --------------===//
//
// Each fault named in the format's contract gives an error that names the
// problem (file, offset, chunk) and leaves the previous checkpoint loadable:
// truncated, corrupted and missing data files, unsafe manifests, mismatched
// load requests, uncommitted directories, a full disk while saving, and
// inconsistent rank records at commit. Also covers retention.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <cerrno>
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

bool pathExistsForTest(const std::string &path) {
  return ::access(path.c_str(), F_OK) == 0;
}

/// Loads every pattern tensor whole through one reader.
void loadWhole(IoEngine &engine, const std::string &dir) {
  CheckpointReader reader(engine, dir);
  std::vector<std::vector<char>> buffers;
  std::vector<LoadRequest> requests;
  for (const PatternTensor &t : patternTensors()) {
    buffers.emplace_back(volume(t.shape) * dtypeSize(t.dtype));
    requests.push_back({t.name, t.dtype, t.shape,
                        std::vector<uint64_t>(t.shape.size(), 0), t.shape,
                        buffers.back().data()});
  }
  reader.load(requests);
}

class Faults : public ::testing::Test {
protected:
  void SetUp() override {
    engine = makeCheckpointEngine(8);
    savePattern(*engine, tmp.path(), 1, 2);
    dir = readLatest(tmp.path());
  }
  std::string file(const std::string &name) { return dir + "/" + name; }
  void rewriteManifest(const std::string &from, const std::string &to) {
    std::string path = file(kManifestName);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::ofstream(path, std::ios::trunc) << text;
  }

  TempDir tmp;
  std::unique_ptr<IoEngine> engine;
  std::string dir;
};

TEST_F(Faults, TruncatedDataFile) {
  ASSERT_EQ(::truncate(file("rank-00001.data").c_str(), 4096), 0);
  Caught c = catchError([&] { loadWhole(*engine, dir); });
  EXPECT_EQ(c.errnum, ENODATA);
  EXPECT_THAT(c.message, HasSubstr("rank-00001.data is truncated: 4096 bytes"));
  c = catchError([&] { CheckpointReader(*engine, dir).verifyAll(); });
  EXPECT_THAT(c.message, HasSubstr("rank-00001.data is truncated"));
}

TEST_F(Faults, FlippedByteNamesChunkAndFile) {
  int fd = ::open(file("rank-00000.data").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  char byte;
  ASSERT_EQ(::pread(fd, &byte, 1, 5), 1);
  byte ^= 0x10;
  ASSERT_EQ(::pwrite(fd, &byte, 1, 5), 1);
  ::close(fd);
  Caught c = catchError([&] { CheckpointReader(*engine, dir).verifyAll(); });
  EXPECT_EQ(c.errnum, EBADMSG);
  EXPECT_THAT(c.message, HasSubstr("checksum mismatch in " +
                                   file("rank-00000.data") + " at offset 0"));
  EXPECT_THAT(c.message, HasSubstr("tensor \"layer0.weight\" chunk 0 block 0"));
  EXPECT_EQ(catchError([&] { loadWhole(*engine, dir); }).errnum, EBADMSG);
}

TEST_F(Faults, MissingDataFile) {
  ASSERT_EQ(::unlink(file("rank-00001.data").c_str()), 0);
  Caught c = catchError([&] { loadWhole(*engine, dir); });
  EXPECT_EQ(c.errnum, ENOENT);
  EXPECT_THAT(c.message, HasSubstr("open of " + file("rank-00001.data")));
}

TEST_F(Faults, ManifestWithUnsafePaths) {
  rewriteManifest("\"file\": \"rank-00001.data\"", "\"file\": \"../x.data\"");
  Caught c = catchError([&] { CheckpointReader(*engine, dir); });
  EXPECT_EQ(c.errnum, EINVAL);
  EXPECT_THAT(c.message, HasSubstr("\"../x.data\" is not a plain file name"));
}

TEST_F(Faults, ManifestWithAbsolutePaths) {
  rewriteManifest("\"file\": \"rank-00000.data\"", "\"file\": \"/etc/passwd\"");
  EXPECT_THAT(catchError([&] { CheckpointReader(*engine, dir); }).message,
              HasSubstr("\"/etc/passwd\" is not a plain file name"));
}

TEST_F(Faults, ManifestFromTheFuture) {
  rewriteManifest("\"version\": 2", "\"version\": 7");
  Caught c = catchError([&] { CheckpointReader(*engine, dir); });
  EXPECT_EQ(c.errnum, EPROTONOSUPPORT);
  EXPECT_THAT(c.message, HasSubstr("format version 7 is newer"));
}

TEST_F(Faults, ManifestEditedAfterCommit) {
  // Valid JSON, valid layout: only the manifest's own checksum notices.
  rewriteManifest("\"data_loader_position\": 100",
                  "\"data_loader_position\": 7");
  Caught c = catchError([&] { CheckpointReader(*engine, dir); });
  EXPECT_EQ(c.errnum, EBADMSG);
  EXPECT_THAT(c.message, HasSubstr("manifest.json: manifest_xxh3: checksum "
                                   "mismatch: the manifest was modified"));
}

TEST_F(Faults, LoadRequestThatDoesNotMatch) {
  CheckpointReader reader(*engine, dir);
  std::vector<char> out(37 * 23 * 4);
  LoadRequest r{"layer0.weight", DType::BF16, {37, 23},
                {0, 0},          {37, 23},    out.data()};
  auto load = [&] { reader.load({&r, 1}); };
  EXPECT_THAT(catchError(load).message,
              HasSubstr("dtype mismatch: the checkpoint has F32, the request "
                        "asks for BF16"));
  r.dtype = DType::F32;
  r.shape = {23, 37};
  EXPECT_THAT(catchError(load).message,
              HasSubstr("shape mismatch: the checkpoint has [37, 23], the "
                        "request asks for [23, 37]"));
  r.shape = {37, 23};
  r.offsets = {30, 0};
  r.sizes = {8, 23};
  EXPECT_THAT(catchError(load).message,
              HasSubstr("outside the shape in dimension 0"));
  r.tensor = "nope";
  EXPECT_EQ(catchError(load).errnum, ENOENT);
}

TEST_F(Faults, UncommittedDirectoryIsNeverLoaded) {
  std::string next = beginCheckpoint(tmp.path(), 2);
  {
    RankWriter writer(*engine, next, 0, 2);
    writer.finish();
  }
  Caught c = catchError([&] { CheckpointReader(*engine, next); });
  EXPECT_EQ(c.errnum, ENOENT);
  EXPECT_THAT(c.message, HasSubstr("is not a committed checkpoint"));
  publishLatest(tmp.path(), "step-000000000002");
  EXPECT_THAT(catchError([&] { readLatest(tmp.path()); }).message,
              HasSubstr("names step-000000000002, which is not a committed "
                        "checkpoint"));
  std::ofstream(tmp.path() + "/latest", std::ios::trunc) << "../elsewhere\n";
  EXPECT_EQ(catchError([&] { readLatest(tmp.path()); }).errnum, EINVAL);
  // Listing still works; retention refuses to guess what to protect.
  EXPECT_EQ(listCheckpoints(tmp.path()).size(), 2u);
  EXPECT_THAT(catchError([&] { collectGarbage(tmp.path(), 1); }).message,
              HasSubstr("names \"../elsewhere\", which is not a directory "
                        "name inside"));
}

TEST_F(Faults, FullDiskDuringSaveKeepsThePreviousCheckpoint) {
  std::string engineNote;
  auto faulty = std::make_unique<FaultInjectingBackend>(
      makeBackend(EngineKind::Threads, 4, engineNote));
  FaultRule rule;
  rule.action = FaultRule::Action::Fail;
  rule.errnum = ENOSPC;
  rule.anyKind = false;
  rule.kind = IoOpKind::Write;
  rule.skip = 1;
  rule.times = -1;
  faulty->addRule(rule);
  IoEngine full(std::move(faulty));
  IoOptions io;
  io.stagingBytes = 4096;
  io.stagingBuffers = 2;
  Caught c = catchError(
      [&] { savePattern(full, tmp.path(), 2, 2, 0, 64 << 10, {}, io); });
  EXPECT_EQ(c.errnum, ENOSPC);
  EXPECT_THAT(c.message, HasSubstr("write of " + tmp.path() +
                                   "/step-000000000002/rank-0000"));
  EXPECT_THAT(c.message, HasSubstr("No space left on device"));
  EXPECT_EQ(readLatest(tmp.path()), dir);
  loadWhole(*engine, dir);
  abortCheckpoint(tmp.path() + "/step-000000000002");
  EXPECT_EQ(listCheckpoints(tmp.path()).size(), 1u);
}

/// A reader of 64 small tensors whose chunks lie end to end (one read),
/// through an engine that injects `rule` into reads.
struct SmallTensorLoad {
  explicit SmallTensorLoad(const FaultRule &rule) {
    dir = saveSmallTensors(*plain, tmp.path(), 64);
    std::string note;
    auto faulty = std::make_unique<FaultInjectingBackend>(
        makeBackend(EngineKind::Threads, 4, note));
    faulty->addRule(rule);
    engine = std::make_unique<IoEngine>(std::move(faulty));
  }
  Caught load() {
    return catchError([&] {
      CheckpointReader reader(*engine, dir);
      std::vector<LoadRequest> requests;
      for (unsigned i = 0; i < 64; ++i) {
        char name[8];
        std::snprintf(name, sizeof(name), "s%03u", i);
        requests.push_back(
            {name, DType::U8, {5000}, {0}, {5000}, out[i].data()});
      }
      reader.load(requests);
      EXPECT_EQ(reader.readsIssued(), 1u);
    });
  }
  TempDir tmp;
  std::unique_ptr<IoEngine> plain = makeCheckpointEngine(8);
  std::unique_ptr<IoEngine> engine;
  std::string dir;
  std::vector<std::vector<char>> out{64, std::vector<char>(5000)};
};

TEST(CoalescedReads, ErrorsNameTheFileAndTheWholeRead) {
  FaultRule eio;
  eio.errnum = EIO;
  SmallTensorLoad failing(eio);
  Caught c = failing.load();
  EXPECT_EQ(c.errnum, EIO);
  EXPECT_THAT(c.message, HasSubstr("read of " + failing.dir +
                                   "/rank-00000.data at offset 0 length " +
                                   std::to_string(64 * 8192)));

  FaultRule nothing;
  nothing.action = FaultRule::Action::ZeroBytes;
  SmallTensorLoad past(nothing);
  c = past.load();
  EXPECT_NE(c.errnum, 0);
  EXPECT_THAT(c.message, HasSubstr(past.dir + "/rank-00000.data at offset "));

  // A short read is resubmitted; every byte arrives.
  FaultRule half;
  half.action = FaultRule::Action::Short;
  SmallTensorLoad shortened(half);
  EXPECT_EQ(shortened.load().errnum, 0);
  for (unsigned i = 0; i < 64; ++i)
    ASSERT_EQ(shortened.out[i][4999], char(i * 131 + 4999)) << i;
}

TEST(CoalescedReads, DamageNamesTheChunkInsideTheRead) {
  SmallTensorLoad damaged(
      FaultRule{FaultRule::Action::Fail, EIO, false, IoOpKind::Write, 0, 0});
  std::string path = damaged.dir + "/rank-00000.data";
  uint64_t at = 37 * 8192 + 1234;
  int fd = ::open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  char byte = 0;
  ASSERT_EQ(::pread(fd, &byte, 1, at), 1);
  byte ^= 0x20;
  ASSERT_EQ(::pwrite(fd, &byte, 1, at), 1);
  ::close(fd);
  Caught c = damaged.load();
  EXPECT_EQ(c.errnum, EBADMSG);
  EXPECT_THAT(c.message, HasSubstr("checksum mismatch in " + path +
                                   " at offset " + std::to_string(37 * 8192) +
                                   " length 5000: tensor \"s037\" chunk 0"));
}

TEST_F(Faults, InconsistentRecordsAreNotCommitted) {
  std::string next = beginCheckpoint(tmp.path(), 2);
  std::vector<RankRecord> records;
  for (uint32_t rank = 0; rank < 2; ++rank) {
    RankWriter writer(*engine, next, rank, 2 + rank);
    std::vector<float> rows(4, 1.0f);
    // Both ranks claim rows [0, 2): an overlap, and rows [2, 4) are missing.
    writer.addChunk("w", DType::F32, std::vector<uint64_t>{4, 2},
                    std::vector<uint64_t>{0, 0}, std::vector<uint64_t>{2, 2},
                    rows.data());
    records.push_back(writer.finish());
  }
  EXPECT_THAT(
      catchError([&] { commitCheckpoint(tmp.path(), next, records); }).message,
      HasSubstr("step mismatch across ranks"));
  records[1].step = 2;
  EXPECT_THAT(
      catchError([&] { commitCheckpoint(tmp.path(), next, records); }).message,
      HasSubstr("chunk 1 [0:2, 0:2] overlaps chunk 0"));
  EXPECT_EQ(readLatest(tmp.path()), dir);
  EXPECT_EQ(catchError([&] { beginCheckpoint(tmp.path(), 1); }).errnum, EEXIST);
}

TEST_F(Faults, CommitNeverPublishedIsReplacedWhenTheStepIsSavedAgain) {
  // A crash between the manifest rename and moving `latest`.
  savePattern(*engine, tmp.path(), 2, 1);
  publishLatest(tmp.path(), "step-000000000001");
  std::string again = beginCheckpoint(tmp.path(), 2);
  EXPECT_FALSE(pathExistsForTest(again + "/" + kManifestName));
  EXPECT_EQ(readLatest(tmp.path()), dir);
  EXPECT_EQ(catchError([&] { beginCheckpoint(tmp.path(), 1); }).errnum, EEXIST);
}

TEST(Retention, KeepsTheLastKAndRemovesLeftovers) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  std::string leftover = beginCheckpoint(tmp.path(), 3);
  CommitOptions keepTwo;
  keepTwo.keep = 2;
  for (uint64_t step : {1, 2, 4, 5, 6})
    savePattern(*engine, tmp.path(), step, 1, 0, 0, keepTwo);
  std::string inProgress = beginCheckpoint(tmp.path(), 9);
  std::vector<std::string> names;
  for (const CheckpointListing &c : listCheckpoints(tmp.path()))
    names.push_back(c.name + (c.committed ? "" : "?") + (c.latest ? "*" : ""));
  EXPECT_EQ(names,
            (std::vector<std::string>{"step-000000000005", "step-000000000006*",
                                      "step-000000000009?"}));
  EXPECT_EQ(collectGarbage(tmp.path(), 1),
            std::vector<std::string>{"step-000000000005"});
  EXPECT_EQ(listCheckpoints(tmp.path()).size(), 2u);
  EXPECT_EQ(catchError([&] { collectGarbage(tmp.path(), 0); }).errnum, EINVAL);
}

} // namespace
