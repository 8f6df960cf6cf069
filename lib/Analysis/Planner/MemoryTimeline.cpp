//===- MemoryTimeline.cpp - Live bytes over a training step ---------------===//
//
// Live bytes come from Plan::liveBytes (one difference array); the tensors
// live at a point are found by scanning lifetimes, which is linear and only
// done on request.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/MemoryTimeline.h"

#include <algorithm>

using namespace ssd::planner;

MemoryTimeline::MemoryTimeline(const StepGraph &graph,
                               const LifetimeAnalysis &lifetimes,
                               const Plan *plan)
    : graph(graph), lifetimes(lifetimes), absences(graph.numTensors()) {
  Plan unplanned;
  live = (plan ? *plan : unplanned).liveBytes(graph, lifetimes);
  peakPoint = std::max_element(live.begin(), live.end()) - live.begin();
  if (plan)
    forEachAbsence(
        *plan, graph, lifetimes,
        [&](const Gap &gap, uint32_t from, uint32_t to, uint64_t bytes) {
          absences[gap.tensor].push_back({from, to, bytes});
        });
}

uint64_t MemoryTimeline::getBytesAway(TensorId tensor, uint32_t point) const {
  uint64_t away = 0;
  for (const Absence &absence : absences[tensor])
    if (absence.from <= point && point < absence.to)
      away += absence.bytes;
  return away;
}

uint64_t MemoryTimeline::getResidentBytes(TensorId tensor,
                                          uint32_t point) const {
  return graph.getTensor(tensor).bytes - getBytesAway(tensor, point);
}

std::vector<TensorId> MemoryTimeline::getLiveTensors(uint32_t point) const {
  std::vector<TensorId> tensors;
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    if (graph.getTensor(tensor).isAlias() ||
        point < lifetimes.getLiveStart(tensor) ||
        point > lifetimes.getLiveEnd(tensor))
      continue;
    uint64_t away = getBytesAway(tensor, point);
    if (!away || away < graph.getTensor(tensor).bytes)
      tensors.push_back(tensor);
  }
  llvm::stable_sort(tensors, [&](TensorId a, TensorId b) {
    return getResidentBytes(a, point) > getResidentBytes(b, point);
  });
  return tensors;
}

void MemoryTimeline::print(llvm::raw_ostream &os, unsigned largest) const {
  os << "peak " << getPeakBytes() << " bytes at ";
  if (peakPoint == lifetimes.returnPoint())
    os << "the return";
  else
    os << "op '" << graph.getOp(peakPoint).name << "' (#" << peakPoint << ")";
  os << "\n";
  std::vector<TensorId> tensors = getLiveTensors(peakPoint);
  for (size_t i = 0; i < tensors.size() && i < largest; ++i) {
    const Tensor &tensor = graph.getTensor(tensors[i]);
    uint64_t resident = getResidentBytes(tensors[i], peakPoint);
    os << "  %" << tensors[i] << " '" << tensor.name << "' " << resident
       << " bytes" << (resident != tensor.bytes ? " (a part read back)" : "")
       << ", " << roleName(lifetimes.getRole(tensors[i])) << "\n";
  }
  if (tensors.size() > largest)
    os << "  ... and " << tensors.size() - largest << " more\n";
}
