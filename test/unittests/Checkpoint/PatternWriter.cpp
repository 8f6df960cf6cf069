//===- PatternWriter.cpp - Saves one pattern checkpoint, for other tests --===//
//
// `ssd-checkpoint-pattern-writer ROOT STEP RANKS [BULK_BYTES]` saves step
// STEP of the test pattern (CheckpointTestUtil.h) under ROOT with RANKS
// threads, keeping the last two checkpoints. The crash test runs it in a
// child process and kills it with SIGKILL at random moments; the v1
// fixtures under test/fixtures/checkpoint were written by it.
//
// `ssd-checkpoint-pattern-writer --rank DIR STEP RANK RANKS` writes only
// rank RANK's data file into the begun checkpoint DIR and prints its record
// as text, as one process of a multi-process save does.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  using namespace ssd::rt::ckpt;
  bool oneRank = argc == 6 && std::string(argv[1]) == "--rank";
  if (!oneRank && (argc < 4 || argc > 5)) {
    std::fprintf(stderr,
                 "usage: %s ROOT STEP RANKS [BULK_BYTES]\n"
                 "       %s --rank DIR STEP RANK RANKS\n",
                 argv[0], argv[0]);
    return 2;
  }
  try {
    auto engine = makeCheckpointEngine(16);
    if (oneRank) {
      RankRecord record = test::writePatternRank(
          *engine, argv[2], std::strtoull(argv[3], nullptr, 10),
          unsigned(std::strtoul(argv[4], nullptr, 10)),
          unsigned(std::strtoul(argv[5], nullptr, 10)));
      std::fputs(serializeRankRecord(record).c_str(), stdout);
      return 0;
    }
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
