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

// Options that several passes share, defined once so that their spelling,
// defaults and help cannot drift apart.
defvar SSD_MemoryBudgetOption =
    Option<"memoryBudget", "memory-budget", "std::string", /*default=*/"",
           "Device memory the step may use: 512MiB, 2GiB, 1.5GB or bytes">;
defvar SSD_TargetOption =
    Option<"target", "target", "std::string", /*default=*/"\"h100-pcie5-pm1743\"",
           "A target preset name or a target JSON file (docs/targets.md)">;
defvar SSD_PolicyOption =
    Option<"policy", "policy", "std::string", /*default=*/"\"ssd\"",
           "ssd, reload-on-use, stash-window, aot-prefetch, fixed-depth, or "
           "exact (the optimal plan of a step of at most 80 ops)">;
defvar SSD_ExactTimeLimitOption =
    Option<"exactTimeLimit", "exact-time-limit", "double", /*default=*/"60",
           "Seconds policy=exact may search before it gives up with an error">;
defvar SSD_ExactNodeLimitOption =
    Option<"exactNodeLimit", "exact-node-limit", "uint64_t", /*default=*/"0",
           "Search nodes policy=exact may visit before it gives up with an "
           "error (0: no limit); unlike the time limit, the same on every "
           "machine">;
defvar SSD_MovableOption =
    Option<"movable", "movable", "std::string", /*default=*/"",
           "Comma-separated roles of the tensors the plan may move (param, "
           "optimizer_state, buffer, input, activation, gradient, temporary, "
           "unknown); empty: every role">;

def VerifyGraphPass : Pass<"ssd-verify-graph", "func::FuncOp"> {
  let summary = "Check that a function is a training step of the input contract";
  let description = [{
    Rejects, with a diagnostic, every function that does not follow
    `docs/graph-format.md`: an argument without a known `ssd.role`, a
    duplicate `ssd.name`, a value that is not a statically shaped ranked
    tensor or a scalar, a memref (the contract is before bufferization), a
    result named like no persistent argument or with another type, an
    `ssd.backward_start` that is not the index of an op of the body, and a
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

def PlanOffloadPass : Pass<"ssd-plan-offload", "func::FuncOp"> {
  let summary = "Decide which tensors leave device memory, between which uses";
  let description = [{
    Plans the step under `memory-budget` on `target` with `policy` and writes
    the plan's gaps into the IR: each tensor that leaves memory is offloaded
    and released, then prefetched and awaited right before its next use
    (`ssd-insert-prefetch` moves the prefetches earlier). A step that fits
    is left unchanged; a budget below what one op needs resident fails with
    a diagnostic at that op.

    `movable` restricts the plan to tensors of the listed roles, declared or
    inferred (`activation` for what a joint forward and backward graph saves
    for backward); the budget must then hold every other tensor.

    Before, at a budget that holds only two of the three tensors:

    ```mlir
    %a = ssd.kernel "f"(%x) ...
    %b = ssd.kernel "g"(%x) ...
    %c = ssd.kernel "h"(%a, %b) ...
    ```

    After (`%a` waits on SSD while `g` runs):

    ```mlir
    %a = ssd.kernel "f"(%x) ...
    %h, %w = ssd.offload %a : tensor<...>
    ssd.release %a after %w : tensor<...>
    %b = ssd.kernel "g"(%x) ...
    %r = ssd.prefetch %h : !ssd.handle<tensor<...>>
    %a2 = ssd.wait %r, %h : !ssd.handle<tensor<...>>
    %c = ssd.kernel "h"(%a2, %b) ...
    ```
  }];
  let options = [
    SSD_MemoryBudgetOption,
    SSD_TargetOption,
    SSD_PolicyOption,
    SSD_MovableOption,
    SSD_ExactTimeLimitOption,
    SSD_ExactNodeLimitOption,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def OffloadPipelinePass : Pass<"ssd-offload-pipeline", "func::FuncOp"> {
  let summary = "Plan offload, schedule prefetches, group transfers, verify, report";
  let description = [{
    The whole planning pipeline in one pass: checks the input contract,
    chooses the gaps, schedules every prefetch against the simulated queues
    (for the `ssd` policy), groups transfers smaller than `group-min-bytes`,
    proves the plan (residency at every use, every token awaited, live bytes
    within the budget at every op), writes it into the IR and, when `report`
    names a file, writes the JSON report there (`-` for standard output);
    `report-plot` draws live bytes over the step before and after planning,
    against the budget, as SVG; `report-trace` writes the simulated schedule
    as a Chrome trace (JSON for Perfetto or chrome://tracing): one track per
    queue (compute, D2H, H2D, SSD read, SSD write), each op and transfer a
    slice, compute's stalls as slices named `stall`. With `report-recompute`
    the report also says what activation checkpointing would do at the same
    budget: which saved activations it drops and what recomputing them costs
    (docs/planner.md, "Recomputation").
  }];
  let options = [
    SSD_MemoryBudgetOption,
    SSD_TargetOption,
    SSD_PolicyOption,
    SSD_MovableOption,
    SSD_ExactTimeLimitOption,
    SSD_ExactNodeLimitOption,
    Option<"groupMinBytes", "group-min-bytes", "std::string", /*default=*/"\"1MiB\"",
           "Transfers smaller than this that move together move as one">,
    Option<"report", "report", "std::string", /*default=*/"",
           "Path of the JSON report ('-' for standard output)">,
    Option<"reportPlot", "report-plot", "std::string", /*default=*/"",
           "Path of an SVG of live bytes over the step, before and after">,
    Option<"reportTrace", "report-trace", "std::string", /*default=*/"",
           "Path of a Chrome trace of the simulated schedule, one track per queue">,
    Option<"reportRecompute", "report-recompute", "bool", /*default=*/"false",
           "Also report the recomputation baseline at the same budget (the report's 'recompute')">,
    Option<"function", "function", "std::string", /*default=*/"",
           "Plan only the function of this name (default: every function)">,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def VerifyPlanPass : Pass<"ssd-verify-plan", "func::FuncOp"> {
  let summary = "Prove a planned step safe and within its memory budget";
  let description = [{
    A static check of planned IR, independent of the planner: no use of a
    tensor after its release, every offload awaited by a release, every
    prefetch awaited by a wait, and live bytes at every op (a tensor from its
    definition or prefetch to its last use or release) within
    `memory-budget`. Each violation is an error at the op where it happens
    with a note at the related op. The IR is left unchanged.
  }];
  let options = [
    SSD_MemoryBudgetOption,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def AnnotateCostsPass : Pass<"ssd-annotate-costs", "func::FuncOp"> {
  let summary = "Attach the cost model's time to every op of a step";
  let description = [{
    Sets `ssd.estimated_seconds` on every top-level op of the step: the time
    the cost model gives it on `target`, from `cost_seconds`, else `flops`
    and `bytes`, else an estimate for known upstream ops, else the bytes it
    touches. The planning passes compute the same numbers themselves; this
    pass shows them.

    ```mlir
    %y = ssd.kernel "aten.mm"(%x, %w) {flops = 1.2e9 : f64} ...
    // becomes
    %y = ssd.kernel "aten.mm"(%x, %w) {flops = 1.2e9 : f64,
                                       ssd.estimated_seconds = 1.21e-06 : f64} ...
    ```
  }];
  let options = [
    SSD_TargetOption,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def InsertPrefetchPass : Pass<"ssd-insert-prefetch", "func::FuncOp"> {
  let summary = "Start each reload as late as possible but early enough";
  let description = [{
    Reads the plan back out of a planned step and moves every `ssd.prefetch`
    to the latest slot from which its transfer, queued behind the others on
    the simulated SSD-read and host-to-device links, completes before its
    `ssd.wait`, never earlier than the memory budget allows. The waits stay
    right before their uses.

    Before (reload at the use) and after (reload hidden behind `g`):

    ```mlir
    ssd.kernel "g" ...                    %r = ssd.prefetch %h ...
    %r = ssd.prefetch %h ...              ssd.kernel "g" ...
    %a = ssd.wait %r, %h ...              %a = ssd.wait %r, %h ...
    ```
  }];
  let options = [
    SSD_MemoryBudgetOption,
    SSD_TargetOption,
    Option<"policy", "policy", "std::string", /*default=*/"\"ssd\"",
           "The prefetch rule: ssd (as above) or a baseline's">,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def GroupBuffersPass : Pass<"ssd-group-buffers", "func::FuncOp"> {
  let summary = "Coalesce small transfers that move together into one";
  let description = [{
    Merges the offloads issued at the same slot, and the prefetches issued at
    the same slot, of tensors smaller than `min-bytes` into one variadic
    `ssd.offload` or `ssd.prefetch` each: one transfer, whose members' I/O
    the runtime submits together and whose writes one `fdatasync` makes
    durable, instead of many small ones that each pay the device's latency.

    ```mlir
    %ha, %ta = ssd.offload %a : tensor<4xf32>
    %hb, %tb = ssd.offload %b : tensor<8xf32>
    // becomes
    %h:2, %t = ssd.offload %a, %b : tensor<4xf32>, tensor<8xf32>
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "std::string", /*default=*/"\"1MiB\"",
           "Transfers of tensors smaller than this are grouped">,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

def ShardCheckpointPass : Pass<"ssd-shard-checkpoint", "func::FuncOp"> {
  let summary = "Save this rank's shard of every persistent tensor in the step";
  let description = [{
    Makes the step write a sharded checkpoint of its persistent state (the
    `param`, `optimizer_state` and `buffer` arguments): an
    `ssd.checkpoint_begin` at entry, an `ssd.save_shard` of each updated
    state right after the op that computes its new value (so the write
    overlaps the rest of the step), a save of each state the step does not
    update right at entry, and one `ssd.checkpoint_commit` before the return.

    The step holds this rank's row shard of every state tensor, as FSDP's
    flat parameters do: the global tensor has `world-size` times the local
    rows and this rank's rows start at `rank` times the local rows. 0-d
    tensors cannot be split; rank 0 saves them. Run it before
    `ssd-offload-pipeline`.

    ```mlir
    %w2 = ssd.kernel "sgd"(%w, %g) ...
    // with world-size=2 rank=1 becomes
    %ck = ssd.checkpoint_begin rank 1 of 2
    ...
    %w2 = ssd.kernel "sgd"(%w, %g) ...
    %s = ssd.save_shard %w2 to %ck key "w" offsets [384, 0]
        global_shape [768, 768] : tensor<384x768xf32>
    ...
    ssd.checkpoint_commit %ck after %s
    ```
  }];
  let options = [
    Option<"worldSize", "world-size", "int64_t", /*default=*/"1",
           "Ranks that save the checkpoint">,
    Option<"rank", "rank", "int64_t", /*default=*/"0",
           "This rank">,
    Option<"every", "every", "int64_t", /*default=*/"1",
           "Write a checkpoint every this many steps">,
  ];
  let dependentDialects = ["ssd::SSDDialect"];
}

#endif // SSD_TRANSFORMS_PASSES_TD
