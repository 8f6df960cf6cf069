// RUN: ssd-opt %s --split-input-file -ssd-verify-graph --allow-unregistered-dialect | FileCheck %s

// Tests a step with every role, an update of each persistent argument, a
// loss result, scalars inside linalg and a constant.
// CHECK-LABEL: func.func @step
func.func @step(%w: tensor<4x4xf32> {ssd.role = "param", ssd.name = "w"},
                %m: tensor<4x4xf32> {ssd.role = "optimizer_state", ssd.name = "w.exp_avg"},
                %n: tensor<i64> {ssd.role = "buffer", ssd.name = "step"},
                %x: tensor<2x4xf32> {ssd.role = "input", ssd.name = "x"})
    -> (tensor<f32>, tensor<4x4xf32> {ssd.name = "w"},
        tensor<4x4xf32> {ssd.name = "w.exp_avg"}, tensor<i64> {ssd.name = "step"}) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%fill : tensor<2x4xf32>) -> tensor<2x4xf32>
  %loss = "ssd.kernel"(%y) {name = "aten.sum", flops = 8.0 : f64} : (tensor<2x4xf32>) -> tensor<f32>
  %g = "ssd.kernel"(%x, %y) {name = "aten.mm", flops = 64.0 : f64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %w2, %m2 = "ssd.kernel"(%w, %m, %g) {name = "adamw"} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %n2 = "ssd.kernel"(%n) {name = "aten.add"} : (tensor<i64>) -> tensor<i64>
  return %loss, %w2, %m2, %n2 : tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i64>
}

// -----

// Tests that declarations and unregistered ops over tensors are accepted.
// CHECK-LABEL: func.func private @external
// CHECK-LABEL: func.func @opaque
func.func private @external(tensor<?xf32>)
func.func @opaque(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32> {
  %y = "torch.aten.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that an exporter's mark of the backward pass is accepted and kept.
// CHECK-LABEL: func.func @marked
// CHECK-SAME: ssd.backward_start = 1 : i64
func.func @marked(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32>
    attributes {ssd.backward_start = 1 : i64} {
  %y = ssd.kernel "f"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = ssd.kernel "g"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
