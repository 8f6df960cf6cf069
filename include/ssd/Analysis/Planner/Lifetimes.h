//===- Lifetimes.h - Tensor lifetimes of a training step --------*- C++ -*-===//
//
// Where each tensor is defined, touched and last used, and its role as
// declared or inferred. Program points are the ops 0..N-1 plus the return
// at point N, where returned tensors are touched. A tensor occupies memory
// at every point from its definition (point 0 for arguments) to its last
// touch unless a plan says otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_LIFETIMES_H
#define SSD_ANALYSIS_PLANNER_LIFETIMES_H

#include "ssd/Analysis/Planner/StepGraph.h"

#include <optional>
#include <vector>

namespace ssd::planner {

class LifetimeAnalysis {
public:
  explicit LifetimeAnalysis(const StepGraph &graph);

  /// Ops plus the return point.
  uint32_t numPoints() const { return returnPointIndex + 1; }
  uint32_t returnPoint() const { return returnPointIndex; }

  /// The points at which `tensor` must be resident, ascending and unique:
  /// its defining op, every op that reads it, and the return point when it
  /// is returned; also every touch of a view whose rebuilding needs it (the
  /// storage of an operand of the view's defining op, through chains of
  /// views): between those the storage may leave, and the plan's rewrite
  /// rebuilds the view from the reloaded storage. Arguments are not touched
  /// at entry.
  llvm::ArrayRef<uint32_t> getTouches(TensorId tensor) const {
    return llvm::ArrayRef<uint32_t>(touchPoints)
        .slice(touchBegin[tensor], touchBegin[tensor + 1] - touchBegin[tensor]);
  }
  /// The touches after the definition: the uses.
  llvm::ArrayRef<uint32_t> getUses(TensorId tensor) const;
  /// The first slot at which the tensor exists and may be offloaded: 0 for
  /// an argument, right after the defining op for a result.
  uint32_t getFirstSlotAfterDefinition(TensorId tensor) const {
    const std::optional<OpId> &def = graph.getTensor(tensor).definingOp;
    return def ? *def + 1 : 0;
  }
  /// First and last point at which the unplanned tensor occupies memory.
  uint32_t getLiveStart(TensorId tensor) const { return liveStart[tensor]; }
  uint32_t getLiveEnd(TensorId tensor) const { return liveEnd[tensor]; }
  /// The declared role, or the inferred one where the declaration is
  /// `unknown`: a result defined before the backward start and used after it
  /// is a saved activation; a result defined after it that feeds the op
  /// defining a persistent argument's next value is a gradient; any other
  /// result is a temporary.
  TensorRole getRole(TensorId tensor) const { return roles[tensor]; }
  /// The first op of the backward pass: the graph's, else the op at the
  /// unplanned memory peak.
  uint32_t getBackwardStart() const { return backwardStart; }
  /// Tensors that must be resident at `point`.
  llvm::ArrayRef<TensorId> getTouchedAt(uint32_t point) const {
    return llvm::ArrayRef<TensorId>(touchedTensors)
        .slice(touchedBegin[point],
               touchedBegin[point + 1] - touchedBegin[point]);
  }
  /// Whether the touch of `tensor` at `point` may find it on SSD: a
  /// returned value with a steady-state partner may be returned as a handle,
  /// unless it is a view or a view of it is returned too.
  bool mayLeaveOnSsd(TensorId tensor, uint32_t point) const;
  /// Bytes that must be resident at `point` in any plan, each tensor counted
  /// once: the op's operands and results, or the returned values that may
  /// not leave on SSD; of a tensor touched there in its part tail, only the
  /// part's (a partial reload may bring back that range alone).
  uint64_t getRequiredBytes(uint32_t point) const { return required[point]; }

  /// Where only a part of a tensor is needed up to its end: from touch
  /// `from` on, every touch of the tensor is a use of `view` alone, a view
  /// that is one byte range of it (`Tensor::part`) and is not returned. A
  /// plan may then read back only that range for those uses (`Gap::part`):
  /// at those points only the part's bytes must be resident. `lastOther` is
  /// the touch before `from` (the tensor's definition at the earliest).
  struct PartTail {
    TensorId view = 0;
    uint32_t from = 0;
    uint32_t lastOther = 0;
  };
  /// The part tail of a tensor defined by an op that is not returned, where
  /// it has one.
  std::optional<PartTail> getPartTail(TensorId tensor) const {
    return partTails.empty() ? std::nullopt : partTails[tensor];
  }
  /// The view whose byte range alone a reload of `tensor` waiting at
  /// `waitPoint` may read back (`Gap::part`): its part tail's view when the
  /// wait is in that tail. The caller still keeps the reload the tensor's
  /// last gap.
  std::optional<TensorId> getReloadablePart(TensorId tensor,
                                            uint32_t waitPoint) const {
    std::optional<PartTail> tail = getPartTail(tensor);
    if (!tail || waitPoint < tail->from)
      return std::nullopt;
    return tail->view;
  }

  void print(llvm::raw_ostream &os) const;

private:
  const StepGraph &graph;
  uint32_t returnPointIndex;
  std::vector<uint32_t> touchBegin, touchPoints;
  std::vector<uint32_t> touchedBegin;
  std::vector<TensorId> touchedTensors;
  std::vector<uint32_t> liveStart, liveEnd;
  std::vector<uint64_t> required;
  std::vector<TensorRole> roles;
  /// Empty when no view of the step is a part.
  std::vector<std::optional<PartTail>> partTails;
  /// Storage that a returned view pins through the return.
  std::vector<bool> pinnedAtReturn;
  uint32_t backwardStart = 0;
};

/// Live bytes at every point of the unplanned step.
std::vector<uint64_t>
computeUnplannedLiveBytes(const StepGraph &graph,
                          const LifetimeAnalysis &lifetimes);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_LIFETIMES_H
