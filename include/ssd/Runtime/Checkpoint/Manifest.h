//===- Manifest.h - The checkpoint manifest and its validation --*- C++ -*-===//
//
// The in-memory form of `manifest.json` (docs/checkpoint-format.md is the
// normative description), its strict parser and writer, and `ChunkGrid`, the
// per-tensor index that both proves the chunks tile the tensor exactly once
// and answers "which chunks overlap this box" in time proportional to the
// answer. A manifest that parses is safe to act on: every file name is a
// plain name inside the checkpoint directory, every chunk lies inside its
// tensor and its data file, and every tensor is covered exactly once.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_MANIFEST_H
#define SSD_RUNTIME_CHECKPOINT_MANIFEST_H

#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Checkpoint/Layout.h"
#include "ssd/Runtime/DType.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ssd::rt::ckpt {

/// The newest manifest version this code reads and the one it writes.
/// Version 2 added `state_tree`; every older version is read as well.
constexpr uint32_t kFormatVersion = 2;
/// The first version whose manifests may carry a state tree.
constexpr uint32_t kStateTreeVersion = 2;
// Data files and checksum blocks are laid out in units of kIoAlignment
// (DType.h).
constexpr uint64_t kDefaultChecksumBlockBytes = 1u << 20;
/// The largest manifest (and so rank record) a reader accepts.
constexpr uint64_t kMaxManifestBytes = 256u << 20;

/// The runtime's element types (DTypes.def); checkpoints hold those whose
/// row says so.
using DType = ssd::rt::DType;

/// The safetensors spelling: "F32", "BF16", "BOOL", ...
const char *dtypeName(DType dtype);
/// The checkpoint dtype spelled `name`, or nullopt.
std::optional<DType> parseDType(std::string_view name);
unsigned dtypeSize(DType dtype);

/// One saved piece of a tensor: the box [offsets, offsets + sizes) of the
/// global tensor, stored row-major and contiguous at `fileOffset` in `file`.
struct Chunk {
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> sizes;
  std::string file;
  uint64_t fileOffset = 0;
  uint64_t length = 0;
  /// XXH3-64 of each consecutive checksum block of the chunk's bytes (the
  /// last one may be shorter).
  std::vector<uint64_t> checksums;
};

struct TensorEntry {
  std::string name;
  DType dtype = DType::F32;
  std::vector<uint64_t> shape;
  std::vector<Chunk> chunks;
};

/// What one saving rank wrote besides tensors.
struct RankState {
  uint32_t rank = 0;
  /// The rank's data file, a plain name inside the checkpoint directory.
  std::string file;
  /// The data file's size in bytes (a shorter file is truncated).
  uint64_t fileBytes = 0;
  /// Opaque generator state (stored as hex).
  std::string rng;
  /// Samples this rank had consumed from its data-loader shard.
  uint64_t dataLoaderPosition = 0;
};

struct Manifest {
  uint32_t version = kFormatVersion;
  uint64_t step = 0;
  uint32_t worldSize = 0;
  uint64_t checksumBlockBytes = kDefaultChecksumBlockBytes;
  /// One per saving rank, ordered by rank.
  std::vector<RankState> ranks;
  std::vector<TensorEntry> tensors;
  /// The saving application's structure and non-tensor values (any JSON
  /// value; the Python API's state-dict tree), version 2 on; covered by
  /// `manifest_xxh3` like every other member.
  std::optional<JsonValue> stateTree;

  const RankState *findFile(std::string_view file) const;
  uint64_t tensorBytes() const;
};

/// What one saving rank contributes to the manifest. Ranks in other
/// processes send it to the committing rank as text (`serializeRankRecord`).
struct RankRecord {
  uint64_t step = 0;
  RankState state;
  struct Piece {
    std::string tensor;
    DType dtype = DType::F32;
    std::vector<uint64_t> shape;
    Chunk chunk;
  };
  std::vector<Piece> pieces;
  /// The manifest's `stateTree`; only rank 0's record may carry one.
  std::optional<JsonValue> stateTree;
};

std::string serializeRankRecord(const RankRecord &record);
/// Parses what `serializeRankRecord` wrote; throws EINVAL naming `origin`
/// and the field. The commit validates the assembled manifest in full.
RankRecord parseRankRecord(std::string_view text, const std::string &origin);

/// Number of elements in a box of `sizes` (1 for a scalar). Throws EOVERFLOW
/// past 2^64.
uint64_t volume(std::span<const uint64_t> sizes);

/// True when `name` may name a file inside a checkpoint: non-empty, at most
/// 255 bytes, of [A-Za-z0-9._-], not starting with '.'. Rules out absolute
/// paths, "..", and separators.
bool isPlainFileName(std::string_view name);

/// Parses and validates a manifest. Every error is an `Error(EINVAL)` (or
/// `EPROTONOSUPPORT` for a version from the future) naming `origin` and the
/// offending field, e.g. "dir/manifest.json: tensors[2].chunks[0].file: ...".
Manifest parseManifest(std::string_view text, const std::string &origin);

/// Parses `text` as a manifest's state tree: any JSON value of the strict
/// language every manifest is written in (Json.h: integers only, so that a
/// version 1 reader parses a version 2 manifest and refuses it by its
/// version), nested no deeper than the manifest can hold it. Throws EINVAL
/// naming `origin`, the byte offset and the cause.
JsonValue parseStateTree(std::string_view text, const std::string &origin);

/// The manifest of `records` (indexed by rank): every rank's state and
/// pieces, rank 0's state tree, validated as `validateManifest` does.
/// Throws EINVAL naming `origin` for inconsistent records (step, dtype or
/// shape mismatch, a record from another rank, a state tree from a rank
/// other than 0, overlapping or missing chunks).
Manifest assembleManifest(std::vector<RankRecord> records,
                          uint64_t checksumBlockBytes,
                          const std::string &origin);

/// Why `name` cannot name a tensor (empty, holding a NUL, not UTF-8), or
/// null if it can: the one rule for validateManifest and the writers.
const char *tensorNameFault(std::string_view name);

/// Checks everything `parseManifest` checks beyond syntax; the writer calls
/// it before committing.
void validateManifest(const Manifest &manifest, const std::string &origin);

std::string serializeManifest(const Manifest &manifest);

/// Cells of the grid formed by all chunk boundaries of one tensor, each
/// mapped to the chunk covering it. For the layouts sharding produces (row,
/// column and block splits, even or not) there is one cell per chunk; rows
/// split in order need no grid at all.
class ChunkGrid {
public:
  /// Throws EINVAL naming the tensor and chunks when chunks overlap, leave a
  /// gap, or fragment the tensor into more than 16 grid cells per chunk
  /// (plus 64), which bounds the index's memory by the manifest's size.
  ChunkGrid(const TensorEntry &tensor, const std::string &origin);

  /// Calls `visit(chunkIndex)` once for every chunk overlapping the box
  /// [offsets, offsets + sizes), which must lie inside the tensor.
  void forEachOverlap(std::span<const uint64_t> offsets,
                      std::span<const uint64_t> sizes,
                      const std::function<void(size_t)> &visit) const;

private:
  /// For chunks that split the rows in order (the layout of a row-sharded
  /// save), each chunk's end row, and no grid.
  std::vector<uint64_t> rowEnds;
  std::vector<std::vector<uint64_t>> cuts;
  /// Chunk index per cell, row-major over the cells.
  std::vector<uint32_t> cellChunk;
};

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_MANIFEST_H
