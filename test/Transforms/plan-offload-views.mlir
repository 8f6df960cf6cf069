// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=13KiB" | FileCheck %s
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=13KiB" | ssd-opt --split-input-file -ssd-verify-plan="memory-budget=13KiB"
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=12KiB" --verify-diagnostics -o /dev/null

// Tests that views share their root's storage and pin it while in use. %va
// and %vb (a view of the view) hold no bytes: the peak is 14464 bytes at
// "big" (x, a, e, z), not 24704 at "t" as if the views were copies. Under 13 KiB
// %a must leave at "big", the only op at which neither it nor a view of it
// is in use, and comes back for "n". Under 12 KiB the step would fit if %a
// could leave during "g" and "h" (it is not read there), but %va is in use
// from "view" to "k", so "g" needs x, a and b resident: 12352 bytes.
// CHECK-LABEL: func.func @views
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// CHECK-NEXT: %[[VA:.+]] = ssd.kernel "aten.view"(%[[A]]) {view_of = 0 : i64}
// CHECK-NEXT: ssd.kernel "g"
// CHECK-NEXT: ssd.kernel "h"
// CHECK-NEXT: %[[D:.+]] = ssd.kernel "k"(%[[VA]],
// CHECK-NEXT: %[[VB:.+]] = ssd.kernel "aten.t"(%[[VA]]) {view_of = 0 : i64}
// CHECK-NEXT: %[[E:.+]] = ssd.kernel "m"(%[[VB]], %[[D]])
// CHECK-NEXT: ssd.release %[[A]] after %[[T]]
// CHECK-NEXT: ssd.kernel "big"
// CHECK-NEXT: %[[R:.+]] = ssd.prefetch %[[H]]
// CHECK-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]]
// CHECK-NEXT: ssd.kernel "n"(%[[A2]], %[[E]])
func.func @views(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  // expected-error @+3 {{needs 12352 bytes resident}}
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %va = ssd.kernel "aten.view"(%a) {view_of = 0 : i64} : (tensor<2048xf32>) -> tensor<32x64xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1024xf32>
  %c = ssd.kernel "h"(%b) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  %d = ssd.kernel "k"(%va, %c) {flops = 1.0e12 : f64} : (tensor<32x64xf32>, tensor<16xf32>) -> tensor<16xf32>
  %vb = ssd.kernel "aten.t"(%va) {view_of = 0 : i64} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %e = ssd.kernel "m"(%vb, %d) {flops = 1.0e12 : f64} : (tensor<64x32xf32>, tensor<16xf32>) -> tensor<16xf32>
  %z = ssd.kernel "big"(%x, %e) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<1536xf32>
  %y = ssd.kernel "n"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
