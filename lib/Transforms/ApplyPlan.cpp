//===- ApplyPlan.cpp - write a residency plan into a training step --------===//
//
// Turns the planner's gaps into ssd ops. Slot s lies right before the op at
// point s (slot N right before the return); at one slot the offloads come
// first, then the releases, the prefetches and the waits, which is the order
// the planner's simulator assumes. One wait returns every tensor of a
// prefetch, at the first of their wait points. Each use of a tensor is
// rewired to the value that holds it at the use's point: the original, or
// the result of the latest wait before it. State that enters or leaves the
// step on SSD becomes a handle in the function's signature.
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/ApplyPlan.h"

#include "ssd/Analysis/Planner/Simulator.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include <functional>

using namespace mlir;
using namespace mlir::ssd;
using planner::Gap;
using planner::kNoGroup;
using planner::TensorId;

namespace {
/// The gaps of every slot that do each thing there, in issue order.
struct SlotActions {
  planner::SlotBuckets offloads, releases, prefetches, waits;

  SlotActions(const planner::Plan &plan, uint32_t numSlots) {
    auto inOrder = [](const Gap &) { return 0u; };
    offloads = planner::bucketBySlot(
        plan, numSlots, [](const Gap &gap) { return gap.offloadSlot; }, inOrder,
        [](const Gap &gap) { return !gap.entersOnSsd && gap.writes; });
    releases = planner::bucketBySlot(
        plan, numSlots, [](const Gap &gap) { return gap.releaseSlot; }, inOrder,
        [](const Gap &gap) { return !gap.entersOnSsd; });
    prefetches = planner::bucketBySlot(
        plan, numSlots, [](const Gap &gap) { return gap.prefetchSlot; },
        inOrder, [](const Gap &gap) { return gap.reloads(); });
    waits = planner::bucketBySlot(
        plan, numSlots, [](const Gap &gap) { return gap.waitPoint; }, inOrder,
        [](const Gap &gap) { return gap.reloads(); });
  }
};

/// The IR values a gap ends up with.
struct GapValues {
  Value handle;
  Value writeToken;
  Value prefetchToken;
  /// The gaps its prefetch reads, as an index into the prefetches' list.
  unsigned prefetch = 0;
  Value reloaded;
  /// For a partial reload, the handle of the part it reads.
  Value partHandle;
  /// The handle the reload reads: the part's or the whole tensor's.
  Value readHandle() const { return partHandle ? partHandle : handle; }
};
} // namespace

/// The gaps of one slot as transfers: the members of each group together,
/// every ungrouped gap alone, in order of first appearance.
static SmallVector<SmallVector<unsigned>>
formTransfers(ArrayRef<unsigned> gapIndices,
              function_ref<uint32_t(unsigned)> groupOf) {
  SmallVector<SmallVector<unsigned>> transfers;
  DenseMap<uint32_t, unsigned> transferOfGroup;
  for (unsigned index : gapIndices) {
    uint32_t group = groupOf(index);
    if (group == kNoGroup) {
      transfers.push_back({index});
      continue;
    }
    auto [it, inserted] = transferOfGroup.try_emplace(group, transfers.size());
    if (inserted)
      transfers.emplace_back();
    transfers[it->second].push_back(index);
  }
  return transfers;
}

/// Emits the offloads of one slot, one op per group.
static void emitOffloads(OpBuilder &builder, Location loc,
                         ArrayRef<unsigned> gapIndices, ArrayRef<Gap> gaps,
                         function_ref<Value(unsigned)> currentValue,
                         MutableArrayRef<GapValues> values) {
  for (ArrayRef<unsigned> members : formTransfers(
           gapIndices, [&](unsigned i) { return gaps[i].offloadGroup; })) {
    SmallVector<Value> tensors;
    for (unsigned index : members)
      tensors.push_back(currentValue(index));
    auto offload = builder.create<OffloadOp>(loc, tensors);
    for (auto [i, index] : llvm::enumerate(members)) {
      values[index].handle = offload.getHandles()[i];
      values[index].writeToken = offload.getToken();
    }
  }
}

/// Emits the releases of one slot: one op for the tensors that await their
/// writes, one for those whose copy was durable already.
static void emitReleases(OpBuilder &builder, Location loc,
                         ArrayRef<unsigned> gapIndices, ArrayRef<Gap> gaps,
                         function_ref<Value(unsigned)> currentValue,
                         ArrayRef<GapValues> values) {
  SmallVector<Value, 4> awaiting, durable;
  llvm::SmallSetVector<Value, 4> tokens;
  for (unsigned index : gapIndices) {
    if (!gaps[index].writes) {
      durable.push_back(currentValue(index));
      continue;
    }
    awaiting.push_back(currentValue(index));
    tokens.insert(values[index].writeToken);
  }
  if (!awaiting.empty())
    builder.create<ReleaseOp>(loc, awaiting, tokens.getArrayRef());
  if (!durable.empty())
    builder.create<ReleaseOp>(loc, durable, ValueRange());
}

/// The gaps each prefetch op reads.
using PrefetchMembers = SmallVector<SmallVector<unsigned, 2>>;

/// Emits the prefetches of one slot, one op per group, and lists each one's
/// gaps in `membersOf`.
static void emitPrefetches(OpBuilder &builder, Location loc,
                           ArrayRef<unsigned> gapIndices, ArrayRef<Gap> gaps,
                           MutableArrayRef<GapValues> values,
                           PrefetchMembers &membersOf) {
  for (ArrayRef<unsigned> members : formTransfers(
           gapIndices, [&](unsigned i) { return gaps[i].prefetchGroup; })) {
    SmallVector<Value> handles;
    for (unsigned index : members)
      handles.push_back(values[index].readHandle());
    auto prefetch = builder.create<PrefetchOp>(loc, handles);
    for (unsigned index : members) {
      values[index].prefetchToken = prefetch.getToken();
      values[index].prefetch = membersOf.size();
    }
    membersOf.emplace_back(members.begin(), members.end());
  }
}

/// Emits, at the first wait point of a prefetch's gaps, one wait for all of
/// them: the prefetch is one transfer, so the first wait already blocks
/// until every member is resident and a later one would never stall.
/// Members come in wait-point order; extractPlan reads the first one's
/// wait point from the op and each other's from its first use.
static void emitWaits(OpBuilder &builder, Location loc,
                      ArrayRef<unsigned> gapIndices, ArrayRef<Gap> gaps,
                      MutableArrayRef<GapValues> values,
                      PrefetchMembers &membersOf) {
  for (unsigned first : gapIndices) {
    if (values[first].reloaded)
      continue; // awaited with an earlier member of its prefetch
    MutableArrayRef<unsigned> members = membersOf[values[first].prefetch];
    llvm::sort(members, [&](unsigned a, unsigned b) {
      return std::pair(gaps[a].waitPoint, a) < std::pair(gaps[b].waitPoint, b);
    });
    SmallVector<Value> handles;
    for (unsigned index : members)
      handles.push_back(values[index].readHandle());
    auto wait =
        builder.create<WaitOp>(loc, values[first].prefetchToken, handles);
    for (auto [index, tensor] : llvm::zip_equal(members, wait.getTensors()))
      values[index].reloaded = tensor;
  }
}

/// The gap of `tensor` whose reload holds it at `point` (one past its
/// index), or 0 while the original value does.
static unsigned getHolder(ArrayRef<Gap> gaps, ArrayRef<unsigned> indices,
                          uint32_t point) {
  unsigned holder = 0;
  for (unsigned index : indices)
    if (gaps[index].reloads() && gaps[index].waitPoint <= point)
      holder = index + 1;
  return holder;
}

/// Clones, right before each use of a view at which a tensor its op reads
/// (or, through a chain of views, that op's views read) has been reloaded
/// since the view was made, the ops that make the view. Clones carry
/// `kRebuiltViewAttrName`; `rebuiltAt` gets their points.
/// A use of a view that a partial reload of its root holds (`Gap::part`)
/// reads that reload's tensor instead.
static LogicalResult rebuildViews(
    const StepGraphMapping &mapping, ArrayRef<Gap> gaps,
    ArrayRef<GapValues> values,
    const llvm::MapVector<TensorId, SmallVector<unsigned>> &gapsOfTensor,
    DenseMap<Operation *, uint32_t> &rebuiltAt) {
  const planner::StepGraph &graph = mapping.graph;
  if (gaps.empty() ||
      llvm::none_of(graph.getTensors(), [](const planner::Tensor &tensor) {
        return tensor.isAlias();
      }))
    return success();
  // The storage that rebuilding the view `op` makes needs: that of each
  // operand, and for an operand that is a view, what rebuilding it needs.
  // Uses already rebuilt read clones: each clone's result stands for the
  // original view's.
  DenseMap<Value, Value> originalOf;
  auto original = [&](Value value) {
    auto it = originalOf.find(value);
    return it == originalOf.end() ? value : it->second;
  };
  DenseMap<Operation *, SmallVector<TensorId>> inputsCache;
  std::function<ArrayRef<TensorId>(Operation *)> rebuildInputs =
      [&](Operation *op) -> ArrayRef<TensorId> {
    if (auto it = inputsCache.find(op); it != inputsCache.end())
      return it->second;
    SmallVector<TensorId> inputs;
    for (Value operand : llvm::map_range(op->getOperands(), original)) {
      std::optional<TensorId> tensor = mapping.lookupTensor(operand);
      if (!tensor)
        continue;
      inputs.push_back(graph.getStorage(*tensor));
      if (graph.getTensor(*tensor).isAlias())
        llvm::append_range(inputs, rebuildInputs(operand.getDefiningOp()));
    }
    llvm::sort(inputs);
    inputs.erase(llvm::unique(inputs), inputs.end());
    return inputsCache[op] = std::move(inputs);
  };
  // Whether the view `op` made reads, at `point`, storage that was reloaded
  // since.
  auto isStale = [&](Operation *op, uint32_t point) {
    uint32_t made = mapping.getPoint(op);
    return llvm::any_of(rebuildInputs(op), [&](TensorId storage) {
      auto indices = gapsOfTensor.find(storage);
      return indices != gapsOfTensor.end() &&
             getHolder(gaps, indices->second, made) !=
                 getHolder(gaps, indices->second, point);
    });
  };
  // The clone of `op` made for `point`.
  DenseMap<std::pair<Operation *, uint32_t>, Operation *> clones;
  std::function<Operation *(Operation *, uint32_t, Operation *)> rebuild =
      [&](Operation *op, uint32_t point, Operation *anchor) -> Operation * {
    Operation *&clone = clones[{op, point}];
    if (clone)
      return clone;
    // Operands that are views read what they read at `point`: a clone made
    // for it, else the original view (an operand an earlier rebuild
    // replaced goes back to it).
    IRMapping operands;
    for (Value operand : op->getOperands()) {
      Value view = original(operand);
      std::optional<TensorId> tensor = mapping.lookupTensor(view);
      if (tensor && graph.getTensor(*tensor).isAlias() &&
          isStale(view.getDefiningOp(), point))
        operands.map(operand,
                     rebuild(view.getDefiningOp(), point, anchor)
                         ->getResult(cast<OpResult>(view).getResultNumber()));
      else if (view != operand)
        operands.map(operand, view);
    }
    OpBuilder builder(anchor);
    Operation *made = builder.clone(*op, operands);
    made->setAttr(kRebuiltViewAttrName, builder.getUnitAttr());
    rebuiltAt[made] = point;
    for (auto [result, from] :
         llvm::zip_equal(made->getResults(), op->getResults()))
      originalOf[result] = from;
    return clones[{op, point}] = made;
  };
  for (planner::TensorId view = 0; view < graph.numTensors(); ++view) {
    if (!graph.getTensor(view).isAlias())
      continue;
    Value value = mapping.values[view];
    Operation *op = value.getDefiningOp();
    // The partial reloads of this view, in step order, if its root has
    // them: a use after one's wait reads the latest.
    SmallVector<unsigned> partGaps;
    if (auto indices = gapsOfTensor.find(*graph.getTensor(view).aliasOf);
        indices != gapsOfTensor.end())
      for (unsigned index : indices->second)
        if (gaps[index].part == view)
          partGaps.push_back(index);
    for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
      Operation *anchor = use.getOwner();
      while (anchor->getBlock() != mapping.returnOp->getBlock())
        anchor = anchor->getParentOp();
      if (rebuiltAt.count(anchor))
        continue; // a clone made above reads the view it rebuilds
      if (isa<WaitOp, PrefetchOp, OffloadOp, ReleaseOp>(anchor))
        continue;
      uint32_t point = mapping.getPoint(anchor);
      auto latest = llvm::find_if(llvm::reverse(partGaps), [&](unsigned index) {
        return gaps[index].waitPoint <= point;
      });
      if (latest != llvm::reverse(partGaps).end()) {
        use.set(values[*latest].reloaded);
        continue;
      }
      if (!isStale(op, point))
        continue;
      use.set(rebuild(op, point, anchor)
                  ->getResult(cast<OpResult>(value).getResultNumber()));
    }
  }
  return success();
}

LogicalResult mlir::ssd::applyPlan(func::FuncOp func,
                                   const StepGraphMapping &mapping,
                                   const planner::Plan &plan) {
  ArrayRef<Gap> gaps = plan.gaps;
  uint32_t numSlots = mapping.ops.size() + 1;
  SlotActions actions(plan, numSlots);
  // Gaps of one tensor, in step order (the plan is sorted that way).
  llvm::MapVector<TensorId, SmallVector<unsigned>> gapsOfTensor;
  for (auto [index, gap] : llvm::enumerate(gaps))
    gapsOfTensor[gap.tensor].push_back(index);

  SmallVector<GapValues> values(gaps.size());
  // The gap before each of the same tensor, or kFirst.
  constexpr unsigned kFirst = ~0u;
  std::vector<unsigned> previousGap(gaps.size(), kFirst);
  for (auto &[tensor, indices] : gapsOfTensor)
    for (unsigned i = 1; i < indices.size(); ++i)
      previousGap[indices[i]] = indices[i - 1];
  auto currentValue = [&](unsigned index) -> Value {
    if (previousGap[index] == kFirst)
      return mapping.values[gaps[index].tensor];
    return values[previousGap[index]].reloaded;
  };

  // State that enters on SSD: the argument becomes the handle. Its type
  // changes first so that the waits built on it infer tensor results; every
  // use of it is rewired below.
  SmallVector<Type> argTypes(func.getArgumentTypes());
  for (const Gap &gap : gaps) {
    if (!gap.entersOnSsd)
      continue;
    auto arg = cast<BlockArgument>(mapping.values[gap.tensor]);
    auto handleType = HandleType::get(func.getContext(),
                                      cast<RankedTensorType>(arg.getType()));
    arg.setType(handleType);
    argTypes[arg.getArgNumber()] = handleType;
    for (unsigned index : gapsOfTensor[gap.tensor])
      values[index].handle = arg;
  }

  OpBuilder builder(func.getContext());
  PrefetchMembers membersOfPrefetch;
  for (uint32_t slot = 0; slot < numSlots; ++slot) {
    Operation *anchor =
        slot < mapping.ops.size() ? mapping.ops[slot] : mapping.returnOp;
    builder.setInsertionPoint(anchor);
    emitOffloads(builder, anchor->getLoc(), actions.offloads.at(slot), gaps,
                 currentValue, values);
    // Gaps that reuse an earlier copy take its handle.
    for (unsigned index : actions.releases.at(slot)) {
      if (!values[index].handle && previousGap[index] != kFirst)
        values[index].handle = values[previousGap[index]].handle;
      if (!values[index].handle)
        return func.emitError()
               << "internal error: the plan releases '"
               << mapping.graph.getTensor(gaps[index].tensor).name
               << "' without a copy on SSD";
    }
    emitReleases(builder, anchor->getLoc(), actions.releases.at(slot), gaps,
                 currentValue, values);
    // A partial reload reads a handle of its part's bytes.
    for (unsigned index : actions.prefetches.at(slot)) {
      std::optional<TensorId> part = gaps[index].part;
      if (!part)
        continue;
      auto partType = cast<RankedTensorType>(mapping.values[*part].getType());
      values[index].partHandle = builder.create<HandlePartOp>(
          anchor->getLoc(), HandleType::get(func.getContext(), partType),
          values[index].handle,
          builder.getI64IntegerAttr(mapping.graph.getPart(*part)->offset));
    }
    emitPrefetches(builder, anchor->getLoc(), actions.prefetches.at(slot), gaps,
                   values, membersOfPrefetch);
    emitWaits(builder, anchor->getLoc(), actions.waits.at(slot), gaps, values,
              membersOfPrefetch);
  }

  // Views used after the storage they need came back are rebuilt right
  // before the use, from operands that the rewiring below gives their
  // reloaded values: the original view still reads the released memory.
  DenseMap<Operation *, uint32_t> rebuiltAt;
  auto pointOf = [&](Operation *user) {
    Operation *top = user;
    while (top->getBlock() != mapping.returnOp->getBlock())
      top = top->getParentOp();
    auto it = rebuiltAt.find(top);
    return it == rebuiltAt.end() ? mapping.getPoint(top) : it->second;
  };
  if (failed(rebuildViews(mapping, gaps, values, gapsOfTensor, rebuiltAt)))
    return failure();

  // Rewire every use to the value that holds the tensor at its point.
  for (auto &[tensor, indices] : gapsOfTensor) {
    Value original = mapping.values[tensor];
    for (OpOperand &use : llvm::make_early_inc_range(original.getUses())) {
      Operation *user = use.getOwner();
      if (isa<OffloadOp, ReleaseOp, PrefetchOp, WaitOp>(user))
        continue;
      uint32_t point = pointOf(user);
      Value holder = original;
      bool absent = false;
      for (unsigned index : indices) {
        const Gap &gap = gaps[index];
        if (point >= gap.absentFrom() &&
            point < gap.absentTo(mapping.ops.size() + 1))
          absent = true;
        // After a partial reload only its part is back (its view's uses
        // read it); the tensor itself is not.
        if (gap.reloads() && point >= gap.waitPoint && !gap.part) {
          holder = values[index].reloaded;
          absent = false;
        }
        if (gap.part && point >= gap.absentFrom())
          absent = true;
      }
      bool leaves = !indices.empty() && gaps[indices.back()].leavesOnSsd &&
                    isa<func::ReturnOp>(user);
      if (leaves) {
        use.set(values[indices.back()].handle);
        continue;
      }
      if (absent || !holder)
        return user->emitError() << "internal error: the plan leaves '"
                                 << mapping.graph.getTensor(tensor).name
                                 << "' on SSD at this use";
      use.set(holder);
    }
  }

  // Results that leave on SSD are handles now.
  SmallVector<Type> resultTypes(func.getResultTypes());
  for (OpOperand &operand : mapping.returnOp->getOpOperands())
    resultTypes[operand.getOperandNumber()] = operand.get().getType();
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, resultTypes));
  return success();
}
