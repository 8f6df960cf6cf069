//===- ApplyPlan.h - write a residency plan into a step ---------*- C++ -*-===//
//
// Materialises a planner::Plan as ssd residency ops in the function it was
// computed for, and reads one back out of planned IR.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TRANSFORMS_APPLYPLAN_H
#define SSD_TRANSFORMS_APPLYPLAN_H

#include "ssd/Analysis/Planner/Plan.h"
#include "ssd/Analysis/StepGraphBuilder.h"
#include "ssd/Dialect/SSD/IR/SSDDialect.h"

namespace mlir::ssd {

/// Marks a view op that applyPlan made again after the storage it reads was
/// reloaded (the original still reads the released memory); extractPlan
/// removes such ops.
inline constexpr llvm::StringLiteral kRebuiltViewAttrName = "ssd.rebuilt_view";

/// Inserts the offloads, releases, prefetches and waits of `plan`, rewires
/// every use to the resident value, rebuilds each view used after the
/// storage it reads was reloaded (a clone of its op right before the use),
/// and turns state that enters or leaves on
/// SSD into handles in the signature. `mapping` must describe `func` as it is.
LogicalResult applyPlan(func::FuncOp func, const StepGraphMapping &mapping,
                        const planner::Plan &plan);

struct ExtractedPlan {
  StepGraphMapping mapping;
  planner::Plan plan;
};

/// The inverse of applyPlan: removes the residency ops of `func`, leaving
/// the unplanned step that `mapping` describes, and returns their plan.
FailureOr<ExtractedPlan> extractPlan(func::FuncOp func);

} // namespace mlir::ssd

#endif // SSD_TRANSFORMS_APPLYPLAN_H
