// RUN: ssd-opt %s -ssd-lower-to-runtime | FileCheck %s

// Tests that a tensor read back and released again (its second gap reuses
// the copy the first one wrote: no offload, no token) is released through
// the handle it was read from. The wait's tensor is replaced when the wait
// is lowered, so the release must not look for the wait.
// CHECK-LABEL: func.func @twice
// CHECK: %[[ID:.+]] = call @ssdrt_lower_offload(
// CHECK: call @ssdrt_lower_release(%[[ID]],
// CHECK: call @ssdrt_lower_prefetch(%[[ID]],
// CHECK: call @ssdrt_lower_wait(%[[ID]])
// CHECK: ssd.kernel "g"
// CHECK: call @ssdrt_lower_release(%[[ID]],
// CHECK: call @ssdrt_lower_prefetch(%[[ID]],
// CHECK: call @ssdrt_lower_wait(%[[ID]])
// CHECK: ssd.kernel "h"
func.func @twice(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<2048xf32>>
  %a1 = ssd.wait %r, %h : !ssd.handle<tensor<2048xf32>>
  %b = ssd.kernel "g"(%a1) : (tensor<2048xf32>) -> tensor<16xf32>
  ssd.release %a1 : tensor<2048xf32>
  %r2 = ssd.prefetch %h : !ssd.handle<tensor<2048xf32>>
  %a2 = ssd.wait %r2, %h : !ssd.handle<tensor<2048xf32>>
  %c = ssd.kernel "h"(%a2, %b) : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}
