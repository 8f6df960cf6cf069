//===- FileRegion.h - Checkpoint tensors that live in files -----*- C++ -*-===//
//
// Saving a tensor whose bytes are in a file rather than in memory (a tensor
// kept on SSD by the runtime, a training step's parameters and optimizer
// state between steps), and loading a checkpoint's tensor into a file, both
// through one bounded buffer: the tensor is never staged whole in memory.
//
// A region is `path` from `offset` on, holding the box's elements row-major
// and contiguous. The box is cut into pieces that are each one contiguous
// range of the region and fit the buffer (whole trailing dimensions, part of
// one dimension, single indices of the leading ones), so a saved tensor is
// tiled by several chunks, which the format allows and every reader reads
// under any layout:
//
//   RankSave save(*engine, root, step, 0, 1);
//   addChunksFromFile(save.writer(), "w", DType::F32, shape, zeros, shape,
//                     "/nvme/ssdrt-7-0.data", 1 << 20);
//   save.commit();
//
//   CheckpointReader reader(*engine, readLatest(root));
//   loadIntoFile(reader, {"w", DType::F32, shape, zeros, shape, nullptr},
//                "/nvme/ssdrt-8-0.data", 0);
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_FILEREGION_H
#define SSD_RUNTIME_CHECKPOINT_FILEREGION_H

#include "ssd/Runtime/Checkpoint/Checkpoint.h"

#include <cstdint>
#include <span>
#include <string>

namespace ssd::rt::ckpt {

/// What a region copy may hold in memory at once (besides the writer's or
/// reader's own staging buffers).
constexpr uint64_t kDefaultRegionBufferBytes = 8u << 20;

/// Adds the box [offsets, offsets + sizes) of tensor `name` (global shape
/// `shape`) whose bytes are at `sourceOffset` of the file `source`, read in
/// pieces of at most `bufferBytes` (a multiple of 4096) into one buffer and
/// added as one chunk each. Throws an `Error` naming `source`, the offset
/// and the cause when a read fails (ENODATA when the file ends before the
/// region does, ENOENT... when it cannot be opened), and as `addChunk` for
/// a bad box or a failed write of the data file.
void addChunksFromFile(RankWriter &writer, const std::string &name, DType dtype,
                       std::span<const uint64_t> shape,
                       std::span<const uint64_t> offsets,
                       std::span<const uint64_t> sizes,
                       const std::string &source, uint64_t sourceOffset,
                       uint64_t bufferBytes = kDefaultRegionBufferBytes);

/// `reader.load` of `request` (its `dest` ignored) into the existing file
/// `path` from `fileOffset` on, in pieces of at most `bufferBytes` through
/// one buffer; the file grows when the region ends past its end. Checks the
/// request as `load` does before writing anything; a failed write throws
/// naming `path`, the offset and the cause (ENOSPC on a full disk). The bytes
/// go through the page cache and are not synced.
void loadIntoFile(CheckpointReader &reader, const LoadRequest &request,
                  const std::string &path, uint64_t fileOffset,
                  uint64_t bufferBytes = kDefaultRegionBufferBytes);

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_FILEREGION_H
