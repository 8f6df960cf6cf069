// Tests that examples/convnet.mlir (a small ResNet as ssd.kernel ops)
// parses, meets the input contract, and round-trips through the custom and
// the generic form.

// RUN: ssd-opt %ssd_src_root/examples/convnet.mlir > %t.custom
// RUN: ssd-opt %t.custom > %t.custom2
// RUN: diff %t.custom %t.custom2
// RUN: ssd-opt --mlir-print-op-generic %ssd_src_root/examples/convnet.mlir > %t.generic
// RUN: ssd-opt --mlir-print-op-generic %t.generic > %t.generic2
// RUN: diff %t.generic %t.generic2
// RUN: ssd-opt %t.generic > %t.from_generic
// RUN: diff %t.custom %t.from_generic
// RUN: ssd-opt -ssd-verify-graph %ssd_src_root/examples/convnet.mlir | FileCheck %s

// CHECK-LABEL: func.func @step(
// CHECK-SAME: tensor<128x3x32x32xf32> {ssd.name = "images", ssd.role = "input"}
// CHECK-SAME: tensor<128xi64> {ssd.name = "labels", ssd.role = "input"}
// CHECK-SAME: tensor<32x3x3x3xf32> {ssd.name = "conv1.weight", ssd.role = "param"}
// CHECK-SAME: tensor<64x32x1x1xf32> {ssd.name = "layer2.0.downsample.0.weight", ssd.role = "param"}
// CHECK-SAME: tensor<32x3x3x3xf32> {ssd.name = "conv1.weight.momentum_buffer", ssd.role = "optimizer_state"}
// CHECK-SAME: tensor<32xf32> {ssd.name = "bn1.running_mean", ssd.role = "buffer"}
// CHECK-SAME: tensor<i64> {ssd.name = "bn1.num_batches_tracked", ssd.role = "buffer"}
// CHECK-SAME: -> (tensor<f32>, tensor<32x3x3x3xf32> {ssd.name = "conv1.weight"}
// CHECK: ssd.kernel "aten.convolution"
// CHECK: ssd.kernel "aten._native_batch_norm_legit_functional"
// CHECK: ssd.kernel "aten.relu"
// CHECK: ssd.kernel "aten._adaptive_avg_pool2d"
// CHECK: ssd.kernel "aten._log_softmax"
// CHECK: ssd.kernel "aten.nll_loss_forward"
// CHECK: ssd.kernel "aten.nll_loss_backward"
// CHECK: ssd.kernel "aten.native_batch_norm_backward"
// CHECK: ssd.kernel "aten.convolution_backward"
// The stem's convolution_backward has one result: grad_weight only.
// CHECK: ssd.kernel "aten.convolution_backward"({{.*}}) {{.*}} -> tensor<32x3x3x3xf32>
// CHECK: ssd.kernel "aten._fused_sgd"
// CHECK: return
