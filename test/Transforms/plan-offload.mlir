// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=17KiB" | FileCheck %s
// RUN: ssd-opt %s --split-input-file -ssd-offload-pipeline="memory-budget=17KiB" | ssd-opt --split-input-file -ssd-verify-plan="memory-budget=17KiB" | FileCheck %s --check-prefix=PIPE

// Tests that the long-lived %a leaves memory while the chain runs, and comes
// back right before its use.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]] : tensor<2048xf32>
// CHECK-NEXT: ssd.release %[[A]] after %[[T]] : tensor<2048xf32>
// CHECK-NEXT: ssd.kernel "g"
// CHECK-NEXT: ssd.kernel "g2"
// CHECK-NEXT: %[[E:.+]] = ssd.kernel "g3"
// CHECK-NEXT: %[[R:.+]] = ssd.prefetch %[[H]] : !ssd.handle<tensor<2048xf32>>
// CHECK-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]] : !ssd.handle<tensor<2048xf32>>
// CHECK-NEXT: ssd.kernel "h"(%[[A2]], %[[E]])
// PIPE-LABEL: func.func @chain
// PIPE: ssd.offload
// PIPE: ssd.release
// PIPE: ssd.prefetch
// PIPE: ssd.wait
func.func @chain(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}

// -----

// Tests that a step that fits is left unchanged.
// CHECK-LABEL: func.func @fits
// CHECK-NOT: ssd.offload
// CHECK: return
// PIPE-LABEL: func.func @fits
// PIPE-NOT: ssd.offload
func.func @fits(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1024xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<1024xf32>
  return %a : tensor<1024xf32>
}
