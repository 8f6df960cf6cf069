//===- ssd-opt.cpp - the ssd-opt driver -----------------------------------===//
//
// An mlir-opt for training steps: registers the ssd dialect, the upstream
// dialects a training step is written in or lowered through, and every pass
// of the project.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "ssd/Dialect/SSD/IR/SSDDialect.h"
#include "ssd/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<
      mlir::ssd::SSDDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
      mlir::tensor::TensorDialect, mlir::linalg::LinalgDialect,
      mlir::math::MathDialect, mlir::tosa::TosaDialect, mlir::scf::SCFDialect,
      mlir::memref::MemRefDialect, mlir::bufferization::BufferizationDialect>();
  mlir::registerTransformsPasses();
  mlir::ssd::registerSSDPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv,
                        "ssd-opt: plans SSD offload of training "
                        "steps\n",
                        registry));
}
