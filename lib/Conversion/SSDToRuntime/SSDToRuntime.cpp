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
      : declarations(module), i64(IntegerType::get(module.getContext(), 64)) {}

  LogicalResult lowerFunction(func::FuncOp func);

private:
  /// The address of `tensor`'s buffer, as i64.
  Value getAddress(OpBuilder &builder, Location loc, Value tensor);
  Value getBufferAddress(OpBuilder &builder, Location loc, Value memref);
  Value constant(OpBuilder &builder, Location loc, int64_t value) {
    return builder.create<arith::ConstantIntOp>(loc, value, 64);
  }
  void call(OpBuilder &builder, Location loc, StringRef name,
            ValueRange operands, TypeRange results = {}) {
    SmallVector<Type> inputs(operands.getTypes());
    func::FuncOp callee = declarations.get(name, inputs, results);
    lastCall = builder.create<func::CallOp>(loc, callee, operands);
  }

  RuntimeDeclarations declarations;
  Type i64;
  func::CallOp lastCall;
  /// The runtime handle id of each ssd handle, and the buffer a prefetch
  /// reads it into.
  DenseMap<Value, Value> handleId;
  DenseMap<Value, Value> reloadBuffer;
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

LogicalResult Lowering::lowerFunction(func::FuncOp func) {
  for (Type type :
       llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
    if (isa<HandleType>(type))
      return func.emitError()
             << "state kept on SSD between steps (handle arguments or "
                "results) is not lowered to the runtime yet";
  bool hasResidency = false;
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa<CheckpointBeginOp, SaveShardOp, CheckpointCommitOp>(op)) {
      op->emitError() << "checkpoint ops are not lowered to the runtime yet";
      return WalkResult::interrupt();
    }
    hasResidency |= isa<OffloadOp, ReleaseOp, PrefetchOp, WaitOp>(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!hasResidency)
    return success();

  OpBuilder builder(func.getContext());
  SmallVector<Operation *> lowered;
  WalkResult rewrite = func.walk([&](Operation *op) -> WalkResult {
    Location loc = op->getLoc();
    builder.setInsertionPoint(op);
    if (auto offload = dyn_cast<OffloadOp>(op)) {
      for (auto [tensor, handle] :
           llvm::zip_equal(offload.getTensors(), offload.getHandles())) {
        int64_t bytes =
            getTensorByteSize(cast<RankedTensorType>(tensor.getType()));
        call(builder, loc, symbols::lower_offload,
             {getAddress(builder, loc, tensor), constant(builder, loc, bytes)},
             {i64});
        handleId[handle] = lastCall.getResult(0);
      }
    } else if (auto release = dyn_cast<ReleaseOp>(op)) {
      for (Value tensor : release.getTensors()) {
        // The handle that holds this tensor: the offload's, or for a
        // reloaded tensor the handle it was read from.
        Value handle;
        if (auto wait = tensor.getDefiningOp<WaitOp>()) {
          unsigned index = cast<OpResult>(tensor).getResultNumber();
          handle = wait.getHandles()[index];
        } else {
          for (Operation *user : tensor.getUsers())
            if (auto offload = dyn_cast<OffloadOp>(user))
              for (auto [written, h] :
                   llvm::zip_equal(offload.getTensors(), offload.getHandles()))
                if (written == tensor)
                  handle = h;
        }
        if (!handle || !handleId.count(handle)) {
          release.emitError() << "releases a tensor with no copy on SSD";
          return WalkResult::interrupt();
        }
        call(builder, loc, symbols::lower_release,
             {handleId[handle], getAddress(builder, loc, tensor)});
      }
    } else if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
      for (Value handle : prefetch.getHandles()) {
        auto type = cast<HandleType>(handle.getType()).getTensorType();
        auto memrefType =
            MemRefType::get(type.getShape(), type.getElementType());
        Value buffer = builder.create<memref::AllocOp>(loc, memrefType);
        reloadBuffer[handle] = buffer;
        call(builder, loc, symbols::lower_prefetch,
             {handleId.lookup(handle), getBufferAddress(builder, loc, buffer)});
      }
    } else if (auto wait = dyn_cast<WaitOp>(op)) {
      for (auto [handle, tensor] :
           llvm::zip_equal(wait.getHandles(), wait.getTensors())) {
        call(builder, loc, symbols::lower_wait, {handleId.lookup(handle)});
        Value reloaded = builder.create<bufferization::ToTensorOp>(
            loc, tensor.getType(), reloadBuffer.lookup(handle),
            /*restrict=*/true, /*writable=*/true);
        tensor.replaceAllUsesWith(reloaded);
      }
    } else if (isa<func::ReturnOp>(op)) {
      call(builder, loc, symbols::lower_step_end, {});
      return WalkResult::advance();
    } else {
      return WalkResult::advance();
    }
    lowered.push_back(op);
    return WalkResult::advance();
  });
  if (rewrite.wasInterrupted())
    return failure();
  for (Operation *op : llvm::reverse(lowered))
    op->erase();
  return success();
}

namespace {
struct LowerToRuntimePass
    : public mlir::ssd::impl::LowerToRuntimePassBase<LowerToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Lowering lowering(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      if (!func.isExternal() && failed(lowering.lowerFunction(func)))
        return signalPassFailure();
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
