//===- InitAllDialects.h - Every dialect the ssd tools read -----*- C++ -*-===//
//
// One registration for every tool that reads training steps (ssd-opt,
// ssd-run): the ssd dialect, the upstream dialects a step is written in or
// lowered through, and the bufferization models that ssd-lower-to-llvm's
// one-shot bufferization needs of them.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TOOLS_INITALLDIALECTS_H
#define SSD_TOOLS_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
namespace ssd {

/// Adds every dialect and external model of the ssd tools to `registry`.
void registerSSDDialects(DialectRegistry &registry);

} // namespace ssd
} // namespace mlir

#endif // SSD_TOOLS_INITALLDIALECTS_H
