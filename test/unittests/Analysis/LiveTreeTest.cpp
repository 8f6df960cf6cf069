//===- LiveTreeTest.cpp - The prefetch scheduler's range queries ----------===//
//
// The live-bytes tree against a plain array on random steps: after random
// range additions, `at` and `lastAbove` (empty ranges and ranges past the
// step included) answer as a scan does, with limits drawn near the values so
// that answers fall inside, before and after each range.
//
//===----------------------------------------------------------------------===//

#include "LiveTree.h"

#include <gtest/gtest.h>

#include <random>

using namespace ssd::planner;

namespace {

int64_t lastAboveByScan(const std::vector<int64_t> &values, uint32_t from,
                        uint32_t to, int64_t limit) {
  for (int64_t point = std::min<int64_t>(to, values.size()) - 1;
       point >= static_cast<int64_t>(from); --point)
    if (values[point] > limit)
      return point;
  return -1;
}

TEST(LiveTreeTest, MatchesAScanAfterRandomAdditions) {
  std::mt19937_64 random(19);
  for (unsigned trial = 0; trial < 300; ++trial) {
    size_t size = std::uniform_int_distribution<size_t>(1, 300)(random);
    std::vector<uint64_t> initial(size);
    for (uint64_t &value : initial)
      value = std::uniform_int_distribution<uint64_t>(0, 1000)(random);
    std::vector<int64_t> values(initial.begin(), initial.end());
    LiveTree tree(initial);
    auto point = [&](size_t past) {
      return std::uniform_int_distribution<uint32_t>(0, size + past)(random);
    };
    for (unsigned step = 0; step < 200; ++step) {
      uint32_t from = point(2), to = point(2);
      if (step % 2) {
        int64_t delta =
            std::uniform_int_distribution<int64_t>(-300, 300)(random);
        tree.add(from, to, delta);
        for (uint32_t at = from; at < std::min<size_t>(to, size); ++at)
          values[at] += delta;
        continue;
      }
      int64_t limit = values[point(0) % size] +
                      std::uniform_int_distribution<int64_t>(-2, 1)(random);
      ASSERT_EQ(tree.lastAbove(from, to, limit),
                lastAboveByScan(values, from, to, limit))
          << "trial " << trial << " size " << size << " [" << from << ", " << to
          << ") limit " << limit;
    }
    for (uint32_t at = 0; at < size; ++at)
      ASSERT_EQ(tree.at(at), values[at]) << "trial " << trial << " at " << at;
  }
}

} // namespace
