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
// `ssd-checkpoint-pattern-writer --save ROOT STEP RANK RANKS TIMEOUT_MS
// [--crash-before-commit]` saves rank RANK's share of step STEP as one
// process of a `RankSave`, meeting the other ranks' processes in the
// checkpoint directory; with --crash-before-commit it kills itself with
// SIGKILL once its data is written, as a rank that crashes does.
//
//===----------------------------------------------------------------------===//
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

int saveAsOneRank(int argc, char **argv) {
  using namespace ssd::rt::ckpt;
  uint64_t step = std::strtoull(argv[3], nullptr, 10);
  auto rank = unsigned(std::strtoul(argv[4], nullptr, 10));
  auto ranks = unsigned(std::strtoul(argv[5], nullptr, 10));
  RankSaveOptions options;
  options.timeout =
      std::chrono::milliseconds(std::strtoull(argv[6], nullptr, 10));
  auto engine = makeCheckpointEngine(16);
  RankSave save(*engine, argv[2], step, rank, ranks, options);
  test::addPatternShare(save.writer(), step, rank, ranks);
  if (argc == 8 && std::string(argv[7]) == "--crash-before-commit")
    std::raise(SIGKILL);
  save.commit();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  using namespace ssd::rt::ckpt;
  bool oneRank = argc == 6 && std::string(argv[1]) == "--rank";
  bool save = (argc == 7 || argc == 8) && std::string(argv[1]) == "--save";
  if (!oneRank && !save && (argc < 4 || argc > 5)) {
    std::fprintf(stderr,
                 "usage: %s ROOT STEP RANKS [BULK_BYTES]\n"
                 "       %s --rank DIR STEP RANK RANKS\n"
                 "       %s --save ROOT STEP RANK RANKS TIMEOUT_MS "
                 "[--crash-before-commit]\n",
                 argv[0], argv[0], argv[0]);
    return 2;
  }
  try {
    if (save)
      return saveAsOneRank(argc, argv);
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
