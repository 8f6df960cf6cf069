//===- LiveTree.h - Live bytes under range additions ------------*- C++ -*-===//
//
// The prefetch scheduler's view of live bytes per program point: range
// additions and the two queries it needs, the value at a point and the last
// point of a range above a limit, each in O(log n) without recursion. A
// private header of the planner, included by its unit test.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_LIB_ANALYSIS_PLANNER_LIVETREE_H
#define SSD_LIB_ANALYSIS_PLANNER_LIVETREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ssd::planner {

/// A binary tree over a power of two of leaves, kept in one array (node i's
/// children are 2i and 2i + 1) whose nodes hold their maximum and pending
/// addition side by side; a node's maximum includes its own pending
/// addition. Additions go bottom-up: the planner makes one per reload of
/// every plan it schedules, and one query before each.
class LiveTree {
public:
  explicit LiveTree(llvm::ArrayRef<uint64_t> initial) : size(initial.size()) {
    leaves = llvm::PowerOf2Ceil(std::max<size_t>(size, 1));
    depth = llvm::Log2_64(leaves);
    // Leaves past the step are below any limit and never added to.
    nodes.assign(2 * leaves, Node{std::numeric_limits<int64_t>::min() / 2, 0});
    for (size_t point = 0; point < size; ++point)
      nodes[leaves + point].maximum = initial[point];
    for (size_t node = leaves - 1; node > 0; --node)
      nodes[node].maximum =
          std::max(nodes[2 * node].maximum, nodes[2 * node + 1].maximum);
  }

  /// Adds `delta` to the points [from, to).
  void add(uint32_t from, uint32_t to, int64_t delta) {
    size_t end = std::min<size_t>(to, size);
    if (from >= end || !delta)
      return;
    size_t low = leaves + from, high = leaves + end;
    size_t first = low, last = high - 1;
    for (; low < high; low /= 2, high /= 2) {
      if (low & 1)
        apply(low++, delta);
      if (high & 1)
        apply(--high, delta);
    }
    pullUp(first, last);
  }

  int64_t at(uint32_t point) const {
    size_t node = leaves + point;
    int64_t value = nodes[node].maximum;
    for (node /= 2; node > 0; node /= 2)
      value += nodes[node].pending;
    return value;
  }

  /// The last point in [from, to) whose value exceeds `limit`, or -1.
  ///
  /// Walks down to the range's last point, noting the left sibling of every
  /// right turn: those siblings tile the points before it, nearest first
  /// when read back. The first one (or the point itself) holding a value
  /// above the limit contains the answer, found by descending into the
  /// rightmost child above it; a sibling reaching back to `from` ends the
  /// search. Two root-to-leaf walks at most.
  int64_t lastAbove(uint32_t from, uint32_t to, int64_t limit) const {
    size_t end = std::min<size_t>(to, size);
    if (from >= end)
      return -1;
    size_t leaf = leaves + end - 1;
    // Sibling i lies at height i (0 where the path turns left there);
    // `above[i]` sums its ancestors' pending.
    size_t sibling[64];
    int64_t above[64];
    int64_t pending = 0;
    for (unsigned height = depth; height > 0; --height) {
      pending += nodes[leaf >> height].pending;
      size_t child = leaf >> (height - 1);
      sibling[height - 1] = child & 1 ? child - 1 : 0;
      above[height - 1] = pending;
    }
    if (nodes[leaf].maximum + pending > limit)
      return end - 1;
    for (unsigned height = 0; height < depth; ++height) {
      size_t node = sibling[height];
      if (!node)
        continue;
      size_t low = (node << height) - leaves;
      if (nodes[node].maximum + above[height] > limit) {
        size_t point = descendToLastAbove(node, above[height], limit);
        return point >= from ? static_cast<int64_t>(point) : -1;
      }
      if (low <= from)
        return -1;
    }
    return -1;
  }

private:
  struct Node {
    int64_t maximum;
    int64_t pending;
  };

  void apply(size_t node, int64_t delta) {
    nodes[node].maximum += delta;
    nodes[node].pending += delta;
  }

  /// Recomputes the maxima of the ancestors of the leaves `first` and `last`,
  /// level by level so that each shared ancestor is recomputed once.
  void pullUp(size_t first, size_t last) {
    for (first /= 2, last /= 2; first > 0; first /= 2, last /= 2) {
      recompute(first);
      if (last != first)
        recompute(last);
    }
  }

  void recompute(size_t node) {
    nodes[node].maximum =
        std::max(nodes[2 * node].maximum, nodes[2 * node + 1].maximum) +
        nodes[node].pending;
  }

  /// The last point under `node` whose value exceeds `limit`, given that the
  /// node's maximum plus `above` (its ancestors' pending) does.
  size_t descendToLastAbove(size_t node, int64_t above, int64_t limit) const {
    while (node < leaves) {
      above += nodes[node].pending;
      node = 2 * node + 1;
      if (nodes[node].maximum + above <= limit)
        --node;
    }
    return node - leaves;
  }

  size_t size;
  size_t leaves;
  unsigned depth;
  std::vector<Node> nodes;
};

} // namespace ssd::planner

#endif // SSD_LIB_ANALYSIS_PLANNER_LIVETREE_H
