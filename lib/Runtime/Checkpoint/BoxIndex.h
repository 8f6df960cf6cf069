//===- BoxIndex.h - Row-major walk over a box of indices --------*- C++ -*-===//
//
// Internal to lib/Runtime/Checkpoint: the one odometer that both the chunk
// grid (over cells) and the reader (over copy runs) step through a
// multi-dimensional box with.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_LIB_RUNTIME_CHECKPOINT_BOXINDEX_H
#define SSD_LIB_RUNTIME_CHECKPOINT_BOXINDEX_H

#include <cstddef>
#include <vector>

namespace ssd::rt::ckpt {

/// Calls `visit(at)` for every index `at` of the box [lo, hi) in row-major
/// order. An empty box visits nothing; a 0-d box (empty `lo`) visits once.
template <typename Index, typename Visit>
void forEachBoxIndex(const std::vector<Index> &lo, const std::vector<Index> &hi,
                     Visit &&visit) {
  size_t rank = lo.size();
  for (size_t d = 0; d < rank; ++d)
    if (lo[d] >= hi[d])
      return;
  std::vector<Index> at = lo;
  while (true) {
    visit(static_cast<const std::vector<Index> &>(at));
    // Advance the last dimension, carrying into earlier ones.
    size_t d = rank;
    while (d > 0 && ++at[d - 1] >= hi[d - 1]) {
      at[d - 1] = lo[d - 1];
      --d;
    }
    if (d == 0)
      return;
  }
}

} // namespace ssd::rt::ckpt

#endif // SSD_LIB_RUNTIME_CHECKPOINT_BOXINDEX_H
