// Tests that examples/mlp_adamw.mlir (an MLP + AdamW step in linalg, tensor,
// arith and math on tensors) parses, meets the input contract, and
// round-trips through the custom and the generic form. Its numbers are
// checked by mlp_numerics.mlir.

// RUN: ssd-opt %ssd_src_root/examples/mlp_adamw.mlir > %t.custom
// RUN: ssd-opt %t.custom > %t.custom2
// RUN: diff %t.custom %t.custom2
// RUN: ssd-opt --mlir-print-op-generic %ssd_src_root/examples/mlp_adamw.mlir > %t.generic
// RUN: ssd-opt --mlir-print-op-generic %t.generic > %t.generic2
// RUN: diff %t.generic %t.generic2
// RUN: ssd-opt %t.generic > %t.from_generic
// RUN: diff %t.custom %t.from_generic
// RUN: ssd-opt -ssd-verify-graph %ssd_src_root/examples/mlp_adamw.mlir | FileCheck %s

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %{{.*}}: tensor<64x784xf32> {ssd.name = "x", ssd.role = "input"}
// CHECK-SAME: %{{.*}}: tensor<256x784xf32> {ssd.name = "fc1.weight", ssd.role = "param"}
// CHECK-SAME: %{{.*}}: tensor<256x784xf32> {ssd.name = "fc1.weight.exp_avg", ssd.role = "optimizer_state"}
// CHECK-SAME: %{{.*}}: tensor<f32> {ssd.name = "optimizer.step", ssd.role = "buffer"}
// CHECK-SAME: -> (tensor<f32>, tensor<256x784xf32> {ssd.name = "fc1.weight"}
// CHECK-SAME: tensor<f32> {ssd.name = "optimizer.step"})
// CHECK-COUNT-2: linalg.matmul_transpose_b
// CHECK: math.exp
// CHECK: math.log
// CHECK: linalg.matmul_transpose_a
// CHECK: linalg.matmul ins
// CHECK: linalg.matmul_transpose_a
// CHECK: math.powf
// CHECK-COUNT-4: math.sqrt
// CHECK: return
