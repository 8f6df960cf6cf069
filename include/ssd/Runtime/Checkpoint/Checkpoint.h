//===- Checkpoint.h - Sharded, elastic, crash-safe checkpoints --*- C++ -*-===//
//
// Saving: `beginCheckpoint` creates ROOT/step-<12 digits>/, each saving rank
// streams its shards through a `RankWriter` into one O_DIRECT data file, and
// `commitCheckpoint` assembles the manifest from every rank's record and
// commits atomically (data fsync'd, manifest written under a temporary name,
// fsync'd, renamed, directory fsync'd, then the `latest` pointer moved the
// same way). A directory without `manifest.json` is uncommitted and never
// loaded.
//
// Loading: a `CheckpointReader` opens a committed directory, and each rank
// asks for the boxes it owns now, whatever the saving layout was; the reader
// plans with the chunk grid, reads only the checksum blocks that overlap the
// request, verifies each block's XXH3 before copying out of it, and reports
// the bytes it read.
//
// Ranks in separate processes that share only the file system save with a
// `RankSave` each, which meets the other ranks in the checkpoint directory
// and commits when all of them are done:
//
//   RankSave save(*engine, root, step, rank, worldSize);
//   save.writer().addChunk("w", DType::F32, shape, offsets, sizes, rows);
//   save.commit();
//
// Typical use with ranks simulated as threads (ranks in other processes
// may also send their `RankRecord` to rank 0 as text instead):
//
//   auto engine = makeCheckpointEngine();
//   std::string dir = beginCheckpoint(root, step);
//   std::vector<uint64_t> shape{1024, 64}, offsets{rank * 256, 0},
//       sizes{256, 64};
//   RankWriter writer(*engine, dir, rank, step);
//   writer.addChunk("w", DType::F32, shape, offsets, sizes, rows);
//   records[rank] = writer.finish();
//   commitCheckpoint(root, dir, std::move(records), {.keep = 3});
//
//   CheckpointReader reader(*engine, readLatest(root));
//   LoadRequest columns{"w", DType::F32, shape, {0, 32}, {1024, 32}, out};
//   reader.load({&columns, 1});
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_CHECKPOINT_H
#define SSD_RUNTIME_CHECKPOINT_CHECKPOINT_H

#include "ssd/Runtime/Checkpoint/Manifest.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ssd::rt {
class IoEngine;
} // namespace ssd::rt

namespace ssd::rt::ckpt {

/// An engine suited to checkpoint traffic (auto-selected backend, deep queue).
std::unique_ptr<IoEngine> makeCheckpointEngine(unsigned queueDepth = 64);

struct IoOptions {
  /// Bytes per staging buffer (a multiple of 4096) and how many are in
  /// flight per writer or reader.
  uint64_t stagingBytes = 8u << 20;
  unsigned stagingBuffers = 4;
  /// Open data files with O_DIRECT (falls back to buffered I/O where the
  /// file system refuses it, e.g. tmpfs).
  bool direct = true;
};

//===----------------------------------------------------------------------===//
// Saving
//===----------------------------------------------------------------------===//

/// Creates ROOT (if needed) and ROOT/step-<step>, removing an uncommitted
/// leftover of the same step. Throws EEXIST if that step is committed.
/// Returns the directory's path.
std::string beginCheckpoint(const std::string &root, uint64_t step);

/// Removes an uncommitted checkpoint directory after a failed save; throws
/// EEXIST rather than touch a committed one.
void abortCheckpoint(const std::string &dir);

/// Streams one rank's chunks into `<dir>/rank-<rank>.data`.
class RankWriter {
public:
  RankWriter(IoEngine &engine, const std::string &dir, uint32_t rank,
             uint64_t step, IoOptions options = {},
             uint64_t checksumBlockBytes = kDefaultChecksumBlockBytes);
  /// Waits for writes in flight; a writer destroyed before `finish` leaves
  /// an uncommitted directory behind.
  ~RankWriter();
  RankWriter(const RankWriter &) = delete;
  RankWriter &operator=(const RankWriter &) = delete;

  /// Adds the box [offsets, offsets + sizes) of tensor `name`, whose global
  /// shape is `shape`; `data` holds the box row-major and contiguous. The
  /// bytes are copied before returning, so `data` may be reused at once.
  void addChunk(const std::string &name, DType dtype,
                std::span<const uint64_t> shape,
                std::span<const uint64_t> offsets,
                std::span<const uint64_t> sizes, const void *data);
  /// Non-tensor state of this rank (see docs/checkpoint-format.md).
  void setRankState(std::string rng, uint64_t dataLoaderPosition);
  /// The manifest's state tree (`Manifest::stateTree`); rank 0's only.
  void setStateTree(JsonValue tree);
  /// Writes what is buffered, fsyncs and closes the file.
  RankRecord finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

struct CommitOptions {
  /// Committed checkpoints to keep after this one is published (0: all).
  unsigned keep = 0;
  uint64_t checksumBlockBytes = kDefaultChecksumBlockBytes;
};

/// Builds, validates and atomically commits the manifest of `dir` from all
/// ranks' records (indexed by rank), then moves ROOT/latest to it and
/// applies retention. Throws EINVAL for inconsistent records (step, dtype or
/// shape mismatch, overlapping or missing chunks) without committing.
Manifest commitCheckpoint(const std::string &root, const std::string &dir,
                          std::vector<RankRecord> records,
                          const CommitOptions &options = {});

//===----------------------------------------------------------------------===//
// Saving from ranks in separate processes
//===----------------------------------------------------------------------===//

struct RankSaveOptions {
  /// How long a rank waits for another one before it gives up (ETIMEDOUT).
  std::chrono::milliseconds timeout = std::chrono::seconds(300);
  /// How often a waiting rank looks again.
  std::chrono::milliseconds pollInterval{5};
  /// Retention after the commit, and the checksum block of the data files.
  CommitOptions commit;
  IoOptions io;
};

/// One rank's part of the save of one step, when every rank is a process of
/// its own and the ranks share nothing but the checkpoint root's file
/// system (compiled steps; the Python checkpoint API). The ranks meet in the
/// checkpoint's directory (docs/checkpoint-format.md, "Saving from ranks in
/// separate processes"):
///
/// - constructing one on rank 0 begins the directory (`beginCheckpoint`)
///   and, when there are other ranks, marks it `begun`; on another rank it
///   waits for that mark. Either way it then opens the rank's data file;
/// - `writer()` adds the rank's chunks and state;
/// - `commit()` finishes the data file and commits the rank's part. Rank 0
///   waits for every other rank's record, checks each rank's data file
///   against its record, removes the records and the mark, and commits the
///   step (`commitCheckpoint`); every other rank publishes its record and
///   waits until the step is committed. So every rank returns only once the
///   checkpoint is committed, and none goes on as if it were when another
///   rank failed, crashed or never came.
///
/// Every failure throws an `Error` naming the directory, the rank or file,
/// and the cause: ETIMEDOUT for a rank that did not come within the
/// timeout, ESTALE when the directory was begun again under a rank that
/// was writing into it. Destroying a save that did not commit leaves the
/// directory uncommitted.
class RankSave {
public:
  RankSave(IoEngine &engine, const std::string &root, uint64_t step,
           uint32_t rank, uint32_t worldSize,
           const RankSaveOptions &options = {});
  ~RankSave();
  RankSave(const RankSave &) = delete;
  RankSave &operator=(const RankSave &) = delete;

  /// The checkpoint's directory, ROOT/step-<step>.
  const std::string &directory() const;
  /// This rank's data file; valid until `commit`.
  RankWriter &writer();
  /// Returns once the step is committed; see the class comment.
  void commit();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// A box of a saved tensor that the caller owns now; `dest` receives it
/// row-major and contiguous. `dtype` and `shape` must match the checkpoint.
struct LoadRequest {
  std::string tensor;
  DType dtype = DType::F32;
  std::vector<uint64_t> shape;
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> sizes;
  void *dest = nullptr;
};

/// Non-tensor state for one rank of a run resuming with `worldSize` ranks.
struct ResumeState {
  uint64_t step = 0;
  /// True when `rng` continues a saved stream; false when the caller must
  /// seed this rank itself (a rank that did not exist at save, or saved no
  /// generator state).
  bool rngRestored = false;
  std::string rng;
  /// Same world size: this rank's own position. Otherwise the sum of all
  /// saved ranks' positions, and `positionIsGlobal` is set: the data loader
  /// resumes the global sample stream there and re-partitions it.
  uint64_t dataLoaderPosition = 0;
  bool positionIsGlobal = false;
};

/// A byte range of a checkpoint's data file.
struct ReadRange {
  std::string file;
  uint64_t offset = 0;
  uint64_t length = 0;
};

/// Called with (bytes done, bytes total) as long operations progress.
using ProgressFn = std::function<void(uint64_t, uint64_t)>;

class CheckpointReader {
public:
  /// Reads and validates `<dir>/manifest.json`. Throws ENOENT naming the
  /// directory when it is uncommitted.
  CheckpointReader(IoEngine &engine, const std::string &dir,
                   IoOptions options = {});
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader &) = delete;
  CheckpointReader &operator=(const CheckpointReader &) = delete;

  const Manifest &manifest() const;
  const std::string &directory() const;

  /// Fills every request, reading each needed checksum block once. Reads
  /// go through a ring of `options.stagingBuffers` buffers as large as the
  /// largest read (`options.stagingBytes`, or one checksum block where that
  /// is larger), taken from and given back to the process's staging
  /// cache, which the writers share (buffers of 2 MiB and more lie on
  /// transparent huge pages).
  void load(std::span<const LoadRequest> requests,
            const ProgressFn &progress = {});
  /// Reads every chunk and checks every block checksum; throws EBADMSG
  /// listing every damaged block (file, offset, length, tensor, chunk), or
  /// the first I/O error (missing or truncated file).
  void verifyAll(const ProgressFn &progress = {});
  /// verifyAll of the chunks stored in data file `file` (one the manifest
  /// names; ENOENT otherwise), which must also be as long as it records.
  void verifyFile(const std::string &file, const ProgressFn &progress = {});
  /// The byte ranges of the data files that load(requests) reads, planned
  /// and checked as load does but read nothing: sorted by file and offset,
  /// overlapping or adjacent ranges merged. For callers that fetch these
  /// bytes from elsewhere (an object store) before loading locally.
  std::vector<ReadRange> planReads(std::span<const LoadRequest> requests) const;
  /// The ranges verifyAll (or, with `file`, verifyFile) reads.
  std::vector<ReadRange>
  planVerifyReads(const std::string *file = nullptr) const;
  /// Bytes read from data files so far.
  uint64_t bytesRead() const;
  /// Reads issued so far: chunks that lie end to end in one data file are
  /// read together, up to one staging buffer per read.
  uint64_t readsIssued() const;

  ResumeState resumeState(uint32_t rank, uint32_t worldSize) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

//===----------------------------------------------------------------------===//
// The checkpoint root: latest pointer, listing, retention
//===----------------------------------------------------------------------===//

/// Points ROOT/latest at `dirName` atomically (temporary file, fsync,
/// rename, fsync of ROOT).
void publishLatest(const std::string &root, const std::string &dirName);

/// The committed directory ROOT/latest names. Throws ENOENT when there is no
/// pointer or it names an uncommitted directory, EINVAL when it is not a
/// plain name.
std::string readLatest(const std::string &root);

struct CheckpointListing {
  std::string name;
  uint64_t step = 0;
  bool committed = false;
  bool latest = false;
  /// Bytes of all files in the directory.
  uint64_t bytes = 0;
};

/// Checkpoint directories under ROOT ordered by step.
std::vector<CheckpointListing> listCheckpoints(const std::string &root);

/// Keeps the newest `keep` (at least 1) committed checkpoints (and always the
/// one latest names), removes older ones manifest first, and removes
/// uncommitted leftovers older than the newest committed checkpoint (newer
/// uncommitted ones may be saves in progress). Returns the removed names.
std::vector<std::string> collectGarbage(const std::string &root, unsigned keep);

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_CHECKPOINT_H
