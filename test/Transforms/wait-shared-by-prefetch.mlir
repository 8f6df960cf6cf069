// RUN: ssd-opt %s -ssd-group-buffers | FileCheck %s
// RUN: ssd-opt %s -ssd-group-buffers | ssd-opt -ssd-group-buffers | FileCheck %s
// RUN: ssd-opt %s -ssd-group-buffers | ssd-opt -ssd-insert-prefetch=memory-budget=24000 | FileCheck %s --check-prefix=SPLIT

// Tests that the members of one prefetch share one wait, placed before the
// first member's use: the prefetch is one transfer, so a later member's own
// wait could never stall. The second member is used two ops later and reads
// the shared wait's second result. Reading the plan back takes that
// member's wait point from its first use, so the step survives a second
// round trip unchanged, and when ssd-insert-prefetch, under a budget too
// small to read both early, splits the transfer, the second member's own
// wait lands right before its use ("j"), not before the first member's.
// CHECK-LABEL: func.func @step
// CHECK: %[[H:.+]]:2, %[[T:.+]] = ssd.offload
// CHECK: %[[R:.+]] = ssd.prefetch %[[H]]#0, %[[H]]#1
// CHECK-NEXT: %[[B:.+]]:2 = ssd.wait %[[R]], %[[H]]#0, %[[H]]#1 : !ssd.handle<tensor<1024xf32>>, !ssd.handle<tensor<1024xf32>>
// CHECK-NEXT: ssd.kernel "h"(%[[B]]#0,
// CHECK-NEXT: ssd.kernel "i"
// CHECK-NEXT: ssd.kernel "j"(%[[B]]#1,
// CHECK-NOT: ssd.wait
// SPLIT-LABEL: func.func @step
// SPLIT: %[[H:.+]]:2, %[[T:.+]] = ssd.offload
// SPLIT: %[[R0:.+]] = ssd.prefetch %[[H]]#0 :
// SPLIT: %[[R1:.+]] = ssd.prefetch %[[H]]#1 :
// SPLIT-NEXT: %[[B0:.+]] = ssd.wait %[[R0]], %[[H]]#0 :
// SPLIT-NEXT: ssd.kernel "h"(%[[B0]],
// SPLIT-NEXT: ssd.kernel "i"
// SPLIT-NEXT: %[[B1:.+]] = ssd.wait %[[R1]], %[[H]]#1 :
// SPLIT-NEXT: ssd.kernel "j"(%[[B1]],
func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
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
  %d = ssd.kernel "h"(%b1, %c) {flops = 1.0e9 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  %e = ssd.kernel "i"(%d) {flops = 1.0e9 : f64} : (tensor<16xf32>) -> tensor<16xf32>
  %b2 = ssd.wait %r2, %h2 : !ssd.handle<tensor<1024xf32>>
  %f = ssd.kernel "j"(%b2, %e) {flops = 1.0e9 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %f : tensor<16xf32>
}
