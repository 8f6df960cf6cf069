//===- VerifyGraph.cpp - check the input contract of a training step ------===//
//
// Implements `ssd-verify-graph`: every rule of docs/graph-format.md that the
// planner relies on is checked here, once, so that the analyses can assume a
// well-formed step (known roles, unique names, static shapes, updates that
// match their state).
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/Passes.h"

#include "ssd/Analysis/StepGraphBuilder.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::ssd {
#define GEN_PASS_DEF_VERIFYGRAPHPASS
#include "ssd/Transforms/Passes.h.inc"
} // namespace mlir::ssd

using namespace mlir;
using namespace mlir::ssd;

/// Values of the contract are statically shaped ranked tensors, or scalars
/// (as in the bodies of linalg ops and in arith constants), and the
/// checkpoint and token values of ssd-shard-checkpoint.
static bool isContractType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape();
  return type.isIntOrIndexOrFloat() || isa<CheckpointType, TokenType>(type);
}

/// `what` is a Twine so that the name is made only for a diagnostic: the
/// check runs on every result of a step.
static LogicalResult checkValueType(Operation *op, Type type,
                                    const llvm::Twine &what) {
  if (isContractType(type))
    return success();
  if (isa<BaseMemRefType>(type))
    return op->emitError() << what << " is a memref (" << type
                           << "); the input contract is stated on tensors, "
                              "before bufferization";
  return op->emitError() << what
                         << " must be a statically shaped ranked tensor or a "
                            "scalar, got "
                         << type;
}

/// Residency ops; checkpoint ops are welcome, since checkpointing is planned
/// before offload.
static bool isPlannedOp(Operation *op) {
  return isa<OffloadOp, ReleaseOp, PrefetchOp, WaitOp>(op);
}

namespace {
/// A persistent argument that results may update.
struct PersistentArg {
  unsigned index;
  Type type;
};
} // namespace

/// Names are keyed by the text of their (uniqued, long-lived) attributes:
/// a step has tens of thousands of arguments, and a StringMap allocates an
/// entry for each.
using PersistentArgs = DenseMap<StringRef, PersistentArg>;

static LogicalResult verifyArguments(func::FuncOp func, PersistentArgs &state) {
  bool ok = true;
  DenseMap<StringRef, unsigned> argByName;
  argByName.reserve(func.getNumArguments());
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor || !tensor.hasStaticShape()) {
      func.emitError() << "argument #" << index
                       << " must be a statically shaped ranked tensor, got "
                       << arg.getType();
      ok = false;
      continue;
    }
    auto role =
        func.getArgAttrOfType<StringAttr>(index, SSDDialect::kRoleAttrName);
    if (!role) {
      func.emitError() << "argument #" << index << " has no '"
                       << SSDDialect::kRoleAttrName
                       << "'; expected one of \"param\", "
                          "\"optimizer_state\", \"input\", \"buffer\"";
      ok = false;
      continue;
    }
    auto name =
        func.getArgAttrOfType<StringAttr>(index, SSDDialect::kNameAttrName);
    if (!name) {
      func.emitError() << "argument #" << index << " has no '"
                       << SSDDialect::kNameAttrName << "'";
      ok = false;
      continue;
    }
    auto [it, inserted] = argByName.try_emplace(name.getValue(), index);
    if (!inserted) {
      func.emitError() << "argument #" << index << ": '"
                       << SSDDialect::kNameAttrName << "' \"" << name.getValue()
                       << "\" is already used by argument #" << it->second;
      ok = false;
      continue;
    }
    // The dialect's attribute verifier has already rejected unknown roles.
    if (isPersistent(*parseArgRole(role.getValue())))
      state[name.getValue()] = {index, arg.getType()};
  }
  return success(ok);
}

static LogicalResult verifyResults(func::FuncOp func,
                                   const PersistentArgs &state) {
  bool ok = true;
  DenseMap<StringRef, unsigned> resultByName;
  resultByName.reserve(func.getNumResults());
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    if (failed(checkValueType(func, type, "result #" + llvm::Twine(index)))) {
      ok = false;
      continue;
    }
    auto name =
        func.getResultAttrOfType<StringAttr>(index, SSDDialect::kNameAttrName);
    if (!name)
      continue;
    auto stateIt = state.find(name.getValue());
    if (stateIt == state.end()) {
      func.emitError() << "result #" << index << ": '"
                       << SSDDialect::kNameAttrName << "' \"" << name.getValue()
                       << "\" names no param, optimizer_state or buffer "
                          "argument";
      ok = false;
      continue;
    }
    if (stateIt->second.type != type) {
      func.emitError() << "result #" << index << " updates \""
                       << name.getValue() << "\" (argument #"
                       << stateIt->second.index << ") of type "
                       << stateIt->second.type << " but has type " << type;
      ok = false;
      continue;
    }
    auto [it, inserted] = resultByName.try_emplace(name.getValue(), index);
    if (!inserted) {
      func.emitError() << "result #" << index << ": \"" << name.getValue()
                       << "\" is already updated by result #" << it->second;
      ok = false;
    }
  }
  return success(ok);
}

static LogicalResult verifyBody(func::FuncOp func) {
  bool ok = true;
  WalkResult planned = func.getBody().walk([&](Operation *op) {
    if (isPlannedOp(op)) {
      op->emitError() << "'" << op->getName()
                      << "' in the input: the step is already planned";
      return WalkResult::interrupt();
    }
    for (auto [index, result] : llvm::enumerate(op->getResults()))
      ok &= succeeded(checkValueType(op, result.getType(),
                                     "result #" + llvm::Twine(index)));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          ok &= succeeded(checkValueType(op, arg.getType(),
                                         "region argument #" +
                                             llvm::Twine(arg.getArgNumber())));
    return WalkResult::advance();
  });
  return success(ok && !planned.wasInterrupted());
}

LogicalResult mlir::ssd::verifyTrainingStep(func::FuncOp func) {
  if (func.isExternal())
    return success();
  PersistentArgs state;
  bool ok = succeeded(verifyArguments(func, state));
  ok &= succeeded(verifyResults(func, state));
  ok &= succeeded(verifyBody(func));
  ok &= succeeded(getBackwardStart(func));
  return success(ok);
}

namespace {
struct VerifyGraphPass
    : public mlir::ssd::impl::VerifyGraphPassBase<VerifyGraphPass> {
  void runOnOperation() override {
    if (failed(verifyTrainingStep(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
