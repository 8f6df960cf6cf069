//===- SSDToRuntime.cpp - residency ops to ssdrt calls --------------------===//
//
// Implements `ssd-lower-to-runtime` and the `ssd-lower-to-llvm` pipeline.
// The rewrite happens on tensors, before bufferization: each runtime call
// takes the address of a tensor's buffer (bufferization.to_memref), so that
// one-shot bufferization sees every place a buffer must still exist, and a
// reload's buffer is allocated at its prefetch and handed back to tensors
// with bufferization.to_tensor at its wait.
//
//===----------------------------------------------------------------------===//

#include "ssd/Conversion/Passes.h"

#include "ssd/Dialect/SSD/IR/SSDDialect.h"
#include "ssd/Runtime/RuntimeSymbols.h"
#include "ssd/Runtime/ssdrt.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::ssd {
#define GEN_PASS_DEF_LOWERTORUNTIMEPASS
#include "ssd/Conversion/Passes.h.inc"
} // namespace mlir::ssd

using namespace mlir;
using namespace mlir::ssd;
namespace symbols = ::ssd::rt::symbols;

namespace {
/// Declares the runtime functions the lowering calls, once per module.
class RuntimeDeclarations {
public:
  explicit RuntimeDeclarations(ModuleOp module) : module(module) {}

  func::FuncOp get(StringRef name, TypeRange inputs, TypeRange results) {
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto decl = builder.create<func::FuncOp>(
        module.getLoc(), name, builder.getFunctionType(inputs, results));
    decl.setPrivate();
    return decl;
  }

private:
  ModuleOp module;
};

class Lowering {
public:
  Lowering(ModuleOp module)
      : module(module), symbolTable(module), declarations(module),
        i64(IntegerType::get(module.getContext(), 64)) {}

  LogicalResult lowerFunction(func::FuncOp func);
  /// Gives a declaration with handles in its signature i64 ids instead.
  void lowerDeclaration(func::FuncOp func) {
    func.setType(FunctionType::get(func.getContext(),
                                   lowerTypes(func.getArgumentTypes()),
                                   lowerTypes(func.getResultTypes())));
  }

private:
  /// Whether `func` needs the runtime: residency or checkpoint ops, or
  /// handles in its signature or its calls.
  bool needsRuntime(func::FuncOp func);
  /// Rejects uses of handles the lowering cannot follow.
  LogicalResult checkHandles(func::FuncOp func);
  /// Turns handle arguments into i64 ids that the function adopts.
  void lowerSignature(OpBuilder &builder, func::FuncOp func);
  LogicalResult lowerOp(OpBuilder &builder, Operation *op);
  LogicalResult lowerRelease(OpBuilder &builder, ReleaseOp release);
  LogicalResult lowerSaveShard(OpBuilder &builder, SaveShardOp save);
  void lowerCall(OpBuilder &builder, func::CallOp call);
  void lowerReturn(OpBuilder &builder, func::ReturnOp ret);

  /// The address of `tensor`'s buffer, as i64.
  Value getAddress(OpBuilder &builder, Location loc, Value tensor);
  Value getBufferAddress(OpBuilder &builder, Location loc, Value memref);
  /// The address of a constant global holding `values` of `elementType`.
  Value getConstantAddress(OpBuilder &builder, Location loc, StringRef name,
                           DenseElementsAttr values);
  Value constant(OpBuilder &builder, Location loc, int64_t value) {
    return builder.create<arith::ConstantIntOp>(loc, value, 64);
  }
  func::CallOp call(OpBuilder &builder, Location loc, StringRef name,
                    ValueRange operands, TypeRange results = {}) {
    SmallVector<Type> inputs(operands.getTypes());
    func::FuncOp callee = declarations.get(name, inputs, results);
    return builder.create<func::CallOp>(loc, callee, operands);
  }
  /// `types` with every handle type replaced by i64.
  SmallVector<Type> lowerTypes(TypeRange types) {
    return llvm::map_to_vector(types, [&](Type type) -> Type {
      return isa<HandleType>(type) ? i64 : type;
    });
  }
  /// `values` with every handle (a value with an id) replaced by its id.
  SmallVector<Value> lowerValues(ValueRange values) {
    return llvm::map_to_vector(values, [&](Value value) -> Value {
      return handleId.count(value) ? handleId.lookup(value) : value;
    });
  }

  ModuleOp module;
  SymbolTable symbolTable;
  RuntimeDeclarations declarations;
  Type i64;
  /// The runtime handle id of each ssd handle, and the buffer a prefetch
  /// reads it into.
  DenseMap<Value, Value> handleId;
  DenseMap<Value, Value> reloadBuffer;
  /// The ssd handle each lowered wait's tensor was read from.
  DenseMap<Value, Value> handleOfReload;
  /// The byte offset in its tensor of each handle of a part.
  DenseMap<Value, int64_t> partOffset;
  /// The tensor type of each handle argument, whose type is now i64.
  DenseMap<Value, RankedTensorType> argumentTensorType;
  /// The runtime id of each checkpoint being written, and of each shard
  /// (by its token) with the tensor it saves.
  DenseMap<Value, Value> checkpointId;
  DenseMap<Value, std::pair<Value, Value>> shardOfToken;
};
} // namespace

Value Lowering::getBufferAddress(OpBuilder &builder, Location loc,
                                 Value memref) {
  Value pointer =
      builder.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
  return builder.create<arith::IndexCastOp>(loc, i64, pointer);
}

Value Lowering::getAddress(OpBuilder &builder, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value memref =
      builder.create<bufferization::ToMemrefOp>(loc, memrefType, tensor,
                                                /*read_only=*/true);
  return getBufferAddress(builder, loc, memref);
}

Value Lowering::getConstantAddress(OpBuilder &builder, Location loc,
                                   StringRef name, DenseElementsAttr values) {
  auto type = MemRefType::get(values.getType().getShape(),
                              values.getType().getElementType());
  OpBuilder detached(module.getContext());
  auto global = detached.create<memref::GlobalOp>(
      loc, name, detached.getStringAttr("private"), type, values,
      /*constant=*/true, /*alignment=*/IntegerAttr());
  // Inserting renames the global when the name is taken.
  symbolTable.insert(global, module.getBody()->begin());
  Value memref =
      builder.create<memref::GetGlobalOp>(loc, type, global.getSymName());
  return getBufferAddress(builder, loc, memref);
}

static bool hasHandle(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return isa<HandleType>(t); });
}

/// Whether `call` passes or returns handles.
static bool passesHandles(func::CallOp call) {
  return hasHandle(call.getOperandTypes()) || hasHandle(call.getResultTypes());
}

bool Lowering::needsRuntime(func::FuncOp func) {
  if (hasHandle(func.getArgumentTypes()) || hasHandle(func.getResultTypes()))
    return true;
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa_and_nonnull<SSDDialect>(op->getDialect()) && !isa<KernelOp>(op))
      return WalkResult::interrupt();
    if (auto call = dyn_cast<func::CallOp>(op); call && passesHandles(call))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

LogicalResult Lowering::checkHandles(func::FuncOp func) {
  auto checkUses = [&](Value handle) -> LogicalResult {
    for (Operation *user : handle.getUsers())
      if (!isa<PrefetchOp, WaitOp, HandlePartOp, func::CallOp, func::ReturnOp>(
              user))
        return user->emitError()
               << "uses a handle, which the lowering to the runtime only "
                  "passes to ssd.prefetch, ssd.wait, ssd.handle_part, "
                  "func.call and func.return";
    return success();
  };
  for (BlockArgument arg : func.getArguments())
    if (isa<HandleType>(arg.getType()) && failed(checkUses(arg)))
      return failure();
  WalkResult walk = func.walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      if (!isa<HandleType>(result.getType()))
        continue;
      if (!isa<OffloadOp, HandlePartOp, func::CallOp>(op)) {
        op->emitError() << "defines a handle, which the lowering to the "
                           "runtime only takes from ssd.offload, "
                           "ssd.handle_part and func.call";
        return WalkResult::interrupt();
      }
      // A part is read back and awaited, never released, returned or
      // passed on: its handle is its tensor's.
      if (isa<HandlePartOp>(op))
        for (Operation *user : result.getUsers())
          if (!isa<PrefetchOp, WaitOp>(user)) {
            user->emitError() << "uses the handle of a part, which the "
                                 "lowering to the runtime only passes to "
                                 "ssd.prefetch and ssd.wait";
            return WalkResult::interrupt();
          }
      if (failed(checkUses(result)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void Lowering::lowerSignature(OpBuilder &builder, func::FuncOp func) {
  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  call(builder, func.getLoc(), symbols::lower_step_begin, {});
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<HandleType>(arg.getType()))
      continue;
    argumentTensorType[arg] = cast<HandleType>(arg.getType()).getTensorType();
    arg.setType(i64);
    handleId[arg] = arg;
    call(builder, arg.getLoc(), symbols::lower_adopt, {arg});
  }
  func.setType(FunctionType::get(func.getContext(),
                                 lowerTypes(func.getArgumentTypes()),
                                 lowerTypes(func.getResultTypes())));
}

LogicalResult Lowering::lowerRelease(OpBuilder &builder, ReleaseOp release) {
  Location loc = release.getLoc();
  for (Value tensor : release.getTensors()) {
    // The handle that holds this tensor: the offload's, or for a reloaded
    // tensor the handle it was read from (its wait, lowered before the
    // release, replaced it).
    Value handle = handleOfReload.lookup(tensor);
    if (!handle) {
      for (Operation *user : tensor.getUsers())
        if (auto offload = dyn_cast<OffloadOp>(user))
          for (auto [written, h] :
               llvm::zip_equal(offload.getTensors(), offload.getHandles()))
            if (written == tensor)
              handle = h;
    }
    if (!handle || !handleId.count(handle))
      return release.emitError() << "releases a tensor with no copy on SSD";
    call(builder, loc, symbols::lower_release,
         {handleId[handle], getAddress(builder, loc, tensor)});
  }
  return success();
}

/// The element types checkpoints hold, from the runtime's one table.
struct CheckpointDType {
  int64_t code;
  const char *mlirName;
  const char *safetensorsName;
};
static constexpr CheckpointDType kCheckpointDTypes[] = {
#define SSD_DTYPE(C_NAME, CXX_NAME, CODE, BYTES, NAME, SAFETENSORS, MLIR,      \
                  IN_CKPT)                                                     \
  {IN_CKPT ? CODE : -1, MLIR, SAFETENSORS},
#include "ssd/Runtime/DTypes.def"
#undef SSD_DTYPE
};

/// The checkpoint format's dtype code of `type`, if it has one; a signed
/// integer counts as the signless one of its width.
static std::optional<int64_t> getDTypeCode(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type); integer && integer.isSigned())
    type = IntegerType::get(type.getContext(), integer.getWidth());
  for (const CheckpointDType &dtype : kCheckpointDTypes)
    if (dtype.code >= 0 && parseType(dtype.mlirName, type.getContext()) == type)
      return dtype.code;
  return std::nullopt;
}

/// "F32, F16, ... and BOOL": what checkpoints hold, for diagnostics.
static std::string checkpointDTypeNames() {
  SmallVector<StringRef> names;
  for (const CheckpointDType &dtype : kCheckpointDTypes)
    if (dtype.code >= 0)
      names.push_back(dtype.safetensorsName);
  return llvm::join(ArrayRef(names).drop_back(), ", ") + " and " +
         names.back().str();
}

LogicalResult Lowering::lowerSaveShard(OpBuilder &builder, SaveShardOp save) {
  Location loc = save.getLoc();
  auto type = cast<RankedTensorType>(save.getTensor().getType());
  std::optional<int64_t> dtype = getDTypeCode(type.getElementType());
  if (!dtype)
    return save.emitError()
           << "cannot save a shard of element type " << type.getElementType()
           << ": checkpoints hold " << checkpointDTypeNames();
  // The key as a NUL-terminated string, and the layout words the runtime
  // reads: dtype, rank, global shape, offsets, sizes.
  SmallVector<int8_t> key(save.getKey().begin(), save.getKey().end());
  key.push_back(0);
  SmallVector<int64_t> layout = {*dtype, type.getRank()};
  llvm::append_range(layout, save.getGlobalShape());
  llvm::append_range(layout, save.getOffsets());
  llvm::append_range(layout, type.getShape());
  auto i8 = IntegerType::get(save.getContext(), 8);
  Value keyAddress = getConstantAddress(
      builder, loc, "__ssd_checkpoint_key",
      DenseElementsAttr::get(RankedTensorType::get({int64_t(key.size())}, i8),
                             ArrayRef(key)));
  Value layoutAddress = getConstantAddress(
      builder, loc, "__ssd_checkpoint_layout",
      DenseElementsAttr::get(
          RankedTensorType::get({int64_t(layout.size())}, i64),
          ArrayRef(layout)));
  Value address = getAddress(builder, loc, save.getTensor());
  Value id = call(builder, loc, symbols::lower_ckpt_save,
                  {checkpointId.lookup(save.getCheckpoint()), keyAddress,
                   layoutAddress, address},
                  {i64})
                 .getResult(0);
  shardOfToken[save.getToken()] = {id, save.getTensor()};
  return success();
}

void Lowering::lowerCall(OpBuilder &builder, func::CallOp oldCall) {
  auto newCall = builder.create<func::CallOp>(
      oldCall.getLoc(), oldCall.getCallee(),
      lowerTypes(oldCall.getResultTypes()), lowerValues(oldCall.getOperands()));
  for (auto [oldResult, newResult] :
       llvm::zip_equal(oldCall.getResults(), newCall.getResults())) {
    if (isa<HandleType>(oldResult.getType()))
      handleId[oldResult] = newResult;
    else
      oldResult.replaceAllUsesWith(newResult);
  }
}

void Lowering::lowerReturn(OpBuilder &builder, func::ReturnOp ret) {
  for (Value operand : ret.getOperands())
    if (handleId.count(operand))
      call(builder, ret.getLoc(), symbols::lower_keep,
           {handleId.lookup(operand)});
  call(builder, ret.getLoc(), symbols::lower_step_end, {});
  builder.create<func::ReturnOp>(ret.getLoc(), lowerValues(ret.getOperands()));
}

LogicalResult Lowering::lowerOp(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  // The tensors of one multi-tensor offload or prefetch move as one group
  // transfer, as the planner's simulation timed them.
  auto grouped = [&](size_t members, llvm::function_ref<void()> lower) {
    if (members > 1)
      call(builder, loc, symbols::lower_group_begin, {});
    lower();
    if (members > 1)
      call(builder, loc, symbols::lower_group_end, {});
  };
  if (auto offload = dyn_cast<OffloadOp>(op)) {
    grouped(offload.getTensors().size(), [&] {
      for (auto [tensor, handle] :
           llvm::zip_equal(offload.getTensors(), offload.getHandles())) {
        int64_t bytes =
            getTensorByteSize(cast<RankedTensorType>(tensor.getType()));
        handleId[handle] = call(builder, loc, symbols::lower_offload,
                                {getAddress(builder, loc, tensor),
                                 constant(builder, loc, bytes)},
                                {i64})
                               .getResult(0);
      }
    });
    return success();
  }
  if (auto release = dyn_cast<ReleaseOp>(op))
    return lowerRelease(builder, release);
  if (auto part = dyn_cast<HandlePartOp>(op)) {
    handleId[part.getResult()] = handleId.lookup(part.getSource());
    partOffset[part.getResult()] = part.getOffset();
    return success();
  }
  if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
    grouped(prefetch.getHandles().size(), [&] {
      for (Value handle : prefetch.getHandles()) {
        RankedTensorType type = argumentTensorType.lookup(handle);
        if (!type)
          type = cast<HandleType>(handle.getType()).getTensorType();
        auto memrefType =
            MemRefType::get(type.getShape(), type.getElementType());
        Value buffer = builder.create<memref::AllocOp>(loc, memrefType);
        reloadBuffer[handle] = buffer;
        Value address = getBufferAddress(builder, loc, buffer);
        if (auto offset = partOffset.find(handle); offset != partOffset.end())
          call(builder, loc, symbols::lower_prefetch_range,
               {handleId.lookup(handle), address,
                constant(builder, loc, offset->second),
                constant(builder, loc, getTensorByteSize(type))});
        else
          call(builder, loc, symbols::lower_prefetch,
               {handleId.lookup(handle), address});
      }
    });
    return success();
  }
  if (auto wait = dyn_cast<WaitOp>(op)) {
    for (auto [handle, tensor] :
         llvm::zip_equal(wait.getHandles(), wait.getTensors())) {
      call(builder, loc, symbols::lower_wait, {handleId.lookup(handle)});
      Value reloaded = builder.create<bufferization::ToTensorOp>(
          loc, tensor.getType(), reloadBuffer.lookup(handle),
          /*restrict=*/true, /*writable=*/true);
      tensor.replaceAllUsesWith(reloaded);
      handleOfReload[reloaded] = handle;
    }
    return success();
  }
  if (auto begin = dyn_cast<CheckpointBeginOp>(op)) {
    checkpointId[begin.getCheckpoint()] =
        call(builder, loc, symbols::lower_ckpt_begin,
             {constant(builder, loc, begin.getRank()),
              constant(builder, loc, begin.getWorldSize()),
              constant(builder, loc, begin.getEvery())},
             {i64})
            .getResult(0);
    return success();
  }
  if (auto save = dyn_cast<SaveShardOp>(op))
    return lowerSaveShard(builder, save);
  if (auto commit = dyn_cast<CheckpointCommitOp>(op)) {
    // Each shard's wait passes its tensor's buffer, which keeps the buffer
    // alive and unwritten until the write that reads it is done.
    for (Value token : commit.getShards()) {
      auto [id, tensor] = shardOfToken.lookup(token);
      call(builder, loc, symbols::lower_ckpt_wait,
           {id, getAddress(builder, loc, tensor)});
    }
    call(builder, loc, symbols::lower_ckpt_commit,
         {checkpointId.lookup(commit.getCheckpoint())});
    return success();
  }
  if (auto oldCall = dyn_cast<func::CallOp>(op)) {
    lowerCall(builder, oldCall);
    return success();
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    lowerReturn(builder, ret);
    return success();
  }
  return op->emitOpError() << "has no lowering to the runtime";
}

LogicalResult Lowering::lowerFunction(func::FuncOp func) {
  if (!needsRuntime(func))
    return success();
  if (failed(checkHandles(func)))
    return failure();

  OpBuilder builder(func.getContext());
  lowerSignature(builder, func);
  SmallVector<Operation *> lowered;
  WalkResult rewrite = func.walk([&](Operation *op) -> WalkResult {
    auto callOp = dyn_cast<func::CallOp>(op);
    bool handleCall = callOp && passesHandles(callOp);
    if (!isa<OffloadOp, ReleaseOp, HandlePartOp, PrefetchOp, WaitOp,
             CheckpointBeginOp, SaveShardOp, CheckpointCommitOp,
             func::ReturnOp>(op) &&
        !handleCall)
      return WalkResult::advance();
    builder.setInsertionPoint(op);
    if (failed(lowerOp(builder, op)))
      return WalkResult::interrupt();
    lowered.push_back(op);
    return WalkResult::advance();
  });
  if (rewrite.wasInterrupted())
    return failure();
  for (Operation *op : llvm::reverse(lowered)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

namespace {
struct LowerToRuntimePass
    : public mlir::ssd::impl::LowerToRuntimePassBase<LowerToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Lowering lowering(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        lowering.lowerDeclaration(func);
      else if (failed(lowering.lowerFunction(func)))
        return signalPassFailure();
    }
  }
};
} // namespace

void mlir::ssd::registerLowerToLLVMPipeline() {
  PassPipelineRegistration<>(
      "ssd-lower-to-llvm",
      "Lower planned steps to the runtime, bufferize, and convert to LLVM",
      [](OpPassManager &pm) {
        pm.addPass(createLowerToRuntimePass());
        bufferization::OneShotBufferizationOptions options;
        options.bufferizeFunctionBoundaries = true;
        options.setFunctionBoundaryTypeConversion(
            bufferization::LayoutMapOption::IdentityLayoutMap);
        pm.addPass(bufferization::createOneShotBufferizePass(options));
        bufferization::BufferDeallocationPipelineOptions deallocation;
        bufferization::buildBufferDeallocationPipeline(pm, deallocation);
        // The clones that deallocation adds where a buffer crosses a call.
        pm.addPass(createBufferizationToMemRefPass());
        pm.addPass(createConvertLinalgToLoopsPass());
        pm.addPass(createConvertVectorToSCFPass());
        pm.addPass(memref::createExpandStridedMetadataPass());
        pm.addPass(createLowerAffinePass());
        pm.addPass(createConvertSCFToCFPass());
        pm.addPass(createFinalizeMemRefToLLVMConversionPass());
        pm.addPass(createConvertVectorToLLVMPass());
        pm.addPass(createConvertMathToLLVMPass());
        pm.addPass(createArithToLLVMConversionPass());
        pm.addPass(createConvertIndexToLLVMPass());
        pm.addPass(createConvertControlFlowToLLVMPass());
        pm.addPass(createConvertFuncToLLVMPass());
        pm.addPass(createReconcileUnrealizedCastsPass());
      });
}
