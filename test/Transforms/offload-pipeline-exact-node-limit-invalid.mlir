// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=17KiB policy=exact exact-node-limit=1" --verify-diagnostics

// Tests that the exact search says so when its node limit ends it: unlike
// the time limit, at the same node on every machine.
// expected-error @+1 {{planning failed: the exact search reached its node limit of 1 nodes before proving a plan optimal}}
func.func @limit(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
