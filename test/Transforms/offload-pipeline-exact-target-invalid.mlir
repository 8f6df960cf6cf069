// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB policy=exact target=%S/Inputs/workers-target.json" --verify-diagnostics

// Tests that the exact policy refuses a target whose transfer costs depend
// on what ran before (here: SSD transfer workers).
// expected-error @+1 {{planning failed: the exact policy needs transfers whose cost does not depend on what ran before; target 'with-workers' has transfer workers, queued or idle latencies or an issue time}}
func.func @limit(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
