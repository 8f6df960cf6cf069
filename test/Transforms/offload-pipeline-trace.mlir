// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=10KiB report-trace=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: not ssd-opt %s -ssd-offload-pipeline="memory-budget=10KiB report-trace=%t.missing/trace.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that report-trace writes the simulated schedule as a Chrome trace:
// the five queues named as tracks, the ops on compute, the offload of the result of "f" (f@0)
// on D2H then the SSD write, its reload on the SSD read then H2D; device
// memory as a counter (planned and unplanned live bytes at each op), and
// what a picture of it needs besides (budget, where backward starts).
// CHECK-DAG: "name": "compute"
// CHECK-DAG: "name": "d2h"
// CHECK-DAG: "name": "h2d"
// CHECK-DAG: "name": "ssd_read"
// CHECK-DAG: "name": "ssd_write"
// CHECK-DAG: "name": "big"
// CHECK-DAG: "name": "f@0"
// CHECK-DAG: "displayTimeUnit": "ms"
// CHECK-DAG: "name": "device memory"
// CHECK-DAG: "ph": "C"
// CHECK-DAG: "unplanned": 14400
// CHECK-DAG: "memory_budget_bytes": 10240
// CHECK-DAG: "backward_start":
// BAD: cannot write the trace to
func.func @step(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %z = ssd.kernel "big"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1536xf32>
  %w = ssd.kernel "g"(%z) {flops = 1.0e12 : f64} : (tensor<1536xf32>) -> tensor<16xf32>
  %y = ssd.kernel "n"(%a, %w) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
