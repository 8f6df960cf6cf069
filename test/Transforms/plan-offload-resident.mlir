// RUN: ssd-opt %s -split-input-file -verify-diagnostics -ssd-plan-offload="memory-budget=20KiB movable=temporary" | FileCheck %s

// Tests that a result marked `ssd.resident` (the caller holds it, as it
// holds a compiled forward's outputs) never moves. The step needs 24 KiB at
// "h"; the forward output %y is a temporary (no backward uses it), live
// from "f" to the return.

// Unmarked, the plan moves %y across "g" and "h" to meet 20 KiB.
// CHECK-LABEL: func.func @movable
// CHECK: %[[Y:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[Y]]
// CHECK: ssd.release %[[Y]] after %[[T]]
// CHECK: ssd.kernel "h"
// CHECK: ssd.wait
// CHECK: return
func.func @movable(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> (tensor<2048xf32>, tensor<2048xf32>) {
  %y = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %t = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %u = ssd.kernel "h"(%t) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  return %y, %u : tensor<2048xf32>, tensor<2048xf32>
}

// -----

// Marked resident, nothing at "h" may move: the budget is infeasible, and
// the diagnostic counts %y among what may not move.
func.func @resident(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> (tensor<2048xf32> {ssd.resident}, tensor<2048xf32>) {
  %y = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %t = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  // expected-error @+1 {{needs 24576 bytes resident (its operands and results, and 8192 bytes of live tensors whose roles may not move), over the memory budget of 20480 bytes}}
  %u = ssd.kernel "h"(%t) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  return %y, %u : tensor<2048xf32>, tensor<2048xf32>
}
