//===- SSDBase.td - ssd dialect definition -----------------*- tablegen -*-===//
//
// The `ssd` dialect makes the residency of tensors explicit: which tensor
// leaves device memory for the SSD tensor store, when it is read back, and
// which checkpoint shards a training step writes. It also carries the opaque
// compute op `ssd.kernel` through which exporters describe a training step.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_DIALECT_SSD_IR_SSDBASE_TD
#define SSD_DIALECT_SSD_IR_SSDBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def SSD_Dialect : Dialect {
  let name = "ssd";
  let cppNamespace = "::mlir::ssd";
  let summary = "Tensor offload to SSD and sharded checkpoints for training steps";
  let description = [{
    A training step enters as one `func.func` over statically shaped tensors
    whose arguments carry `ssd.role` and `ssd.name` (see
    `docs/graph-format.md`). The planner rewrites it so that every tensor
    that does not fit in the memory budget moves to the SSD tensor store and
    back:

    ```mlir
    %h, %w = ssd.offload %act : tensor<8x1024xf32>
    ssd.release %act after %w : tensor<8x1024xf32>
    ...
    %r = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
    %act2 = ssd.wait %r, %h : !ssd.handle<tensor<8x1024xf32>>
    ```

    Transfers are asynchronous: `!ssd.token` values stand for their
    completion and are awaited by `ssd.release` (for writes) and `ssd.wait`
    (for reads). Checkpoint shards are written by `ssd.save_shard` between
    `ssd.checkpoint_begin` and `ssd.checkpoint_commit`.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Argument and result attribute names of the input contract.
    static constexpr ::llvm::StringLiteral kRoleAttrName = "ssd.role";
    static constexpr ::llvm::StringLiteral kNameAttrName = "ssd.name";
    /// On a result: the caller holds the value from its definition on (a
    /// forward output of a compiled graph), so no plan may move it.
    static constexpr ::llvm::StringLiteral kResidentAttrName = "ssd.resident";

  private:
    void registerTypes();

  public:
  }];
}

class SSD_Op<string mnemonic, list<Trait> traits = []>
    : Op<SSD_Dialect, mnemonic, traits>;

class SSD_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<SSD_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // SSD_DIALECT_SSD_IR_SSDBASE_TD
