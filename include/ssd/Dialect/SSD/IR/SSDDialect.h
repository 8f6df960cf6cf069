//===- SSDDialect.h - ssd dialect declaration -------------------*- C++ -*-===//
//
// Declares the ssd dialect, its types and its operations; include this header
// to use any of them.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_DIALECT_SSD_IR_SSDDIALECT_H
#define SSD_DIALECT_SSD_IR_SSDDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ssd/Dialect/SSD/IR/SSDOpsDialect.h.inc"

namespace mlir::ssd {

/// Device memory that holds tensors: freed by `ssd.release`, allocated and
/// filled by `ssd.prefetch`/`ssd.wait`, read by offloads and shard saves.
struct DeviceMemoryResource
    : public SideEffects::Resource::Base<DeviceMemoryResource> {
  StringRef getName() final { return "ssd.device_memory"; }
};

/// The SSD tensor store's extents, written by offloads, read by prefetches.
struct TensorStoreResource
    : public SideEffects::Resource::Base<TensorStoreResource> {
  StringRef getName() final { return "ssd.tensor_store"; }
};

/// The sharded checkpoint a step writes.
struct CheckpointStoreResource
    : public SideEffects::Resource::Base<CheckpointStoreResource> {
  StringRef getName() final { return "ssd.checkpoint_store"; }
};

} // namespace mlir::ssd

#define GET_TYPEDEF_CLASSES
#include "ssd/Dialect/SSD/IR/SSDOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "ssd/Dialect/SSD/IR/SSDOps.h.inc"

namespace mlir::ssd {

/// The roles an argument of a training step can have (`ssd.role`).
enum class ArgRole { Param, OptimizerState, Input, Buffer };

/// Parses an `ssd.role` value; std::nullopt when it is not a known role.
std::optional<ArgRole> parseArgRole(llvm::StringRef role);

/// Persistent state survives the step: parameters, optimizer state, buffers.
inline bool isPersistent(ArgRole role) { return role != ArgRole::Input; }

/// Bytes of the data of a statically shaped tensor type; sub-byte elements
/// take a whole byte each.
int64_t getTensorByteSize(RankedTensorType type);

} // namespace mlir::ssd

#endif // SSD_DIALECT_SSD_IR_SSDDIALECT_H
