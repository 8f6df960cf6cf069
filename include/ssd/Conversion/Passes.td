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
    - `ssd.handle_part %h offset O` names a byte range of `%h`'s tensor: a
      prefetch of it allocates a buffer of the part's type and reads only that
      range (`ssdrt_lower_prefetch_range`), its wait waits on `%h`'s id;
    - a group (a variadic `ssd.offload` or `ssd.prefetch`) becomes one
      transfer per tensor, issued together: its tensors live in separate
      buffers, so they cannot move as one extent, as the planner models a
      group;
    - `ssd.checkpoint_begin` counts the step and, on every `every`-th one,
      opens the checkpoint (an `i64` id, 0 on the other steps);
    - `ssd.save_shard` starts writing the tensor's buffer as its box of the
      global tensor on a thread of the runtime's, so that the write overlaps
      the rest of the step; the key and the layout (dtype, global shape,
      offsets, sizes) are passed as constant globals;
    - `ssd.checkpoint_commit` waits for each shard, passing its buffer
      (which keeps it alive and unwritten until then), and commits;
    - the calls of a multi-tensor `ssd.offload` or `ssd.prefetch` (a transfer
      group of the plan) are bracketed by `ssdrt_lower_group_begin` and
      `ssdrt_lower_group_end`, which starts them together as one runtime group
      transfer (`ssdrt_handles_offload`/`_prefetch`: I/O submitted at once, one
      `fdatasync` per data file), the single latency the planner charged them;
    - a handle argument or result (state that enters or leaves the step on
      SSD) becomes an `i64` handle id, and so do handles passed to and
      returned from calls; each function with runtime calls opens a frame of
      handles at entry, adopts its handle arguments into it, hands its
      handle results to the caller, and frees the rest at each return.

    ```mlir
    %h, %t = ssd.offload %x : tensor<4xf32>
    // becomes
    %m = bufferization.to_memref %x : memref<4xf32>
    %p = memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index
    %a = arith.index_cast %p : index to i64
    %id = func.call @ssdrt_lower_offload(%a, %c16) : (i64, i64) -> i64

    func.func @step(%s: !ssd.handle<tensor<4xf32>>) -> !ssd.handle<tensor<4xf32>>
    // becomes
    func.func @step(%s: i64) -> i64 {
      call @ssdrt_lower_step_begin() : () -> ()
      call @ssdrt_lower_adopt(%s) : (i64) -> ()
      ...
      call @ssdrt_lower_keep(%new) : (i64) -> ()
      call @ssdrt_lower_step_end() : () -> ()
      return %new : i64
    }
    ```

    The caller's contract for handles: a handle passed to a function is
    consumed by it (freed at its end unless it returns it); a handle
    returned belongs to the caller, which passes it to the next step or
    reads it back with `ssd.prefetch` and `ssd.wait`. A training loop in
    MLIR puts the state that starts on SSD there with `ssd.offload` and
    `ssd.release`. Rejected with a diagnostic: a handle that comes from or
    goes to an op other than `ssd.offload`, `ssd.prefetch`, `ssd.wait`,
    `ssd.handle_part`, `func.call` and `func.return` (a part's handle only to
    `ssd.prefetch` and `ssd.wait`), a release of a tensor with no copy on
    SSD, and a shard of an element type that checkpoints cannot hold.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "bufferization::BufferizationDialect",
    "func::FuncDialect", "memref::MemRefDialect"
  ];
}

#endif // SSD_CONVERSION_PASSES_TD
