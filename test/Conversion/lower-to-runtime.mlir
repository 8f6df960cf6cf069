// RUN: ssd-opt %s --split-input-file -ssd-lower-to-runtime | FileCheck %s

// Tests each residency op's calls: the offload and the release pass the
// tensor's buffer, the prefetch allocates the reload's buffer, the wait
// turns it back into a tensor, and the entry and the return open and close
// the function's frame of handles.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[X:.+]]: tensor<1024xf32>)
// CHECK-NEXT: call @ssdrt_lower_step_begin() : () -> ()
// CHECK: %[[A:.+]] = ssd.kernel "f"(%[[X]])
// CHECK: %[[M:.+]] = bufferization.to_memref %[[A]] read_only : memref<2048xf32>
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: %[[PI:.+]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[BYTES:.+]] = arith.constant 8192 : i64
// CHECK: %[[ID:.+]] = call @ssdrt_lower_offload(%[[PI]], %[[BYTES]]) : (i64, i64) -> i64
// CHECK: %[[M2:.+]] = bufferization.to_memref %[[A]] read_only
// CHECK: call @ssdrt_lower_release(%[[ID]], %{{.+}}) : (i64, i64) -> ()
// CHECK: ssd.kernel "g"
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<2048xf32>
// CHECK: call @ssdrt_lower_prefetch(%[[ID]], %{{.+}}) : (i64, i64) -> ()
// CHECK: call @ssdrt_lower_wait(%[[ID]]) : (i64) -> ()
// CHECK: %[[BACK:.+]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<2048xf32>
// CHECK: ssd.kernel "h"(%[[BACK]]
// CHECK: call @ssdrt_lower_step_end() : () -> ()
// CHECK-NEXT: return
// CHECK-NOT: ssd.offload
// CHECK-DAG: func.func private @ssdrt_lower_offload(i64, i64) -> i64
// CHECK-DAG: func.func private @ssdrt_lower_release(i64, i64)
// CHECK-DAG: func.func private @ssdrt_lower_prefetch(i64, i64)
// CHECK-DAG: func.func private @ssdrt_lower_wait(i64)
// CHECK-DAG: func.func private @ssdrt_lower_step_end()
// CHECK-DAG: func.func private @ssdrt_lower_step_begin()
func.func @step(%x: tensor<1024xf32>) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) : (tensor<1024xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  %b = ssd.kernel "g"(%x) : (tensor<1024xf32>) -> tensor<16xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<2048xf32>>
  %a2 = ssd.wait %r, %h : !ssd.handle<tensor<2048xf32>>
  %c = ssd.kernel "h"(%a2, %b) : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// Tests that a function without residency ops is left alone.
// CHECK-LABEL: func.func @resident
// CHECK-NOT: ssdrt_lower
func.func @resident(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Tests the checkpoint ops: begin counts the step and opens the checkpoint,
// each save passes constant globals with its key and layout (dtype, rank,
// global shape, offsets, sizes) and the tensor's buffer, and the commit waits
// for each shard with its buffer, so that it stays alive until written.
// CHECK-DAG: memref.global "private" constant @[[KEY:__ssd_checkpoint_key[_0-9]*]] : memref<2xi8> = dense<[119, 0]>
// CHECK-DAG: memref.global "private" constant @[[LAYOUT:__ssd_checkpoint_layout[_0-9]*]] : memref<8xi64> = dense<[0, 2, 8, 2, 4, 0, 4, 2]>
// CHECK-DAG: memref.global "private" constant @{{.+}} : memref<2xi64> = dense<0>
// CHECK-LABEL: func.func @checkpoint
// CHECK-SAME: (%[[W:.+]]: tensor<4x2xf32>, %[[S:.+]]: tensor<f32>)
// CHECK: call @ssdrt_lower_step_begin()
// CHECK: %[[RANK:.+]] = arith.constant 1 : i64
// CHECK: %[[WORLD:.+]] = arith.constant 2 : i64
// CHECK: %[[EVERY:.+]] = arith.constant 3 : i64
// CHECK: %[[CK:.+]] = call @ssdrt_lower_ckpt_begin(%[[RANK]], %[[WORLD]], %[[EVERY]]) : (i64, i64, i64) -> i64
// CHECK: %[[W2:.+]] = ssd.kernel "sgd"
// CHECK: memref.get_global @[[KEY]]
// CHECK: memref.get_global @[[LAYOUT]]
// CHECK: bufferization.to_memref %[[W2]] read_only
// CHECK: %[[SHARD:.+]] = call @ssdrt_lower_ckpt_save(%[[CK]], %{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i64, i64) -> i64
// CHECK: %[[SHARD2:.+]] = call @ssdrt_lower_ckpt_save(%[[CK]]
// CHECK: bufferization.to_memref %[[W2]] read_only
// CHECK: call @ssdrt_lower_ckpt_wait(%[[SHARD]], %{{.+}}) : (i64, i64) -> ()
// CHECK: bufferization.to_memref %[[S]] read_only
// CHECK: call @ssdrt_lower_ckpt_wait(%[[SHARD2]], %{{.+}}) : (i64, i64) -> ()
// CHECK: call @ssdrt_lower_ckpt_commit(%[[CK]]) : (i64) -> ()
// CHECK: call @ssdrt_lower_step_end()
// CHECK-NOT: ssd.save_shard
// CHECK-DAG: func.func private @ssdrt_lower_ckpt_begin(i64, i64, i64) -> i64
// CHECK-DAG: func.func private @ssdrt_lower_ckpt_save(i64, i64, i64, i64) -> i64
// CHECK-DAG: func.func private @ssdrt_lower_ckpt_wait(i64, i64)
// CHECK-DAG: func.func private @ssdrt_lower_ckpt_commit(i64)
func.func @checkpoint(%w: tensor<4x2xf32>, %s: tensor<f32>) -> (tensor<4x2xf32>, tensor<f32>) {
  %ck = ssd.checkpoint_begin rank 1 of 2 every 3
  %w2 = ssd.kernel "sgd"(%w) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %t = ssd.save_shard %w2 to %ck key "w" offsets [4, 0] global_shape [8, 2] : tensor<4x2xf32>
  %t2 = ssd.save_shard %s to %ck key "s" offsets [] global_shape [] : tensor<f32>
  ssd.checkpoint_commit %ck after %t, %t2
  return %w2, %s : tensor<4x2xf32>, tensor<f32>
}

// -----

// Tests state that enters and leaves on SSD: a handle argument becomes an
// i64 id that the function adopts, is read back like any handle, and a
// handle result is kept for the caller before the frame ends.
// CHECK-LABEL: func.func @steady
// CHECK-SAME: (%[[H:.+]]: i64, %[[G:.+]]: tensor<4xf32>) -> (tensor<4xf32>, i64)
// CHECK: call @ssdrt_lower_step_begin()
// CHECK-NEXT: call @ssdrt_lower_adopt(%[[H]]) : (i64) -> ()
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<4xf32>
// CHECK: call @ssdrt_lower_prefetch(%[[H]], %{{.+}})
// CHECK: call @ssdrt_lower_wait(%[[H]])
// CHECK: %[[W:.+]] = bufferization.to_tensor %[[BUF]]
// CHECK: %[[W2:.+]] = ssd.kernel "sgd"(%[[W]], %[[G]])
// CHECK: %[[NEW:.+]] = call @ssdrt_lower_offload
// CHECK: call @ssdrt_lower_release(%[[NEW]]
// CHECK: call @ssdrt_lower_keep(%[[NEW]]) : (i64) -> ()
// CHECK-NEXT: call @ssdrt_lower_step_end()
// CHECK-NEXT: return %[[W]], %[[NEW]] : tensor<4xf32>, i64
func.func @steady(%h: !ssd.handle<tensor<4xf32>>, %g: tensor<4xf32>)
    -> (tensor<4xf32>, !ssd.handle<tensor<4xf32>>) {
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  %w = ssd.wait %r, %h : !ssd.handle<tensor<4xf32>>
  %w2 = ssd.kernel "sgd"(%w, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %h2, %t = ssd.offload %w2 : tensor<4xf32>
  ssd.release %w2 after %t : tensor<4xf32>
  return %w, %h2 : tensor<4xf32>, !ssd.handle<tensor<4xf32>>
}

// -----

// Tests handles across calls: the caller passes and receives ids, the
// declaration's signature follows, and a handle that passes through
// untouched is adopted and kept.
// CHECK-LABEL: func.func @caller
// CHECK: %[[ID:.+]] = call @ssdrt_lower_offload
// CHECK: %[[BACK:.+]] = call @callee(%[[ID]]) : (i64) -> i64
// CHECK: call @ssdrt_lower_prefetch(%[[BACK]]
// CHECK: call @ssdrt_lower_wait(%[[BACK]])
// CHECK: func.func private @callee(i64) -> i64
// CHECK-LABEL: func.func @through
// CHECK-SAME: (%[[T:.+]]: i64) -> i64
// CHECK: call @ssdrt_lower_adopt(%[[T]])
// CHECK-NEXT: call @ssdrt_lower_keep(%[[T]])
// CHECK-NEXT: call @ssdrt_lower_step_end()
// CHECK-NEXT: return %[[T]] : i64
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h, %t = ssd.offload %x : tensor<4xf32>
  ssd.release %x after %t : tensor<4xf32>
  %h2 = call @callee(%h) : (!ssd.handle<tensor<4xf32>>) -> !ssd.handle<tensor<4xf32>>
  %r = ssd.prefetch %h2 : !ssd.handle<tensor<4xf32>>
  %y = ssd.wait %r, %h2 : !ssd.handle<tensor<4xf32>>
  return %y : tensor<4xf32>
}
func.func private @callee(!ssd.handle<tensor<4xf32>>) -> !ssd.handle<tensor<4xf32>>
func.func @through(%h: !ssd.handle<tensor<4xf32>>) -> !ssd.handle<tensor<4xf32>> {
  return %h : !ssd.handle<tensor<4xf32>>
}

// -----

// Tests that a multi-tensor offload or prefetch is one group transfer: its
// calls are bracketed by group_begin and group_end, which starts them
// together; a single-tensor one is not bracketed.
// CHECK-LABEL: func.func @grouped
// CHECK: call @ssdrt_lower_group_begin() : () -> ()
// CHECK-NEXT: %[[MA:.+]] = bufferization.to_memref
// CHECK: %[[IA:.+]] = call @ssdrt_lower_offload
// CHECK: %[[IB:.+]] = call @ssdrt_lower_offload
// CHECK-NEXT: call @ssdrt_lower_group_end() : () -> ()
// CHECK: call @ssdrt_lower_group_begin() : () -> ()
// CHECK: call @ssdrt_lower_prefetch(%[[IA]]
// CHECK: call @ssdrt_lower_prefetch(%[[IB]]
// CHECK-NEXT: call @ssdrt_lower_group_end() : () -> ()
// CHECK-NOT: call @ssdrt_lower_group_begin
// CHECK: call @ssdrt_lower_offload
// CHECK-NOT: call @ssdrt_lower_group_end
// CHECK: return
// CHECK-DAG: func.func private @ssdrt_lower_group_begin()
// CHECK-DAG: func.func private @ssdrt_lower_group_end()
func.func @grouped(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %h:2, %t = ssd.offload %x, %y : tensor<4xf32>, tensor<4xf32>
  ssd.release %x after %t : tensor<4xf32>
  ssd.release %y after %t : tensor<4xf32>
  %r = ssd.prefetch %h#0, %h#1 : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<4xf32>>
  %x2 = ssd.wait %r, %h#0 : !ssd.handle<tensor<4xf32>>
  %y2 = ssd.wait %r, %h#1 : !ssd.handle<tensor<4xf32>>
  %hz, %tz = ssd.offload %z : tensor<4xf32>
  ssd.release %z after %tz : tensor<4xf32>
  return %x2, %y2 : tensor<4xf32>, tensor<4xf32>
}
