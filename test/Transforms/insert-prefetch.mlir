// RUN: ssd-opt %s -ssd-insert-prefetch="memory-budget=17KiB target=epyc9654-990pro" | FileCheck %s
// RUN: ssd-opt %s -ssd-insert-prefetch="memory-budget=17KiB target=epyc9654-990pro" | ssd-opt -ssd-verify-plan="memory-budget=17KiB" | FileCheck %s

// Tests that the reload moves from right before its use to the latest slot
// from which it still completes before the use on the simulated queues
// (before g5, whose compute covers the read); the wait stays at the use.
// CHECK-LABEL: func.func @hoist
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// CHECK-NEXT: ssd.release %[[A]] after %[[T]]
// CHECK-NEXT: ssd.kernel "g"
// CHECK-NEXT: ssd.kernel "g2"
// CHECK-NEXT: ssd.kernel "g3"
// CHECK-NEXT: ssd.kernel "g4"
// CHECK-NEXT: %[[R:.+]] = ssd.prefetch %[[H]]
// CHECK-NEXT: %[[E:.+]] = ssd.kernel "g5"
// CHECK-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]]
// CHECK-NEXT: ssd.kernel "h"(%[[A2]], %[[E]])
func.func @hoist(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %e2 = ssd.kernel "g4"(%e) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<16xf32>
  %e3 = ssd.kernel "g5"(%e2) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<16xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<2048xf32>>
  %a2 = ssd.wait %r, %h : !ssd.handle<tensor<2048xf32>>
  %d = ssd.kernel "h"(%a2, %e3) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
