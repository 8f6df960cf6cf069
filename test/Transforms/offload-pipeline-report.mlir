// RUN: rm -rf %t && mkdir -p %t
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB report=%t/report.json report-plot=%t/timeline.svg" -o /dev/null
// RUN: FileCheck %s --input-file=%t/report.json
// RUN: FileCheck %s --check-prefix=SVG --input-file=%t/timeline.svg

// Tests that the report carries every key the issue asks for, with the
// numbers of this small step, and that the timeline is an SVG.
// CHECK-DAG: "busy_seconds": {
// CHECK-DAG: "ssd_read":
// CHECK-DAG: "ssd_write":
// CHECK-DAG: "bytes_offloaded": 8192
// CHECK-DAG: "bytes_prefetched": 8192
// CHECK-DAG: "compute_seconds":
// CHECK-DAG: "function": "step"
// CHECK-DAG: "lower_bound_seconds":
// CHECK-DAG: "memory_budget_bytes": 17408
// CHECK-DAG: "ops": 5
// CHECK-DAG: "peak_bytes_after":
// CHECK-DAG: "peak_bytes_before": 24576
// CHECK-DAG: "policy": "ssd"
// CHECK-DAG: "predicted_step_seconds":
// CHECK-DAG: "stall_seconds":
// CHECK-DAG: "tensors": 6
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: @step
// SVG: 24.00 KiB</text>
// SVG: op index</text>
// SVG: backward</text>
// SVG: </svg>
func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
