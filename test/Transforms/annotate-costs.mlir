// RUN: ssd-opt %s -ssd-annotate-costs="target=epyc9654-990pro" | FileCheck %s
// RUN: ssd-opt %s -ssd-annotate-costs="target=%S/Inputs/op-time-table-target.json" | FileCheck %s --check-prefix=TABLE
// RUN: not ssd-opt %s -ssd-annotate-costs="target=%S/Inputs/bad-op-time-table-target.json" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests the cost model's order of preference: measured seconds, then flops
// against the target's 7.37 TFLOP/s, then a linalg op's iterations.
// CHECK-LABEL: func.func @costs
// CHECK: ssd.kernel "measured"{{.*}}ssd.estimated_seconds = 2.500000e-01 : f64
// CHECK: ssd.kernel "aten.mm"{{.*}}ssd.estimated_seconds = 0.135685210312{{[0-9]*}} : f64
// CHECK: linalg.matmul {{.*}}ssd.estimated_seconds =
func.func @costs(%x: tensor<64x64xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<64x64xf32> {
  %a = ssd.kernel "measured"(%x) {cost_seconds = 0.25 : f64, flops = 1.0e15 : f64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = ssd.kernel "aten.mm"(%a) {flops = 1.0e12 : f64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%x : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// Tests a target's measured op times (op_time_table): measured seconds still
// win; aten.mm is on its flops curve (interpolated: 5.1e7 FLOPs half way
// between 1e6 at 2e-5 s and 1.01e8 at 1.02e-3 s); past the last point it grows with the work at
// that point's rate; an op the table does not name takes the `*` curve by
// its bytes, a view (0 bytes) the first point's time; no overhead is added.
// TABLE-LABEL: func.func @table
// TABLE: ssd.kernel "measured"{{.*}}ssd.estimated_seconds = 2.500000e-01 : f64
// TABLE: ssd.kernel "aten.mm.default"{{.*}}ssd.estimated_seconds = {{5\.20*[0-9]?[eE]-0?4}} : f64
// TABLE: ssd.kernel "aten.addmm"{{.*}}ssd.estimated_seconds = {{2\.040*[0-9]?[eE]-0?3}} : f64
// TABLE: ssd.kernel "aten.mmx"{{.*}}ssd.estimated_seconds = {{2\.030*[0-9]?[eE]-0?4|2\.02999*[0-9]?[eE]-0?4}} : f64
// TABLE: ssd.kernel "aten.view"{{.*}}ssd.estimated_seconds = 3.000000e-06 : f64
// BAD: op_time_table entry for 'aten.mm' needs points [work, seconds] of increasing work
func.func @table(%x: tensor<64x64xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<64x64xf32> {
  %a = ssd.kernel "measured"(%x) {cost_seconds = 0.25 : f64, flops = 1.0e15 : f64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = ssd.kernel "aten.mm.default"(%a) {flops = 5.1e7 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = ssd.kernel "aten.addmm"(%b) {flops = 2.02e8 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = ssd.kernel "aten.mmx"(%c) {flops = 2.0e8 : f64, bytes = 2000000 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = ssd.kernel "aten.view"(%d) {flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}
