//===- FileRegion.cpp - Checkpoint tensors that live in files -------------===//
//
// Both directions cut the box into the same pieces (`forEachPiece`), each a
// contiguous range of the region that fits the buffer, and move one piece
// at a time through that buffer with buffered positional I/O: the region
// need not be aligned, and the writer's and reader's own O_DIRECT staging
// does the checkpoint side.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/FileRegion.h"

#include "BoxIndex.h"
#include "FileUtil.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <vector>

namespace ssd::rt::ckpt {

namespace {

/// A piece of a box: its own box in the global tensor, and where its bytes
/// start in the box's row-major bytes.
struct Piece {
  std::vector<uint64_t> offsets, sizes;
  uint64_t position = 0;
  uint64_t bytes = 0;
};

/// Calls `visit(piece)` for pieces that tile the box [offsets, offsets +
/// sizes) in row-major order, each one contiguous range of the box's bytes
/// of at most `bound` bytes (at least one element): one index of every
/// dimension before `split`, at most `rows` indices of dimension `split`,
/// all of every later one. Nothing for an empty box.
template <typename Visit>
void forEachPiece(std::span<const uint64_t> offsets,
                  std::span<const uint64_t> sizes, unsigned elem,
                  uint64_t bound, Visit &&visit) {
  size_t rank = sizes.size();
  if (volume({sizes.begin(), sizes.end()}) == 0)
    return;
  Piece piece;
  piece.offsets.assign(offsets.begin(), offsets.end());
  piece.sizes.assign(sizes.begin(), sizes.end());
  if (rank == 0) {
    piece.bytes = elem;
    visit(piece);
    return;
  }
  // The earliest dimension whose later dimensions, whole, fit the bound.
  size_t split = rank - 1;
  uint64_t inner = elem;
  while (split > 0 && inner * sizes[split] <= bound)
    inner *= sizes[split--];
  uint64_t extent = sizes[split];
  uint64_t rows = std::max<uint64_t>(1, bound / inner);
  auto visitRows = [&](const std::vector<uint64_t> &outer) {
    uint64_t outerIndex = 0;
    for (size_t d = 0; d < split; ++d) {
      piece.offsets[d] = offsets[d] + outer[d];
      piece.sizes[d] = 1;
      outerIndex = outerIndex * sizes[d] + outer[d];
    }
    for (uint64_t first = 0; first < extent; first += rows) {
      uint64_t count = std::min(rows, extent - first);
      piece.offsets[split] = offsets[split] + first;
      piece.sizes[split] = count;
      piece.position = (outerIndex * extent + first) * inner;
      piece.bytes = count * inner;
      visit(piece);
    }
  };
  if (split == 0) {
    visitRows({});
    return;
  }
  std::vector<uint64_t> lo(split, 0), hi(sizes.begin(), sizes.begin() + split);
  forEachBoxIndex(lo, hi, visitRows);
}

OwnedFd openRegionFile(const std::string &path, int flags, const char *what,
                       const std::string &tensor) {
  OwnedFd fd(::open(path.c_str(), flags | O_CLOEXEC));
  if (fd.get() < 0) {
    int error = errno;
    fail(error, "opening " + path + " to " + what + " tensor \"" + tensor +
                    "\" failed: " + errnoText(error));
  }
  return fd;
}

/// A buffer for the largest piece, no larger than the bound.
AlignedBuffer pieceBuffer(uint64_t totalBytes, uint64_t bound) {
  if (bound == 0 || bound % kIoAlignment)
    fail(EINVAL, "a region buffer must be a non-empty multiple of 4096 bytes, "
                 "not " +
                     std::to_string(bound));
  return allocateAligned(alignUp(std::min(totalBytes, bound), kIoAlignment));
}

void checkRegion(const std::string &path, uint64_t offset, uint64_t bytes,
                 const std::string &tensor) {
  if (offset > UINT64_MAX - bytes)
    fail(EINVAL, "the region of tensor \"" + tensor + "\" at offset " +
                     std::to_string(offset) + " of " + path + " overflows");
}

} // namespace

void addChunksFromFile(RankWriter &writer, const std::string &name, DType dtype,
                       std::span<const uint64_t> shape,
                       std::span<const uint64_t> offsets,
                       std::span<const uint64_t> sizes,
                       const std::string &source, uint64_t sourceOffset,
                       uint64_t bufferBytes) {
  unsigned elem = dtypeSize(dtype);
  if (offsets.size() != shape.size() || sizes.size() != shape.size())
    fail(EINVAL, "tensor \"" + name + "\": offsets and sizes need " +
                     std::to_string(shape.size()) + " entries like the shape");
  uint64_t total = volume({sizes.begin(), sizes.end()}) * elem;
  if (total == 0) {
    // An empty box is still a chunk (it checks the box, too).
    writer.addChunk(name, dtype, shape, offsets, sizes, nullptr);
    return;
  }
  checkRegion(source, sourceOffset, total, name);
  AlignedBuffer buffer = pieceBuffer(total, bufferBytes);
  OwnedFd fd = openRegionFile(source, O_RDONLY, "save", name);
  forEachPiece(offsets, sizes, elem, bufferBytes, [&](const Piece &piece) {
    readExactly(fd.get(), buffer.get(), piece.bytes,
                sourceOffset + piece.position, source);
    writer.addChunk(name, dtype, shape, piece.offsets, piece.sizes,
                    buffer.get());
  });
  fd.close(source);
}

void loadIntoFile(CheckpointReader &reader, const LoadRequest &request,
                  const std::string &path, uint64_t fileOffset,
                  uint64_t bufferBytes) {
  unsigned elem = dtypeSize(request.dtype);
  // Everything is checked before the first write: the tensor, dtype and
  // shape by `load` (of an empty box at the offsets), the box here.
  LoadRequest check = request;
  char scalar[16]; // a 0-d box has one element: the largest dtype's size
  check.dest = scalar;
  check.sizes.assign(request.sizes.size(), 0);
  reader.load({&check, 1});
  for (size_t d = 0; d < request.shape.size(); ++d)
    if (request.sizes[d] > request.shape[d] - request.offsets[d])
      fail(EINVAL, "load of tensor \"" + request.tensor + "\" into " + path +
                       ": requested box lies outside the shape in "
                       "dimension " +
                       std::to_string(d));
  uint64_t total = volume(request.sizes) * elem;
  if (total == 0)
    return;
  checkRegion(path, fileOffset, total, request.tensor);
  AlignedBuffer buffer = pieceBuffer(total, bufferBytes);
  OwnedFd fd = openRegionFile(path, O_WRONLY, "load", request.tensor);
  LoadRequest part = request;
  part.dest = buffer.get();
  forEachPiece(request.offsets, request.sizes, elem, bufferBytes,
               [&](const Piece &piece) {
                 part.offsets = piece.offsets;
                 part.sizes = piece.sizes;
                 reader.load({&part, 1});
                 writeExactly(fd.get(), buffer.get(), piece.bytes,
                              fileOffset + piece.position, path);
               });
  fd.close(path);
}

} // namespace ssd::rt::ckpt
