//===- RankWriter.cpp - One rank's data file ------------------------------===//
//
// Chunks are copied into a ring of aligned staging buffers and written
// sequentially with O_DIRECT through the I/O engine, several buffers in
// flight while the caller's thread copies and checksums the next chunk.
// Each chunk starts at a 4096-byte boundary so that its checksum blocks are
// aligned reads for the loader; the file is zero-padded to a multiple of
// 4096 bytes. The ring outlives its writer: the next writer of the process
// takes it back (a checkpoint every step would otherwise map and fault in
// 32 MiB of fresh staging memory per step).
//
//===----------------------------------------------------------------------===//
#include "FileUtil.h"
#include "Hash.h"
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ssd::rt::ckpt {

std::unique_ptr<IoEngine> makeCheckpointEngine(unsigned queueDepth) {
  std::string note;
  return std::make_unique<IoEngine>(
      makeBackend(EngineKind::Auto, queueDepth, note));
}

namespace {

/// Bytes copied and then hashed at a time: the source piece is still in
/// the core's cache when the hash reads it.
constexpr uint64_t kCopyPiece = 64u << 10;

/// memcpy for bytes that only the disk reads next: non-temporal stores
/// write the staging buffer without first reading it into the cache, and
/// without evicting what the step computing beside the writer has there
/// (a plain memcpy into the 32 MiB ring slowed the step's thread on the
/// other core; copy and hash of 48 MiB 6.2 -> 4.4 ms here). The hash is
/// taken of the source right after (the same bytes: the caller keeps them
/// unchanged during the call), as the staged copy is not in the cache.
void copyForDisk(char *dst, const char *src, uint64_t n) {
#if defined(__SSE2__)
  uint64_t at = 0;
  if (reinterpret_cast<uintptr_t>(dst) % 16 == 0) {
    for (; at + 64 <= n; at += 64) {
      const __m128i *from = reinterpret_cast<const __m128i *>(src + at);
      __m128i *to = reinterpret_cast<__m128i *>(dst + at);
      __m128i a = _mm_loadu_si128(from), b = _mm_loadu_si128(from + 1);
      __m128i c = _mm_loadu_si128(from + 2), d = _mm_loadu_si128(from + 3);
      _mm_stream_si128(to, a);
      _mm_stream_si128(to + 1, b);
      _mm_stream_si128(to + 2, c);
      _mm_stream_si128(to + 3, d);
    }
    // Streaming stores are weakly ordered: visible before the write that
    // the kernel makes from this buffer is submitted.
    _mm_sfence();
  }
  std::memcpy(dst + at, src + at, n - at);
#else
  std::memcpy(dst, src, n);
#endif
}

} // namespace

struct RankWriter::Impl {
  Impl(IoEngine &engine, const std::string &dir, uint32_t rank, uint64_t step,
       IoOptions options, uint64_t block)
      : engine(engine), fileName(rankDataFileName(rank)),
        path(dir + "/" + fileName), options(options), checksumBlock(block) {
    if (options.stagingBytes == 0 || options.stagingBytes % kIoAlignment ||
        options.stagingBuffers == 0)
      fail(EINVAL, "staging buffers must be non-empty multiples of 4096 bytes");
    bool direct = false;
    fd = openDataFile(path, O_WRONLY | O_CREAT | O_TRUNC, options.direct,
                      direct);
    slots.resize(options.stagingBuffers);
    for (Slot &slot : slots)
      slot.buffer = StagingCache::process().take(options.stagingBytes);
    record.step = step;
    record.state.rank = rank;
    record.state.file = fileName;
    if (!hash)
      fail(ENOMEM, "cannot allocate an XXH3 state");
  }

  ~Impl() {
    // The engine writes from the staging buffers; they must outlive it.
    for (Slot &slot : slots)
      if (slot.pending.valid())
        slot.pending.wait();
    for (Slot &slot : slots)
      StagingCache::process().give(std::move(slot.buffer));
  }

  struct Slot {
    StagingCache::Buffer buffer;
    std::future<IoResult> pending;
    uint64_t offset = 0;
    uint64_t length = 0;
  };

  /// Waits for the slot's write. The engine fulfils the future only after
  /// the last raw write of the request completed, i.e. after the kernel is
  /// done with the buffer, and future::get synchronises with that, so the
  /// slot may be refilled as soon as this returns.
  void awaitSlot(Slot &slot) {
    if (!slot.pending.valid())
      return;
    IoResult result = slot.pending.get();
    throwIfFailed(result, "write", path, slot.offset, slot.length);
  }

  /// Writes the current buffer's first `bytes` (a multiple of 4096) and
  /// moves to the next buffer once it is free.
  void flush(uint64_t bytes) {
    Slot &slot = slots[current];
    slot.offset = bufferStart;
    slot.length = bytes;
    IoRequest request;
    request.kind = IoOpKind::Write;
    request.fd = fd.get();
    request.buf = slot.buffer.memory.get();
    request.len = bytes;
    request.offset = bufferStart;
    slot.pending = engine.submit(request);
    bufferStart += bytes;
    fill = 0;
    current = (current + 1) % slots.size();
    awaitSlot(slots[current]);
  }

  /// Copies `length` bytes of `src` (zeros when null) into the staging
  /// ring, flushing full buffers. With `hash`, also hashes the bytes, piece
  /// by piece right after copying each (see `copyForDisk`).
  void append(const char *src, uint64_t length, XXH3_state_t *hash) {
    while (length > 0) {
      uint64_t n = std::min(length, options.stagingBytes - fill);
      char *dst = slots[current].buffer.memory.get() + fill;
      if (src) {
        for (uint64_t at = 0; at < n; at += kCopyPiece) {
          uint64_t piece = std::min(kCopyPiece, n - at);
          copyForDisk(dst + at, src + at, piece);
          if (hash)
            XXH3_64bits_update(hash, src + at, piece);
        }
        src += n;
      } else {
        std::memset(dst, 0, n);
        if (hash)
          XXH3_64bits_update(hash, dst, n);
      }
      fill += n;
      length -= n;
      if (fill == options.stagingBytes)
        flush(fill);
    }
  }

  void padToAlignment() {
    uint64_t position = bufferStart + fill;
    append(nullptr, alignUp(position, kIoAlignment) - position, nullptr);
  }

  IoEngine &engine;
  std::string fileName, path;
  IoOptions options;
  uint64_t checksumBlock;
  OwnedFd fd;
  std::vector<Slot> slots;
  size_t current = 0;
  /// File offset of the current buffer's first byte, and bytes in it.
  uint64_t bufferStart = 0;
  uint64_t fill = 0;
  RankRecord record;
  bool finished = false;
  struct HashDeleter {
    void operator()(XXH3_state_t *state) const { XXH3_freeState(state); }
  };
  std::unique_ptr<XXH3_state_t, HashDeleter> hash{XXH3_createState()};
};

RankWriter::RankWriter(IoEngine &engine, const std::string &dir, uint32_t rank,
                       uint64_t step, IoOptions options,
                       uint64_t checksumBlockBytes)
    : impl(std::make_unique<Impl>(engine, dir, rank, step, options,
                                  checksumBlockBytes)) {}

RankWriter::~RankWriter() = default;

void RankWriter::addChunk(const std::string &name, DType dtype,
                          std::span<const uint64_t> shape,
                          std::span<const uint64_t> offsets,
                          std::span<const uint64_t> sizes, const void *data) {
  Impl &w = *impl;
  if (w.finished)
    fail(EINVAL, "addChunk after finish on " + w.path);
  // Refused before the tensor's bytes are written, not by the commit.
  if (const char *fault = tensorNameFault(name))
    fail(EINVAL, w.path + ": " + fault);
  std::string what = w.path + ": tensor \"" + name + "\"";
  if (offsets.size() != shape.size() || sizes.size() != shape.size())
    fail(EINVAL, what + ": offsets and sizes need " +
                     std::to_string(shape.size()) + " entries like the shape");
  for (size_t d = 0; d < shape.size(); ++d)
    if (offsets[d] > shape[d] || sizes[d] > shape[d] - offsets[d])
      fail(EINVAL, what + ": box lies outside the shape in dimension " +
                       std::to_string(d));
  uint64_t length = volume(sizes) * dtypeSize(dtype);
  if (length > 0 && !data)
    fail(EINVAL, what + ": null data");

  w.padToAlignment();
  RankRecord::Piece piece;
  piece.tensor = name;
  piece.dtype = dtype;
  piece.shape.assign(shape.begin(), shape.end());
  Chunk &chunk = piece.chunk;
  chunk.offsets.assign(offsets.begin(), offsets.end());
  chunk.sizes.assign(sizes.begin(), sizes.end());
  chunk.file = w.fileName;
  chunk.fileOffset = w.bufferStart + w.fill;
  chunk.length = length;
  const char *bytes = static_cast<const char *>(data);
  for (uint64_t at = 0; at < length; at += w.checksumBlock) {
    XXH3_64bits_reset(w.hash.get());
    w.append(bytes + at, std::min(w.checksumBlock, length - at), w.hash.get());
    chunk.checksums.push_back(XXH3_64bits_digest(w.hash.get()));
  }
  w.record.pieces.push_back(std::move(piece));
}

void RankWriter::setRankState(std::string rng, uint64_t dataLoaderPosition) {
  impl->record.state.rng = std::move(rng);
  impl->record.state.dataLoaderPosition = dataLoaderPosition;
}

void RankWriter::setStateTree(JsonValue tree) {
  impl->record.stateTree = std::move(tree);
}

RankRecord RankWriter::finish() {
  Impl &w = *impl;
  if (w.finished)
    fail(EINVAL, "finish called twice on " + w.path);
  w.padToAlignment();
  if (w.fill > 0)
    w.flush(w.fill);
  for (Impl::Slot &slot : w.slots)
    w.awaitSlot(slot);
  IoRequest sync;
  sync.kind = IoOpKind::Fsync;
  sync.fd = w.fd.get();
  throwIfFailed(w.engine.run(sync), "fsync", w.path, 0, w.bufferStart);
  w.fd.close(w.path);
  w.finished = true;
  w.record.state.fileBytes = w.bufferStart;
  return std::move(w.record);
}

} // namespace ssd::rt::ckpt
