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

#define GEN_PASS_REGISTRATION
#include "ssd/Transforms/Passes.h.inc"

} // namespace mlir::ssd

#endif // SSD_TRANSFORMS_PASSES_H
