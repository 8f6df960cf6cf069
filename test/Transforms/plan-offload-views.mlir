// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=13KiB" | FileCheck %s
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=13KiB" | ssd-opt --split-input-file -ssd-verify-plan="memory-budget=13KiB"
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=12KiB" | FileCheck %s --check-prefix=REBUILD
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=12KiB" | ssd-opt --split-input-file -ssd-verify-plan="memory-budget=12KiB"
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=12KiB" | ssd-opt --split-input-file -ssd-insert-prefetch="memory-budget=12KiB" -ssd-group-buffers | ssd-opt --split-input-file -ssd-verify-plan="memory-budget=12KiB"
// RUN: ssd-opt %s --split-input-file -ssd-plan-offload="memory-budget=8KiB" --verify-diagnostics -o /dev/null

// Tests that views share their root's storage and need it only where they
// are touched. %va and %vb (a view of the view) hold no bytes: the peak is
// 14464 bytes at "big" (x, a, e, z), not 24704 at "t" as if the views were
// copies. Under 13 KiB %a leaves at "big", where neither it nor a view of it
// is in use, and comes back for "n". Under 12 KiB it also leaves during "g"
// and "h", which read neither it nor %va: after its reload the views are
// rebuilt from the reloaded tensor right before their uses (clones marked
// `ssd.rebuilt_view`; %vb is made from the rebuilt %va). Under 8 KiB "f"
// itself (x and a, 8256 bytes) does not fit.
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
// REBUILD-LABEL: func.func @views
// REBUILD: %[[A:.+]] = ssd.kernel "f"
// REBUILD-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// REBUILD-NEXT: ssd.kernel "aten.view"(%[[A]]) {view_of = 0 : i64}
// REBUILD-NEXT: ssd.release %[[A]] after %[[T]]
// REBUILD-NEXT: ssd.kernel "g"
// REBUILD-NEXT: ssd.kernel "h"
// REBUILD-NEXT: %[[R:.+]] = ssd.prefetch %[[H]]
// REBUILD-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]]
// REBUILD-NEXT: %[[VA2:.+]] = ssd.kernel "aten.view"(%[[A2]]) {ssd.rebuilt_view, view_of = 0 : i64}
// REBUILD-NEXT: %[[D:.+]] = ssd.kernel "k"(%[[VA2]],
// REBUILD-NEXT: %[[VA3:.+]] = ssd.kernel "aten.view"(%[[A2]]) {ssd.rebuilt_view, view_of = 0 : i64}
// REBUILD-NEXT: %[[VB:.+]] = ssd.kernel "aten.t"(%[[VA3]]) {view_of = 0 : i64}
// REBUILD-NEXT: ssd.kernel "m"(%[[VB]], %[[D]])
// REBUILD-NEXT: ssd.release %[[A2]] :
func.func @views(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  // expected-error @+1 {{needs 8256 bytes resident}}
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
