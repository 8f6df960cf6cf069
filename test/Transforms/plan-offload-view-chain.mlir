// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=8400" | FileCheck %s
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=8400" | ssd-opt -ssd-verify-plan="memory-budget=8400" -o /dev/null
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=8400" | ssd-opt -ssd-insert-prefetch="memory-budget=8400" -ssd-group-buffers | ssd-opt -ssd-verify-plan="memory-budget=8400" -o /dev/null

// Tests a chain of views whose root leaves twice (during "big1" and
// "big2"): %vb is made after the first reload from a rebuilt %va, and its
// use by "m" after the second reload rebuilds both again, from the second
// reload (regression: a rebuild of %vb read the first clone of %va, whose
// storage had been released again, and ssd-verify-plan caught the use).
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK: ssd.release %[[A]] after
// CHECK: ssd.kernel "big1"
// CHECK: %[[A2:.+]] = ssd.wait
// CHECK-NEXT: %[[VA2:.+]] = ssd.kernel "aten.view"(%[[A2]]) {ssd.rebuilt_view, view_of = 0 : i64}
// CHECK-NEXT: %[[VB:.+]] = ssd.kernel "aten.t"(%[[VA2]]) {view_of = 0 : i64}
// CHECK-NEXT: ssd.kernel "k"(%[[VB]],
// CHECK-NEXT: ssd.release %[[A2]] :
// CHECK: ssd.kernel "big2"
// CHECK: %[[A3:.+]] = ssd.wait
// CHECK-NEXT: %[[VA3:.+]] = ssd.kernel "aten.view"(%[[A3]]) {ssd.rebuilt_view, view_of = 0 : i64}
// CHECK-NEXT: %[[VB3:.+]] = ssd.kernel "aten.t"(%[[VA3]]) {ssd.rebuilt_view, view_of = 0 : i64}
// CHECK-NEXT: ssd.kernel "m"(%[[VB3]],
func.func @chain(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %va = ssd.kernel "aten.view"(%a) {view_of = 0 : i64} : (tensor<2048xf32>) -> tensor<32x64xf32>
  %b = ssd.kernel "big1"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1536xf32>
  %c = ssd.kernel "g"(%b) {flops = 1.0e12 : f64} : (tensor<1536xf32>) -> tensor<16xf32>
  %vb = ssd.kernel "aten.t"(%va) {view_of = 0 : i64} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %d = ssd.kernel "k"(%vb, %c) {flops = 1.0e12 : f64} : (tensor<64x32xf32>, tensor<16xf32>) -> tensor<16xf32>
  %e = ssd.kernel "big2"(%d) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1536xf32>
  %h = ssd.kernel "h"(%e) {flops = 1.0e12 : f64} : (tensor<1536xf32>) -> tensor<16xf32>
  %y = ssd.kernel "m"(%vb, %h) {flops = 1.0e12 : f64} : (tensor<64x32xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
