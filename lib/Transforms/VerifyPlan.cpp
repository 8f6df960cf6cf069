//===- VerifyPlan.cpp - static check of a planned step --------------------===//
//
// Implements `ssd-verify-plan`. It reads only the IR, not the planner's
// data structures, so that it checks the planner rather than repeating it:
// a tensor occupies memory from its definition (a reloaded tensor from its
// prefetch) to its last use or its release, or that of a view of it (views,
// `ssd.kernel` with `view_of`, and handles occupy none), and the
// top-level ops are the program points at which live bytes are summed.
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/Passes.h"

#include "ssd/Analysis/Planner/Target.h"

#include "mlir/IR/Threading.h"

namespace mlir::ssd {
#define GEN_PASS_DEF_VERIFYPLANPASS
#include "ssd/Transforms/Passes.h.inc"
} // namespace mlir::ssd

using namespace mlir;
using namespace mlir::ssd;

namespace {
/// The top-level ops of a single-block step, in order, and their positions.
/// The ops are listed once: a step's op list is long and scattered in
/// memory, and walking it is a cache miss per op. The checks read it from
/// several threads, so the block's op order is computed here, once: a
/// comparison of ops with no valid order would write it.
struct Timeline {
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> index;
  Block *body;

  explicit Timeline(Block &block) : body(&block) {
    for (Operation &op : block)
      ops.push_back(&op);
    block.recomputeOpOrder();
  }
  /// Fills `index`; only the live ranges need it.
  void indexPositions() {
    index.reserve(ops.size());
    for (auto [i, op] : llvm::enumerate(ops))
      index[op] = i;
  }
  /// The top-level op that is or holds `op`.
  Operation *top(Operation *op) const {
    while (op->getBlock() != body)
      op = op->getParentOp();
    return op;
  }
  unsigned of(Operation *op) const { return index.lookup(top(op)); }
  /// Whether `op` lies after the top-level op `first`, by the block's cached
  /// op order (a look-up in `index` per use is a cache miss per use).
  bool isAfter(Operation *op, Operation *first) const {
    return first->isBeforeInBlock(top(op));
  }
  /// Calls `callback` on every op of the step, nested ones first, in the
  /// order `Block::walk` would.
  template <typename OpT, typename Callback>
  void walk(Callback &&callback) const {
    for (Operation *op : ops) {
      if (op->getNumRegions())
        op->walk([&](OpT nested) { callback(nested); });
      else if constexpr (std::is_same_v<OpT, Operation *>)
        callback(op);
      else if (auto typed = dyn_cast<OpT>(op))
        callback(typed);
    }
  }
};
} // namespace

/// The views `user` makes of `value` (the results of an `ssd.kernel` with
/// `view_of` naming it: one, or one per part for `split` and `unbind`), or
/// none.
static ValueRange getViewsOf(Value value, Operation *user) {
  auto kernel = dyn_cast<KernelOp>(user);
  if (!kernel || !kernel.getViewOfAttr())
    return {};
  int64_t index = kernel.getViewOfAttr().getInt();
  return kernel.getInputs()[index] == value ? ValueRange(kernel.getOutputs())
                                            : ValueRange();
}

/// Calls `callback` on every op that reads the storage of `value`: its
/// users and, through views of it, theirs.
template <typename Callback>
static void forEachStorageUser(Value value, Callback &&callback) {
  SmallVector<Value, 8> worklist = {value};
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    for (Operation *user : next.getUsers()) {
      callback(user);
      llvm::append_range(worklist, getViewsOf(next, user));
    }
  }
}

static LogicalResult verifyResidency(const Timeline &timeline) {
  bool ok = true;
  timeline.walk<ReleaseOp>([&](ReleaseOp release) {
    Operation *at = timeline.top(release);
    for (Value tensor : release.getTensors()) {
      forEachStorageUser(tensor, [&](Operation *user) {
        if (user == release.getOperation() || !timeline.isAfter(user, at))
          return;
        InFlightDiagnostic diag = user->emitError()
                                  << "uses a tensor after its release";
        diag.attachNote(release.getLoc()) << "released here";
        ok = false;
      });
    }
  });
  return success(ok);
}

static LogicalResult verifyTokensAwaited(const Timeline &timeline) {
  bool ok = true;
  timeline.walk<Operation *>([&](Operation *op) {
    if (auto offload = dyn_cast<OffloadOp>(op)) {
      if (llvm::none_of(offload.getToken().getUsers(),
                        [](Operation *user) { return isa<ReleaseOp>(user); })) {
        offload.emitError() << "is never awaited by an 'ssd.release': its "
                               "write may not be durable when the step ends";
        ok = false;
      }
    } else if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
      llvm::SmallPtrSet<Value, 4> awaited;
      for (Operation *user : prefetch.getToken().getUsers())
        if (auto wait = dyn_cast<WaitOp>(user))
          awaited.insert(wait.getHandles().begin(), wait.getHandles().end());
      for (auto [index, handle] : llvm::enumerate(prefetch.getHandles())) {
        if (awaited.contains(handle))
          continue;
        prefetch.emitError()
            << "handle #" << index << " is never awaited by an 'ssd.wait'";
        ok = false;
      }
    }
  });
  return success(ok);
}

/// The interval of top-level positions during which `value` holds memory;
/// `defined` is the position that defines it (0 for an argument).
static std::pair<unsigned, unsigned> getLiveRange(Value value, unsigned defined,
                                                  const Timeline &timeline) {
  unsigned start = defined;
  if (auto wait = dyn_cast_or_null<WaitOp>(value.getDefiningOp()))
    if (Operation *prefetch = wait.getToken().getDefiningOp())
      start = timeline.of(prefetch);
  Operation *last = nullptr;
  forEachStorageUser(value, [&](Operation *user) {
    if (!last || timeline.isAfter(user, last))
      last = timeline.top(user);
  });
  unsigned end = last ? std::max(start, timeline.of(last)) : start;
  return {start, end};
}

/// Bytes `value` holds of its own: none for a scalar or a view.
static int64_t getOwnBytes(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  auto view = dyn_cast_or_null<KernelOp>(value.getDefiningOp());
  if (!type || (view && view.getViewOfAttr()))
    return 0;
  return getTensorByteSize(type);
}

namespace {
/// A value that holds bytes of its own, and when.
struct Holder {
  Value value;
  int64_t bytes;
  std::pair<unsigned, unsigned> range;
};
} // namespace

/// The values of the step that hold bytes (handles, tokens and views hold
/// none: their live ranges are not needed), each with its definition's
/// position; computeLiveRanges fills in the ranges.
static SmallVector<Holder> listHolders(Block &body, const Timeline &timeline) {
  SmallVector<Holder> holders;
  holders.reserve(body.getNumArguments() + timeline.ops.size());
  auto addHolder = [&](Value value, unsigned defined) {
    if (int64_t bytes = getOwnBytes(value))
      holders.push_back({value, bytes, {defined, defined}});
  };
  for (BlockArgument arg : body.getArguments())
    addHolder(arg, 0);
  for (auto [position, op] : llvm::enumerate(timeline.ops))
    for (Value result : op->getResults())
      addHolder(result, position);
  return holders;
}

/// Each holder's live range, from its definition's position. The ranges are
/// independent reads of the IR (use lists and op order), so they are
/// computed in chunks on the context's threads.
static void computeLiveRanges(MLIRContext *context,
                              MutableArrayRef<Holder> holders,
                              const Timeline &timeline) {
  constexpr size_t kChunk = 4096;
  size_t chunks = llvm::divideCeil(holders.size(), kChunk);
  parallelFor(context, 0, chunks, [&](size_t chunk) {
    for (Holder &holder : holders.slice(chunk * kChunk).take_front(kChunk))
      holder.range = getLiveRange(holder.value, holder.range.first, timeline);
  });
}

static LogicalResult verifyBudget(ArrayRef<Holder> holders,
                                  const Timeline &timeline, uint64_t budget) {
  unsigned numOps = timeline.ops.size();
  SmallVector<int64_t> delta(numOps + 1, 0);
  for (const Holder &holder : holders) {
    delta[holder.range.first] += holder.bytes;
    delta[holder.range.second + 1] -= holder.bytes;
  }
  int64_t live = 0;
  for (auto [position, op] : llvm::enumerate(timeline.ops)) {
    live += delta[position];
    if (static_cast<uint64_t>(live) <= budget)
      continue;
    InFlightDiagnostic diag = op->emitError()
                              << "live bytes here are " << live
                              << ", over the memory budget of " << budget;
    // Name the largest tensors that are live here.
    SmallVector<std::pair<int64_t, Value>> liveHere;
    for (const Holder &holder : holders)
      if (holder.range.first <= position && position <= holder.range.second)
        liveHere.push_back({holder.bytes, holder.value});
    llvm::sort(liveHere, [](auto &a, auto &b) { return a.first > b.first; });
    for (auto &[bytes, value] : ArrayRef(liveHere).take_front(3))
      diag.attachNote(value.getLoc()) << "live here: " << bytes << " bytes";
    return diag;
  }
  return success();
}

LogicalResult
mlir::ssd::verifyPlannedStep(func::FuncOp func,
                             std::optional<uint64_t> memoryBudget) {
  if (func.isExternal())
    return success();
  if (!llvm::hasSingleElement(func.getBody()))
    return func.emitError() << "expects a step with a single block";
  Block &body = func.getBody().front();
  Timeline timeline(body);
  // The use checks, which alone may report, run next to the budget's
  // preparation (listing the ops' positions and the values that hold
  // bytes); their diagnostics come out in the order of a serial run.
  bool ok = true;
  SmallVector<Holder> holders;
  parallelFor(func.getContext(), 0, 2, [&](size_t task) {
    if (task == 0) {
      ok = succeeded(verifyResidency(timeline));
      ok &= succeeded(verifyTokensAwaited(timeline));
      return;
    }
    if (!memoryBudget)
      return;
    timeline.indexPositions();
    holders = listHolders(body, timeline);
  });
  if (!ok || !memoryBudget)
    return success(ok);
  computeLiveRanges(func.getContext(), holders, timeline);
  return verifyBudget(holders, timeline, *memoryBudget);
}

namespace {
struct VerifyPlanPass
    : public mlir::ssd::impl::VerifyPlanPassBase<VerifyPlanPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<uint64_t> budget;
    if (!memoryBudget.empty()) {
      llvm::Expected<uint64_t> parsed =
          ::ssd::planner::parseMemorySize(memoryBudget);
      if (!parsed) {
        getOperation().emitError()
            << "memory-budget: " << llvm::toString(parsed.takeError());
        return signalPassFailure();
      }
      budget = *parsed;
    }
    if (failed(verifyPlannedStep(getOperation(), budget)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
