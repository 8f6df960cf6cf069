// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB policy=exact report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB policy=exact" | FileCheck %s
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB policy=exact" | ssd-opt -ssd-verify-plan="memory-budget=17KiB" -o /dev/null

// Tests that policy=exact plans through the pipeline: the report names the
// policy and says the plan is optimal, the plan moves one of the two
// 8 KiB tensors that the budget cannot hold together, and the verifier
// accepts the planned IR.
// REPORT-DAG: "policy": "exact"
// REPORT-DAG: "policy_detail": "optimal"
// REPORT-DAG: "bytes_offloaded": 8192
// REPORT-DAG: "peak_bytes_before": 24576
// CHECK-LABEL: func.func @step
// CHECK: ssd.offload
// CHECK: ssd.release
// CHECK: ssd.prefetch
// CHECK: ssd.wait
// CHECK: return
func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
