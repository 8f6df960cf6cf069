// RUN: ssd-opt %s --split-input-file -ssd-group-buffers | FileCheck %s
// RUN: ssd-opt %s --split-input-file -ssd-group-buffers="min-bytes=4KiB" | FileCheck %s --check-prefix=LARGE

// Tests that two small offloads at one slot become one transfer, and so do
// their prefetches; one release frees both tensors and one wait returns
// both. With min-bytes at the tensors' size (4 KiB) nothing is grouped, and
// the one release awaits both writes.
// CHECK-LABEL: func.func @pair
// CHECK: %[[R:.+]]:2 = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]]:2, %[[T:.+]] = ssd.offload %[[R]]#0, %[[R]]#1 : tensor<1024xf32>, tensor<1024xf32>
// CHECK-NEXT: ssd.release %[[R]]#0, %[[R]]#1 after %[[T]] :
// CHECK: %[[P:.+]] = ssd.prefetch %[[H]]#0, %[[H]]#1
// CHECK-NEXT: ssd.wait %[[P]], %[[H]]#0, %[[H]]#1 :
// LARGE-LABEL: func.func @pair
// LARGE-COUNT-2: ssd.offload %{{[^,]+}} : tensor<1024xf32>
// LARGE-NEXT: ssd.release %{{.+}}, %{{.+}} after %{{.+}}, %{{.+}} : tensor<1024xf32>, tensor<1024xf32>
// LARGE-COUNT-2: ssd.prefetch %{{[^,]+}} : !ssd.handle
func.func @pair(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a1, %a2 = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
  %h1, %t1 = ssd.offload %a1 : tensor<1024xf32>
  %h2, %t2 = ssd.offload %a2 : tensor<1024xf32>
  ssd.release %a1 after %t1 : tensor<1024xf32>
  ssd.release %a2 after %t2 : tensor<1024xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<4096xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e9 : f64} : (tensor<4096xf32>) -> tensor<16xf32>
  %r1 = ssd.prefetch %h1 : !ssd.handle<tensor<1024xf32>>
  %r2 = ssd.prefetch %h2 : !ssd.handle<tensor<1024xf32>>
  %b1 = ssd.wait %r1, %h1 : !ssd.handle<tensor<1024xf32>>
  %b2 = ssd.wait %r2, %h2 : !ssd.handle<tensor<1024xf32>>
  %d = ssd.kernel "h"(%b1, %b2, %c) {flops = 1.0e9 : f64} : (tensor<1024xf32>, tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}

// -----

// Tests that state entering and leaving on SSD survives the round trip
// through the plan: the handle argument is prefetched, the update is
// offloaded and returned as a handle.
// CHECK-LABEL: func.func @state
// CHECK-SAME: (%[[W:.+]]: !ssd.handle<tensor<1024xf32>> {ssd.name = "w", ssd.role = "param"}
// CHECK-SAME: -> (!ssd.handle<tensor<1024xf32>> {ssd.name = "w"})
// CHECK: %[[P:.+]] = ssd.prefetch %[[W]]
// CHECK: %[[V:.+]] = ssd.wait %[[P]], %[[W]]
// CHECK: %[[N:.+]] = ssd.kernel "sgd"(%[[V]])
// CHECK: %[[H:.+]], %[[T:.+]] = ssd.offload %[[N]]
// CHECK: ssd.release %[[N]] after %[[T]]
// CHECK: return %[[H]]
func.func @state(%w: !ssd.handle<tensor<1024xf32>> {ssd.role = "param", ssd.name = "w"}) -> (!ssd.handle<tensor<1024xf32>> {ssd.name = "w"}) {
  %p = ssd.prefetch %w : !ssd.handle<tensor<1024xf32>>
  %v = ssd.wait %p, %w : !ssd.handle<tensor<1024xf32>>
  %n = ssd.kernel "sgd"(%v) : (tensor<1024xf32>) -> tensor<1024xf32>
  %h, %t = ssd.offload %n : tensor<1024xf32>
  ssd.release %n after %t : tensor<1024xf32>
  return %h : !ssd.handle<tensor<1024xf32>>
}
