//===- Plan.cpp - Residency plan of a training step -----------------------===//
//
// Plan bookkeeping (write flags, byte counts, live bytes) and the static plan
// verifier.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Plan.h"
#include "ssd/Analysis/Planner/Simulator.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace ssd::planner;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

std::pair<uint32_t, uint32_t>
ssd::planner::absentPoints(const Gap &gap, const LifetimeAnalysis &lifetimes) {
  uint32_t from =
      std::max(gap.absentFrom(), lifetimes.getLiveStart(gap.tensor));
  uint32_t to = std::min(gap.absentTo(lifetimes.numPoints()),
                         lifetimes.getLiveEnd(gap.tensor) + 1);
  return {from, to};
}

void Plan::finalize() {
  // By (tensor, absentFrom): a counting sort by tensor, as each sweep of a
  // large step finalizes tens of thousands of gaps.
  TensorId tensors = 0;
  for (const Gap &gap : gaps)
    tensors = std::max(tensors, gap.tensor + 1);
  SlotBuckets order = bucketBySlot(
      *this, tensors, [](const Gap &gap) { return gap.tensor; },
      [](const Gap &gap) { return gap.absentFrom(); },
      [](const Gap &) { return true; });
  std::vector<Gap> sorted;
  sorted.reserve(gaps.size());
  for (uint32_t index : order.gaps)
    sorted.push_back(gaps[index]);
  gaps = std::move(sorted);
  // Tensors are immutable, so once a tensor is on SSD every later gap
  // reuses that copy.
  bool copyOnSsd = false;
  for (size_t i = 0; i < gaps.size(); ++i) {
    if (i == 0 || gaps[i - 1].tensor != gaps[i].tensor)
      copyOnSsd = false;
    gaps[i].writes = !gaps[i].entersOnSsd && !copyOnSsd;
    copyOnSsd = true;
  }
}

unsigned ssd::planner::reloadPartsOnly(Plan &plan, const StepGraph &graph,
                                       const LifetimeAnalysis &lifetimes) {
  unsigned changed = 0;
  for (size_t i = 0; i < plan.gaps.size(); ++i) {
    Gap &gap = plan.gaps[i];
    bool last =
        i + 1 == plan.gaps.size() || plan.gaps[i + 1].tensor != gap.tensor;
    if (!last || !gap.reloads() || gap.part)
      continue;
    gap.part = lifetimes.getReloadablePart(gap.tensor, gap.waitPoint);
    changed += gap.part.has_value();
  }
  return changed;
}

uint64_t Plan::bytesOffloaded(const StepGraph &graph) const {
  uint64_t bytes = 0;
  for (const Gap &gap : gaps)
    if (gap.writes)
      bytes += graph.getTensor(gap.tensor).bytes;
  return bytes;
}

uint64_t Plan::bytesPrefetched(const StepGraph &graph) const {
  uint64_t bytes = 0;
  for (const Gap &gap : gaps)
    if (gap.reloads())
      bytes += gap.reloadBytes(graph);
  return bytes;
}

std::vector<uint64_t> Plan::liveBytes(const StepGraph &graph,
                                      const LifetimeAnalysis &lifetimes) const {
  uint32_t points = lifetimes.numPoints();
  std::vector<int64_t> delta(points + 1, 0);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    int64_t bytes = graph.getTensor(tensor).bytes;
    delta[lifetimes.getLiveStart(tensor)] += bytes;
    delta[lifetimes.getLiveEnd(tensor) + 1] -= bytes;
  }
  forEachAbsence(*this, graph, lifetimes,
                 [&](const Gap &, uint32_t from, uint32_t to, uint64_t bytes) {
                   delta[from] -= bytes;
                   delta[to] += bytes;
                 });
  std::vector<uint64_t> live(points);
  int64_t running = 0;
  for (uint32_t point = 0; point < points; ++point) {
    running += delta[point];
    live[point] = running;
  }
  return live;
}

void Plan::print(llvm::raw_ostream &os, const StepGraph &graph) const {
  os << "plan (" << policy << (detail.empty() ? "" : ", " + detail)
     << ") budget=" << memoryBudget << " gaps=" << gaps.size() << "\n";
  for (const Gap &gap : gaps) {
    os << "  %" << gap.tensor << " '" << graph.getTensor(gap.tensor).name
       << "'";
    if (gap.entersOnSsd)
      os << " enters-on-ssd";
    else
      os << (gap.writes ? " offload@" + std::to_string(gap.offloadSlot)
                        : std::string(" (copy on ssd)"))
         << " release@" << gap.releaseSlot;
    if (gap.leavesOnSsd)
      os << " leaves-on-ssd";
    else
      os << " prefetch@" << gap.prefetchSlot << " wait@" << gap.waitPoint;
    if (gap.part)
      os << " part %" << *gap.part << " (" << gap.reloadBytes(graph)
         << " bytes)";
    os << "\n";
  }
}

llvm::json::Value Plan::toJSON(const StepGraph &graph) const {
  // Where each tensor is: its position among the arguments, or its defining
  // op and result number.
  std::vector<uint32_t> position(graph.numTensors(), 0);
  uint32_t arguments = 0;
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor)
    if (graph.getTensor(tensor).isArgument())
      position[tensor] = arguments++;
  for (const Op &op : graph.getOps())
    for (auto [result, tensor] : llvm::enumerate(op.results))
      position[tensor] = result;

  llvm::json::Array array;
  for (const Gap &gap : gaps) {
    const Tensor &tensor = graph.getTensor(gap.tensor);
    llvm::json::Object object{{"tensor", tensor.name},
                              {"bytes", static_cast<int64_t>(tensor.bytes)},
                              {"enters_on_ssd", gap.entersOnSsd},
                              {"leaves_on_ssd", gap.leavesOnSsd},
                              {"writes", gap.writes}};
    if (tensor.isArgument()) {
      object["argument"] = position[gap.tensor];
    } else {
      object["op"] = *tensor.definingOp;
      object["result"] = position[gap.tensor];
    }
    if (gap.writes)
      object["offload_slot"] = gap.offloadSlot;
    if (!gap.entersOnSsd)
      object["release_slot"] = gap.releaseSlot;
    if (gap.reloads()) {
      object["prefetch_slot"] = gap.prefetchSlot;
      object["wait_point"] = gap.waitPoint;
    }
    if (gap.part) {
      const Tensor::Part &part = *graph.getPart(*gap.part);
      object["part_offset"] = static_cast<int64_t>(part.offset);
      object["part_bytes"] = static_cast<int64_t>(part.bytes);
    }
    array.push_back(std::move(object));
  }
  return array;
}

namespace {
llvm::Error gapError(const StepGraph &graph, const Gap &gap,
                     const llvm::Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "tensor '" + graph.getTensor(gap.tensor).name +
                               "': " + message);
}

/// The first touch of `touches` at or after `point`, or UINT32_MAX.
uint32_t firstTouchFrom(llvm::ArrayRef<uint32_t> touches, uint32_t point) {
  const uint32_t *it = std::lower_bound(touches.begin(), touches.end(), point);
  return it == touches.end() ? UINT32_MAX : *it;
}

llvm::Error verifyGap(const StepGraph &graph, const LifetimeAnalysis &lifetimes,
                      const Gap &gap, const Gap *previous) {
  const Tensor &tensor = graph.getTensor(gap.tensor);
  uint32_t returnPoint = lifetimes.returnPoint();
  llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(gap.tensor);
  uint32_t definedAfter = lifetimes.getFirstSlotAfterDefinition(gap.tensor);
  if (tensor.isAlias())
    return gapError(graph, gap,
                    llvm::Twine("is a view of '") +
                        graph.getTensor(*tensor.aliasOf).name +
                        "' and holds no memory of its own; expected a gap of "
                        "the storage's");
  if (gap.entersOnSsd) {
    if (previous || !tensor.isArgument() || !isPersistentRole(tensor.role))
      return gapError(graph, gap,
                      "only a persistent argument may enter on ssd, and only "
                      "in its first gap");
  } else {
    if (gap.releaseSlot < definedAfter || gap.releaseSlot > returnPoint)
      return gapError(graph, gap,
                      llvm::Twine("release at slot ") +
                          llvm::Twine(gap.releaseSlot) +
                          ", expected after its definition and before return");
    if (previous && gap.releaseSlot <= previous->waitPoint)
      return gapError(graph, gap,
                      llvm::Twine("released at slot ") +
                          llvm::Twine(gap.releaseSlot) +
                          " before the wait of its previous reload at point " +
                          llvm::Twine(previous->waitPoint));
    // Every earlier gap entered on SSD, wrote, or reused such a copy.
    bool copyOnSsd = previous != nullptr;
    if (gap.writes) {
      if (previous)
        return gapError(graph, gap,
                        "writes again although its first gap put a copy on "
                        "ssd");
      if (gap.offloadSlot < definedAfter || gap.offloadSlot > gap.releaseSlot)
        return gapError(graph, gap,
                        llvm::Twine("offload at slot ") +
                            llvm::Twine(gap.offloadSlot) +
                            ", expected between its definition and its "
                            "release at slot " +
                            llvm::Twine(gap.releaseSlot));
    } else if (!copyOnSsd) {
      return gapError(graph, gap,
                      "released without a write and without a copy on ssd");
    }
  }
  uint32_t from = gap.absentFrom();
  if (gap.leavesOnSsd) {
    if (tensor.returned && !tensor.steadyStatePartner)
      return gapError(graph, gap,
                      "only a returned value with a steady-state partner may "
                      "leave on ssd");
    uint32_t nextTouch = firstTouchFrom(touches, from);
    if (nextTouch < returnPoint)
      return gapError(graph, gap,
                      llvm::Twine("used at point ") + llvm::Twine(nextTouch) +
                          " after it left device memory at slot " +
                          llvm::Twine(from));
    if (nextTouch == returnPoint &&
        !lifetimes.mayLeaveOnSsd(gap.tensor, returnPoint))
      return gapError(graph, gap,
                      "leaves on ssd but a view of it is returned resident");
    return llvm::Error::success();
  }
  uint32_t nextTouch = firstTouchFrom(touches, from);
  if (nextTouch != gap.waitPoint)
    return gapError(
        graph, gap,
        llvm::Twine("the first use after slot ") + llvm::Twine(from) +
            " is at point " +
            llvm::Twine(static_cast<int64_t>(
                nextTouch == UINT32_MAX ? int64_t(-1) : int64_t(nextTouch))) +
            ", but the wait is before point " + llvm::Twine(gap.waitPoint));
  if (gap.prefetchSlot < from || gap.prefetchSlot > gap.waitPoint)
    return gapError(graph, gap,
                    llvm::Twine("prefetch at slot ") +
                        llvm::Twine(gap.prefetchSlot) +
                        ", expected between slot " + llvm::Twine(from) +
                        " and its wait at point " + llvm::Twine(gap.waitPoint));
  if (gap.part &&
      lifetimes.getReloadablePart(gap.tensor, gap.waitPoint) != gap.part)
    return gapError(graph, gap,
                    llvm::Twine("reads back only view ") +
                        llvm::Twine(*gap.part) + " at point " +
                        llvm::Twine(gap.waitPoint) +
                        ", but not every touch from there on is a use of "
                        "that part alone");
  return llvm::Error::success();
}
} // namespace

llvm::Error ssd::planner::verifyPlan(const StepGraph &graph,
                                     const LifetimeAnalysis &lifetimes,
                                     const Plan &plan, uint64_t budget) {
  uint32_t points = lifetimes.numPoints();
  for (uint32_t i = 0; i < plan.gaps.size(); ++i)
    if (plan.gaps[i].tensor >= graph.numTensors())
      return createStringError(inconvertibleErrorCode(),
                               "gap %u names tensor %u, which does not exist",
                               i, plan.gaps[i].tensor);
  // By (tensor, absentFrom), a counting sort: a finalized plan's order.
  SlotBuckets byTensor = bucketBySlot(
      plan, graph.numTensors(), [](const Gap &gap) { return gap.tensor; },
      [](const Gap &gap) { return gap.absentFrom(); },
      [](const Gap &) { return true; });
  std::vector<bool> enters(graph.numTensors(), false),
      leaves(graph.numTensors(), false);
  const Gap *previous = nullptr;
  for (uint32_t index : byTensor.gaps) {
    const Gap &gap = plan.gaps[index];
    if (previous && previous->tensor != gap.tensor)
      previous = nullptr;
    if (previous && !previous->reloads())
      return gapError(graph, gap, "has a gap after it left on ssd");
    if (previous && previous->part && !gap.part)
      return gapError(graph, gap,
                      "is read back whole after a reload of only a part of "
                      "it");
    if (llvm::Error error = verifyGap(graph, lifetimes, gap, previous))
      return error;
    enters[gap.tensor] = enters[gap.tensor] || gap.entersOnSsd;
    leaves[gap.tensor] = leaves[gap.tensor] || gap.leavesOnSsd;
    previous = &gap;
  }
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    if (!info.isArgument() || !info.steadyStatePartner)
      continue;
    TensorId next = *info.steadyStatePartner;
    if (enters[tensor] != leaves[next])
      return createStringError(
          inconvertibleErrorCode(),
          "persistent argument '%s' %s on ssd but its next-step value '%s' "
          "%s on ssd; a steady-state step needs both or neither",
          info.name.c_str(), enters[tensor] ? "enters" : "does not enter",
          graph.getTensor(next).name.c_str(),
          leaves[next] ? "leaves" : "does not leave");
  }
  // A group is one transfer: its members share the slot and the direction.
  llvm::DenseMap<uint32_t, uint32_t> offloadGroups, prefetchGroups;
  for (const Gap &gap : plan.gaps) {
    if (gap.offloadGroup != kNoGroup) {
      auto [it, inserted] =
          offloadGroups.try_emplace(gap.offloadGroup, gap.offloadSlot);
      if (!gap.writes || it->second != gap.offloadSlot)
        return gapError(graph, gap,
                        "is in an offload group with another slot, or does "
                        "not write");
    }
    if (gap.prefetchGroup != kNoGroup) {
      auto [it, inserted] =
          prefetchGroups.try_emplace(gap.prefetchGroup, gap.prefetchSlot);
      if (!gap.reloads() || it->second != gap.prefetchSlot)
        return gapError(graph, gap,
                        "is in a prefetch group with another slot, or does "
                        "not reload");
    }
  }
  std::vector<uint64_t> live = plan.liveBytes(graph, lifetimes);
  for (uint32_t point = 0; point < points; ++point)
    if (live[point] > budget)
      return createStringError(
          inconvertibleErrorCode(),
          "live bytes at %s are %llu, above the memory budget of %llu",
          point == lifetimes.returnPoint()
              ? "the return"
              : ("op '" + graph.getOp(point).name + "' (#" +
                 std::to_string(point) + ")")
                    .c_str(),
          static_cast<unsigned long long>(live[point]),
          static_cast<unsigned long long>(budget));
  return llvm::Error::success();
}
