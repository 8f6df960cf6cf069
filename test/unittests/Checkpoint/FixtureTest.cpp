//===- FixtureTest.cpp - Checked-in checkpoints of every format version ---===//
//
// test/fixtures/checkpoint/v1 is a version 1 checkpoint root written by
// ssd-checkpoint-pattern-writer (step 3, three ranks). Every later reader
// must keep loading it, elastically, bit for bit: never regenerate it.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"

#include <gtest/gtest.h>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;

namespace {

TEST(Fixtures, Version1LoadsOnAnyWorldSize) {
  std::string root = std::string(SSD_CHECKPOINT_FIXTURES) + "/v1";
  auto engine = makeCheckpointEngine(8);
  std::string dir = readLatest(root);
  CheckpointReader reader(*engine, dir);
  EXPECT_EQ(reader.manifest().version, 1u);
  EXPECT_EQ(reader.manifest().worldSize, 3u);
  EXPECT_EQ(reader.manifest().step, 3u);
  reader.verifyAll();
  for (unsigned ranks : {1u, 2u, 3u, 4u, 7u})
    for (size_t dim : {size_t(0), size_t(1)})
      EXPECT_EQ(patternLoadFailures(*engine, dir, 3, ranks, dim), "")
          << ranks << " ranks, dimension offset " << dim;
  ResumeState state = reader.resumeState(1, 3);
  EXPECT_EQ(state.rng, "rng-b");
  EXPECT_EQ(state.dataLoaderPosition, 301u);
}

} // namespace
