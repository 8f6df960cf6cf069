// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=40KiB report=- report-recompute=1" -o /dev/null | FileCheck %s
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=40KiB report=-" -o /dev/null | FileCheck %s --check-prefix=NONE

// The recomputation baseline at the offload plan's budget: %a (f@0) is saved for
// the backward op "ag" and absent across the peak at "bg" once dropped; "f"
// runs again right before "ag" from %x, which stays resident until then.
// Live bytes then peak at "bg" and "ag": x (4 KiB) + b or a (16 KiB) + gb
// (16 KiB) + l (64 B) = 36,928 bytes, within 40 KiB (unplanned: 49,216).
// CHECK: "recompute": {
// CHECK-DAG: "compute_seconds":
// CHECK-DAG: "dropped": [
// CHECK-NEXT: "f@0"
// CHECK-NEXT: ]
// CHECK-DAG: "dropped_bytes": 16384
// CHECK-DAG: "extra_compute_seconds":
// CHECK-DAG: "fits": true
// CHECK-DAG: "memory_budget_bytes": 40960
// CHECK-DAG: "peak_bytes": 36928
// CHECK-DAG: "predicted_step_seconds":
// CHECK-DAG: "recomputed_ops": 1
// NONE-NOT: "recompute"
func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32>
    attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<4096xf32>
  %b = ssd.kernel "g"(%a) {flops = 1.0e12 : f64} : (tensor<4096xf32>) -> tensor<4096xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<4096xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "bg"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<4096xf32>) -> tensor<4096xf32>
  %ga = ssd.kernel "ag"(%gb, %a) {flops = 1.0e12 : f64} : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}
