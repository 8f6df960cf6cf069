//===- SSDOps.td - ssd dialect operations ------------------*- tablegen -*-===//
//
// Operations of the ssd dialect: the opaque compute op of the input contract,
// the residency ops the planner inserts (offload, release, prefetch, wait) and
// the checkpoint ops (begin, save_shard, commit).
//
//===----------------------------------------------------------------------===//

#ifndef SSD_DIALECT_SSD_IR_SSDOPS_TD
#define SSD_DIALECT_SSD_IR_SSDOPS_TD

include "ssd/Dialect/SSD/IR/SSDBase.td"
include "ssd/Dialect/SSD/IR/SSDTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Side-effect resources
//===----------------------------------------------------------------------===//

// What the residency and checkpoint ops touch besides their SSA values, so
// that standard passes (-cse, -canonicalize, DCE) see them as the memory
// operations they are and never merge, reorder across or drop one.
def SSD_DeviceMemory : Resource<"::mlir::ssd::DeviceMemoryResource">;
def SSD_TensorStore : Resource<"::mlir::ssd::TensorStoreResource">;
def SSD_CheckpointStore : Resource<"::mlir::ssd::CheckpointStoreResource">;

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def SSD_KernelOp : SSD_Op<"kernel", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>]> {
  let summary = "opaque compute over tensors, with its cost";
  let description = [{
    A computation the compiler does not look into, such as an ATen operator
    exported from PyTorch. `name` says what it computes; the optional cost
    attributes let the cost model time it: `cost_seconds` (measured), else
    `flops` and `bytes` (of memory traffic) against the target's rates.

    The generic form is part of the input contract:

    ```mlir
    %y = "ssd.kernel"(%x, %w) {name = "aten.mm", flops = 1.2e9 : f64}
        : (tensor<8x768xf32>, tensor<768x768xf32>) -> tensor<8x768xf32>
    ```

    and the custom form reads:

    ```mlir
    %y = ssd.kernel "aten.mm"(%x, %w) {flops = 1.2e9 : f64}
        : (tensor<8x768xf32>, tensor<768x768xf32>) -> tensor<8x768xf32>
    ```

    A view (`aten.view`, `aten.t`, `aten.expand`, `aten.slice`, ...) sets
    `view_of = N`: its result shares the storage of operand `N` (or that
    operand's root, for a view of a view) instead of holding memory of its
    own; a view with several results (`aten.split`, `aten.unbind`,
    `aten.chunk`) makes each of them a view of it. The planner counts no
    bytes for a view and never moves it; each use of a view needs the
    storage resident, which may leave between uses (the plan rebuilds the
    view after a reload). A view may be larger than the operand
    (`aten.expand`).

    ```mlir
    %wt = ssd.kernel "aten.t"(%w) {view_of = 0 : i64}
        : (tensor<768x3072xf32>) -> tensor<3072x768xf32>
    %q, %k, %v = ssd.kernel "aten.split.Tensor"(%qkv) {view_of = 0 : i64}
        : (tensor<8x2304xf32>) -> (tensor<8x768xf32>, tensor<8x768xf32>,
                                   tensor<8x768xf32>)
    ```

    A view whose every result is one contiguous byte range of operand
    `view_of` (a `split`, `unbind`, `chunk` or `slice` along the first
    dimension of a contiguous tensor) may say where: `part_offsets` holds
    each result's byte offset in that operand. Each result must then be a
    slab of the operand's rows, its shape the operand's with the first
    dimension changed (or dropped, as `unbind` and `select` do), inside the
    operand. The planner may then read back only that range for the uses of
    a part after its root left (`ssd.handle_part`).

    ```mlir
    %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64,
        part_offsets = array<i64: 0, 4096>}
        : (tensor<2048xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
    ```

    A kernel is free of side effects, so that CSE may merge two identical
    ones and DCE may drop one whose results are unused, only when its name
    is a known pure ATen operator (`aten.mm`, `aten.add.Tensor`, ...: a
    functional overload of an operator on the dialect's list) or it carries
    the unit attribute `pure`. Every other kernel reads and writes unknown
    state: random number generators (`aten.native_dropout`), in-place and
    `out=` overloads (`aten.add_.Tensor`), collectives and names the dialect
    does not know.

    ```mlir
    %y = ssd.kernel "my.fused_op"(%x) {pure} : (tensor<8xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs,
                       OptionalAttr<F64Attr>:$flops,
                       OptionalAttr<I64Attr>:$bytes,
                       OptionalAttr<F64Attr>:$cost_seconds,
                       OptionalAttr<I64Attr>:$view_of,
                       OptionalAttr<DenseI64ArrayAttr>:$part_offsets,
                       UnitAttr:$pure);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
  }];
  let extraClassDeclaration = [{
    /// True when the kernel computes its results from its operands alone:
    /// its name is a known pure ATen operator or it carries `pure`.
    bool isSideEffectFree();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Residency
//===----------------------------------------------------------------------===//

def SSD_OffloadOp : SSD_Op<"offload", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    MemoryEffects<[MemRead<SSD_DeviceMemory>, MemAlloc<SSD_TensorStore>,
                   MemWrite<SSD_TensorStore>]>]> {
  let summary = "start writing tensors to the SSD tensor store";
  let description = [{
    Starts one transfer that writes all `tensors` into one extent of the
    tensor store and returns a handle per tensor plus a token for the write's
    completion. The tensors stay readable; their memory is given up only by
    an `ssd.release` that awaits the token. Several tensors in one offload
    move as one large transfer (a buffer in the sense of fairscale's
    `SsdBuffer`).

    ```mlir
    %h, %w = ssd.offload %act : tensor<8x1024xf32>
    %ha, %hb, %w2 = ssd.offload %a, %b : tensor<4xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins Variadic<SSD_StaticTensor>:$tensors);
  let results = (outs Variadic<SSD_HandleType>:$handles, SSD_TokenType:$token);
  let assemblyFormat = "$tensors attr-dict `:` type($tensors)";
  let hasVerifier = 1;
}

def SSD_HandlePartOp : SSD_Op<"handle_part", [Pure]> {
  let summary = "a handle of one contiguous byte range of a stored tensor";
  let description = [{
    Names the bytes from `offset` on of the tensor that `source` holds, as a
    handle of `result`'s tensor type: a prefetch of it reads back only that
    range, and its wait returns a tensor of that type. The range must be a
    slab of the source's rows: the result's shape is the source's with the
    first dimension changed (or dropped), its element type the same, and the
    range lies inside the source at a multiple of a row. The plan's rewrite
    emits one where only a part of a released tensor is used again (a view
    with `part_offsets`).

    ```mlir
    %p = ssd.handle_part %h offset 4096
        : !ssd.handle<tensor<2048xf32>> to !ssd.handle<tensor<1024xf32>>
    %r = ssd.prefetch %p : !ssd.handle<tensor<1024xf32>>
    %part = ssd.wait %r, %p : !ssd.handle<tensor<1024xf32>>
    ```
  }];
  let arguments = (ins SSD_HandleType:$source, I64Attr:$offset);
  let results = (outs SSD_HandleType:$result);
  let assemblyFormat = [{
    $source `offset` $offset attr-dict `:` qualified(type($source)) `to`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SSD_ReleaseOp : SSD_Op<"release", [
    AttrSizedOperandSegments, MemoryEffects<[MemFree<SSD_DeviceMemory>]>]> {
  let summary = "free tensors whose bytes are safe on SSD";
  let description = [{
    Frees the device memory of `tensors`. With tokens, it first blocks until
    every write that they stand for is complete; each token must be an
    offload's, each released tensor one that one of those offloads wrote,
    and each offload must have written one of them. Without a token, the
    tensors' bytes are already durable in the tensor store (a tensor that
    entered the step as a handle, or was written by an earlier offload). No
    use of a released tensor may follow, and a reload needs a copy on SSD;
    the plan verifier checks both.

    ```mlir
    %h, %w = ssd.offload %act : tensor<8x1024xf32>
    ssd.release %act after %w : tensor<8x1024xf32>
    ```

    Tensors freed at one point release together, whichever writes they
    await:

    ```mlir
    ssd.release %a, %b after %w1, %w2 : tensor<4xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins Variadic<SSD_StaticTensor>:$tensors,
                       Variadic<SSD_TokenType>:$tokens);
  let assemblyFormat = [{
    $tensors (`after` $tokens^)? attr-dict `:` type($tensors)
  }];
  let hasVerifier = 1;
}

def SSD_PrefetchOp : SSD_Op<"prefetch", [
    MemoryEffects<[MemAlloc<SSD_DeviceMemory>, MemRead<SSD_TensorStore>,
                   MemWrite<SSD_DeviceMemory>]>]> {
  let summary = "start reading tensors back from the SSD tensor store";
  let description = [{
    Allocates device memory for every handle's tensor and starts one transfer
    that reads them; the returned token completes when all bytes are
    resident. The memory counts as live from this point.

    ```mlir
    %r = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
    ```
  }];
  let arguments = (ins Variadic<SSD_HandleType>:$handles);
  let results = (outs SSD_TokenType:$token);
  let assemblyFormat = "$handles attr-dict `:` type($handles)";
  let hasVerifier = 1;
}

// A wait is where the prefetched bytes become the tensors' contents: a write
// of device memory, which keeps it in place and never merges two.
def SSD_WaitOp : SSD_Op<"wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    MemoryEffects<[MemWrite<SSD_DeviceMemory>]>]> {
  let summary = "wait for a prefetch and return the resident tensors";
  let description = [{
    Blocks until the prefetch that produced `token` is complete and returns
    the tensors of `handles`, which must be handles that prefetch read. Uses
    after this point read the returned tensors.

    ```mlir
    %r = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
    %act = ssd.wait %r, %h : !ssd.handle<tensor<8x1024xf32>>
    ```

    A prefetch of several handles is one transfer, so one wait returns all
    of its tensors: the planner's rewrite puts it where the first of them is
    used, and the others, resident from then on, are used later.

    ```mlir
    %r2 = ssd.prefetch %ha, %hb : !ssd.handle<tensor<4xf32>>,
                                  !ssd.handle<tensor<16xf32>>
    %a, %b = ssd.wait %r2, %ha, %hb : !ssd.handle<tensor<4xf32>>,
                                      !ssd.handle<tensor<16xf32>>
    ```
  }];
  let arguments = (ins SSD_TokenType:$token,
                       Variadic<SSD_HandleType>:$handles);
  let results = (outs Variadic<SSD_StaticTensor>:$tensors);
  let assemblyFormat = "$token `,` $handles attr-dict `:` type($handles)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Checkpoints
//===----------------------------------------------------------------------===//

def SSD_CheckpointBeginOp : SSD_Op<"checkpoint_begin", [
    MemoryEffects<[MemAlloc<SSD_CheckpointStore>,
                   MemWrite<SSD_CheckpointStore>]>]> {
  let summary = "start writing this rank's part of a sharded checkpoint";
  let description = [{
    Opens the checkpoint of the current step for `rank` of `world_size`
    saving ranks. Every shard is written by an `ssd.save_shard` on the result
    and the checkpoint becomes visible only at its single
    `ssd.checkpoint_commit`. With `every` N, only every N-th step writes one
    (the runtime counts steps); the others skip the shards' writes.

    ```mlir
    %ck = ssd.checkpoint_begin rank 0 of 2
    %ck = ssd.checkpoint_begin rank 1 of 4 every 100
    ```
  }];
  let arguments = (ins I64Attr:$rank, I64Attr:$world_size,
                       DefaultValuedAttr<I64Attr, "1">:$every);
  let results = (outs SSD_CheckpointType:$checkpoint);
  let assemblyFormat = [{
    `rank` $rank `of` $world_size (`every` $every^)? attr-dict
  }];
  let hasVerifier = 1;
}

def SSD_SaveShardOp : SSD_Op<"save_shard", [
    MemoryEffects<[MemRead<SSD_DeviceMemory>,
                   MemWrite<SSD_CheckpointStore>]>]> {
  let summary = "start writing one shard of a persistent tensor";
  let description = [{
    Starts writing `tensor` as the block of the global tensor `key` (of shape
    `global_shape`) that begins at `offsets`. The tensor stays readable; the
    token is awaited by the checkpoint's commit.

    ```mlir
    %s = ssd.save_shard %w to %ck key "layer0.weight" offsets [384, 0]
        global_shape [768, 768] : tensor<384x768xf32>
    ```
  }];
  let arguments = (ins SSD_StaticTensor:$tensor, SSD_CheckpointType:$checkpoint,
                       StrAttr:$key, DenseI64ArrayAttr:$offsets,
                       DenseI64ArrayAttr:$global_shape);
  let results = (outs SSD_TokenType:$token);
  let assemblyFormat = [{
    $tensor `to` $checkpoint `key` $key `offsets` $offsets
    `global_shape` $global_shape attr-dict `:` type($tensor)
  }];
  let hasVerifier = 1;
}

def SSD_CheckpointCommitOp : SSD_Op<"checkpoint_commit", [
    MemoryEffects<[MemWrite<SSD_CheckpointStore>]>]> {
  let summary = "wait for every shard, then make the checkpoint durable";
  let description = [{
    Awaits the token of every `ssd.save_shard` of `checkpoint` (each exactly
    once) and commits this rank's part: data made durable, manifest written
    and published atomically.

    ```mlir
    ssd.checkpoint_commit %ck after %s0, %s1
    ```
  }];
  let arguments = (ins SSD_CheckpointType:$checkpoint,
                       Variadic<SSD_TokenType>:$shards);
  let assemblyFormat = "$checkpoint (`after` $shards^)? attr-dict";
  let hasVerifier = 1;
}

#endif // SSD_DIALECT_SSD_IR_SSDOPS_TD
