//===- Passes.h - ssd conversion passes -------------------------*- C++ -*-===//
//
// The lowering of planned steps to the ssdrt runtime, and the pipeline that
// takes them on to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_CONVERSION_PASSES_H
#define SSD_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ssd {

#define GEN_PASS_DECL
#include "ssd/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ssd/Conversion/Passes.h.inc"

/// Registers `ssd-lower-to-llvm`: ssd-lower-to-runtime, one-shot
/// bufferization with buffer deallocation, and the upstream conversions to
/// the LLVM dialect, after which mlir-cpu-runner can run the step with
/// libssdrt loaded.
void registerLowerToLLVMPipeline();

} // namespace mlir::ssd

#endif // SSD_CONVERSION_PASSES_H
