//===- ssd-opt.cpp - the ssd-opt driver -----------------------------------===//
//
// An mlir-opt for training steps: registers the dialects of every ssd tool
// (ssd/Tools/InitAllDialects.h) and every pass of the project.
//
//===----------------------------------------------------------------------===//

#include "ssd/Conversion/Passes.h"
#include "ssd/Tools/InitAllDialects.h"
#include "ssd/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::ssd::registerSSDDialects(registry);
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
