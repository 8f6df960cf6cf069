// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=13KiB" | FileCheck %s
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=13KiB" | ssd-opt -ssd-verify-plan="memory-budget=13KiB"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=13KiB report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=13KiB" | ssd-opt -ssd-verify-plan="memory-budget=13KiB"

// Tests that a view with several results (split's parts) is an alias of its
// root: %p#0 and %p#1 hold no bytes, so the peak is 14464 bytes at "big"
// (x, a, d, z), not 22656 as if the parts were copies of %a. Under 13 KiB
// %a leaves at "big", where neither it nor a part of it is used, and comes
// back for "n", which reads %p#1: the split is rebuilt from the reloaded
// tensor right before "n" and "n" reads the rebuilt part #1.
// CHECK-LABEL: func.func @parts
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// CHECK-NEXT: %[[P:.+]]:2 = ssd.kernel "aten.split.Tensor"(%[[A]]) {view_of = 0 : i64}
// CHECK: ssd.kernel "k"(%[[P]]#0,
// CHECK-NEXT: ssd.release %[[A]] after %[[T]]
// CHECK-NEXT: ssd.kernel "big"
// CHECK-NEXT: %[[R:.+]] = ssd.prefetch %[[H]]
// CHECK-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]]
// CHECK-NEXT: %[[P2:.+]]:2 = ssd.kernel "aten.split.Tensor"(%[[A2]]) {ssd.rebuilt_view, view_of = 0 : i64}
// CHECK-NEXT: ssd.kernel "n"(%[[P2]]#1,
// REPORT-DAG: "peak_bytes_before": 14464
// REPORT-DAG: "bytes_offloaded": 8192
func.func @parts(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64} : (tensor<2048xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1024xf32>
  %c = ssd.kernel "h"(%b) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  %d = ssd.kernel "k"(%p#0, %c) {flops = 1.0e12 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  %z = ssd.kernel "big"(%x, %d) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<1536xf32>
  %y = ssd.kernel "n"(%p#1, %d) {flops = 1.0e12 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
