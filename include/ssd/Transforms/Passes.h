//===- Passes.h - ssd-opt passes --------------------------------*- C++ -*-===//
//
// Declarations and registration of every pass of ssd-opt.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TRANSFORMS_PASSES_H
#define SSD_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "ssd/Dialect/SSD/IR/SSDDialect.h"

namespace mlir::ssd {

#define GEN_PASS_DECL
#include "ssd/Transforms/Passes.h.inc"

/// Checks `func` against the input contract of docs/graph-format.md and
/// reports every violation as an error at the offending op or argument.
LogicalResult verifyTrainingStep(func::FuncOp func);

/// Checks a planned step: residency at every use, every token awaited and,
/// when `memoryBudget` is given, live bytes within it at every op.
LogicalResult verifyPlannedStep(func::FuncOp func,
                                std::optional<uint64_t> memoryBudget);

#define GEN_PASS_REGISTRATION
#include "ssd/Transforms/Passes.h.inc"

} // namespace mlir::ssd

#endif // SSD_TRANSFORMS_PASSES_H
