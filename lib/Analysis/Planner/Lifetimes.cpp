//===- Lifetimes.cpp - Tensor lifetimes of a training step ----------------===//
//
// Builds the touch lists (compressed, one pass over the ops) and infers the
// roles the baselines and the report use.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Lifetimes.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace ssd::planner;

LifetimeAnalysis::LifetimeAnalysis(const StepGraph &graph)
    : graph(graph), returnPointIndex(graph.numOps()) {
  size_t numTensors = graph.numTensors();
  uint32_t points = numPoints();

  // A use of a view touches what rebuilding the view needs: the storage of
  // each operand of the op that defines it, and for an operand that is a
  // view itself, what rebuilding that one needs. The storage may leave
  // between two uses of a view: the plan's rewrite rebuilds the view from
  // the reloaded storage (applyPlan clones the view op after the wait).
  std::vector<std::vector<TensorId>> rebuildInputs(numTensors);
  pinnedAtReturn.assign(numTensors, false);
  for (TensorId tensor = 0; tensor < numTensors; ++tensor) {
    const Tensor &view = graph.getTensor(tensor);
    if (!view.aliasOf)
      continue;
    std::vector<TensorId> &inputs = rebuildInputs[tensor];
    for (TensorId operand : graph.getOp(*view.definingOp).operands) {
      inputs.push_back(graph.getStorage(operand));
      llvm::append_range(inputs, rebuildInputs[operand]);
    }
    llvm::sort(inputs);
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    if (view.returned)
      for (TensorId input : inputs)
        pinnedAtReturn[input] = true;
  }

  // Touches per point (op operands and results, returned values, what the
  // views among them need), each tensor once per point.
  // Beside each touch, the one tensor of the point's op it comes through
  // (the tensor itself, or a view whose rebuilding needs it), or kMixed.
  // Kept only when some view is a part: other steps pay nothing for it.
  constexpr TensorId kMixed = UINT32_MAX;
  bool trackVia = graph.hasParts();
  std::vector<TensorId> touchedVia;
  touchedBegin.assign(points + 1, 0);
  std::vector<uint32_t> lastSeenAt(numTensors, UINT32_MAX);
  std::vector<uint32_t> entryOf(trackVia ? numTensors : 0, 0);
  for (uint32_t point = 0; point < points; ++point) {
    touchedBegin[point] = touchedTensors.size();
    auto touch = [&](TensorId tensor) {
      auto once = [&](TensorId touched) {
        if (lastSeenAt[touched] == point) {
          if (trackVia && touchedVia[entryOf[touched]] != tensor)
            touchedVia[entryOf[touched]] = kMixed;
          return;
        }
        lastSeenAt[touched] = point;
        if (trackVia) {
          entryOf[touched] = touchedTensors.size();
          touchedVia.push_back(tensor);
        }
        touchedTensors.push_back(touched);
      };
      once(tensor);
      for (TensorId input : rebuildInputs[tensor])
        once(input);
    };
    if (point == returnPointIndex) {
      for (TensorId value : graph.getReturned())
        touch(value);
      continue;
    }
    const Op &op = graph.getOp(point);
    for (TensorId operand : op.operands)
      touch(operand);
    for (TensorId result : op.results)
      touch(result);
  }
  touchedBegin[points] = touchedTensors.size();

  // Transpose into touches per tensor; points come out ascending.
  touchBegin.assign(numTensors + 1, 0);
  for (TensorId tensor : touchedTensors)
    ++touchBegin[tensor + 1];
  for (size_t i = 0; i < numTensors; ++i)
    touchBegin[i + 1] += touchBegin[i];
  touchPoints.resize(touchedTensors.size());
  std::vector<uint32_t> cursor(touchBegin.begin(), touchBegin.end() - 1);
  std::vector<TensorId> touchVia(touchedVia.size());
  required.assign(points, 0);
  for (uint32_t point = 0; point < points; ++point)
    for (uint32_t entry = touchedBegin[point]; entry < touchedBegin[point + 1];
         ++entry) {
      TensorId tensor = touchedTensors[entry];
      if (trackVia)
        touchVia[cursor[tensor]] = touchedVia[entry];
      touchPoints[cursor[tensor]++] = point;
      if (!mayLeaveOnSsd(tensor, point))
        required[point] += graph.getTensor(tensor).bytes;
    }

  // A part tail: the longest run of last touches that all come through one
  // view with a part, that view defined before the run (its definition
  // reads the whole tensor) and not returned (its root stays whole then).
  if (trackVia)
    partTails.assign(numTensors, std::nullopt);
  for (TensorId tensor = 0; trackVia && tensor < numTensors; ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    if (info.isAlias() || info.isArgument() || info.returned)
      continue;
    uint32_t begin = touchBegin[tensor], end = touchBegin[tensor + 1];
    if (end - begin < 2)
      continue;
    TensorId view = touchVia[end - 1];
    if (view == kMixed || view == tensor || !graph.getPart(view) ||
        graph.getTensor(view).aliasOf != tensor ||
        graph.getTensor(view).returned)
      continue;
    uint32_t first = end - 1;
    while (first > begin && touchVia[first - 1] == view)
      --first;
    if (first == begin)
      continue;
    partTails[tensor] =
        PartTail{view, touchPoints[first], touchPoints[first - 1]};
    // There only the part must be resident: a plan may read back that
    // range alone.
    for (uint32_t entry = first; entry < end; ++entry)
      required[touchPoints[entry]] -= info.bytes - graph.getPart(view)->bytes;
  }

  liveStart.resize(numTensors);
  liveEnd.resize(numTensors);
  for (TensorId tensor = 0; tensor < numTensors; ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    liveStart[tensor] = info.definingOp ? *info.definingOp : 0;
    llvm::ArrayRef<uint32_t> touches = getTouches(tensor);
    liveEnd[tensor] = touches.empty() ? liveStart[tensor] : touches.back();
  }

  if (std::optional<OpId> declared = graph.getBackwardStart()) {
    backwardStart = *declared;
  } else {
    // The first backward op is where the peak is: every saved activation
    // and the first gradient are live there.
    std::vector<uint64_t> live = computeUnplannedLiveBytes(graph, *this);
    backwardStart = std::max_element(live.begin(), live.end()) - live.begin();
  }

  roles.resize(numTensors);
  for (TensorId tensor = 0; tensor < numTensors; ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    roles[tensor] = info.role;
    if (info.role != TensorRole::Unknown)
      continue;
    if (info.isArgument()) {
      roles[tensor] = TensorRole::Input;
      continue;
    }
    llvm::ArrayRef<uint32_t> uses = getUses(tensor);
    bool definedInForward = *info.definingOp < backwardStart;
    bool usedInBackward = llvm::any_of(uses, [&](uint32_t use) {
      return use >= backwardStart && use != returnPointIndex;
    });
    roles[tensor] = TensorRole::Temporary;
    if (definedInForward && usedInBackward) {
      roles[tensor] = TensorRole::SavedActivation;
      continue;
    }
    for (uint32_t use : uses) {
      // A point at which a view merely pins the tensor feeds nothing.
      const auto readsTensor = [&](TensorId operand) {
        return operand == tensor || graph.getStorage(operand) == tensor;
      };
      if (use == returnPointIndex ||
          llvm::none_of(graph.getOp(use).operands, readsTensor))
        continue;
      for (TensorId produced : graph.getOp(use).results) {
        const Tensor &next = graph.getTensor(produced);
        if (next.steadyStatePartner && next.returned)
          roles[tensor] = TensorRole::Gradient;
      }
    }
  }
}

bool LifetimeAnalysis::mayLeaveOnSsd(TensorId tensor, uint32_t point) const {
  const Tensor &info = graph.getTensor(tensor);
  return point == returnPointIndex && info.returned &&
         info.steadyStatePartner && !info.isAlias() && !pinnedAtReturn[tensor];
}

llvm::ArrayRef<uint32_t> LifetimeAnalysis::getUses(TensorId tensor) const {
  llvm::ArrayRef<uint32_t> touches = getTouches(tensor);
  if (const std::optional<OpId> &def = graph.getTensor(tensor).definingOp)
    if (!touches.empty() && touches.front() == *def)
      return touches.drop_front();
  return touches;
}

void LifetimeAnalysis::print(llvm::raw_ostream &os) const {
  os << "lifetimes of '" << graph.getFunctionName() << "' (backward starts at #"
     << backwardStart << ")\n";
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    const Tensor &info = graph.getTensor(tensor);
    os << "  %" << tensor << " '" << info.name << "' bytes=" << info.bytes
       << " role=" << roleName(roles[tensor]) << " def=";
    if (info.definingOp)
      os << "#" << *info.definingOp;
    else
      os << "entry";
    os << " uses=[";
    llvm::ArrayRef<uint32_t> uses = getUses(tensor);
    for (size_t i = 0; i < uses.size(); ++i) {
      os << (i ? ", " : "");
      if (uses[i] == returnPointIndex)
        os << "return";
      else
        os << "#" << uses[i];
    }
    os << "] live=[" << liveStart[tensor] << ", " << liveEnd[tensor] << "]\n";
  }
}

std::vector<uint64_t>
ssd::planner::computeUnplannedLiveBytes(const StepGraph &graph,
                                        const LifetimeAnalysis &lifetimes) {
  std::vector<int64_t> delta(lifetimes.numPoints() + 1, 0);
  for (TensorId tensor = 0; tensor < graph.numTensors(); ++tensor) {
    int64_t bytes = graph.getTensor(tensor).bytes;
    delta[lifetimes.getLiveStart(tensor)] += bytes;
    delta[lifetimes.getLiveEnd(tensor) + 1] -= bytes;
  }
  std::vector<uint64_t> live(lifetimes.numPoints());
  int64_t running = 0;
  for (uint32_t point = 0; point < lifetimes.numPoints(); ++point) {
    running += delta[point];
    live[point] = running;
  }
  return live;
}
