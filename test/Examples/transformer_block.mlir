// Tests that examples/transformer_block.mlir (a GPT-2-small block as
// ssd.kernel ops) parses, meets the input contract, and round-trips through
// the custom and the generic form.

// RUN: ssd-opt %ssd_src_root/examples/transformer_block.mlir > %t.custom
// RUN: ssd-opt %t.custom > %t.custom2
// RUN: diff %t.custom %t.custom2
// RUN: ssd-opt --mlir-print-op-generic %ssd_src_root/examples/transformer_block.mlir > %t.generic
// RUN: ssd-opt --mlir-print-op-generic %t.generic > %t.generic2
// RUN: diff %t.generic %t.generic2
// RUN: ssd-opt %t.generic > %t.from_generic
// RUN: diff %t.custom %t.from_generic
// RUN: ssd-opt -ssd-verify-graph %ssd_src_root/examples/transformer_block.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic

// CHECK-LABEL: func.func @step(
// CHECK-SAME: tensor<4x1024x768xf32> {ssd.name = "x", ssd.role = "input"}
// CHECK-SAME: tensor<768x2304xf32> {ssd.name = "h.0.attn.c_attn.weight", ssd.role = "param"}
// CHECK-SAME: tensor<768x2304xf32> {ssd.name = "h.0.attn.c_attn.weight.exp_avg_sq", ssd.role = "optimizer_state"}
// CHECK-SAME: tensor<1024x1024xi1> {ssd.name = "h.0.attn.bias", ssd.role = "buffer"}
// CHECK-SAME: tensor<f32> {ssd.name = "optimizer.step", ssd.role = "buffer"}
// CHECK: ssd.kernel "aten.native_layer_norm"
// CHECK: ssd.kernel "aten.addmm"
// CHECK-COUNT-3: ssd.kernel "aten.permute_copy"
// CHECK: ssd.kernel "aten.bmm"
// CHECK: ssd.kernel "aten._softmax"
// CHECK: ssd.kernel "aten.gelu"
// CHECK: ssd.kernel "aten.mse_loss"
// CHECK: ssd.kernel "aten.gelu_backward"
// CHECK: ssd.kernel "aten._softmax_backward_data"
// CHECK: ssd.kernel "aten.cat"
// CHECK: ssd.kernel "aten.native_layer_norm_backward"
// CHECK-COUNT-12: ssd.kernel "aten._fused_adamw"
// CHECK: return

// The generic form of the contract: name, flops and bytes as attributes.
// GENERIC: "ssd.kernel"(%{{.*}}) <{bytes = 57418752 : i64, flops = {{.*}} : f64, name = "aten.addmm"}>
// GENERIC-SAME: (tensor<2304xf32>, tensor<4096x768xf32>, tensor<768x2304xf32>) -> tensor<4096x2304xf32>
