//===- InitAllDialects.cpp - Every dialect the ssd tools read -------------===//
//
// The dialects a training step is written in (ssd, func, arith, math,
// tensor, linalg, tosa, scf) or lowered through (memref, bufferization,
// vector, affine, cf, llvm), with their bufferization models.
//
//===----------------------------------------------------------------------===//

#include "ssd/Tools/InitAllDialects.h"

#include "ssd/Dialect/SSD/IR/SSDDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"

void mlir::ssd::registerSSDDialects(DialectRegistry &registry) {
  registry.insert<SSDDialect, func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect, linalg::LinalgDialect,
                  math::MathDialect, tosa::TosaDialect, scf::SCFDialect,
                  memref::MemRefDialect, bufferization::BufferizationDialect,
                  vector::VectorDialect, affine::AffineDialect,
                  cf::ControlFlowDialect, LLVM::LLVMDialect>();
  // What ssd-lower-to-llvm's one-shot bufferization needs of each dialect.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}
