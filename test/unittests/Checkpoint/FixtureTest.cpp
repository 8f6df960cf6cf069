//===- FixtureTest.cpp - Checked-in checkpoints of every format version ---===//
//
// test/fixtures/checkpoint/v1 is a version 1 checkpoint root written by
// ssd-checkpoint-pattern-writer (step 3, three ranks). Every later reader
// must keep loading it, elastically, bit for bit: never regenerate it.
// test/fixtures/checkpoint/python/ssd-v2 is version 2, written by the
// Python API (make_fixtures.py beside it), whose state tree is in the
// manifest; test/python/checkpoint loads its values.
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
  EXPECT_FALSE(reader.manifest().stateTree);
}

TEST(Fixtures, Version2CarriesItsStateTree) {
  std::string root = std::string(SSD_CHECKPOINT_FIXTURES) + "/python/ssd-v2";
  auto engine = makeCheckpointEngine(8);
  CheckpointReader reader(*engine, readLatest(root));
  const Manifest &m = reader.manifest();
  EXPECT_EQ(m.version, 2u);
  EXPECT_EQ(m.step, 6u);
  reader.verifyAll();
  ASSERT_TRUE(m.stateTree);
  const JsonValue *format = m.stateTree->find("format");
  ASSERT_TRUE(format);
  EXPECT_EQ(format->asString(), "ssdopt.state_dict");
  ResumeState state = reader.resumeState(0, 1);
  EXPECT_EQ(state.rng, "fixture-rng-state");
  EXPECT_EQ(state.dataLoaderPosition, 123u);
}

} // namespace
