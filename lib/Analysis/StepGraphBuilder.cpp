//===- StepGraphBuilder.cpp - A func.func as the planner's graph ----------===//
//
// Every top-level op of the step's body is one program point; values used
// inside an op's regions but defined outside count as its operands, so a
// region op (scf.for, linalg.generic) touches what its body touches.
// Scalars occupy no device memory and count as 0 bytes; an `ssd.kernel`
// with `view_of` defines a view that shares its operand's storage, and with
// `part_offsets` also where in that storage each of its results lies.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/StepGraphBuilder.h"

#include "ssd/Analysis/Planner/CostModel.h"
#include "ssd/Dialect/SSD/IR/SSDDialect.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::ssd;
using planner::TensorId;
using planner::TensorRole;

uint32_t StepGraphMapping::getPoint(Operation *user) const {
  Operation *top = user;
  while (top->getBlock() != returnOp->getBlock())
    top = top->getParentOp();
  if (top == returnOp)
    return ops.size();
  return pointOf.lookup(top);
}

std::optional<TensorId> StepGraphMapping::lookupTensor(Value value) const {
  Block *body = returnOp->getBlock();
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == body ? std::optional<TensorId>(arg.getArgNumber())
                                  : std::nullopt;
  auto result = cast<OpResult>(value);
  auto point = pointOf.find(result.getOwner());
  if (point == pointOf.end())
    return std::nullopt;
  return firstResultOf[point->second] + result.getResultNumber();
}

static uint64_t getValueBytes(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? getTensorByteSize(tensor) : 0;
}

/// FLOPs of a linalg op: one per body op per loop iteration.
static std::optional<double> getLinalgFlops(linalg::LinalgOp op) {
  double iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    iterations *= static_cast<double>(range);
  }
  Block *body = op.getBlock();
  double bodyOps =
      body ? std::max<double>(1, body->getOperations().size() - 1) : 1;
  return iterations * bodyOps;
}

planner::OpCost mlir::ssd::getOpCost(Operation *op) {
  planner::OpCost cost;
  if (auto kernel = dyn_cast<KernelOp>(op)) {
    if (FloatAttr seconds = kernel.getCostSecondsAttr())
      cost.seconds = seconds.getValueAsDouble();
    if (FloatAttr flops = kernel.getFlopsAttr())
      cost.flops = flops.getValueAsDouble();
    if (IntegerAttr bytes = kernel.getBytesAttr())
      cost.bytes = static_cast<double>(bytes.getInt());
    if (cost.seconds || cost.flops)
      return cost;
  }
  SmallVector<ArrayRef<int64_t>> operandShapes, resultShapes;
  for (Value operand : op->getOperands())
    if (auto shaped = dyn_cast<RankedTensorType>(operand.getType()))
      operandShapes.push_back(shaped.getShape());
  for (Value result : op->getResults())
    if (auto shaped = dyn_cast<RankedTensorType>(result.getType()))
      resultShapes.push_back(shaped.getShape());
  StringRef name = op->getName().getStringRef();
  if (auto kernel = dyn_cast<KernelOp>(op))
    name = kernel.getName();
  cost.flops = planner::estimateFlops(name, operandShapes, resultShapes);
  if (!cost.flops)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      cost.flops = getLinalgFlops(linalgOp);
  return cost;
}

/// A readable name for a value defined by `op`, for reports.
static std::string getValueName(Operation *op, unsigned resultIndex,
                                uint32_t point) {
  std::string name;
  llvm::raw_string_ostream os(name);
  if (auto kernel = dyn_cast<KernelOp>(op))
    os << kernel.getName();
  else
    os << op->getName().getStringRef();
  os << "@" << point;
  if (op->getNumResults() > 1)
    os << "#" << resultIndex;
  return name;
}

/// The tensor whose storage `op`'s result shares: operand `view_of` of an
/// `ssd.kernel` view.
static std::optional<TensorId>
getViewedTensor(Operation *op, const StepGraphMapping &mapping) {
  auto kernel = dyn_cast<KernelOp>(op);
  if (!kernel || !kernel.getViewOfAttr())
    return std::nullopt;
  return mapping.lookupTensor(
      kernel.getInputs()[kernel.getViewOfAttr().getInt()]);
}

namespace {
/// What the graph takes from one op, read from the IR apart from the graph
/// being built.
struct OpRecord {
  std::string name;
  SmallVector<TensorId, 4> operands;
  planner::OpCost cost;
  std::optional<TensorId> viewed;
  /// Each result's name and bytes.
  SmallVector<std::pair<std::string, uint64_t>, 1> results;
};
} // namespace

/// The record of the op at `point`; `mapping` must number every top-level
/// op already.
static OpRecord readOp(Operation &op, uint32_t point,
                       const StepGraphMapping &mapping) {
  OpRecord record;
  // Most ops touch a few values: those are told apart without a hash set.
  llvm::SmallSetVector<Value, 8> touched;
  touched.insert(op.getOperands().begin(), op.getOperands().end());
  if (op.getNumRegions()) {
    llvm::SetVector<Value> usedInRegions;
    getUsedValuesDefinedAbove(op.getRegions(), usedInRegions);
    touched.insert(usedInRegions.begin(), usedInRegions.end());
  }
  for (Value value : touched)
    if (std::optional<TensorId> id = mapping.lookupTensor(value))
      record.operands.push_back(*id);
  record.name = isa<KernelOp>(op) ? cast<KernelOp>(op).getName().str()
                                  : op.getName().getStringRef().str();
  record.cost = getOpCost(&op);
  record.viewed = getViewedTensor(&op, mapping);
  for (OpResult result : op.getResults())
    record.results.push_back(
        {getValueName(&op, result.getResultNumber(), point),
         getValueBytes(result)});
  return record;
}

FailureOr<std::optional<uint32_t>>
mlir::ssd::getBackwardStart(func::FuncOp func) {
  Attribute attr = func->getAttr(kBackwardStartAttrName);
  if (!attr)
    return std::optional<uint32_t>();
  auto index = dyn_cast<IntegerAttr>(attr);
  if (!index || !isa<IntegerType>(index.getType()))
    return func.emitError() << "'" << kBackwardStartAttrName
                            << "' must be an integer op index, got " << attr;
  size_t numOps = func.getBody().empty()
                      ? 0
                      : func.getBody().front().getOperations().size() - 1;
  const APInt &value = index.getValue();
  if (value.isNegative() || value.uge(numOps)) {
    InFlightDiagnostic diag = func.emitError()
                              << "'" << kBackwardStartAttrName << "' is "
                              << llvm::toString(value, 10, /*Signed=*/true)
                              << " but the body has " << numOps << " ops";
    if (numOps)
      diag << "; expected an op index from 0 to " << numOps - 1;
    return diag;
  }
  return std::optional<uint32_t>(value.getZExtValue());
}

FailureOr<StepGraphMapping> mlir::ssd::buildStepGraph(func::FuncOp func) {
  if (!llvm::hasSingleElement(func.getBody()))
    return func.emitError() << "the planner expects a step with a single "
                               "block; run it before control flow lowering";
  StepGraphMapping mapping;
  mapping.graph = planner::StepGraph(func.getSymName().str());
  Block &body = func.getBody().front();
  mapping.returnOp = body.getTerminator();

  llvm::StringMap<TensorId> persistentByName;
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    auto nameAttr =
        func.getArgAttrOfType<StringAttr>(index, SSDDialect::kNameAttrName);
    auto roleAttr =
        func.getArgAttrOfType<StringAttr>(index, SSDDialect::kRoleAttrName);
    std::string name =
        nameAttr ? nameAttr.str() : "arg" + std::to_string(index);
    TensorRole role = TensorRole::Unknown;
    if (roleAttr)
      role =
          planner::parseRole(roleAttr.getValue()).value_or(TensorRole::Unknown);
    TensorId id = mapping.graph.addArgument(name, getValueBytes(arg), role);
    mapping.values.push_back(arg);
    if (planner::isPersistentRole(role))
      persistentByName[name] = id;
  }

  // The op list is long and scattered in memory: it is walked once, here
  // (its size() walks it too), numbering the ops and their results.
  TensorId nextTensor = func.getNumArguments();
  for (Operation &op : body.without_terminator()) {
    mapping.pointOf[&op] = mapping.ops.size();
    mapping.ops.push_back(&op);
    mapping.firstResultOf.push_back(nextTensor);
    nextTensor += op.getNumResults();
  }
  size_t numOps = mapping.ops.size();
  // With every value numbered, each op is read on its own: in chunks, on the
  // context's threads. Adding them to the graph (views need their viewed
  // tensor's root) is then one pass in order.
  std::vector<OpRecord> records(numOps);
  constexpr size_t kChunk = 2048;
  parallelFor(func.getContext(), 0, llvm::divideCeil(numOps, kChunk),
              [&](size_t chunk) {
                size_t end = std::min(numOps, (chunk + 1) * kChunk);
                for (size_t point = chunk * kChunk; point < end; ++point)
                  records[point] = readOp(*mapping.ops[point], point, mapping);
              });
  mapping.graph.reserve(numOps, nextTensor);
  mapping.values.reserve(nextTensor);
  for (auto [point, opPointer] : llvm::enumerate(mapping.ops)) {
    Operation &op = *opPointer;
    OpRecord &record = records[point];
    planner::OpId opId = mapping.graph.addOp(std::move(record.name),
                                             record.operands, record.cost);
    std::optional<TensorId> viewed = record.viewed;
    // Where each result lies in its root's storage, when the view says and
    // the viewed tensor is its root or a part of it.
    std::optional<ArrayRef<int64_t>> partOffsets;
    uint64_t base = 0;
    if (auto kernel = dyn_cast<KernelOp>(op); viewed && kernel) {
      const planner::Tensor::Part *part = mapping.graph.getPart(*viewed);
      if (!mapping.graph.getTensor(*viewed).isAlias() || part) {
        partOffsets = kernel.getPartOffsets();
        base = part ? part->offset : 0;
      }
    }
    for (auto [result, named] :
         llvm::zip_equal(op.getResults(), record.results)) {
      auto &[name, bytes] = named;
      TensorId id = viewed
                        ? mapping.graph.addAlias(opId, std::move(name), *viewed)
                        : mapping.graph.addResult(opId, std::move(name), bytes);
      if (partOffsets)
        mapping.graph.setPart(
            id, base + (*partOffsets)[result.getResultNumber()], bytes);
      mapping.values.push_back(result);
    }
  }
  records.clear();

  llvm::SmallDenseSet<TensorId> returned;
  for (auto [index, value] : llvm::enumerate(mapping.returnOp->getOperands())) {
    TensorId id = *mapping.lookupTensor(value);
    // A value returned twice is resident once; its first result decides.
    if (!returned.insert(id).second)
      continue;
    std::optional<TensorId> replaces;
    if (auto name = func.getResultAttrOfType<StringAttr>(
            index, SSDDialect::kNameAttrName))
      if (auto it = persistentByName.find(name.getValue());
          it != persistentByName.end())
        replaces = it->second;
    mapping.graph.addReturn(id, replaces);
    // A result the caller holds (`ssd.resident`) may not move: its storage
    // takes the role of the caller's data.
    if (func.getResultAttr(index, SSDDialect::kResidentAttrName))
      for (TensorId held : {id, mapping.graph.getStorage(id)})
        mapping.graph.getTensor(held).role = planner::TensorRole::Input;
  }

  FailureOr<std::optional<uint32_t>> backwardStart = getBackwardStart(func);
  if (failed(backwardStart))
    return failure();
  if (*backwardStart)
    mapping.graph.setBackwardStart(**backwardStart);

  if (llvm::Error error = mapping.graph.verify())
    return func.emitError()
           << "cannot plan this step: " << llvm::toString(std::move(error));
  return mapping;
}
