//===- Passes.td - ssd-opt pass definitions ----------------*- tablegen -*-===//
//
// Every pass of ssd-opt. The planning passes run in the order of
// `ssd-offload-pipeline`; each one's algorithm lives in lib/Analysis or
// lib/Transforms as a plain function, the pass only wraps it.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TRANSFORMS_PASSES_TD
#define SSD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyGraphPass : Pass<"ssd-verify-graph", "func::FuncOp"> {
  let summary = "Check that a function is a training step of the input contract";
  let description = [{
    Rejects, with a diagnostic, every function that does not follow
    `docs/graph-format.md`: an argument without a known `ssd.role`, a
    duplicate `ssd.name`, a value that is not a statically shaped ranked
    tensor or a scalar, a memref (the contract is before bufferization), a
    result named like no persistent argument or with another type, and a
    step that already contains residency ops. The IR is left unchanged.

    Accepted:

    ```mlir
    func.func @step(%w: tensor<4x4xf32> {ssd.role = "param", ssd.name = "w"},
                    %x: tensor<2x4xf32> {ssd.role = "input", ssd.name = "x"})
        -> (tensor<4x4xf32> {ssd.name = "w"}) { ... }
    ```
  }];
  let dependentDialects = ["ssd::SSDDialect"];
}

#endif // SSD_TRANSFORMS_PASSES_TD
