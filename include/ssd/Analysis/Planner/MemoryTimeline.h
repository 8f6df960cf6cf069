//===- MemoryTimeline.h - Live bytes over a training step -------*- C++ -*-===//
//
// Live bytes at every program point of a step, with or without a plan, the
// peak, and which tensors are live at a point: what the report's peaks and
// the memory picture are made of, and what a user reads to see why a step
// does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_MEMORYTIMELINE_H
#define SSD_ANALYSIS_PLANNER_MEMORYTIMELINE_H

#include "ssd/Analysis/Planner/Plan.h"

namespace ssd::planner {

class MemoryTimeline {
public:
  /// The timeline of the unplanned step, or of the step under `plan`.
  MemoryTimeline(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                 const Plan *plan = nullptr);

  llvm::ArrayRef<uint64_t> getLiveBytes() const { return live; }
  uint64_t getPeakBytes() const { return live[peakPoint]; }
  /// The first point at which the peak is reached.
  uint32_t getPeakPoint() const { return peakPoint; }
  /// Tensors holding device memory at `point`, largest first (views hold
  /// none: their roots are listed).
  std::vector<TensorId> getLiveTensors(uint32_t point) const;
  /// Bytes `tensor` holds at `point` when it is live there: its own, or
  /// after a partial reload (`Gap::part`) those of the part read back.
  uint64_t getResidentBytes(TensorId tensor, uint32_t point) const;

  /// The peak, where it is, and the largest tensors live there.
  void print(llvm::raw_ostream &os, unsigned largest = 10) const;

private:
  const StepGraph &graph;
  const LifetimeAnalysis &lifetimes;
  std::vector<uint64_t> live;
  uint32_t peakPoint = 0;
  /// Bytes of `tensor` that its gaps keep away at `point`.
  uint64_t getBytesAway(TensorId tensor, uint32_t point) const;

  /// Per tensor, the runs of points at which its gaps keep bytes of it away
  /// (`forEachAbsence`).
  struct Absence {
    uint32_t from, to;
    uint64_t bytes;
  };
  std::vector<std::vector<Absence>> absences;
};

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_MEMORYTIMELINE_H
