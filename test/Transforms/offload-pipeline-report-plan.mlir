// RUN: rm -rf %t && mkdir -p %t
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB report=%t/report.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/report.json

// Tests the report's "plan": one object per gap, with where its tensor is in
// the input IR. `w` is argument 0, written at entry and read back for its
// update (op 5): entering on SSD would make the step end with the write of
// the update, which the planner's last pass (dropRedundantGaps) finds
// slower; `%a` is result 1 of op 0 (the ops nested in scf.execute_region
// are not counted, so "h" is op 4). Slot s lies between points s-1 and s.
// CHECK:      "plan": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "argument": 0,
// CHECK-NEXT:     "bytes": 4096,
// CHECK-NEXT:     "enters_on_ssd": false,
// CHECK-NEXT:     "leaves_on_ssd": false,
// CHECK-NEXT:     "offload_slot": 0,
// CHECK-NEXT:     "prefetch_slot": 5,
// CHECK-NEXT:     "release_slot": 2,
// CHECK-NEXT:     "tensor": "w",
// CHECK-NEXT:     "wait_point": 5,
// CHECK-NEXT:     "writes": true
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "bytes": 8192,
// CHECK-NEXT:     "enters_on_ssd": false,
// CHECK-NEXT:     "leaves_on_ssd": false,
// CHECK-NEXT:     "offload_slot": 1,
// CHECK-NEXT:     "op": 0,
// CHECK-NEXT:     "prefetch_slot": 4,
// CHECK-NEXT:     "release_slot": 1,
// CHECK-NEXT:     "result": 1,
// CHECK-NEXT:     "tensor": "f@0#1",
// CHECK-NEXT:     "wait_point": 4,
// CHECK-NEXT:     "writes": true
// CHECK-NEXT:   }
// CHECK-NEXT: ],
func.func @step(%w: tensor<1024xf32> {ssd.role = "param", ssd.name = "w"},
                %x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"})
    -> (tensor<16xf32>, tensor<1024xf32> {ssd.name = "w"}) {
  %s, %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> (tensor<16xf32>, tensor<2048xf32>)
  %b = scf.execute_region -> tensor<2048xf32> {
    %t = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
    scf.yield %t : tensor<2048xf32>
  }
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e, %s) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  %w2 = ssd.kernel "sgd"(%w, %d) {flops = 1.0e12 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<1024xf32>
  return %d, %w2 : tensor<16xf32>, tensor<1024xf32>
}
