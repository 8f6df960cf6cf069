//===- CliTest.cpp - The ssd-ckpt command line ----------------------------===//
//
// Runs the built ssd-ckpt binary: listing, inspection, verification with a
// non-zero exit naming the damaged chunk and file, resharding, retention,
// safetensors round trips and usage errors.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"

#include <cstdio>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;
using ::testing::HasSubstr;

namespace {

struct Output {
  int status = -1;
  std::string text;
};

/// Runs `ssd-ckpt ARGS` with stdout and stderr captured together.
Output ssdCkpt(const std::string &args) {
  std::string command = std::string(SSD_CKPT_TOOL) + " " + args + " 2>&1";
  Output out;
  FILE *pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
    out.text.append(buf, n);
  int status = ::pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    auto engine = makeCheckpointEngine(8);
    savePattern(*engine, root(), 1, 2);
    savePattern(*engine, root(), 2, 4);
    beginCheckpoint(root(), 3);
  }
  std::string root() const { return tmp.path() + "/root"; }
  TempDir tmp;
};

TEST_F(Cli, ListsInspectsAndVerifies) {
  Output ls = ssdCkpt("ls " + root());
  EXPECT_EQ(ls.status, 0);
  EXPECT_THAT(ls.text, HasSubstr("step-000000000002    committed"));
  EXPECT_THAT(ls.text, HasSubstr("<- latest"));
  EXPECT_THAT(ls.text, HasSubstr("step-000000000003    uncommitted"));

  Output inspect = ssdCkpt("inspect " + root());
  EXPECT_EQ(inspect.status, 0);
  EXPECT_THAT(inspect.text, HasSubstr("step 2, world size 4"));
  EXPECT_THAT(inspect.text,
              HasSubstr("tensor layer0.proj: BF16 [16, 29], 4 chunks"));
  EXPECT_THAT(
      inspect.text,
      HasSubstr("offsets [0, 2] sizes [16, 6]: rank-00001.data at 4096"));

  Output verify = ssdCkpt("verify " + root());
  EXPECT_EQ(verify.status, 0) << verify.text;
  EXPECT_THAT(verify.text, HasSubstr("ok: "));
}

TEST_F(Cli, VerifyNamesTheDamagedChunkAndFile) {
  std::string dir = root() + "/step-000000000002/";
  for (auto [name, offset] : {std::pair{"rank-00003.data", 4096 + 3},
                              std::pair{"rank-00001.data", 7}}) {
    int fd = ::open((dir + name).c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "\x7f", 1, offset), 1);
    ::close(fd);
  }
  // Every damaged block is reported, not only the first.
  Output verify = ssdCkpt("verify " + root());
  EXPECT_EQ(verify.status, 1);
  EXPECT_THAT(verify.text, HasSubstr("checksum mismatch in " + dir +
                                     "rank-00003.data at offset 4096"));
  EXPECT_THAT(verify.text, HasSubstr("tensor \"layer0.proj\" chunk 3 block 0"));
  EXPECT_THAT(verify.text, HasSubstr("checksum mismatch in " + dir +
                                     "rank-00001.data at offset 0"));
  EXPECT_THAT(verify.text, HasSubstr("1 more damaged blocks"));
}

TEST_F(Cli, ReshardsCollectsAndConverts) {
  Output reshard =
      ssdCkpt("reshard " + root() + " " + tmp.path() + "/r3 --world-size 3");
  EXPECT_EQ(reshard.status, 0) << reshard.text;
  EXPECT_THAT(reshard.text, HasSubstr("step 2, world size 3"));
  auto engine = makeCheckpointEngine(8);
  EXPECT_EQ(
      patternLoadFailures(*engine, readLatest(tmp.path() + "/r3"), 2, 5, 0),
      "");

  std::string st = tmp.path() + "/x.safetensors";
  EXPECT_EQ(ssdCkpt("export-safetensors " + root() + " " + st).status, 0);
  Output imported = ssdCkpt("import-safetensors " + st + " " + tmp.path() +
                            "/imp --world-size 7");
  EXPECT_EQ(imported.status, 0) << imported.text;
  EXPECT_EQ(
      patternLoadFailures(*engine, readLatest(tmp.path() + "/imp"), 2, 2, 1),
      "");

  Output gc = ssdCkpt("gc " + root() + " --keep 1");
  EXPECT_EQ(gc.status, 0);
  EXPECT_THAT(gc.text, HasSubstr("removed step-000000000001"));
  EXPECT_THAT(gc.text, HasSubstr("1 removed"));
}

TEST_F(Cli, EveryFaultExitsNonZeroWithItsCause) {
  std::string dir = root() + "/step-000000000002";
  auto editManifest = [&](const std::string &from, const std::string &to) {
    std::string path = dir + "/manifest.json";
    FILE *f = std::fopen(path.c_str(), "rb");
    ASSERT_TRUE(f);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
      text.append(buf, n);
    std::fclose(f);
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, from.size(), to);
    f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  };
  auto expectFailure = [&](const std::string &cause) {
    Output verify = ssdCkpt("verify " + dir);
    EXPECT_EQ(verify.status, 1) << verify.text;
    EXPECT_THAT(verify.text, HasSubstr(cause));
  };
  editManifest("\"version\": 2", "\"version\": 3");
  expectFailure("format version 3 is newer than this reader supports");
  editManifest("\"version\": 3", "\"version\": 2");
  editManifest("\"file\": \"rank-00002.data\"", "\"file\": \"/etc/passwd\"");
  expectFailure("\"/etc/passwd\" is not a plain file name");
  editManifest("\"file\": \"/etc/passwd\"", "\"file\": \"rank-00002.data\"");
  editManifest("\"offsets\": [3, 0]", "\"offsets\": [2, 0]");
  expectFailure("overlaps chunk");
  editManifest("\"offsets\": [2, 0]", "\"offsets\": [3, 0]");
  ASSERT_EQ(::truncate((dir + "/rank-00002.data").c_str(), 4096), 0);
  expectFailure("rank-00002.data is truncated: 4096 bytes");
  ASSERT_EQ(::unlink((dir + "/rank-00002.data").c_str()), 0);
  expectFailure("open of " + dir + "/rank-00002.data failed: No such file");
}

TEST_F(Cli, ReportsErrorsWithAnExitStatus) {
  EXPECT_EQ(ssdCkpt("").status, 2);
  EXPECT_EQ(ssdCkpt("frobnicate").status, 2);
  EXPECT_EQ(ssdCkpt("gc " + root() + " --keep 0").status, 2);
  EXPECT_EQ(ssdCkpt("reshard " + root() + " x").status, 2);
  Output uncommitted = ssdCkpt("verify " + root() + "/step-000000000003");
  EXPECT_EQ(uncommitted.status, 1);
  EXPECT_THAT(uncommitted.text, HasSubstr("neither a committed checkpoint"));
}

} // namespace
