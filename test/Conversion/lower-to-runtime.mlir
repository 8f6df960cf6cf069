// RUN: ssd-opt %s --split-input-file -ssd-lower-to-runtime | FileCheck %s

// Tests each residency op's calls: the offload and the release pass the
// tensor's buffer, the prefetch allocates the reload's buffer, the wait
// turns it back into a tensor, and the return ends the runtime step.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[X:.+]]: tensor<1024xf32>)
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
