//===- ExtractPlan.cpp - read a residency plan back out of the IR ---------===//
//
// The inverse of applyPlan: strips the residency ops from a planned step,
// leaving the unplanned step, and returns the plan they described. Passes
// that refine a plan (ssd-insert-prefetch, ssd-group-buffers) extract it,
// change it with the planner core and apply it again, so that the IR stays
// the one place a plan lives between passes.
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/ApplyPlan.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::ssd;
using planner::Gap;
using planner::kNoGroup;

namespace {
/// Where and in which group an offload wrote a tensor.
struct Write {
  uint32_t slot;
  uint32_t group;
};
} // namespace

FailureOr<ExtractedPlan> mlir::ssd::extractPlan(func::FuncOp func) {
  if (!llvm::hasSingleElement(func.getBody()))
    return func.emitError() << "expects a step with a single block";
  Block &body = func.getBody().front();

  // Handles and reloaded tensors stand for the unplanned tensor they hold.
  DenseMap<Value, Value> rootOf;
  auto getRoot = [&](Value value) {
    auto it = rootOf.find(value);
    return it == rootOf.end() ? value : it->second;
  };
  DenseMap<Value, Write> lastWrite;
  SmallVector<std::pair<Value, Gap>> gaps;
  // The gap of each tensor that has begun and not yet been reloaded.
  DenseMap<Value, unsigned> openGap;
  auto openNewGap = [&](Value root, Gap gap) -> Gap & {
    openGap[root] = gaps.size();
    gaps.push_back({root, gap});
    return gaps.back().second;
  };
  // The step's own views, and the one a rebuilt view repeats: the same op,
  // attributes and result types, on the same tensors.
  SmallVector<Operation *> views;
  auto findOriginalView = [&](Operation &rebuilt) -> Operation * {
    for (Operation *view : llvm::reverse(views)) {
      if (view->getName() != rebuilt.getName() ||
          view->getResultTypes() != rebuilt.getResultTypes() ||
          view->getNumOperands() != rebuilt.getNumOperands())
        continue;
      NamedAttrList attrs(rebuilt.getAttrDictionary());
      attrs.erase(kRebuiltViewAttrName);
      if (attrs.getDictionary(rebuilt.getContext()) !=
          view->getAttrDictionary())
        continue;
      if (llvm::all_of(
              llvm::zip_equal(view->getOperands(), rebuilt.getOperands()),
              [&](auto pair) {
                return getRoot(std::get<0>(pair)) == getRoot(std::get<1>(pair));
              }))
        return view;
    }
    return nullptr;
  };
  // Where a view's result lies: the tensor that owns its storage and the
  // result's byte offset in it, through chains of views of parts
  // (`part_offsets`); none when a view on the way does not say.
  auto placeOfPart =
      [&](Value value) -> std::optional<std::pair<Value, int64_t>> {
    int64_t offset = 0;
    auto kernel = value.getDefiningOp<KernelOp>();
    if (!kernel || !kernel.getViewOfAttr())
      return std::nullopt;
    do {
      if (!kernel.getPartOffsets())
        return std::nullopt;
      offset +=
          (*kernel.getPartOffsets())[cast<OpResult>(value).getResultNumber()];
      value = getRoot(kernel.getInputs()[kernel.getViewOfAttr().getInt()]);
      kernel = value.getDefiningOp<KernelOp>();
    } while (kernel && kernel.getViewOfAttr());
    return std::make_pair(value, offset);
  };
  // The latest view of the step that is the part of `root` at `offset`,
  // of type `type`.
  auto findPartView = [&](Value root, int64_t offset, Type type) -> Value {
    for (Operation *candidate : llvm::reverse(views))
      for (Value result : candidate->getResults())
        if (result.getType() == type &&
            placeOfPart(result) == std::make_pair(root, offset))
          return result;
    return {};
  };
  // The offset in its tensor of each part handle, the view of the step
  // that each partial reload stands for, and the tensor whose part each
  // partial reload's result holds (a release of it begins that tensor's
  // next gap).
  DenseMap<Value, int64_t> partHandleOffset;
  DenseMap<unsigned, Value> partViewOfGap;
  DenseMap<Value, Value> partOf;
  // The gaps whose prefetch has been seen.
  DenseSet<unsigned> prefetched;
  // The gap of each tensor that a wait returned with others before its wait
  // point, which is the tensor's first use (see applyPlan's emitWaits).
  DenseMap<Value, unsigned> awaitedEarly;
  auto takeFirstUses = [&](Operation &op, uint32_t point) {
    if (awaitedEarly.empty())
      return;
    op.walk([&](Operation *user) {
      for (Value operand : user->getOperands())
        if (auto it = awaitedEarly.find(operand); it != awaitedEarly.end()) {
          gaps[it->second].second.waitPoint = point;
          awaitedEarly.erase(it);
        }
    });
  };
  SmallVector<Operation *> residencyOps;
  uint32_t slot = 0;
  uint32_t nextGroup = 0;

  for (Operation &op : body) {
    if (auto offload = dyn_cast<OffloadOp>(op)) {
      uint32_t group = offload.getTensors().size() > 1 ? nextGroup++ : kNoGroup;
      for (auto [tensor, handle] :
           llvm::zip_equal(offload.getTensors(), offload.getHandles())) {
        Value root = getRoot(tensor);
        rootOf[handle] = root;
        lastWrite[root] = {slot, group};
      }
    } else if (auto release = dyn_cast<ReleaseOp>(op)) {
      for (Value tensor : release.getTensors()) {
        auto part = partOf.find(tensor);
        Value root = part != partOf.end() ? part->second : getRoot(tensor);
        Gap gap;
        gap.releaseSlot = slot;
        gap.offloadSlot = slot;
        if (auto it = lastWrite.find(root); it != lastWrite.end()) {
          gap.offloadSlot = it->second.slot;
          gap.offloadGroup = it->second.group;
        }
        openNewGap(root, gap);
      }
    } else if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
      uint32_t group =
          prefetch.getHandles().size() > 1 ? nextGroup++ : kNoGroup;
      for (Value handle : prefetch.getHandles()) {
        Value root = getRoot(handle);
        if (!openGap.count(root)) {
          // Only state that entered as a handle is absent without a release.
          bool seen = llvm::any_of(
              gaps, [&](auto &entry) { return entry.first == root; });
          if (!isa<BlockArgument>(root) || seen)
            return prefetch.emitError()
                   << "reads back a tensor that was not released";
          Gap entering;
          entering.entersOnSsd = true;
          openNewGap(root, entering);
        }
        unsigned index = openGap[root];
        if (!prefetched.insert(index).second)
          return prefetch.emitError() << "reads back a tensor twice";
        Gap &gap = gaps[index].second;
        gap.prefetchSlot = slot;
        gap.prefetchGroup = group;
      }
    } else if (auto part = dyn_cast<HandlePartOp>(op)) {
      rootOf[part.getResult()] = getRoot(part.getSource());
      partHandleOffset[part.getResult()] = part.getOffset();
    } else if (auto wait = dyn_cast<WaitOp>(op)) {
      for (auto [member, handle, tensor] :
           llvm::enumerate(wait.getHandles(), wait.getTensors())) {
        Value root = getRoot(handle);
        rootOf[tensor] = root;
        auto it = openGap.find(root);
        if (it == openGap.end())
          return wait.emitError() << "waits for a tensor that is resident";
        gaps[it->second].second.waitPoint = slot;
        if (member > 0)
          awaitedEarly[tensor] = it->second;
        if (auto offset = partHandleOffset.find(handle);
            offset != partHandleOffset.end()) {
          // A part read back: it stands for the step's view of that part.
          Value view = findPartView(root, offset->second, tensor.getType());
          if (!view)
            return wait.emitError()
                   << "reads back the bytes from offset " << offset->second
                   << " of a tensor, but the step makes no view of that "
                      "part ('part_offsets')";
          rootOf[tensor] = view;
          partViewOfGap[it->second] = view;
          partOf[tensor] = root;
        }
        openGap.erase(it);
      }
    } else if (op.hasAttr(kRebuiltViewAttrName)) {
      // A view applyPlan made again after a reload, right before the op
      // that uses it: the original view stands for it.
      takeFirstUses(op, slot);
      Operation *original = findOriginalView(op);
      if (!original)
        return op.emitError() << "rebuilds a view that the step does not make";
      for (auto [rebuilt, value] :
           llvm::zip_equal(op.getResults(), original->getResults()))
        rootOf[rebuilt] = value;
    } else if (isa<func::ReturnOp>(op)) {
      takeFirstUses(op, slot);
      for (Value value : op.getOperands()) {
        if (!isa<HandleType>(value.getType()))
          continue;
        Value root = getRoot(value);
        if (!openGap.count(root)) {
          if (!isa<BlockArgument>(root))
            return op.emitError() << "returns a handle of a resident tensor";
          Gap untouched;
          untouched.entersOnSsd = true;
          openNewGap(root, untouched);
        }
        gaps[openGap[root]].second.leavesOnSsd = true;
      }
    } else {
      if (auto kernel = dyn_cast<KernelOp>(op);
          kernel && kernel.getViewOfAttr())
        views.push_back(&op);
      takeFirstUses(op, slot);
      ++slot;
      continue;
    }
    if (!isa<func::ReturnOp>(op))
      residencyOps.push_back(&op);
  }

  // A gap still open at the end was released and never read back: the
  // tensor stays on SSD to the exit, as the planner writes a gap that needs
  // no reload (`leavesOnSsd` of a value nobody reads again). A prefetch
  // without its wait is not a plan.
  for (auto &[root, index] : openGap) {
    Gap &gap = gaps[index].second;
    if (prefetched.contains(index))
      return func.emitError() << "prefetches a tensor it never waits for";
    gap.leavesOnSsd = true;
  }

  // Strip: every use goes back to the unplanned tensor.
  Operation *terminator = body.getTerminator();
  for (OpOperand &operand : terminator->getOpOperands())
    operand.set(getRoot(operand.get()));
  for (Operation *op : llvm::reverse(residencyOps)) {
    for (Value result : op->getResults())
      if (isa<RankedTensorType>(result.getType()))
        result.replaceAllUsesWith(getRoot(result));
    op->erase();
  }
  for (BlockArgument arg : body.getArguments())
    if (auto handle = dyn_cast<HandleType>(arg.getType()))
      arg.setType(handle.getTensorType());
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         body.getArgumentTypes(),
                                         terminator->getOperandTypes()));

  FailureOr<StepGraphMapping> mapping = buildStepGraph(func);
  if (failed(mapping))
    return failure();
  ExtractedPlan extracted{std::move(*mapping), planner::Plan()};
  for (auto [index, entry] : llvm::enumerate(gaps)) {
    auto &[root, gap] = entry;
    // Roots and part views are the unplanned step's values: each has one.
    gap.tensor = *extracted.mapping.lookupTensor(root);
    if (Value view = partViewOfGap.lookup(index))
      gap.part = *extracted.mapping.lookupTensor(view);
    extracted.plan.gaps.push_back(gap);
  }
  extracted.plan.finalize();
  return extracted;
}
