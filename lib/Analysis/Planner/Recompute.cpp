//===- Recompute.cpp - The recomputation baseline -------------------------===//
//
// A dropped saved activation is absent from after its last forward touch to
// its first backward touch, where the op that made it runs again. That op's
// operands must be resident there: arguments and kept tensors stay resident
// until then (their lives are extended), dropped ones are recomputed first
// (once, at the earliest point that needs them, and resident from there to
// their last touch), and forward temporaries that are already freed are
// recomputed too, living only at that point, like every result of a
// recomputed op that nothing demanded. docs/planner.md, "Recomputation".
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Recompute.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace ssd::planner;

namespace {
constexpr uint32_t kNone = UINT32_MAX;

/// The step's tensors as recomputation sees them, and the live bytes of a
/// set of drops.
class RecomputeModel {
public:
  explicit RecomputeModel(const OffloadPlanner &planner);

  /// Live bytes at every point with `dropped` recomputed, the recomputed
  /// ops' seconds and how many op executions that is.
  void evaluate(const std::vector<bool> &dropped, std::vector<uint64_t> &live,
                double &extraSeconds, uint32_t &opRuns);

  const std::vector<TensorId> &getCandidates() const { return candidates; }
  uint32_t lastForwardTouch(TensorId t) const { return lastForward[t]; }
  uint32_t firstBackwardTouch(TensorId t) const { return firstBackward[t]; }
  /// An estimate of what recomputing `t` costs: its op and the forward
  /// temporaries it needs, recursively.
  double estimateSeconds(TensorId t);

private:
  /// The storage an operand needs resident: itself, or for a view what
  /// rebuilding it reads.
  void appendStorage(TensorId operand, llvm::SmallVectorImpl<TensorId> &out);

  const StepGraph &graph;
  const LifetimeAnalysis &lifetimes;
  llvm::ArrayRef<double> opSeconds;
  uint32_t backwardStart;
  std::vector<uint32_t> lastForward, firstBackward;
  /// Saved activations that could be dropped, ordered by first backward
  /// touch (the order evaluate rematerializes them in).
  std::vector<TensorId> candidates;
  std::vector<double> estimate;
  // Scratch of evaluate.
  std::vector<uint32_t> end, remat, transientAt, ranAt;
  std::vector<int64_t> delta;
};
} // namespace

RecomputeModel::RecomputeModel(const OffloadPlanner &planner)
    : graph(planner.getGraph()), lifetimes(planner.getLifetimes()),
      opSeconds(planner.getOpSeconds()),
      backwardStart(lifetimes.getBackwardStart()) {
  size_t numTensors = graph.numTensors();
  lastForward.assign(numTensors, kNone);
  firstBackward.assign(numTensors, kNone);
  estimate.assign(numTensors, -1);
  for (TensorId t = 0; t < numTensors; ++t) {
    const Tensor &info = graph.getTensor(t);
    if (info.isArgument() || info.isAlias() || info.bytes == 0 ||
        lifetimes.getRole(t) != TensorRole::SavedActivation)
      continue;
    llvm::ArrayRef<uint32_t> touches = lifetimes.getTouches(t);
    auto split = llvm::lower_bound(touches, backwardStart);
    if (split == touches.begin() || split == touches.end())
      continue;
    lastForward[t] = *std::prev(split);
    firstBackward[t] = *split;
    if (firstBackward[t] > lastForward[t] + 1)
      candidates.push_back(t);
  }
  llvm::stable_sort(candidates, [&](TensorId a, TensorId b) {
    return firstBackward[a] < firstBackward[b];
  });
}

void RecomputeModel::appendStorage(TensorId operand,
                                   llvm::SmallVectorImpl<TensorId> &out) {
  const Tensor &info = graph.getTensor(operand);
  if (!info.isAlias()) {
    out.push_back(operand);
    return;
  }
  for (TensorId input : graph.getOp(*info.definingOp).operands)
    appendStorage(input, out);
}

double RecomputeModel::estimateSeconds(TensorId t) {
  if (estimate[t] >= 0)
    return estimate[t];
  estimate[t] = 0; // A cycle cannot happen; this also ends the recursion.
  OpId op = *graph.getTensor(t).definingOp;
  double seconds = opSeconds[op];
  llvm::SmallVector<TensorId, 8> needed;
  for (TensorId operand : graph.getOp(op).operands)
    appendStorage(operand, needed);
  for (TensorId s : needed)
    if (!graph.getTensor(s).isArgument() &&
        lifetimes.getRole(s) == TensorRole::Temporary &&
        lifetimes.getLiveEnd(s) < backwardStart)
      seconds += estimateSeconds(s);
  return estimate[t] = seconds;
}

void RecomputeModel::evaluate(const std::vector<bool> &dropped,
                              std::vector<uint64_t> &live, double &extraSeconds,
                              uint32_t &opRuns) {
  size_t numTensors = graph.numTensors();
  uint32_t points = lifetimes.numPoints();
  end.resize(numTensors);
  for (TensorId t = 0; t < numTensors; ++t)
    end[t] = lifetimes.getLiveEnd(t);
  remat.assign(numTensors, kNone);
  transientAt.assign(numTensors, kNone);
  ranAt.assign(graph.numOps(), kNone);
  delta.assign(points + 1, 0);
  extraSeconds = 0;
  opRuns = 0;

  // Everything recomputed for point `u` happens right before op `u`: the
  // worklist holds ops to run there.
  llvm::SmallVector<OpId, 16> work;
  llvm::SmallVector<TensorId, 8> needed;
  auto addTransient = [&](TensorId t, uint32_t u) {
    if (transientAt[t] == u)
      return false;
    transientAt[t] = u;
    delta[u] += graph.getTensor(t).bytes;
    delta[u + 1] -= graph.getTensor(t).bytes;
    return true;
  };
  auto ensure = [&](TensorId s, uint32_t u) {
    const Tensor &info = graph.getTensor(s);
    if (info.isArgument()) {
      end[s] = std::max(end[s], u);
      return;
    }
    if (dropped[s]) {
      if (remat[s] != kNone) {
        end[s] = std::max(end[s], u);
      } else {
        remat[s] = u;
        work.push_back(*info.definingOp);
      }
      return;
    }
    if (end[s] >= u)
      return;
    if (lifetimes.getRole(s) != TensorRole::Temporary) {
      end[s] = u;
      return;
    }
    if (addTransient(s, u))
      work.push_back(*info.definingOp);
  };
  auto run = [&](uint32_t u) {
    while (!work.empty()) {
      OpId op = work.pop_back_val();
      if (ranAt[op] == u)
        continue;
      ranAt[op] = u;
      extraSeconds += opSeconds[op];
      ++opRuns;
      const Op &info = graph.getOp(op);
      for (TensorId result : info.results)
        if (!graph.getTensor(result).isAlias() &&
            !(dropped[result] && remat[result] == u))
          addTransient(result, u);
      needed.clear();
      for (TensorId operand : info.operands)
        appendStorage(operand, needed);
      for (TensorId s : needed)
        ensure(s, u);
    }
  };
  for (TensorId t : candidates) {
    if (!dropped[t] || remat[t] != kNone)
      continue;
    uint32_t u = firstBackward[t];
    ensure(t, u);
    run(u);
  }

  for (TensorId t = 0; t < numTensors; ++t) {
    int64_t bytes = graph.getTensor(t).bytes;
    if (bytes == 0)
      continue;
    uint32_t start = lifetimes.getLiveStart(t);
    if (dropped[t]) {
      delta[start] += bytes;
      delta[lastForward[t] + 1] -= bytes;
      start = remat[t];
    }
    delta[start] += bytes;
    delta[end[t] + 1] -= bytes;
  }
  live.resize(points);
  int64_t running = 0;
  for (uint32_t point = 0; point < points; ++point) {
    running += delta[point];
    live[point] = running;
  }
}

/// The greedy drop loop over candidates in `order`.
static RecomputePlan dropGreedily(const StepGraph &graph, RecomputeModel &model,
                                  llvm::ArrayRef<TensorId> order,
                                  uint64_t budget) {
  RecomputePlan result;
  std::vector<bool> dropped(graph.numTensors(), false);
  // A drop that did not help at one peak may help at another; the number
  // of trials is bounded so that a step of many candidates stays linear.
  std::vector<uint32_t> rejectedAt(graph.numTensors(), kNone);
  size_t trials = 0, maxTrials = 8 * order.size() + 64;
  std::vector<uint64_t> live, trial;
  double extra = 0, trialExtra = 0;
  uint32_t runs = 0, trialRuns = 0;
  model.evaluate(dropped, live, extra, runs);
  auto peakOf = [](const std::vector<uint64_t> &bytes) {
    return static_cast<uint32_t>(std::max_element(bytes.begin(), bytes.end()) -
                                 bytes.begin());
  };
  uint32_t peak = peakOf(live);
  while (live[peak] > budget) {
    auto absentAtPeak = [&](TensorId t) {
      return !dropped[t] && rejectedAt[t] != peak &&
             model.lastForwardTouch(t) < peak &&
             peak < model.firstBackwardTouch(t);
    };
    const TensorId *next = llvm::find_if(order, absentAtPeak);
    if (next == order.end() || ++trials > maxTrials)
      break;
    TensorId t = *next;
    dropped[t] = true;
    model.evaluate(dropped, trial, trialExtra, trialRuns);
    uint32_t trialPeak = peakOf(trial);
    if (trial[peak] < live[peak] && trial[trialPeak] <= live[peak]) {
      std::swap(live, trial);
      extra = trialExtra;
      runs = trialRuns;
      peak = trialPeak;
      result.dropped.push_back(t);
      result.droppedBytes += graph.getTensor(t).bytes;
    } else {
      dropped[t] = false;
      rejectedAt[t] = peak;
    }
  }
  result.memoryBudget = budget;
  result.fits = live[peak] <= budget;
  result.peakBytes = live[peak];
  result.peakPoint = peak;
  result.extraSeconds = extra;
  result.recomputedOps = runs;
  result.liveBytes = std::move(live);
  return result;
}

RecomputePlan ssd::planner::planRecompute(const OffloadPlanner &planner,
                                          uint64_t budget) {
  const StepGraph &graph = planner.getGraph();
  RecomputeModel model(planner);
  llvm::ArrayRef<double> opSeconds = planner.getOpSeconds();
  double compute = std::accumulate(opSeconds.begin(), opSeconds.end(), 0.0);

  // Two orders, the better plan kept (one that fits, then the faster, then
  // the lower peak): cheapest recomputation per byte first, as
  // torch.compile's activation_memory_budget knapsack ranks them, and
  // largest first, which leaves fewer chains of dropped tensors.
  std::vector<TensorId> cheapest = model.getCandidates();
  std::vector<double> perByte(graph.numTensors(), 0);
  for (TensorId t : cheapest)
    perByte[t] = model.estimateSeconds(t) / graph.getTensor(t).bytes;
  auto larger = [&](TensorId a, TensorId b) {
    return graph.getTensor(a).bytes > graph.getTensor(b).bytes;
  };
  std::vector<TensorId> largest = cheapest;
  llvm::stable_sort(cheapest, [&](TensorId a, TensorId b) {
    if (perByte[a] != perByte[b])
      return perByte[a] < perByte[b];
    return larger(a, b);
  });
  llvm::stable_sort(largest, larger);

  RecomputePlan best;
  bool first = true;
  for (llvm::ArrayRef<TensorId> order :
       {llvm::ArrayRef(cheapest), llvm::ArrayRef(largest)}) {
    RecomputePlan plan = dropGreedily(graph, model, order, budget);
    plan.computeSeconds = compute;
    auto key = [](const RecomputePlan &p) {
      return std::make_tuple(!p.fits, p.fits ? p.extraSeconds : 0.0,
                             p.peakBytes, p.extraSeconds);
    };
    if (first || key(plan) < key(best))
      best = std::move(plan);
    first = false;
  }
  return best;
}

llvm::json::Object ssd::planner::recomputeToJSON(const RecomputePlan &plan,
                                                 const StepGraph &graph) {
  llvm::json::Array names;
  for (TensorId t : plan.dropped)
    names.push_back(graph.getTensor(t).name);
  llvm::StringRef peakOp =
      plan.peakPoint < graph.numOps()
          ? llvm::StringRef(graph.getOp(plan.peakPoint).name)
          : llvm::StringRef("return");
  return llvm::json::Object{
      {"fits", plan.fits},
      {"memory_budget_bytes", static_cast<int64_t>(plan.memoryBudget)},
      {"peak_bytes", static_cast<int64_t>(plan.peakBytes)},
      {"peak_point", plan.peakPoint},
      {"peak_op", peakOp},
      {"compute_seconds", plan.computeSeconds},
      {"extra_compute_seconds", plan.extraSeconds},
      {"predicted_step_seconds", plan.stepSeconds()},
      {"dropped_bytes", static_cast<int64_t>(plan.droppedBytes)},
      {"recomputed_ops", plan.recomputedOps},
      {"dropped", std::move(names)},
  };
}
