//===- ssd-opt.cpp - the ssd-opt driver -----------------------------------===//
//
// An mlir-opt for training steps: registers the dialects of every ssd tool
// (ssd/Tools/InitAllDialects.h) and every pass of the project. Two queries
// let front ends (the Python package) read ssd-opt's rules instead of
// restating them: --ssd-memory-size and --ssd-list-policies.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Target.h"
#include "ssd/Conversion/Passes.h"
#include "ssd/Tools/InitAllDialects.h"
#include "ssd/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace {
llvm::cl::OptionCategory
    queryCategory("ssd-opt queries",
                  "Print one of ssd-opt's rules and exit (read no input)");

llvm::cl::opt<std::string> memorySizeQuery(
    "ssd-memory-size",
    llvm::cl::desc("Print the bytes that memory-budget=<size> means"),
    llvm::cl::value_desc("size"), llvm::cl::cat(queryCategory));

llvm::cl::opt<bool>
    listPolicies("ssd-list-policies",
                 llvm::cl::desc("Print the planning policies, one a line"),
                 llvm::cl::cat(queryCategory));

/// The exit code of the query the command line asks, if it asks one.
std::optional<int> answerQuery() {
  if (memorySizeQuery.getNumOccurrences()) {
    llvm::Expected<uint64_t> bytes =
        ssd::planner::parseMemorySize(memorySizeQuery);
    if (!bytes) {
      llvm::errs() << "ssd-opt: " << llvm::toString(bytes.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << *bytes << "\n";
    return 0;
  }
  if (listPolicies) {
    for (ssd::planner::Policy policy : ssd::planner::knownPolicies())
      llvm::outs() << ssd::planner::policyName(policy) << "\n";
    return 0;
  }
  return std::nullopt;
}

/// MLIR's printer verifies a module again before printing it, to fall back
/// to the generic form where an op is broken. ssd-opt's output has already
/// been verified: by the parser on input and, with -verify-each (the
/// default), by the pass manager after every pass that changed it; on a
/// 100k-op step that third check costs 6% of the run. So the printer assumes
/// a verified module unless -verify-each=0 is given (then it checks as
/// usual) or --mlir-print-assume-verified is set on the command line.
void assumeVerifiedOutput() {
  if (!mlir::MlirOptMainConfig::createFromCLOptions().shouldVerifyPasses())
    return;
  auto *assume = static_cast<llvm::cl::opt<bool> *>(
      llvm::cl::getRegisteredOptions().lookup("mlir-print-assume-verified"));
  if (assume && !assume->getNumOccurrences())
    assume->setValue(true);
}
} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::ssd::registerSSDDialects(registry);
  mlir::registerTransformsPasses();
  mlir::ssd::registerSSDPasses();
  mlir::ssd::registerSSDConversionPasses();
  mlir::ssd::registerLowerToLLVMPipeline();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "ssd-opt: plans SSD offload of training steps\n", registry);
  if (std::optional<int> code = answerQuery())
    return *code;
  assumeVerifiedOutput();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
