//===- CheckpointRoot.cpp - Commit, latest pointer, listing, retention ----===//
//
// Everything that changes which checkpoints exist under a root, ordered so
// that a crash at any instant leaves every committed checkpoint loadable:
// the manifest appears by rename only after all data is durable, `latest`
// moves by rename only after the manifest is durable, and retention removes
// a checkpoint's manifest (and syncs that) before anything else of it.
//
//===----------------------------------------------------------------------===//
#include "FileUtil.h"
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ssd::rt::ckpt {

namespace {

std::string baseName(const std::string &path) {
  return fs::path(path).lexically_normal().filename().string();
}

bool isCommitted(const std::string &dir) {
  return pathExists(dir + "/" + kManifestName);
}

void removeTree(const std::string &path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec)
    fail(ec.value(), "removal of " + path + " failed: " + ec.message());
}

/// Removes the manifest durably. Without it the directory is uncommitted;
/// only then may its data go, so that a crash while removing never leaves a
/// half-removed checkpoint that still looks committed.
void uncommit(const std::string &dir) {
  std::string manifest = dir + "/" + kManifestName;
  if (::unlink(manifest.c_str()) != 0)
    fail(errno, "removal of " + manifest + " failed: " + errnoText(errno));
  fsyncDirectory(dir);
}

/// The name ROOT/latest holds, or empty when there is none.
std::string latestName(const std::string &root) {
  std::string path = root + "/" + kLatestName;
  if (!pathExists(path))
    return {};
  std::string text = readWholeFile(path, 4096);
  if (!text.empty() && text.back() == '\n')
    text.pop_back();
  if (!isPlainFileName(text))
    fail(EINVAL, path + " names \"" + text +
                     "\", which is not a directory name inside " + root);
  return text;
}

} // namespace

std::string beginCheckpoint(const std::string &root, uint64_t step) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec)
    fail(ec.value(), "creation of " + root + " failed: " + ec.message());
  std::string dir = root + "/" + checkpointDirName(step);
  if (isCommitted(dir)) {
    // A save that crashed between its manifest rename and moving `latest`
    // leaves a committed checkpoint newer than `latest` that nothing points
    // to; the resumed run saves that step again and replaces it. Anything
    // `latest` names or has moved past is never overwritten.
    auto latestStep = stepOfCheckpointDirName(latestName(root));
    if (!latestStep || *latestStep >= step)
      fail(EEXIST, "checkpoint " + dir +
                       " is already committed; refusing "
                       "to overwrite it");
    uncommit(dir);
  }
  if (pathExists(dir))
    removeTree(dir);
  if (!fs::create_directory(dir, ec) || ec)
    fail(ec ? ec.value() : EEXIST,
         "creation of " + dir + " failed: " + ec.message());
  fsyncDirectory(root);
  return dir;
}

void abortCheckpoint(const std::string &dir) {
  if (isCommitted(dir))
    fail(EEXIST, "checkpoint " + dir +
                     " is committed; abort refuses to "
                     "remove it");
  removeTree(dir);
}

Manifest commitCheckpoint(const std::string &root, const std::string &dir,
                          std::vector<RankRecord> records,
                          const CommitOptions &options) {
  std::string origin = dir + "/" + kManifestName;
  Manifest m =
      assembleManifest(std::move(records), options.checksumBlockBytes, origin);
  std::string temporary = temporaryFileName(kManifestName);
  writeFileDurably(dir + "/" + temporary, serializeManifest(m));
  renameDurably(dir, temporary, kManifestName);
  publishLatest(root, baseName(dir));
  if (options.keep > 0)
    collectGarbage(root, options.keep);
  return m;
}

void publishLatest(const std::string &root, const std::string &dirName) {
  if (!isPlainFileName(dirName))
    fail(EINVAL, "latest may only name a directory inside " + root +
                     ", not \"" + dirName + "\"");
  std::string temporary = temporaryFileName(kLatestName);
  writeFileDurably(root + "/" + temporary, dirName + "\n");
  renameDurably(root, temporary, kLatestName);
}

std::string readLatest(const std::string &root) {
  std::string name = latestName(root);
  if (name.empty())
    fail(ENOENT, "no checkpoint has been committed under " + root + " (no " +
                     std::string(kLatestName) + " pointer)");
  std::string dir = root + "/" + name;
  if (!isCommitted(dir))
    fail(ENOENT, root + "/" + kLatestName + " names " + name +
                     ", which is not a committed checkpoint");
  return dir;
}

std::vector<CheckpointListing> listCheckpoints(const std::string &root) {
  std::error_code ec;
  fs::directory_iterator it(root, ec);
  if (ec)
    fail(ec.value(), "listing of " + root + " failed: " + ec.message());
  // A damaged pointer must not hide the checkpoints; readLatest and
  // collectGarbage report it.
  std::string latest;
  try {
    latest = latestName(root);
  } catch (const Error &) {
  }
  std::vector<CheckpointListing> out;
  for (const fs::directory_entry &entry : it) {
    std::string name = entry.path().filename().string();
    auto step = stepOfCheckpointDirName(name);
    if (!step || !entry.is_directory(ec))
      continue;
    CheckpointListing item;
    item.name = name;
    item.step = *step;
    item.committed = isCommitted(entry.path().string());
    item.latest = name == latest;
    for (const fs::directory_entry &file : fs::directory_iterator(entry, ec))
      if (file.is_regular_file(ec))
        item.bytes += file.file_size(ec);
    out.push_back(item);
  }
  std::sort(out.begin(), out.end(),
            [](const auto &a, const auto &b) { return a.step < b.step; });
  return out;
}

std::vector<std::string> collectGarbage(const std::string &root,
                                        unsigned keep) {
  if (keep == 0)
    fail(EINVAL, "retention must keep at least one checkpoint");
  // Refuse to guess which checkpoint to protect when the pointer is bad.
  latestName(root);
  std::vector<CheckpointListing> all = listCheckpoints(root);
  std::vector<std::string> removed;
  uint64_t newestCommitted = 0;
  bool anyCommitted = false;
  unsigned kept = 0;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (!it->committed)
      continue;
    if (!anyCommitted)
      newestCommitted = it->step;
    anyCommitted = true;
    if (kept < keep || it->latest) {
      ++kept;
      continue;
    }
    std::string dir = root + "/" + it->name;
    uncommit(dir);
    removeTree(dir);
    removed.push_back(it->name);
  }
  for (const CheckpointListing &item : all)
    if (!item.committed && anyCommitted && item.step < newestCommitted) {
      removeTree(root + "/" + item.name);
      removed.push_back(item.name);
    }
  std::string temp = root + "/" + temporaryFileName(kLatestName);
  if (pathExists(temp))
    removeTree(temp);
  if (!removed.empty())
    fsyncDirectory(root);
  return removed;
}

} // namespace ssd::rt::ckpt
