//===- ShardCheckpoint.cpp - save persistent state in the step ------------===//
//
// Implements `ssd-shard-checkpoint`. Each shard is saved as soon as its
// final value exists, so that its write overlaps whatever compute is left
// in the step, and the commit awaits every shard at the end.
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::ssd {
#define GEN_PASS_DEF_SHARDCHECKPOINTPASS
#include "ssd/Transforms/Passes.h.inc"
} // namespace mlir::ssd

using namespace mlir;
using namespace mlir::ssd;

namespace {
struct ShardCheckpointPass
    : public mlir::ssd::impl::ShardCheckpointPassBase<ShardCheckpointPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Saves `value`, this rank's rows of the state `key`; 0-d state is saved
  /// by rank 0 alone. Returns the save's token, or null when this rank saves
  /// nothing.
  Value saveShard(OpBuilder &builder, Location loc, Value checkpoint,
                  Value value, StringRef key);
};
} // namespace

Value ShardCheckpointPass::saveShard(OpBuilder &builder, Location loc,
                                     Value checkpoint, Value value,
                                     StringRef key) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> offsets(type.getRank(), 0);
  SmallVector<int64_t> globalShape(type.getShape());
  if (type.getRank() == 0) {
    if (rank != 0)
      return Value();
  } else {
    offsets[0] = rank * type.getDimSize(0);
    globalShape[0] = worldSize * type.getDimSize(0);
  }
  return builder.create<SaveShardOp>(loc, value, checkpoint, key, offsets,
                                     globalShape);
}

void ShardCheckpointPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  if (worldSize < 1 || rank < 0 || rank >= worldSize || every < 1) {
    func.emitError() << "ssd-shard-checkpoint expects world-size >= 1, 0 <= "
                        "rank < world-size and every >= 1; got world-size="
                     << int64_t(worldSize) << " rank=" << int64_t(rank)
                     << " every=" << int64_t(every);
    return signalPassFailure();
  }
  if (!llvm::hasSingleElement(func.getBody())) {
    func.emitError() << "ssd-shard-checkpoint expects a single block";
    return signalPassFailure();
  }
  if (!func.getOps<CheckpointBeginOp>().empty()) {
    func.emitError() << "the step already writes a checkpoint";
    return signalPassFailure();
  }
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();

  // Persistent state by name, and the returned value that updates each.
  llvm::StringMap<BlockArgument> state;
  for (BlockArgument arg : func.getArguments()) {
    auto role = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  SSDDialect::kRoleAttrName);
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  SSDDialect::kNameAttrName);
    std::optional<ArgRole> parsed =
        role ? parseArgRole(role.getValue()) : std::nullopt;
    if (name && parsed && isPersistent(*parsed)) {
      if (!isa<RankedTensorType>(arg.getType())) {
        func.emitError() << "cannot checkpoint \"" << name.getValue()
                         << "\": it is not a tensor (run ssd-shard-checkpoint "
                            "before ssd-offload-pipeline)";
        return signalPassFailure();
      }
      state[name.getValue()] = arg;
    }
  }
  llvm::StringMap<Value> update;
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    if (auto name = func.getResultAttrOfType<StringAttr>(
            index, SSDDialect::kNameAttrName))
      if (state.count(name.getValue()))
        update[name.getValue()] = value;

  if (state.empty())
    return;

  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&body);
  Location loc = func.getLoc();
  Value checkpoint =
      builder.create<CheckpointBeginOp>(loc, rank, worldSize, every);
  SmallVector<Value> tokens;
  // The last op inserted after each definition, so that the saves of one
  // op's results follow in argument order.
  DenseMap<Operation *, Operation *> lastInsertedAfter;
  // In argument order, so that the output is deterministic.
  for (BlockArgument arg : func.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  SSDDialect::kNameAttrName);
    if (!name || !state.count(name.getValue()))
      continue;
    Value value = update.lookup(name.getValue());
    if (!value)
      value = arg;
    Operation *def = value.getDefiningOp();
    if (!def)
      def = checkpoint.getDefiningOp();
    Operation *&after = lastInsertedAfter[def];
    builder.setInsertionPointAfter(after ? after : def);
    if (Value token =
            saveShard(builder, value.getLoc(), checkpoint, value, name)) {
      tokens.push_back(token);
      after = token.getDefiningOp();
    }
  }
  builder.setInsertionPoint(terminator);
  builder.create<CheckpointCommitOp>(loc, checkpoint, tokens);
}
