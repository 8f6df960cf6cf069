//===- Layout.h - The names of a checkpoint root's files --------*- C++ -*-===//
//
// The one place that spells the on-disk layout (docs/checkpoint-format.md,
// "Layout on disk"): the checkpoint directory of a step, the manifest, the
// `latest` pointer, each rank's data file, and the files that exist only
// while ranks in separate processes save together (the `begun` mark and
// the rank records). Every reader, writer and tool builds names with these,
// so that no two of them can disagree on one.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_LAYOUT_H
#define SSD_RUNTIME_CHECKPOINT_LAYOUT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ssd::rt::ckpt {

/// In a checkpoint directory: present if and only if it is committed.
constexpr const char *kManifestName = "manifest.json";
/// In the root: the name of the committed checkpoint to resume from.
constexpr const char *kLatestName = "latest";
/// In an uncommitted directory saved by several processes: rank 0 created
/// it, so the other ranks may write into it.
constexpr const char *kBegunMarkerName = "begun";

/// "step-000000000042".
std::string checkpointDirName(uint64_t step);
/// The step a name `checkpointDirName` made stands for; nullopt for any
/// other name.
std::optional<uint64_t> stepOfCheckpointDirName(std::string_view name);

/// "rank-00003.data": the data file of rank 3.
std::string rankDataFileName(uint32_t rank);
/// "rank-00003.record": rank 3's record, published for the committing rank
/// while a save by several processes is in progress.
std::string rankRecordFileName(uint32_t rank);

/// The name a small file (the manifest, `latest`, a record, the mark) is
/// written under before the rename that publishes it as `name`.
std::string temporaryFileName(std::string_view name);

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_LAYOUT_H
