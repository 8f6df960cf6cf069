// RUN: ssd-opt %s --split-input-file -ssd-lower-to-runtime -verify-diagnostics | FileCheck %s

// Tests that a prefetch of a part reads only its range: the reload's buffer
// has the part's type, the runtime reads its bytes from its offset in the
// stored tensor, and the wait is on the tensor's handle.
// CHECK-LABEL: func.func @part
// CHECK: %[[ID:.+]] = call @ssdrt_lower_offload(
// CHECK: call @ssdrt_lower_release(%[[ID]],
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<1024xf32>
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[PI:.+]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[OFFSET:.+]] = arith.constant 4096 : i64
// CHECK: %[[BYTES:.+]] = arith.constant 4096 : i64
// CHECK: call @ssdrt_lower_prefetch_range(%[[ID]], %[[PI]], %[[OFFSET]], %[[BYTES]]) : (i64, i64, i64, i64) -> ()
// CHECK: call @ssdrt_lower_wait(%[[ID]]) : (i64) -> ()
// CHECK: %[[BACK:.+]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<1024xf32>
// CHECK: ssd.kernel "n"(%[[BACK]])
// CHECK-NOT: ssd.handle_part
// CHECK-DAG: func.func private @ssdrt_lower_prefetch_range(i64, i64, i64, i64)
func.func @part(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 4096>} : (tensor<2048xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
  ssd.release %a after %t : tensor<2048xf32>
  %ph = ssd.handle_part %h offset 4096 : !ssd.handle<tensor<2048xf32>> to !ssd.handle<tensor<1024xf32>>
  %r = ssd.prefetch %ph : !ssd.handle<tensor<1024xf32>>
  %p1 = ssd.wait %r, %ph : !ssd.handle<tensor<1024xf32>>
  %y = ssd.kernel "n"(%p1) : (tensor<1024xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// Tests that the handle of a part is only read back, never returned.
func.func @part_returned(%x: tensor<16xf32>) -> !ssd.handle<tensor<1024xf32>> {
  %a = ssd.kernel "f"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  %ph = ssd.handle_part %h offset 0 : !ssd.handle<tensor<2048xf32>> to !ssd.handle<tensor<1024xf32>>
  // expected-error @+1 {{uses the handle of a part, which the lowering to the runtime only passes to ssd.prefetch and ssd.wait}}
  return %ph : !ssd.handle<tensor<1024xf32>>
}
