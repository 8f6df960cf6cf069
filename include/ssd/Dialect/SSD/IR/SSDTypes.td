//===- SSDTypes.td - ssd dialect types ---------------------*- tablegen -*-===//
//
// Types of the ssd dialect: completion tokens of asynchronous transfers,
// handles to tensors held in the SSD tensor store, and checkpoints being
// written.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_DIALECT_SSD_IR_SSDTYPES_TD
#define SSD_DIALECT_SSD_IR_SSDTYPES_TD

include "ssd/Dialect/SSD/IR/SSDBase.td"
include "mlir/IR/BuiltinTypes.td"

def SSD_TokenType : SSD_Type<"Token", "token"> {
  let summary = "completion of an asynchronous transfer";
  let description = [{
    A token is produced by an op that starts a transfer (`ssd.offload`,
    `ssd.prefetch`, `ssd.save_shard`) and is consumed by the op that waits for
    it (`ssd.release`, `ssd.wait`, `ssd.checkpoint_commit`). Every token must
    be awaited before the data it guards is read or its memory reused.

    ```mlir
    !ssd.token
    ```
  }];
}

def SSD_HandleType : SSD_Type<"Handle", "handle"> {
  let summary = "a tensor whose bytes live in the SSD tensor store";
  let description = [{
    A handle names a tensor of a statically shaped type whose bytes are held
    by the runtime's tensor store (a file extent), in the sense of fairscale's
    `SsdTensorHandle`. It has no device memory; `ssd.prefetch` and `ssd.wait`
    turn it back into a tensor.

    ```mlir
    !ssd.handle<tensor<8x1024xf32>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$tensorType);
  let assemblyFormat = "`<` $tensorType `>`";
  let genVerifyDecl = 1;
}

def SSD_CheckpointType : SSD_Type<"Checkpoint", "checkpoint"> {
  let summary = "a checkpoint being written";
  let description = [{
    Produced by `ssd.checkpoint_begin`, used by every `ssd.save_shard` of that
    checkpoint and consumed by its single `ssd.checkpoint_commit`.

    ```mlir
    !ssd.checkpoint
    ```
  }];
}

def SSD_StaticTensor : Type<
    And<[AnyRankedTensor.predicate, HasStaticShapePred]>,
    "statically shaped ranked tensor", "::mlir::RankedTensorType">;

#endif // SSD_DIALECT_SSD_IR_SSDTYPES_TD
