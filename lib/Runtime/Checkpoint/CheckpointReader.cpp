//===- CheckpointReader.cpp - Elastic, verified loads ---------------------===//
//
// Loading happens in two steps. Planning maps each request onto the chunks
// it overlaps through the chunk grid (no all-pairs scan), turns every
// overlap into contiguous runs of bytes, and merges the runs' checksum
// blocks into aligned read extents, so each needed block is read once even
// when several requests share it. Execution coalesces extents that lie end
// to end in one file (the chunks of many small tensors saved together) into
// reads of up to one staging buffer, streams those reads through a ring of
// aligned buffers with several in flight, verifies each block's XXH3 on
// arrival, and only then copies the runs out.
//
//===----------------------------------------------------------------------===//
#include "BoxIndex.h"
#include "FileUtil.h"
#include "Hash.h"
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unordered_map>

namespace ssd::rt::ckpt {

namespace {

/// Bytes of chunk `chunkIndex` that go to `dest`.
struct Run {
  uint64_t chunkByte;
  char *dest;
  uint64_t length;
};

/// One aligned read covering checksum blocks [firstBlock, endBlock) of a
/// chunk, and the copies out of it.
struct Extent {
  const TensorEntry *tensor;
  size_t chunkIndex;
  uint64_t firstBlock, endBlock;
  uint64_t fileOffset, readLength;
  struct Copy {
    uint64_t extentByte;
    char *dest;
    uint64_t length;
  };
  std::vector<Copy> copies;
};

std::string shapeText(const std::vector<uint64_t> &shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

/// Appends the runs copying the overlap of `request` and `chunk`.
void addRuns(const LoadRequest &request, const Chunk &chunk, unsigned elem,
             std::vector<Run> &runs) {
  size_t rank = chunk.sizes.size();
  std::vector<uint64_t> lo(rank), hi(rank);
  for (size_t d = 0; d < rank; ++d) {
    lo[d] = std::max(request.offsets[d], chunk.offsets[d]);
    hi[d] = std::min(request.offsets[d] + request.sizes[d],
                     chunk.offsets[d] + chunk.sizes[d]);
    if (lo[d] >= hi[d])
      return;
  }
  // Row-major strides in elements of the chunk and of the destination.
  std::vector<uint64_t> srcStride(rank), dstStride(rank);
  uint64_t s = 1, t = 1;
  for (size_t d = rank; d-- > 0;) {
    srcStride[d] = s;
    dstStride[d] = t;
    s *= chunk.sizes[d];
    t *= request.sizes[d];
  }
  // A run spans dimensions [outer, rank): trailing dimensions that both the
  // chunk and the request cover entirely merge into one contiguous run.
  size_t outer = rank == 0 ? 0 : rank - 1;
  auto fullyCovered = [&](size_t d) {
    return lo[d] == chunk.offsets[d] &&
           hi[d] == chunk.offsets[d] + chunk.sizes[d] &&
           lo[d] == request.offsets[d] &&
           hi[d] == request.offsets[d] + request.sizes[d];
  };
  while (outer > 0 && fullyCovered(outer))
    --outer;
  uint64_t runElems =
      rank == 0 ? 1 : (hi[outer] - lo[outer]) * srcStride[outer];
  char *dest = static_cast<char *>(request.dest);
  std::vector<uint64_t> outerLo(lo.begin(), lo.begin() + outer);
  std::vector<uint64_t> outerHi(hi.begin(), hi.begin() + outer);
  forEachBoxIndex(outerLo, outerHi, [&](const std::vector<uint64_t> &at) {
    uint64_t src = 0, dst = 0;
    for (size_t d = 0; d < rank; ++d) {
      uint64_t x = d < outer ? at[d] : lo[d];
      src += (x - chunk.offsets[d]) * srcStride[d];
      dst += (x - request.offsets[d]) * dstStride[d];
    }
    runs.push_back({src * elem, dest + dst * elem, runElems * elem});
  });
}

/// The file ranges `extents` read, sorted by file and offset, overlapping
/// or adjacent ones merged.
std::vector<ReadRange> rangesOf(const std::vector<Extent> &extents) {
  std::vector<ReadRange> ranges;
  ranges.reserve(extents.size());
  for (const Extent &e : extents)
    ranges.push_back(
        {e.tensor->chunks[e.chunkIndex].file, e.fileOffset, e.readLength});
  std::sort(ranges.begin(), ranges.end(),
            [](const ReadRange &a, const ReadRange &b) {
              return a.file != b.file ? a.file < b.file : a.offset < b.offset;
            });
  std::vector<ReadRange> merged;
  for (ReadRange &r : ranges) {
    if (!merged.empty() && merged.back().file == r.file &&
        r.offset <= merged.back().offset + merged.back().length) {
      ReadRange &m = merged.back();
      m.length = std::max(m.offset + m.length, r.offset + r.length) - m.offset;
      continue;
    }
    merged.push_back(std::move(r));
  }
  return merged;
}

} // namespace

struct CheckpointReader::Impl {
  IoEngine &engine;
  std::string dir;
  IoOptions options;
  Manifest manifest;
  /// Views of the manifest's names, which do not change once it is read.
  std::unordered_map<std::string_view, size_t> tensorIndex;
  /// Each tensor's chunk grid, built on its first load: a checkpoint of
  /// many small tensors is opened for a few of them as often as for all,
  /// and parseManifest has validated every grid already.
  std::vector<std::unique_ptr<ChunkGrid>> grids;
  struct DataFile {
    OwnedFd fd;
    std::string path;
  };
  std::map<std::string, DataFile> files;
  std::atomic<uint64_t> bytesRead{0};
  std::atomic<uint64_t> readsIssued{0};

  Impl(IoEngine &engine, const std::string &dir, IoOptions options)
      : engine(engine), dir(dir), options(options) {
    std::string path = dir + "/" + kManifestName;
    if (!pathExists(path))
      fail(ENOENT, dir + " is not a committed checkpoint (no " +
                       std::string(kManifestName) + ")");
    manifest = parseManifest(readWholeFile(path, kMaxManifestBytes), path);
    tensorIndex.reserve(manifest.tensors.size());
    for (size_t i = 0; i < manifest.tensors.size(); ++i)
      tensorIndex.emplace(manifest.tensors[i].name, i);
    grids.resize(manifest.tensors.size());
  }

  const ChunkGrid &grid(size_t tensor) {
    std::unique_ptr<ChunkGrid> &g = grids[tensor];
    if (!g)
      g = std::make_unique<ChunkGrid>(manifest.tensors[tensor],
                                      dir + "/" + kManifestName);
    return *g;
  }

  DataFile &file(const std::string &name) {
    auto it = files.find(name);
    if (it != files.end())
      return it->second;
    DataFile f;
    f.path = dir + "/" + name;
    bool direct = false;
    f.fd = openDataFile(f.path, O_RDONLY, options.direct, direct);
    struct stat st;
    if (::fstat(f.fd.get(), &st) != 0)
      fail(errno, "stat of " + f.path + " failed: " + errnoText(errno));
    uint64_t expected = manifest.findFile(name)->fileBytes;
    if (uint64_t(st.st_size) < expected)
      fail(ENODATA, f.path + " is truncated: " + std::to_string(st.st_size) +
                        " bytes, the manifest records " +
                        std::to_string(expected));
    return files.emplace(name, std::move(f)).first->second;
  }

  uint64_t blockBytes() const { return manifest.checksumBlockBytes; }

  /// Splits the needed blocks of one chunk into extents and distributes
  /// the runs over them.
  void planChunk(const TensorEntry &tensor, size_t chunkIndex,
                 std::vector<Run> &runs, std::vector<Extent> &out) {
    const Chunk &chunk = tensor.chunks[chunkIndex];
    uint64_t block = blockBytes();
    uint64_t maxBlocks = std::max<uint64_t>(1, options.stagingBytes / block);
    std::sort(runs.begin(), runs.end(), [](const Run &a, const Run &b) {
      return a.chunkByte < b.chunkByte;
    });
    size_t first = out.size();
    auto addExtent = [&](uint64_t b0, uint64_t b1) {
      Extent e{&tensor, chunkIndex, b0, b1, 0, 0, {}};
      uint64_t start = chunk.fileOffset + b0 * block;
      uint64_t end = chunk.fileOffset + std::min(b1 * block, chunk.length);
      e.fileOffset = alignDown(start, kIoAlignment);
      e.readLength = alignUp(end, kIoAlignment) - e.fileOffset;
      out.push_back(std::move(e));
    };
    // Runs are sorted by start; merge their blocks into maximal intervals.
    uint64_t openFirst = 0, openEnd = 0;
    auto closeInterval = [&]() {
      for (uint64_t b = openFirst; b < openEnd; b += maxBlocks)
        addExtent(b, std::min(openEnd, b + maxBlocks));
    };
    bool open = false;
    for (const Run &r : runs) {
      uint64_t b0 = r.chunkByte / block;
      uint64_t b1 = (r.chunkByte + r.length - 1) / block + 1;
      if (open && b0 <= openEnd) {
        openEnd = std::max(openEnd, b1);
        continue;
      }
      if (open)
        closeInterval();
      openFirst = b0;
      openEnd = b1;
      open = true;
    }
    if (open)
      closeInterval();
    // Clip each run to the extents it crosses.
    auto begin = out.begin() + first;
    for (const Run &r : runs) {
      uint64_t runEnd = r.chunkByte + r.length;
      auto it = std::upper_bound(begin, out.end(), r.chunkByte,
                                 [&](uint64_t byte, const Extent &e) {
                                   return byte < e.endBlock * block;
                                 });
      for (; r.dest && it != out.end() && it->firstBlock * block < runEnd;
           ++it) {
        uint64_t lo = std::max(r.chunkByte, it->firstBlock * block);
        uint64_t hi = std::min(runEnd, it->endBlock * block);
        uint64_t extentByte = chunk.fileOffset + lo - it->fileOffset;
        it->copies.push_back(
            {extentByte, r.dest + (lo - r.chunkByte), hi - lo});
      }
    }
  }

  /// Checks block `b` of extent `e` held in `data`; a mismatch throws
  /// EBADMSG, or is appended to `mismatches` when given.
  void verifyBlock(const Extent &e, uint64_t b, const char *data,
                   std::vector<std::string> *mismatches) {
    const Chunk &chunk = e.tensor->chunks[e.chunkIndex];
    uint64_t block = blockBytes();
    uint64_t chunkByte = b * block;
    uint64_t n = std::min(block, chunk.length - chunkByte);
    uint64_t at = chunk.fileOffset + chunkByte;
    uint64_t computed = XXH3_64bits(data + (at - e.fileOffset), n);
    if (computed == chunk.checksums[b])
      return;
    char text[80];
    std::snprintf(text, sizeof(text), "expected %016llx, computed %016llx",
                  (unsigned long long)chunk.checksums[b],
                  (unsigned long long)computed);
    std::string message = "checksum mismatch in " + dir + "/" + chunk.file +
                          " at offset " + std::to_string(at) + " length " +
                          std::to_string(n) + ": tensor \"" + e.tensor->name +
                          "\" chunk " + std::to_string(e.chunkIndex) +
                          " block " + std::to_string(b) + ": " + text;
    if (!mismatches)
      fail(EBADMSG, message);
    mismatches->push_back(std::move(message));
  }

  /// Verifies the blocks of `e` and copies out of it. Each copy waits only
  /// for the blocks it spans, so a block is copied right after it is hashed,
  /// while it is still in cache; no byte is copied before it is verified.
  void deliverExtent(const Extent &e, const char *data,
                     std::vector<std::string> *mismatches) {
    const Chunk &chunk = e.tensor->chunks[e.chunkIndex];
    uint64_t block = blockBytes();
    // Block b of the chunk starts at extent byte base + b * block.
    uint64_t base = chunk.fileOffset - e.fileOffset;
    uint64_t next = e.firstBlock;
    for (const Extent::Copy &c : e.copies) {
      uint64_t copyEnd = c.extentByte + c.length;
      while (next < e.endBlock && base + next * block < copyEnd)
        verifyBlock(e, next++, data, mismatches);
      std::memcpy(c.dest, data + c.extentByte, c.length);
    }
    while (next < e.endBlock)
      verifyBlock(e, next++, data, mismatches);
  }

  /// Consecutive extents of one file that lie end to end, read at once.
  struct Read {
    const DataFile *file = nullptr;
    size_t first = 0, count = 0;
    uint64_t fileOffset = 0, length = 0;
  };

  /// Groups the sorted `extents` into reads: an extent joins the read
  /// before it when it starts where that read ends in the same file and
  /// the read stays within one staging buffer (an extent longer than that
  /// is a read of its own). No byte outside an extent is read.
  std::vector<Read> coalesce(const std::vector<Extent> &extents) {
    std::vector<Read> reads;
    for (size_t i = 0; i < extents.size(); ++i) {
      const Extent &e = extents[i];
      const DataFile *f = &file(e.tensor->chunks[e.chunkIndex].file);
      if (!reads.empty()) {
        Read &last = reads.back();
        if (last.file == f && last.fileOffset + last.length == e.fileOffset &&
            last.length + e.readLength <= options.stagingBytes) {
          ++last.count;
          last.length += e.readLength;
          continue;
        }
      }
      reads.push_back({f, i, 1, e.fileOffset, e.readLength});
    }
    return reads;
  }

  void execute(std::vector<Extent> &extents, const ProgressFn &progress,
               std::vector<std::string> *mismatches = nullptr) {
    std::sort(extents.begin(), extents.end(),
              [](const Extent &a, const Extent &b) {
                const std::string &fa = a.tensor->chunks[a.chunkIndex].file;
                const std::string &fb = b.tensor->chunks[b.chunkIndex].file;
                return fa != fb ? fa < fb : a.fileOffset < b.fileOffset;
              });
    std::vector<Read> reads = coalesce(extents);
    uint64_t total = 0, done = 0, largest = 0;
    for (const Read &read : reads) {
      total += read.length;
      largest = std::max(largest, read.length);
    }
    struct Slot {
      StagingCache::Buffer buffer;
      std::future<IoResult> pending;
      const Read *read = nullptr;
    };
    size_t slotCount = std::min<size_t>(options.stagingBuffers, reads.size());
    std::vector<Slot> slots(slotCount);
    // Reads in flight write into the slots' buffers; wait for them before
    // the buffers go back, including when an error unwinds this frame.
    struct Drain {
      std::vector<Slot> &slots;
      ~Drain() {
        for (Slot &s : slots)
          if (s.pending.valid())
            s.pending.wait();
        for (Slot &s : slots)
          StagingCache::process().give(std::move(s.buffer));
      }
    } drain{slots};
    for (Slot &slot : slots)
      slot.buffer = StagingCache::process().take(largest);

    // The future is fulfilled after the read's last raw read completed,
    // and get() synchronises with that, so the buffer holds the whole read
    // once it returns; the slot is reused only after this.
    auto finishSlot = [&](Slot &slot) {
      const Read &read = *slot.read;
      IoResult result = slot.pending.get();
      throwIfFailed(result, "read", read.file->path, read.fileOffset,
                    read.length);
      bytesRead += read.length;
      ++readsIssued;
      for (size_t i = read.first; i < read.first + read.count; ++i) {
        const Extent &e = extents[i];
        deliverExtent(
            e, slot.buffer.memory.get() + (e.fileOffset - read.fileOffset),
            mismatches);
      }
      done += read.length;
      if (progress)
        progress(done, total);
    };

    for (size_t i = 0; i < reads.size(); ++i) {
      Slot &slot = slots[i % slotCount];
      if (slot.pending.valid())
        finishSlot(slot);
      const Read &read = reads[i];
      IoRequest request;
      request.kind = IoOpKind::Read;
      request.fd = read.file->fd.get();
      request.buf = slot.buffer.memory.get();
      request.len = read.length;
      request.offset = read.fileOffset;
      slot.read = &read;
      slot.pending = engine.submit(request);
    }
    for (size_t i = 0; i < slotCount; ++i) {
      Slot &slot = slots[(reads.size() + i) % slotCount];
      if (slot.pending.valid())
        finishSlot(slot);
    }
  }

  /// The extents that fill `requests`, every request checked first.
  std::vector<Extent> planLoad(std::span<const LoadRequest> requests) {
    // Runs per (tensor, chunk), in first-touched order.
    std::unordered_map<uint64_t, size_t> workIndex;
    struct Work {
      const TensorEntry *tensor;
      size_t chunk;
      std::vector<Run> runs;
    };
    std::vector<Work> work;
    for (const LoadRequest &request : requests) {
      auto found = tensorIndex.find(request.tensor);
      if (found == tensorIndex.end())
        fail(ENOENT,
             "tensor \"" + request.tensor + "\" is not in checkpoint " + dir);
      const TensorEntry &tensor = manifest.tensors[found->second];
      // Built only for a message: a load may hold thousands of requests.
      auto what = [&] {
        return "load of tensor \"" + tensor.name + "\" from " + dir;
      };
      if (request.dtype != tensor.dtype)
        fail(EINVAL, what() + ": dtype mismatch: the checkpoint has " +
                         dtypeName(tensor.dtype) + ", the request asks for " +
                         dtypeName(request.dtype));
      if (request.shape != tensor.shape)
        fail(EINVAL, what() + ": shape mismatch: the checkpoint has " +
                         shapeText(tensor.shape) + ", the request asks for " +
                         shapeText(request.shape));
      if (request.offsets.size() != tensor.shape.size() ||
          request.sizes.size() != tensor.shape.size())
        fail(EINVAL, what() + ": offsets and sizes need " +
                         std::to_string(tensor.shape.size()) + " entries");
      for (size_t d = 0; d < tensor.shape.size(); ++d)
        if (request.offsets[d] > tensor.shape[d] ||
            request.sizes[d] > tensor.shape[d] - request.offsets[d])
          fail(EINVAL, what() +
                           ": requested box lies outside the shape in "
                           "dimension " +
                           std::to_string(d));
      if (volume(request.sizes) > 0 && !request.dest)
        fail(EINVAL, what() + ": null destination");
      unsigned elem = dtypeSize(tensor.dtype);
      auto overlapping = [&](size_t chunk) {
        uint64_t key = uint64_t(found->second) << 32 | chunk;
        auto [it, inserted] = workIndex.emplace(key, work.size());
        if (inserted)
          work.push_back({&tensor, chunk, {}});
        addRuns(request, tensor.chunks[chunk], elem, work[it->second].runs);
      };
      // A tensor saved whole (one chunk, which parseManifest checked covers
      // it) needs no grid: every non-empty box overlaps that chunk.
      if (tensor.chunks.size() == 1) {
        if (volume(tensor.shape) > 0 && volume(request.sizes) > 0)
          overlapping(0);
      } else {
        grid(found->second)
            .forEachOverlap(request.offsets, request.sizes, overlapping);
      }
    }
    std::vector<Extent> extents;
    for (Work &w : work)
      planChunk(*w.tensor, w.chunk, w.runs, extents);
    return extents;
  }

  /// The extents that read every chunk (of data file `*file` only, when
  /// given) without copying: a run without a destination only verifies.
  std::vector<Extent> planVerify(const std::string *file) {
    std::vector<Extent> extents;
    for (const TensorEntry &tensor : manifest.tensors)
      for (size_t c = 0; c < tensor.chunks.size(); ++c) {
        if (tensor.chunks[c].length == 0 ||
            (file && tensor.chunks[c].file != *file))
          continue;
        std::vector<Run> whole{{0, nullptr, tensor.chunks[c].length}};
        planChunk(tensor, c, whole, extents);
      }
    return extents;
  }

  /// Reads `extents` and checks every block; throws EBADMSG listing every
  /// damaged block, or the first I/O error.
  void verify(std::vector<Extent> extents, const ProgressFn &progress) {
    std::vector<std::string> mismatches;
    execute(extents, progress, &mismatches);
    if (mismatches.empty())
      return;
    std::string message = mismatches[0];
    if (mismatches.size() > 1)
      message += "\n" + std::to_string(mismatches.size() - 1) +
                 " more damaged blocks:";
    for (size_t i = 1; i < mismatches.size(); ++i)
      message += "\n" + mismatches[i];
    fail(EBADMSG, message);
  }
};

CheckpointReader::CheckpointReader(IoEngine &engine, const std::string &dir,
                                   IoOptions options)
    : impl(std::make_unique<Impl>(engine, dir, options)) {}

CheckpointReader::~CheckpointReader() = default;

const Manifest &CheckpointReader::manifest() const { return impl->manifest; }
const std::string &CheckpointReader::directory() const { return impl->dir; }
uint64_t CheckpointReader::bytesRead() const { return impl->bytesRead; }
uint64_t CheckpointReader::readsIssued() const { return impl->readsIssued; }

void CheckpointReader::load(std::span<const LoadRequest> requests,
                            const ProgressFn &progress) {
  std::vector<Extent> extents = impl->planLoad(requests);
  impl->execute(extents, progress);
}

void CheckpointReader::verifyAll(const ProgressFn &progress) {
  impl->verify(impl->planVerify(nullptr), progress);
}

void CheckpointReader::verifyFile(const std::string &file,
                                  const ProgressFn &progress) {
  Impl &r = *impl;
  if (!r.manifest.findFile(file))
    fail(ENOENT, "checkpoint " + r.dir + " has no data file \"" + file + "\"");
  r.file(file); // its size, even when it holds no chunk
  r.verify(r.planVerify(&file), progress);
}

std::vector<ReadRange>
CheckpointReader::planReads(std::span<const LoadRequest> requests) const {
  return rangesOf(impl->planLoad(requests));
}

std::vector<ReadRange>
CheckpointReader::planVerifyReads(const std::string *file) const {
  return rangesOf(impl->planVerify(file));
}

ResumeState CheckpointReader::resumeState(uint32_t rank,
                                          uint32_t worldSize) const {
  const Manifest &m = impl->manifest;
  if (worldSize == 0 || rank >= worldSize)
    fail(EINVAL, "rank " + std::to_string(rank) + " is outside world size " +
                     std::to_string(worldSize));
  ResumeState state;
  state.step = m.step;
  if (rank < m.worldSize && !m.ranks[rank].rng.empty()) {
    state.rngRestored = true;
    state.rng = m.ranks[rank].rng;
  }
  if (worldSize == m.worldSize) {
    state.dataLoaderPosition = m.ranks[rank].dataLoaderPosition;
    return state;
  }
  state.positionIsGlobal = true;
  for (const RankState &saved : m.ranks)
    state.dataLoaderPosition += saved.dataLoaderPosition;
  return state;
}

} // namespace ssd::rt::ckpt
