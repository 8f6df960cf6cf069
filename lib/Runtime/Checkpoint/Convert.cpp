//===- Convert.cpp - Resharding and safetensors interchange ---------------===//
//
// Conversions stream one tensor at a time: the source tensor's pieces for
// every target rank are read in one planned load (or, for safetensors, one
// contiguous range per rank, since rows are contiguous), then handed to the
// target ranks' writers, which copy them into their staging rings.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Convert.h"
#include "FileUtil.h"
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ssd::rt::ckpt {

namespace {

constexpr uint64_t kMaxSafetensorsHeader = 100u << 20;

/// Target writers for a conversion; aborts the directory unless committed.
class TargetCheckpoint {
public:
  TargetCheckpoint(IoEngine &engine, const std::string &root, uint64_t step,
                   uint32_t worldSize, uint64_t checksumBlockBytes)
      : root(root), dir(beginCheckpoint(root, step)),
        checksumBlockBytes(checksumBlockBytes) {
    if (worldSize == 0)
      fail(EINVAL, "world size must be at least 1");
    IoOptions io;
    io.stagingBuffers = 2;
    for (uint32_t rank = 0; rank < worldSize; ++rank)
      writers.push_back(std::make_unique<RankWriter>(engine, dir, rank, step,
                                                     io, checksumBlockBytes));
  }

  ~TargetCheckpoint() {
    if (committed)
      return;
    writers.clear();
    try {
      abortCheckpoint(dir);
    } catch (const Error &) {
      // The save already failed; an uncommitted leftover goes with the
      // next save of this step, or with retention after a newer commit.
    }
  }

  RankWriter &writer(uint32_t rank) { return *writers[rank]; }

  ConversionResult commit(uint64_t bytesRead) {
    std::vector<RankRecord> records;
    for (auto &w : writers)
      records.push_back(w->finish());
    CommitOptions options;
    options.checksumBlockBytes = checksumBlockBytes;
    ConversionResult result;
    result.manifest = commitCheckpoint(root, dir, std::move(records), options);
    committed = true;
    result.directory = dir;
    result.bytesRead = bytesRead;
    return result;
  }

private:
  std::string root, dir;
  uint64_t checksumBlockBytes;
  std::vector<std::unique_ptr<RankWriter>> writers;
  bool committed = false;
};

uint64_t evenShare(uint64_t total, uint32_t rank, uint32_t parts) {
  return total / parts + (rank < total % parts ? 1 : 0);
}

} // namespace

std::string resolveCheckpointDir(const std::string &path) {
  if (pathExists(path + "/" + kManifestName))
    return path;
  if (pathExists(path + "/" + kLatestName))
    return readLatest(path);
  fail(ENOENT, path + " is neither a committed checkpoint (no " +
                   std::string(kManifestName) + ") nor a root with a " +
                   kLatestName + " pointer");
}

void evenRowSplit(std::span<const uint64_t> shape, uint32_t rank,
                  uint32_t worldSize, std::vector<uint64_t> &offsets,
                  std::vector<uint64_t> &sizes) {
  offsets.assign(shape.size(), 0);
  sizes.assign(shape.begin(), shape.end());
  if (shape.empty())
    return;
  uint64_t start = 0;
  for (uint32_t r = 0; r < rank; ++r)
    start += evenShare(shape[0], r, worldSize);
  offsets[0] = start;
  sizes[0] = evenShare(shape[0], rank, worldSize);
}

ConversionResult reshardCheckpoint(IoEngine &engine, const std::string &srcDir,
                                   const std::string &dstRoot,
                                   uint32_t worldSize,
                                   const ProgressFn &progress) {
  CheckpointReader reader(engine, srcDir);
  const Manifest &src = reader.manifest();
  TargetCheckpoint target(engine, dstRoot, src.step, worldSize,
                          src.checksumBlockBytes);
  uint64_t total = src.tensorBytes(), done = 0;
  for (const TensorEntry &t : src.tensors) {
    uint32_t owners = t.shape.empty() ? 1 : worldSize;
    std::vector<std::vector<char>> parts(owners);
    std::vector<LoadRequest> requests(owners);
    for (uint32_t rank = 0; rank < owners; ++rank) {
      LoadRequest &r = requests[rank];
      r.tensor = t.name;
      r.dtype = t.dtype;
      r.shape = t.shape;
      evenRowSplit(t.shape, rank, worldSize, r.offsets, r.sizes);
      parts[rank].resize(volume(r.sizes) * dtypeSize(t.dtype));
      r.dest = parts[rank].data();
    }
    reader.load(requests);
    for (uint32_t rank = 0; rank < owners; ++rank)
      target.writer(rank).addChunk(t.name, t.dtype, t.shape,
                                   requests[rank].offsets, requests[rank].sizes,
                                   parts[rank].data());
    done += volume(t.shape) * dtypeSize(t.dtype);
    if (progress)
      progress(done, total);
  }
  uint64_t globalPosition = 0;
  for (const RankState &saved : src.ranks)
    globalPosition += saved.dataLoaderPosition;
  for (uint32_t rank = 0; rank < worldSize; ++rank) {
    ResumeState state = reader.resumeState(rank, worldSize);
    uint64_t position = state.positionIsGlobal
                            ? evenShare(globalPosition, rank, worldSize)
                            : state.dataLoaderPosition;
    target.writer(rank).setRankState(state.rng, position);
  }
  if (src.stateTree)
    target.writer(0).setStateTree(*src.stateTree);
  return target.commit(reader.bytesRead());
}

//===----------------------------------------------------------------------===//
// safetensors
//===----------------------------------------------------------------------===//

SafetensorsHeader readSafetensorsHeader(const std::string &file) {
  OwnedFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    fail(errno, "open of " + file + " failed: " + errnoText(errno));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    fail(errno, "stat of " + file + " failed: " + errnoText(errno));
  uint64_t fileBytes = st.st_size;
  auto bad = [&](const std::string &cause) {
    fail(EINVAL, file + ": not a valid safetensors file: " + cause);
  };
  if (fileBytes < 8)
    bad("shorter than its 8-byte header length");
  unsigned char lengthBytes[8];
  readExactly(fd.get(), lengthBytes, 8, 0, file);
  uint64_t headerBytes = 0;
  for (int i = 7; i >= 0; --i)
    headerBytes = headerBytes << 8 | lengthBytes[i];
  if (headerBytes > kMaxSafetensorsHeader || headerBytes > fileBytes - 8)
    bad("header length " + std::to_string(headerBytes) +
        " exceeds the file or the 100 MiB limit");
  std::string text(headerBytes, '\0');
  readExactly(fd.get(), text.data(), headerBytes, 8, file);
  JsonValue root = parseJson(text, file + " header");
  if (root.kind() != JsonValue::Kind::Object)
    bad("the header is not a JSON object");
  SafetensorsHeader header;
  header.dataOffset = 8 + headerBytes;
  uint64_t dataBytes = fileBytes - header.dataOffset;
  for (const auto &[name, value] : root.members()) {
    if (name == "__metadata__") {
      if (value.kind() != JsonValue::Kind::Object)
        bad("__metadata__ is not an object");
      for (const auto &[key, entry] : value.members()) {
        if (entry.kind() != JsonValue::Kind::String)
          bad("__metadata__." + key + " is not a string");
        header.metadata.emplace_back(key, entry.asString());
      }
      continue;
    }
    std::string where = "tensor \"" + name + "\": ";
    const JsonValue *dtype = value.find("dtype");
    const JsonValue *shape = value.find("shape");
    const JsonValue *range = value.find("data_offsets");
    if (value.kind() != JsonValue::Kind::Object || !dtype || !shape || !range ||
        dtype->kind() != JsonValue::Kind::String ||
        shape->kind() != JsonValue::Kind::Array ||
        range->kind() != JsonValue::Kind::Array || range->items().size() != 2)
      bad(where + "needs dtype, shape and data_offsets [begin, end]");
    SafetensorsTensor t;
    t.name = name;
    auto parsed = parseDType(dtype->asString());
    if (!parsed)
      bad(where + "unsupported dtype " + dtype->asString());
    t.dtype = *parsed;
    for (const JsonValue &d : shape->items()) {
      if (d.kind() != JsonValue::Kind::Integer || d.isNegative())
        bad(where + "shape entries must be non-negative integers");
      t.shape.push_back(d.magnitude());
    }
    for (const JsonValue &o : range->items())
      if (o.kind() != JsonValue::Kind::Integer || o.isNegative())
        bad(where + "data_offsets must be non-negative integers");
    t.begin = range->items()[0].magnitude();
    t.end = range->items()[1].magnitude();
    uint64_t bytes = volume(t.shape) * dtypeSize(t.dtype);
    if (t.end < t.begin || t.end > dataBytes || t.end - t.begin != bytes)
      bad(where + "data_offsets [" + std::to_string(t.begin) + ", " +
          std::to_string(t.end) + ") do not hold " + std::to_string(bytes) +
          " bytes inside the " + std::to_string(dataBytes) +
          "-byte data section");
    header.tensors.push_back(std::move(t));
  }
  std::vector<const SafetensorsTensor *> byOffset;
  for (const SafetensorsTensor &t : header.tensors)
    byOffset.push_back(&t);
  std::sort(byOffset.begin(), byOffset.end(),
            [](auto *a, auto *b) { return a->begin < b->begin; });
  for (size_t i = 1; i < byOffset.size(); ++i)
    if (byOffset[i]->begin < byOffset[i - 1]->end)
      bad("tensors \"" + byOffset[i - 1]->name + "\" and \"" +
          byOffset[i]->name + "\" overlap");
  return header;
}

ConversionResult importSafetensors(IoEngine &engine, const std::string &file,
                                   const std::string &dstRoot,
                                   uint32_t worldSize,
                                   std::optional<uint64_t> step,
                                   const ProgressFn &progress) {
  SafetensorsHeader header = readSafetensorsHeader(file);
  if (!step) {
    step = 0;
    for (const auto &[key, value] : header.metadata)
      if (key == "step" && !value.empty() &&
          value.find_first_not_of("0123456789") == std::string::npos &&
          value.size() < 20)
        step = std::stoull(value);
  }
  OwnedFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    fail(errno, "open of " + file + " failed: " + errnoText(errno));
  TargetCheckpoint target(engine, dstRoot, *step, worldSize,
                          kDefaultChecksumBlockBytes);
  uint64_t total = 0, done = 0;
  for (const SafetensorsTensor &t : header.tensors)
    total += t.end - t.begin;
  std::vector<char> part;
  for (const SafetensorsTensor &t : header.tensors) {
    uint32_t owners = t.shape.empty() ? 1 : worldSize;
    uint64_t rowBytes =
        t.shape.empty()
            ? 0
            : volume(std::span(t.shape).subspan(1)) * dtypeSize(t.dtype);
    for (uint32_t rank = 0; rank < owners; ++rank) {
      std::vector<uint64_t> offsets, sizes;
      evenRowSplit(t.shape, rank, worldSize, offsets, sizes);
      // Rows are contiguous in a row-major tensor: one range per rank.
      part.resize(volume(sizes) * dtypeSize(t.dtype));
      uint64_t at = header.dataOffset + t.begin +
                    (t.shape.empty() ? 0 : offsets[0] * rowBytes);
      readExactly(fd.get(), part.data(), part.size(), at, file);
      target.writer(rank).addChunk(t.name, t.dtype, t.shape, offsets, sizes,
                                   part.data());
    }
    done += t.end - t.begin;
    if (progress)
      progress(done, total);
  }
  return target.commit(done);
}

void exportSafetensors(IoEngine &engine, const std::string &dir,
                       const std::string &file, const ProgressFn &progress) {
  CheckpointReader reader(engine, dir);
  const Manifest &m = reader.manifest();
  JsonValue header = JsonValue::object();
  JsonValue &metadata = header.set("__metadata__", JsonValue::object());
  metadata.set("step", JsonValue::string(std::to_string(m.step)));
  std::vector<uint64_t> begins;
  uint64_t dataBytes = 0;
  for (const TensorEntry &t : m.tensors) {
    JsonValue &entry = header.set(t.name, JsonValue::object());
    entry.set("dtype", JsonValue::string(dtypeName(t.dtype)));
    JsonValue &shape = entry.set("shape", JsonValue::array());
    for (uint64_t d : t.shape)
      shape.push(JsonValue::integer(d));
    uint64_t bytes = volume(t.shape) * dtypeSize(t.dtype);
    JsonValue &range = entry.set("data_offsets", JsonValue::array());
    range.push(JsonValue::integer(dataBytes));
    range.push(JsonValue::integer(dataBytes + bytes));
    begins.push_back(dataBytes);
    dataBytes += bytes;
  }
  std::string text = writeJson(header);
  // The data section starts 8-byte aligned, as the reference writer does.
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string prefix(8, '\0');
  for (int i = 0; i < 8; ++i)
    prefix[i] = char(uint64_t(text.size()) >> (8 * i));
  prefix += text;

  std::string temp = file + ".tmp";
  OwnedFd fd(
      ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    fail(errno, "open of " + temp + " failed: " + errnoText(errno));
  writeExactly(fd.get(), prefix.data(), prefix.size(), 0, temp);
  std::vector<char> buffer;
  uint64_t done = 0;
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorEntry &t = m.tensors[i];
    buffer.resize(volume(t.shape) * dtypeSize(t.dtype));
    LoadRequest r{t.name,  t.dtype,
                  t.shape, std::vector<uint64_t>(t.shape.size(), 0),
                  t.shape, buffer.data()};
    reader.load({&r, 1});
    writeExactly(fd.get(), buffer.data(), buffer.size(),
                 prefix.size() + begins[i], temp);
    done += buffer.size();
    if (progress)
      progress(done, dataBytes);
  }
  if (::fsync(fd.get()) != 0)
    fail(errno, "fsync of " + temp + " failed: " + errnoText(errno));
  fd.close(temp);
  if (::rename(temp.c_str(), file.c_str()) != 0)
    fail(errno,
         "rename of " + temp + " to " + file + " failed: " + errnoText(errno));
}

} // namespace ssd::rt::ckpt
