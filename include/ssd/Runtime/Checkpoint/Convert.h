//===- Convert.h - Resharding and safetensors interchange -------*- C++ -*-===//
//
// Whole-checkpoint conversions used by `ssd-ckpt`: resharding a checkpoint
// to another world size (each source block read once), and import from and
// export to safetensors, the ecosystem's pickle-free single-file format
// (an 8-byte little-endian header length, a JSON header naming each
// tensor's dtype, shape and byte range, then the raw data).
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_CONVERT_H
#define SSD_RUNTIME_CHECKPOINT_CONVERT_H

#include "ssd/Runtime/Checkpoint/Checkpoint.h"

namespace ssd::rt::ckpt {

/// A checkpoint directory given either itself or a root whose `latest`
/// names it.
std::string resolveCheckpointDir(const std::string &path);

/// The box rank `rank` of `worldSize` owns when `shape` is split as evenly
/// as possible along dimension 0 (scalars belong to rank 0).
void evenRowSplit(std::span<const uint64_t> shape, uint32_t rank,
                  uint32_t worldSize, std::vector<uint64_t> &offsets,
                  std::vector<uint64_t> &sizes);

struct ConversionResult {
  Manifest manifest;
  std::string directory;
  /// Bytes read from the source.
  uint64_t bytesRead = 0;
};

/// Writes the checkpoint in `srcDir` to `dstRoot` as `worldSize` ranks
/// splitting every tensor along dimension 0, with the same step, and moves
/// `dstRoot/latest` to it. Non-tensor state follows the N->M rules; the
/// global data-loader position is divided among the new ranks.
ConversionResult reshardCheckpoint(IoEngine &engine, const std::string &srcDir,
                                   const std::string &dstRoot,
                                   uint32_t worldSize,
                                   const ProgressFn &progress = {});

struct SafetensorsTensor {
  std::string name;
  DType dtype;
  std::vector<uint64_t> shape;
  /// Byte range relative to the start of the data section.
  uint64_t begin = 0, end = 0;
};

struct SafetensorsHeader {
  std::vector<SafetensorsTensor> tensors;
  std::vector<std::pair<std::string, std::string>> metadata;
  /// File offset of the data section.
  uint64_t dataOffset = 0;
};

/// Reads and validates a safetensors header: sizes match dtypes and shapes,
/// ranges lie inside the file and do not overlap. Throws EINVAL naming the
/// file and tensor.
SafetensorsHeader readSafetensorsHeader(const std::string &file);

/// Imports `file` as step `step` (or the header's "step" metadata when
/// `step` is unset) into `dstRoot` with `worldSize` ranks.
ConversionResult importSafetensors(IoEngine &engine, const std::string &file,
                                   const std::string &dstRoot,
                                   uint32_t worldSize,
                                   std::optional<uint64_t> step,
                                   const ProgressFn &progress = {});

/// Writes every tensor of the checkpoint in `dir` to one safetensors file,
/// with the step in the "step" metadata entry.
void exportSafetensors(IoEngine &engine, const std::string &dir,
                       const std::string &file,
                       const ProgressFn &progress = {});

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_CONVERT_H
