//===- ssd-opt.cpp - the ssd-opt driver -----------------------------------===//
//
// An mlir-opt for training steps: registers the ssd dialect, the upstream
// dialects a training step is written in or lowered through, and every pass
// of the project.
//
//===----------------------------------------------------------------------===//

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
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "ssd/Conversion/Passes.h"
#include "ssd/Dialect/SSD/IR/SSDDialect.h"
#include "ssd/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<
      mlir::ssd::SSDDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
      mlir::tensor::TensorDialect, mlir::linalg::LinalgDialect,
      mlir::math::MathDialect, mlir::tosa::TosaDialect, mlir::scf::SCFDialect,
      mlir::memref::MemRefDialect, mlir::bufferization::BufferizationDialect,
      mlir::vector::VectorDialect, mlir::affine::AffineDialect,
      mlir::cf::ControlFlowDialect, mlir::LLVM::LLVMDialect>();
  // What ssd-lower-to-llvm's one-shot bufferization needs of each dialect.
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::vector::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerTransformsPasses();
  mlir::ssd::registerSSDPasses();
  mlir::ssd::registerSSDConversionPasses();
  mlir::ssd::registerLowerToLLVMPipeline();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv,
                        "ssd-opt: plans SSD offload of training "
                        "steps\n",
                        registry));
}
