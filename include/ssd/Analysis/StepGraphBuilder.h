//===- StepGraphBuilder.h - A func.func as the planner's graph --*- C++ -*-===//
//
// Builds the planner's StepGraph from a training step that follows the input
// contract, and keeps the correspondence between program points and ops and
// between planner tensors and SSA values, so that a plan can be written back
// into the IR.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_STEPGRAPHBUILDER_H
#define SSD_ANALYSIS_STEPGRAPHBUILDER_H

#include "ssd/Analysis/Planner/StepGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ssd {

/// The planner core lives outside MLIR's namespace; this makes it reachable
/// as `planner::` from the adapters.
namespace planner = ::ssd::planner;

struct StepGraphMapping {
  planner::StepGraph graph;
  /// The op at each program point; the return is point `ops.size()`.
  SmallVector<Operation *> ops;
  Operation *returnOp = nullptr;
  /// The value of each planner tensor.
  SmallVector<Value> values;
  DenseMap<Operation *, planner::OpId> pointOf;
  /// The tensor of each op's first result: tensors are numbered in order,
  /// the arguments first, then each op's results.
  std::vector<planner::TensorId> firstResultOf;

  /// The program point of the top-level op that holds `user`.
  uint32_t getPoint(Operation *user) const;
  /// The tensor of `value`, an argument or a top-level op's result of the
  /// step; none for any other value (one nested in an op's region, one made
  /// after the graph).
  std::optional<planner::TensorId> lookupTensor(Value value) const;
};

/// The cost numbers of `op`: `ssd.kernel`'s attributes, else FLOPs estimated
/// from the shapes of known upstream ops (linalg ops: iterations times body
/// ops), else nothing (the cost model then uses the bytes touched).
planner::OpCost getOpCost(Operation *op);

/// The function attribute through which an exporter marks the first op of
/// the backward pass: `ssd.backward_start = N : i64`, N an op index as the
/// graph counts ops (the top-level ops of the body, in order).
inline constexpr llvm::StringLiteral kBackwardStartAttrName =
    "ssd.backward_start";

/// The op index `ssd.backward_start` names, or nullopt when `func` has none;
/// fails with a diagnostic when it is not an integer or names no op of the
/// body.
FailureOr<std::optional<uint32_t>> getBackwardStart(func::FuncOp func);

/// Builds the graph of `func`, which must have passed ssd-verify-graph and
/// have a single block.
FailureOr<StepGraphMapping> buildStepGraph(func::FuncOp func);

} // namespace mlir::ssd

#endif // SSD_ANALYSIS_STEPGRAPHBUILDER_H
