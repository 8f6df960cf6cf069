//===- Passes.td - ssd conversion passes -------------------*- tablegen -*-===//
//
// Lowering of the ssd dialect to calls of the ssdrt runtime.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_CONVERSION_PASSES_TD
#define SSD_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToRuntimePass : Pass<"ssd-lower-to-runtime", "ModuleOp"> {
  let summary = "Turn residency ops into calls of the ssdrt runtime";
  let description = [{
    Rewrites the residency ops of planned steps, still on tensors, into calls
    of the runtime's lowering ABI (`ssdrt_lower_*` in `ssdrt.h`) on the
    tensors' buffers, so that one-shot bufferization and the upstream
    conversions can take the step to LLVM and it links against `libssdrt`:

    - `ssd.offload %x` starts writing `%x`'s buffer and yields a runtime
      handle id (`i64`);
    - `ssd.release %x` waits for that write and passes `%x`'s buffer, which
      keeps it alive (and unwritten) until then;
    - `ssd.prefetch %h` allocates the buffer the reload goes to and starts
      reading into it, so that its memory counts from there, as planned;
    - `ssd.wait` waits for the read and makes the buffer a tensor again;
    - each return of a step ends its runtime step, freeing its handles.

    ```mlir
    %h, %t = ssd.offload %x : tensor<4xf32>
    // becomes
    %m = bufferization.to_memref %x : memref<4xf32>
    %p = memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index
    %a = arith.index_cast %p : index to i64
    %id = func.call @ssdrt_lower_offload(%a, %c16) : (i64, i64) -> i64
    ```

    State that enters or leaves the step on SSD (handle arguments and
    results) and checkpoint ops are not lowered yet: they are rejected with
    a diagnostic.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "bufferization::BufferizationDialect",
    "func::FuncDialect", "memref::MemRefDialect"
  ];
}

#endif // SSD_CONVERSION_PASSES_TD
