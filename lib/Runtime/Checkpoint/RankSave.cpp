//===- RankSave.cpp - Ranks in separate processes save one checkpoint -----===//
//
// The ranks' rendezvous in the checkpoint directory: rank 0 begins it and
// marks it `begun`, the others wait for the mark; each publishes its record
// (written to a temporary name, fsynced, renamed, directory fsynced, so a
// reader that sees the name sees all of it); rank 0 waits for every record,
// checks the data files against them, and commits; the others wait for the
// manifest. Waiting is polling with a deadline: the ranks share a file
// system, not a process, so there is nothing to block on.
//
//===----------------------------------------------------------------------===//
#include "FileUtil.h"
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ssd::rt::ckpt {

namespace {

/// "300 s", or "50 ms" for a timeout of no whole number of seconds.
std::string durationText(std::chrono::milliseconds duration) {
  if (duration.count() % 1000 == 0)
    return std::to_string(duration.count() / 1000) + " s";
  return std::to_string(duration.count()) + " ms";
}

/// Polls until `ready` holds, looking at least once; false when the
/// timeout passed first.
template <typename Predicate>
bool waitUntil(const RankSaveOptions &options, Predicate ready) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  // A timeout past the clock's range waits for ever.
  Clock::time_point deadline =
      options.timeout < std::chrono::duration_cast<std::chrono::milliseconds>(
                            Clock::time_point::max() - start)
          ? start + options.timeout
          : Clock::time_point::max();
  for (;;) {
    if (ready())
      return true;
    Clock::time_point now = Clock::now();
    if (now >= deadline)
      return false;
    std::this_thread::sleep_for(
        std::min<Clock::duration>(options.pollInterval, deadline - now));
  }
}

/// Device and inode of a directory: tells it from a directory created
/// under the same name later.
struct Identity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const Identity &) const = default;
};

std::optional<Identity> identityOf(const std::string &path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    return std::nullopt;
  return Identity{info.st_dev, info.st_ino};
}

/// Writes `content` to `dir/name` so that whoever sees the name sees all of
/// it, durably.
void publishFile(const std::string &dir, const std::string &name,
                 const std::string &content) {
  std::string temporary = temporaryFileName(name);
  writeFileDurably(dir + "/" + temporary, content);
  renameDurably(dir, temporary, name);
}

void removeFile(const std::string &path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    int error = errno;
    fail(error, "removal of " + path + " failed: " + errnoText(error));
  }
}

/// Re-throws `e` with `context` before its message, keeping its errno.
[[noreturn]] void rethrowWithin(const std::string &context, const Error &e) {
  fail(e.errnum, context + e.what());
}

} // namespace

struct RankSave::Impl {
  std::string root, dir;
  uint64_t step;
  uint32_t rank, worldSize;
  RankSaveOptions options;
  Identity identity;
  std::unique_ptr<RankWriter> writer;

  std::string notCommitted() const {
    return "checkpoint " + dir + " is not committed: ";
  }

  /// Rank 0: creates the directory and, for the other ranks, the mark.
  void begin() {
    try {
      beginCheckpoint(root, step);
    } catch (const Error &e) {
      rethrowWithin("beginning checkpoint step " + std::to_string(step) +
                        " in " + root + " failed: ",
                    e);
    }
    if (worldSize > 1)
      publishFile(dir, kBegunMarkerName, "0\n");
  }

  /// Another rank: waits until rank 0 has begun the directory.
  void join() {
    std::string marker = dir + "/" + kBegunMarkerName;
    if (!waitUntil(options, [&] { return pathExists(marker); }))
      fail(ETIMEDOUT, "rank " + std::to_string(rank) + " timed out after " +
                          durationText(options.timeout) +
                          " waiting for rank 0 to begin checkpoint " + dir +
                          " (no " + marker + ")");
  }

  /// Fails unless `dir` is still the directory this rank began writing
  /// into: rank 0 begins a step again by removing what is there (a crashed
  /// attempt's leftover, whose mark another rank may have taken for this
  /// attempt's), and a data file in the removed one would be lost.
  void checkSameDirectory(const char *what) const {
    if (identityOf(dir) != identity)
      fail(ESTALE, dir + " was begun again by rank 0 while rank " +
                       std::to_string(rank) + " " + what +
                       " in it; this rank's data file is lost");
  }

  /// Rank `r`'s data file must be what its record describes.
  void checkDataFile(uint32_t r, const RankRecord &record) const {
    std::string name = rankDataFileName(r);
    struct stat info;
    if (::stat((dir + "/" + name).c_str(), &info) != 0) {
      int error = errno;
      fail(error, notCommitted() + "rank " + std::to_string(r) +
                      " published its record, but its data file " + name +
                      " is missing: " + errnoText(error));
    }
    if (uint64_t(info.st_size) != record.state.fileBytes)
      fail(EINVAL, notCommitted() + "rank " + std::to_string(r) +
                       "'s data file " + name + " holds " +
                       std::to_string(info.st_size) +
                       " bytes, its record says " +
                       std::to_string(record.state.fileBytes));
  }

  /// Rank `r`'s published record, parsed; errors name the file.
  RankRecord readRecord(uint32_t r) const {
    std::string path = dir + "/" + rankRecordFileName(r);
    try {
      return parseRankRecord(readWholeFile(path, kMaxManifestBytes), path);
    } catch (const Error &e) {
      rethrowWithin(notCommitted(), e);
    }
  }

  void commitAsRankZero(RankRecord own) {
    // Rank 0's commit is the save's serial tail (the other ranks wait for
    // it): each record is parsed as soon as it appears, on a thread of its
    // own (at most one per core at a time), while the rest are awaited.
    std::vector<std::future<RankRecord>> parses(worldSize);
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    auto running = [&] {
      unsigned n = 0;
      for (const auto &p : parses)
        n += p.valid() &&
             p.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
      return n;
    };
    auto missingRanks = [&] {
      std::vector<uint32_t> missing;
      for (uint32_t r = 1; r < worldSize; ++r) {
        if (parses[r].valid())
          continue;
        if (!pathExists(dir + "/" + rankRecordFileName(r)))
          missing.push_back(r);
        else if (running() < cores)
          parses[r] = std::async(std::launch::async,
                                 [this, r] { return readRecord(r); });
        else
          missing.push_back(r); // present, parsed once a core is free
      }
      return missing;
    };
    if (!waitUntil(options, [&] { return missingRanks().empty(); })) {
      std::vector<uint32_t> missing;
      for (uint32_t r = 1; r < worldSize; ++r)
        if (!parses[r].valid() &&
            !pathExists(dir + "/" + rankRecordFileName(r)))
          missing.push_back(r);
      std::string names;
      for (uint32_t r : missing)
        names += (names.empty() ? "" : ", ") + std::to_string(r);
      if (!missing.empty())
        fail(ETIMEDOUT, notCommitted() + "no record from " +
                            (missing.size() > 1 ? "ranks " : "rank ") + names +
                            " after " + durationText(options.timeout));
    }
    std::vector<RankRecord> records(worldSize);
    records[0] = std::move(own);
    // In rank order, so the lowest rank's error is the one raised; every
    // parse is joined before this frame goes (a future from std::async
    // waits in its destructor).
    for (uint32_t r = 1; r < worldSize; ++r)
      records[r] = parses[r].valid() ? parses[r].get() : readRecord(r);
    for (uint32_t r = 0; r < worldSize; ++r)
      checkDataFile(r, records[r]);
    // A committed checkpoint holds the manifest and the data files only; the
    // manifest's rename below makes these removals durable with it.
    for (uint32_t r = 1; r < worldSize; ++r)
      removeFile(dir + "/" + rankRecordFileName(r));
    if (worldSize > 1)
      removeFile(dir + "/" + kBegunMarkerName);
    try {
      commitCheckpoint(root, dir, std::move(records), options.commit);
    } catch (const Error &e) {
      rethrowWithin(notCommitted(), e);
    }
  }

  void commitAsOtherRank(const RankRecord &own) {
    checkSameDirectory("wrote its data file");
    publishFile(dir, rankRecordFileName(rank), serializeRankRecord(own));
    std::string manifest = dir + "/" + kManifestName;
    if (!waitUntil(options, [&] { return pathExists(manifest); }))
      fail(ETIMEDOUT, "rank " + std::to_string(rank) +
                          " published its record, but rank 0 did not commit " +
                          dir + " within " + durationText(options.timeout));
  }
};

RankSave::RankSave(IoEngine &engine, const std::string &root, uint64_t step,
                   uint32_t rank, uint32_t worldSize,
                   const RankSaveOptions &options)
    : impl(std::make_unique<Impl>()) {
  Impl &s = *impl;
  if (worldSize == 0 || rank >= worldSize)
    fail(EINVAL, "rank " + std::to_string(rank) + " of " +
                     std::to_string(worldSize) + " is not a rank of the world");
  s.root = root;
  s.dir = root + "/" + checkpointDirName(step);
  s.step = step;
  s.rank = rank;
  s.worldSize = worldSize;
  s.options = options;
  if (rank == 0)
    s.begin();
  else
    s.join();
  std::optional<Identity> identity = identityOf(s.dir);
  if (!identity) {
    int error = errno;
    fail(error, "stat of " + s.dir + " failed: " + errnoText(error));
  }
  s.identity = *identity;
  s.writer = std::make_unique<RankWriter>(engine, s.dir, rank, step, options.io,
                                          options.commit.checksumBlockBytes);
  s.checkSameDirectory("opened its data file");
}

RankSave::~RankSave() = default;

const std::string &RankSave::directory() const { return impl->dir; }

RankWriter &RankSave::writer() {
  if (!impl->writer)
    fail(EINVAL, "rank " + std::to_string(impl->rank) + " already committed " +
                     "its part of " + impl->dir + " (or failed to)");
  return *impl->writer;
}

void RankSave::commit() {
  Impl &s = *impl;
  RankWriter &writer = this->writer();
  RankRecord own;
  try {
    own = writer.finish();
  } catch (const Error &e) {
    rethrowWithin(s.notCommitted() + "finishing rank " +
                      std::to_string(s.rank) + "'s data file failed: ",
                  e);
  }
  s.writer.reset();
  if (s.rank == 0)
    s.commitAsRankZero(std::move(own));
  else
    s.commitAsOtherRank(own);
}

} // namespace ssd::rt::ckpt
