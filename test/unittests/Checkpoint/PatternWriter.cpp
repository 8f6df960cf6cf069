//===- PatternWriter.cpp - Saves one pattern checkpoint, for other tests --===//
//
// `ssd-checkpoint-pattern-writer ROOT STEP RANKS [BULK_BYTES]` saves step
// STEP of the test pattern (CheckpointTestUtil.h) under ROOT with RANKS
// threads, keeping the last two checkpoints. The crash test runs it in a
// child process and kills it with SIGKILL at random moments; the v1
// fixtures under test/fixtures/checkpoint were written by it.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  using namespace ssd::rt::ckpt;
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: %s ROOT STEP RANKS [BULK_BYTES]\n", argv[0]);
    return 2;
  }
  try {
    auto engine = makeCheckpointEngine(16);
    CommitOptions commit;
    commit.keep = 2;
    test::savePattern(*engine, argv[1], std::strtoull(argv[2], nullptr, 10),
                      unsigned(std::strtoul(argv[3], nullptr, 10)), 0,
                      argc == 5 ? std::strtoull(argv[4], nullptr, 10) : 0,
                      commit);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
