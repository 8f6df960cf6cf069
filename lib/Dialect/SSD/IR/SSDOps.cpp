//===- SSDOps.cpp - ssd dialect operations --------------------------------===//
//
// Verifiers and type inference of the ssd operations. Each verifier checks
// what must hold of one op and its direct producers; whole-function
// properties (residency at every use, the memory budget) belong to the plan
// verifier pass.
//
//===----------------------------------------------------------------------===//

#include "ssd/Dialect/SSD/IR/SSDDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ssd;

#define GET_OP_CLASSES
#include "ssd/Dialect/SSD/IR/SSDOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Checks that `values` is non-empty and names no value twice.
/// Up to this many values, comparing pairs is cheaper than a hash set: a
/// planned step verifies hundreds of thousands of transfers of a few values.
static constexpr size_t kPairwiseMaxValues = 16;

static LogicalResult verifyNonEmptyDistinct(Operation *op, ValueRange values,
                                            StringRef what) {
  if (values.empty())
    return op->emitOpError() << "expects at least one " << what;
  auto repeats = [&](size_t index, size_t first) {
    return op->emitOpError()
           << what << " #" << index << " repeats " << what << " #" << first;
  };
  if (values.size() <= kPairwiseMaxValues) {
    for (size_t index = 1; index < values.size(); ++index)
      for (size_t first = 0; first < index; ++first)
        if (values[first] == values[index])
          return repeats(index, first);
    return success();
  }
  llvm::SmallDenseMap<Value, unsigned> firstIndex;
  for (auto [index, value] : llvm::enumerate(values)) {
    auto [it, inserted] = firstIndex.try_emplace(value, index);
    if (!inserted)
      return repeats(index, it->second);
  }
  return success();
}

/// Returns the op of type OpTy that defines `token`, or emits an error saying
/// which producer `op` expected.
template <typename OpTy>
static FailureOr<OpTy> getTokenProducer(Operation *op, Value token) {
  if (auto producer = token.getDefiningOp<OpTy>())
    return producer;
  InFlightDiagnostic diag = op->emitOpError()
                            << "expects the token of an '"
                            << OpTy::getOperationName() << "'";
  if (Operation *other = token.getDefiningOp())
    diag.attachNote(other->getLoc())
        << "token produced by '" << other->getName() << "' here";
  else
    diag << ", got a block argument";
  return failure();
}

/// Checks that every value of `used` is one of `producedBy`'s `available`.
static LogicalResult verifySubsetOf(Operation *op, ValueRange used,
                                    Operation *producer, ValueRange available,
                                    StringRef what, StringRef verb) {
  bool pairwise = available.size() <= kPairwiseMaxValues;
  llvm::SmallPtrSet<Value, 8> known;
  if (!pairwise)
    known.insert(available.begin(), available.end());
  for (auto [index, value] : llvm::enumerate(used)) {
    if (pairwise ? llvm::is_contained(available, value) : known.contains(value))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << what << " #" << index << " was not " << verb
                              << " by the '" << producer->getName()
                              << "' that produced the token";
    diag.attachNote(producer->getLoc()) << "token produced here";
    return diag;
  }
  return success();
}

static bool isFiniteNonNegative(double value) {
  return std::isfinite(value) && value >= 0.0;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

/// A view's results (one, or one per part for `split`, `unbind`, `chunk`)
/// share the storage of a ranked tensor operand.
static LogicalResult verifyView(KernelOp op, int64_t operandIndex) {
  int64_t numInputs = op.getInputs().size();
  if (operandIndex < 0 || operandIndex >= numInputs)
    return op.emitOpError() << "'view_of' must name an operand: expected 0 to "
                            << numInputs - 1 << ", got " << operandIndex;
  if (op.getOutputs().empty())
    return op.emitOpError() << "with 'view_of' expects at least one result";
  Type viewed = op.getInputs()[operandIndex].getType();
  if (!isa<RankedTensorType>(viewed))
    return op.emitOpError() << "'view_of' operand #" << operandIndex
                            << " must be a ranked tensor, got " << viewed;
  return success();
}

/// Checks that `part` at byte `offset` is one contiguous range of `whole`
/// that is a slab of its rows: the same element type, the shape of `whole`
/// with the first dimension changed or dropped, static, inside `whole` at a
/// multiple of a row.
static LogicalResult verifyPartOfRows(Operation *op, RankedTensorType whole,
                                      RankedTensorType part, int64_t offset,
                                      const std::string &what) {
  if (!whole.hasStaticShape() || !part.hasStaticShape() || whole.getRank() == 0)
    return op->emitOpError()
           << "expects " << what << " and the tensor it is a part of to be "
           << "static tensors of rank 1 or more, got " << part << " of "
           << whole;
  if (part.getElementType() != whole.getElementType())
    return op->emitOpError()
           << "expects " << what << " to have the element type of the tensor "
           << "it is a part of, " << whole.getElementType() << ", got "
           << part.getElementType();
  ArrayRef<int64_t> rowShape = whole.getShape().drop_front();
  bool slab =
      part.getShape() == rowShape || (part.getRank() == whole.getRank() &&
                                      part.getShape().drop_front() == rowShape);
  if (!slab)
    return op->emitOpError()
           << "expects " << what << " to be one contiguous range of rows of "
           << whole << " (its shape with the first dimension changed or "
           << "dropped), got " << part << ", which is not contiguous in it";
  int64_t wholeBytes = getTensorByteSize(whole);
  int64_t partBytes = getTensorByteSize(part);
  int64_t rows = whole.getDimSize(0);
  int64_t rowBytes = rows ? wholeBytes / rows : 0;
  if (rows == 0 || partBytes == 0 || offset < 0 ||
      offset > wholeBytes - partBytes || (rowBytes && offset % rowBytes))
    return op->emitOpError()
           << "expects " << what << " (" << partBytes << " bytes) at offset "
           << offset << " to be a non-empty range of whole rows (" << rowBytes
           << " bytes each) inside the " << wholeBytes << " bytes of " << whole;
  return success();
}

/// Base names of the ATen operators whose functional overloads compute their
/// results from their operands alone: deterministic, no hidden state, no
/// writes to operands. Random operators (dropout, bernoulli, rand*, fused
/// attention with dropout) and collectives are absent on purpose.
static constexpr llvm::StringLiteral kPureAtenOperators[] = {
    "_adaptive_avg_pool2d",
    "_adaptive_avg_pool2d_backward",
    "_fused_adam",
    "_fused_adamw",
    "_fused_sgd",
    "_log_softmax",
    "_log_softmax_backward_data",
    "_native_batch_norm_legit_functional",
    "_native_batch_norm_legit_no_training",
    "_reshape_alias",
    "_safe_softmax",
    "_softmax",
    "_softmax_backward_data",
    "_to_copy",
    "_unsafe_view",
    "abs",
    "add",
    "addcdiv",
    "addcmul",
    "addmm",
    "alias",
    "amax",
    "amin",
    "any",
    "arange",
    "argmax",
    "argmin",
    "as_strided",
    "avg_pool2d",
    "avg_pool2d_backward",
    "baddbmm",
    "bitwise_and",
    "bitwise_not",
    "bitwise_or",
    "bmm",
    "cat",
    "clamp",
    "clamp_max",
    "clamp_min",
    "clone",
    "constant_pad_nd",
    "convolution",
    "convolution_backward",
    "copy",
    "cos",
    "cumsum",
    "detach",
    "div",
    "embedding",
    "embedding_dense_backward",
    "eq",
    "erf",
    "exp",
    "expand",
    "expand_copy",
    "fill",
    "full",
    "full_like",
    "gather",
    "ge",
    "gelu",
    "gelu_backward",
    "gt",
    "hardsigmoid",
    "hardsigmoid_backward",
    "hardswish",
    "hardswish_backward",
    "hardtanh",
    "hardtanh_backward",
    "index",
    "index_select",
    "le",
    "lerp",
    "linalg_vector_norm",
    "log",
    "logical_and",
    "logical_not",
    "lt",
    "masked_fill",
    "max",
    "max_pool2d_with_indices",
    "max_pool2d_with_indices_backward",
    "maximum",
    "mean",
    "min",
    "minimum",
    "mm",
    "mse_loss",
    "mse_loss_backward",
    "mul",
    "native_batch_norm_backward",
    "native_dropout_backward",
    "native_group_norm",
    "native_group_norm_backward",
    "native_layer_norm",
    "native_layer_norm_backward",
    "ne",
    "neg",
    "new_ones",
    "new_zeros",
    "nll_loss_backward",
    "nll_loss_forward",
    "ones",
    "ones_like",
    "permute",
    "permute_copy",
    "pow",
    "reciprocal",
    "relu",
    "repeat",
    "reshape",
    "rsqrt",
    "rsub",
    "scalar_tensor",
    "select",
    "select_backward",
    "sigmoid",
    "sigmoid_backward",
    "silu",
    "silu_backward",
    "sin",
    "slice",
    "slice_backward",
    "split",
    "split_with_sizes",
    "sqrt",
    "squeeze",
    "stack",
    "sub",
    "sum",
    "t",
    "tanh",
    "tanh_backward",
    "threshold_backward",
    "transpose",
    "tril",
    "triu",
    "unbind",
    "unsqueeze",
    "var_mean",
    "view",
    "where",
    "zeros",
    "zeros_like",
};

/// Whether `name` ("aten.<operator>[.<overload>]") is a functional overload
/// of a pure ATen operator: in-place (`add_`) and `out=` overloads write
/// memory the kernel does not return.
static bool isPureAtenKernel(StringRef name) {
  static const llvm::StringSet<> pure = [] {
    llvm::StringSet<> set;
    for (StringRef op : kPureAtenOperators)
      set.insert(op);
    return set;
  }();
  if (!name.consume_front("aten."))
    return false;
  auto [op, overload] = name.split('.');
  if (op.ends_with("_") || overload == "out" || overload.ends_with("_out"))
    return false;
  return pure.contains(op);
}

bool KernelOp::isSideEffectFree() {
  return getPure() || isPureAtenKernel(getName());
}

void KernelOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isSideEffectFree())
    return;
  // Unknown state: what an unregistered op would be assumed to touch.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

Speculation::Speculatability KernelOp::getSpeculatability() {
  return isSideEffectFree() ? Speculation::Speculatable
                            : Speculation::NotSpeculatable;
}

LogicalResult KernelOp::verify() {
  if (getName().empty())
    return emitOpError() << "expects a non-empty 'name'";
  for (FloatAttr cost : {getFlopsAttr(), getCostSecondsAttr()}) {
    if (cost && !isFiniteNonNegative(cost.getValueAsDouble()))
      return emitOpError() << "'"
                           << (cost == getFlopsAttr() ? "flops"
                                                      : "cost_seconds")
                           << "' must be finite and non-negative, got "
                           << cost.getValueAsDouble();
  }
  if (IntegerAttr bytes = getBytesAttr(); bytes && bytes.getInt() < 0)
    return emitOpError() << "'bytes' must be non-negative, got "
                         << bytes.getInt();
  if (IntegerAttr viewOf = getViewOfAttr()) {
    if (failed(verifyView(*this, viewOf.getInt())))
      return failure();
  }
  if (std::optional<ArrayRef<int64_t>> offsets = getPartOffsets()) {
    if (!getViewOfAttr())
      return emitOpError() << "'part_offsets' needs 'view_of'";
    if (offsets->size() != getOutputs().size())
      return emitOpError() << "'part_offsets' needs one offset per result ("
                           << getOutputs().size() << "), got "
                           << offsets->size();
    auto viewed =
        cast<RankedTensorType>(getInputs()[getViewOfAttr().getInt()].getType());
    for (auto [index, offset] : llvm::enumerate(*offsets)) {
      auto part = dyn_cast<RankedTensorType>(getOutputs()[index].getType());
      if (!part)
        return emitOpError() << "with 'part_offsets' expects ranked tensor "
                                "results, got "
                             << getOutputs()[index].getType();
      if (failed(verifyPartOfRows(getOperation(), viewed, part, offset,
                                  "result #" + std::to_string(index))))
        return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OffloadOp
//===----------------------------------------------------------------------===//

LogicalResult OffloadOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  for (Value operand : operands) {
    auto tensorType = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensorType)
      return emitOptionalError(location, "expects ranked tensor operands, got ",
                               operand.getType());
    inferredReturnTypes.push_back(HandleType::get(context, tensorType));
  }
  inferredReturnTypes.push_back(TokenType::get(context));
  return success();
}

LogicalResult OffloadOp::verify() {
  return verifyNonEmptyDistinct(*this, getTensors(), "tensor");
}

//===----------------------------------------------------------------------===//
// HandlePartOp
//===----------------------------------------------------------------------===//

LogicalResult HandlePartOp::verify() {
  return verifyPartOfRows(
      getOperation(), cast<HandleType>(getSource().getType()).getTensorType(),
      cast<HandleType>(getResult().getType()).getTensorType(), getOffset(),
      "the part");
}

//===----------------------------------------------------------------------===//
// ReleaseOp
//===----------------------------------------------------------------------===//

/// Checks that each tensor `release` frees was written by one of `offloads`
/// (the producers of its tokens) and that each of them wrote one of those
/// tensors.
static LogicalResult verifyWrittenByTokens(ReleaseOp release,
                                           ArrayRef<OffloadOp> offloads) {
  auto writtenBy = [](Value tensor, OffloadOp offload) {
    return llvm::is_contained(offload.getTensors(), tensor);
  };
  for (auto [index, tensor] : llvm::enumerate(release.getTensors()))
    if (llvm::none_of(offloads, [&](OffloadOp offload) {
          return writtenBy(tensor, offload);
        }))
      return release.emitOpError()
             << "tensor #" << index
             << " was not written by the 'ssd.offload' of any of its tokens";
  for (auto [index, offload] : llvm::enumerate(offloads))
    if (llvm::none_of(release.getTensors(), [&](Value tensor) {
          return writtenBy(tensor, offload);
        })) {
      InFlightDiagnostic diag =
          release.emitOpError()
          << "token #" << index
          << " stands for a write of none of the released tensors";
      diag.attachNote(offload->getLoc()) << "token produced here";
      return diag;
    }
  return success();
}

LogicalResult ReleaseOp::verify() {
  if (failed(verifyNonEmptyDistinct(*this, getTensors(), "tensor")))
    return failure();
  if (getTokens().empty())
    return success();
  if (getTokens().size() > 1 &&
      failed(verifyNonEmptyDistinct(*this, getTokens(), "token")))
    return failure();
  SmallVector<OffloadOp, 2> offloads;
  for (Value token : getTokens()) {
    FailureOr<OffloadOp> offload = getTokenProducer<OffloadOp>(*this, token);
    if (failed(offload))
      return failure();
    offloads.push_back(*offload);
  }
  if (offloads.size() == 1)
    return verifySubsetOf(*this, getTensors(), offloads.front(),
                          offloads.front().getTensors(), "tensor", "written");
  return verifyWrittenByTokens(*this, offloads);
}

//===----------------------------------------------------------------------===//
// PrefetchOp
//===----------------------------------------------------------------------===//

LogicalResult PrefetchOp::verify() {
  return verifyNonEmptyDistinct(*this, getHandles(), "handle");
}

//===----------------------------------------------------------------------===//
// WaitOp
//===----------------------------------------------------------------------===//

LogicalResult
WaitOp::inferReturnTypes(MLIRContext *, std::optional<Location> location,
                         ValueRange operands, DictionaryAttr, OpaqueProperties,
                         RegionRange,
                         SmallVectorImpl<Type> &inferredReturnTypes) {
  for (Value operand : operands.drop_front()) {
    auto handle = dyn_cast<HandleType>(operand.getType());
    if (!handle)
      return emitOptionalError(location, "expects handle operands, got ",
                               operand.getType());
    inferredReturnTypes.push_back(handle.getTensorType());
  }
  return success();
}

LogicalResult WaitOp::verify() {
  if (failed(verifyNonEmptyDistinct(*this, getHandles(), "handle")))
    return failure();
  FailureOr<PrefetchOp> prefetch =
      getTokenProducer<PrefetchOp>(*this, getToken());
  if (failed(prefetch))
    return failure();
  return verifySubsetOf(*this, getHandles(), *prefetch, prefetch->getHandles(),
                        "handle", "read");
}

//===----------------------------------------------------------------------===//
// CheckpointBeginOp
//===----------------------------------------------------------------------===//

LogicalResult CheckpointBeginOp::verify() {
  int64_t worldSize = getWorldSize();
  int64_t rank = getRank();
  if (worldSize < 1)
    return emitOpError() << "expects a world size of at least 1, got "
                         << worldSize;
  if (rank < 0 || rank >= worldSize)
    return emitOpError() << "expects a rank in [0, " << worldSize << "), got "
                         << rank;
  if (getEvery() < 1)
    return emitOpError() << "expects 'every' of at least 1, got " << getEvery();
  CheckpointCommitOp commit;
  for (Operation *user : getCheckpoint().getUsers()) {
    auto userCommit = dyn_cast<CheckpointCommitOp>(user);
    if (!userCommit)
      continue;
    if (commit) {
      if (userCommit->getBlock() == commit->getBlock() &&
          userCommit->isBeforeInBlock(commit))
        std::swap(commit, userCommit);
      InFlightDiagnostic diag = emitOpError() << "is committed more than once";
      diag.attachNote(commit.getLoc()) << "first commit here";
      diag.attachNote(userCommit.getLoc()) << "second commit here";
      return diag;
    }
    commit = userCommit;
  }
  if (!commit)
    return emitOpError() << "is never committed";
  return success();
}

//===----------------------------------------------------------------------===//
// SaveShardOp
//===----------------------------------------------------------------------===//

LogicalResult SaveShardOp::verify() {
  if (getKey().empty())
    return emitOpError() << "expects a non-empty 'key'";
  ArrayRef<int64_t> shape = getTensor().getType().getShape();
  ArrayRef<int64_t> offsets = getOffsets();
  ArrayRef<int64_t> globalShape = getGlobalShape();
  if (offsets.size() != shape.size() || globalShape.size() != shape.size())
    return emitOpError() << "expects 'offsets' and 'global_shape' of the "
                            "tensor's rank "
                         << shape.size() << ", got " << offsets.size()
                         << " and " << globalShape.size();
  for (auto [dim, offset, size, global] :
       llvm::enumerate(offsets, shape, globalShape)) {
    if (offset < 0 || global < 0 || offset + size > global)
      return emitOpError() << "dimension " << dim << ": shard [" << offset
                           << ", " << offset + size
                           << ") does not lie within [0, " << global << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CheckpointCommitOp
//===----------------------------------------------------------------------===//

/// True when the two shards share at least one element.
static bool shardsOverlap(SaveShardOp a, SaveShardOp b) {
  ArrayRef<int64_t> shapeA = a.getTensor().getType().getShape();
  ArrayRef<int64_t> shapeB = b.getTensor().getType().getShape();
  for (auto [offA, sizeA, offB, sizeB] :
       llvm::zip_equal(a.getOffsets(), shapeA, b.getOffsets(), shapeB)) {
    if (std::max(offA, offB) >= std::min(offA + sizeA, offB + sizeB))
      return false;
  }
  return true;
}

LogicalResult CheckpointCommitOp::verify() {
  llvm::SmallPtrSet<Operation *, 16> awaited;
  llvm::StringMap<SmallVector<SaveShardOp>> shardsByKey;
  for (auto [index, token] : llvm::enumerate(getShards())) {
    FailureOr<SaveShardOp> save = getTokenProducer<SaveShardOp>(*this, token);
    if (failed(save))
      return failure();
    if (save->getCheckpoint() != getCheckpoint()) {
      InFlightDiagnostic diag = emitOpError()
                                << "shard #" << index
                                << " belongs to another checkpoint";
      diag.attachNote(save->getLoc()) << "shard saved here";
      return diag;
    }
    if (!awaited.insert(*save).second)
      return emitOpError() << "awaits shard #" << index << " twice";
    SmallVector<SaveShardOp> &sameKey = shardsByKey[save->getKey()];
    for (SaveShardOp other : sameKey) {
      if (other.getGlobalShape() != save->getGlobalShape()) {
        InFlightDiagnostic diag = emitOpError()
                                  << "shards of '" << save->getKey()
                                  << "' disagree on the global shape";
        diag.attachNote(other.getLoc()) << "one shard here";
        diag.attachNote(save->getLoc()) << "the other here";
        return diag;
      }
      if (shardsOverlap(other, *save)) {
        InFlightDiagnostic diag =
            emitOpError() << "shards of '" << save->getKey() << "' overlap";
        diag.attachNote(other.getLoc()) << "one shard here";
        diag.attachNote(save->getLoc()) << "the other here";
        return diag;
      }
    }
    sameKey.push_back(*save);
  }
  for (Operation *user : getCheckpoint().getUsers()) {
    auto save = dyn_cast<SaveShardOp>(user);
    if (save && !awaited.contains(save)) {
      InFlightDiagnostic diag = emitOpError() << "does not await the shard of '"
                                              << save.getKey() << "'";
      diag.attachNote(save.getLoc()) << "shard saved here";
      return diag;
    }
  }
  return success();
}
