// RUN: ssd-opt %s -ssd-annotate-costs="target=epyc9654-990pro" | FileCheck %s

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
