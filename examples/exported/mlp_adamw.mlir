// Written by `python -m ssdopt export models:mlp_adamw`: the training
// step of its model as the input IR of ssd-opt (docs/graph-format.md).
module {
  func.func @step(
    %arg0_1: tensor<64x32xf32> {ssd.role = "param", ssd.name = "layers.0.weight"},
    %arg1_1: tensor<64xf32> {ssd.role = "param", ssd.name = "layers.0.bias"},
    %arg2_1: tensor<64x64xf32> {ssd.role = "param", ssd.name = "layers.1.weight"},
    %arg3_1: tensor<64xf32> {ssd.role = "param", ssd.name = "layers.1.bias"},
    %arg4_1: tensor<10x64xf32> {ssd.role = "param", ssd.name = "layers.2.weight"},
    %arg5_1: tensor<10xf32> {ssd.role = "param", ssd.name = "layers.2.bias"},
    %arg6_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.0.weight.step"},
    %arg7_1: tensor<64x32xf32> {ssd.role = "optimizer_state", ssd.name = "layers.0.weight.exp_avg"},
    %arg8_1: tensor<64x32xf32> {ssd.role = "optimizer_state", ssd.name = "layers.0.weight.exp_avg_sq"},
    %arg9_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.0.bias.step"},
    %arg10_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.0.bias.exp_avg"},
    %arg11_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.0.bias.exp_avg_sq"},
    %arg12_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.1.weight.step"},
    %arg13_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.1.weight.exp_avg"},
    %arg14_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.1.weight.exp_avg_sq"},
    %arg15_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.1.bias.step"},
    %arg16_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.1.bias.exp_avg"},
    %arg17_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.1.bias.exp_avg_sq"},
    %arg18_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.2.weight.step"},
    %arg19_1: tensor<10x64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.2.weight.exp_avg"},
    %arg20_1: tensor<10x64xf32> {ssd.role = "optimizer_state", ssd.name = "layers.2.weight.exp_avg_sq"},
    %arg21_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "layers.2.bias.step"},
    %arg22_1: tensor<10xf32> {ssd.role = "optimizer_state", ssd.name = "layers.2.bias.exp_avg"},
    %arg23_1: tensor<10xf32> {ssd.role = "optimizer_state", ssd.name = "layers.2.bias.exp_avg_sq"},
    %arg24_1: tensor<16x32xf32> {ssd.role = "input", ssd.name = "x"},
    %arg25_1: tensor<16xi64> {ssd.role = "input", ssd.name = "target"})
      -> (tensor<f32>,
          tensor<64x32xf32> {ssd.name = "layers.0.weight"},
          tensor<64xf32> {ssd.name = "layers.0.bias"},
          tensor<64x64xf32> {ssd.name = "layers.1.weight"},
          tensor<64xf32> {ssd.name = "layers.1.bias"},
          tensor<10x64xf32> {ssd.name = "layers.2.weight"},
          tensor<10xf32> {ssd.name = "layers.2.bias"},
          tensor<f32> {ssd.name = "layers.0.weight.step"},
          tensor<64x32xf32> {ssd.name = "layers.0.weight.exp_avg"},
          tensor<64x32xf32> {ssd.name = "layers.0.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "layers.0.bias.step"},
          tensor<64xf32> {ssd.name = "layers.0.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "layers.0.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "layers.1.weight.step"},
          tensor<64x64xf32> {ssd.name = "layers.1.weight.exp_avg"},
          tensor<64x64xf32> {ssd.name = "layers.1.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "layers.1.bias.step"},
          tensor<64xf32> {ssd.name = "layers.1.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "layers.1.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "layers.2.weight.step"},
          tensor<10x64xf32> {ssd.name = "layers.2.weight.exp_avg"},
          tensor<10x64xf32> {ssd.name = "layers.2.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "layers.2.bias.step"},
          tensor<10xf32> {ssd.name = "layers.2.bias.exp_avg"},
          tensor<10xf32> {ssd.name = "layers.2.bias.exp_avg_sq"}) attributes {ssd.backward_start = 13 : i64} {
    %t = "ssd.kernel"(%arg0_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %addmm = "ssd.kernel"(%arg1_1, %arg24_1, %t) {name = "aten.addmm.default", flops = 65536.0 : f64, bytes = 14592 : i64} : (tensor<64xf32>, tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %relu = "ssd.kernel"(%addmm) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 8192 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %alias_2 = "ssd.kernel"(%relu) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %t_1 = "ssd.kernel"(%arg2_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %addmm_1 = "ssd.kernel"(%arg3_1, %relu, %t_1) {name = "aten.addmm.default", flops = 131072.0 : f64, bytes = 24832 : i64} : (tensor<64xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %relu_1 = "ssd.kernel"(%addmm_1) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 8192 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %alias_5 = "ssd.kernel"(%relu_1) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %t_2 = "ssd.kernel"(%arg4_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<10x64xf32>) -> tensor<64x10xf32>
    %addmm_2 = "ssd.kernel"(%arg5_1, %relu_1, %t_2) {name = "aten.addmm.default", flops = 20480.0 : f64, bytes = 7336 : i64} : (tensor<10xf32>, tensor<16x64xf32>, tensor<64x10xf32>) -> tensor<16x10xf32>
    %_log_softmax = "ssd.kernel"(%addmm_2) {name = "aten._log_softmax.default", flops = 0.0 : f64, bytes = 1280 : i64} : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %alias_8 = "ssd.kernel"(%_log_softmax) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %nll_loss_forward:2 = "ssd.kernel"(%_log_softmax, %arg25_1) {name = "aten.nll_loss_forward.default", flops = 0.0 : f64, bytes = 776 : i64} : (tensor<16x10xf32>, tensor<16xi64>) -> (tensor<f32>, tensor<f32>)
    %ones_like = "ssd.kernel"(%nll_loss_forward#0) {name = "aten.ones_like.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %nll_loss_backward = "ssd.kernel"(%ones_like, %_log_softmax, %arg25_1, %nll_loss_forward#1) {name = "aten.nll_loss_backward.default", flops = 0.0 : f64, bytes = 1416 : i64} : (tensor<f32>, tensor<16x10xf32>, tensor<16xi64>, tensor<f32>) -> tensor<16x10xf32>
    %alias_9 = "ssd.kernel"(%alias_8) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %_log_softmax_backward_data = "ssd.kernel"(%nll_loss_backward, %alias_9) {name = "aten._log_softmax_backward_data.default", flops = 0.0 : f64, bytes = 1920 : i64} : (tensor<16x10xf32>, tensor<16x10xf32>) -> tensor<16x10xf32>
    %t_3 = "ssd.kernel"(%t_2) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x10xf32>) -> tensor<10x64xf32>
    %mm = "ssd.kernel"(%_log_softmax_backward_data, %t_3) {name = "aten.mm.default", flops = 20480.0 : f64, bytes = 7296 : i64} : (tensor<16x10xf32>, tensor<10x64xf32>) -> tensor<16x64xf32>
    %t_4 = "ssd.kernel"(%_log_softmax_backward_data) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x10xf32>) -> tensor<10x16xf32>
    %mm_1 = "ssd.kernel"(%t_4, %relu_1) {name = "aten.mm.default", flops = 20480.0 : f64, bytes = 7296 : i64} : (tensor<10x16xf32>, tensor<16x64xf32>) -> tensor<10x64xf32>
    %t_5 = "ssd.kernel"(%mm_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<10x64xf32>) -> tensor<64x10xf32>
    %sum_1 = "ssd.kernel"(%_log_softmax_backward_data) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 680 : i64} : (tensor<16x10xf32>) -> tensor<1x10xf32>
    %view = "ssd.kernel"(%sum_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x10xf32>) -> tensor<10xf32>
    %t_6 = "ssd.kernel"(%t_5) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x10xf32>) -> tensor<10x64xf32>
    %alias_10 = "ssd.kernel"(%alias_5) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %threshold_backward = "ssd.kernel"(%mm, %alias_10) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 12288 : i64} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %t_7 = "ssd.kernel"(%t_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_2 = "ssd.kernel"(%threshold_backward, %t_7) {name = "aten.mm.default", flops = 131072.0 : f64, bytes = 24576 : i64} : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %t_8 = "ssd.kernel"(%threshold_backward) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %mm_3 = "ssd.kernel"(%t_8, %relu) {name = "aten.mm.default", flops = 131072.0 : f64, bytes = 24576 : i64} : (tensor<64x16xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %t_9 = "ssd.kernel"(%mm_3) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %sum_2 = "ssd.kernel"(%threshold_backward) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 4352 : i64} : (tensor<16x64xf32>) -> tensor<1x64xf32>
    %view_1 = "ssd.kernel"(%sum_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %t_10 = "ssd.kernel"(%t_9) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %alias_11 = "ssd.kernel"(%alias_2) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %threshold_backward_1 = "ssd.kernel"(%mm_2, %alias_11) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 12288 : i64} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %t_11 = "ssd.kernel"(%threshold_backward_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %mm_4 = "ssd.kernel"(%t_11, %arg24_1) {name = "aten.mm.default", flops = 65536.0 : f64, bytes = 14336 : i64} : (tensor<64x16xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %t_12 = "ssd.kernel"(%mm_4) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %sum_3 = "ssd.kernel"(%threshold_backward_1) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 4352 : i64} : (tensor<16x64xf32>) -> tensor<1x64xf32>
    %view_2 = "ssd.kernel"(%sum_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %t_13 = "ssd.kernel"(%t_12) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %mul = "ssd.kernel"(%arg0_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %add = "ssd.kernel"(%arg6_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp = "ssd.kernel"(%arg7_1, %t_13) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %mul_1 = "ssd.kernel"(%arg8_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %mul_2 = "ssd.kernel"(%t_13) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %mul_3 = "ssd.kernel"(%mul_2, %t_13) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %add_1 = "ssd.kernel"(%mul_1, %mul_3) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %pow_1 = "ssd.kernel"(%add) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub = "ssd.kernel"(%pow_1) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_2 = "ssd.kernel"(%add) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_1 = "ssd.kernel"(%pow_2) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt = "ssd.kernel"(%rsub_1) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_1 = "ssd.kernel"(%add_1) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %div = "ssd.kernel"(%sqrt_1, %sqrt) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 16388 : i64} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64x32xf32>
    %add_2 = "ssd.kernel"(%div) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %reciprocal = "ssd.kernel"(%rsub) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_4 = "ssd.kernel"(%reciprocal) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_5 = "ssd.kernel"(%mul_4, %lerp) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 16388 : i64} : (tensor<f32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %div_1 = "ssd.kernel"(%mul_5, %add_2) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %sub = "ssd.kernel"(%mul, %div_1) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %mul_6 = "ssd.kernel"(%arg1_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_3 = "ssd.kernel"(%arg9_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_1 = "ssd.kernel"(%arg10_1, %view_2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_7 = "ssd.kernel"(%arg11_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_8 = "ssd.kernel"(%view_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_9 = "ssd.kernel"(%mul_8, %view_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_4 = "ssd.kernel"(%mul_7, %mul_9) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_3 = "ssd.kernel"(%add_3) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_2 = "ssd.kernel"(%pow_3) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_4 = "ssd.kernel"(%add_3) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_3 = "ssd.kernel"(%pow_4) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_2 = "ssd.kernel"(%rsub_3) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_3 = "ssd.kernel"(%add_4) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_2 = "ssd.kernel"(%sqrt_3, %sqrt_2) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_5 = "ssd.kernel"(%div_2) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_1 = "ssd.kernel"(%rsub_2) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_10 = "ssd.kernel"(%reciprocal_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_11 = "ssd.kernel"(%mul_10, %lerp_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_3 = "ssd.kernel"(%mul_11, %add_5) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_1 = "ssd.kernel"(%mul_6, %div_3) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_12 = "ssd.kernel"(%arg2_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_6 = "ssd.kernel"(%arg12_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_2 = "ssd.kernel"(%arg13_1, %t_10) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_13 = "ssd.kernel"(%arg14_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_14 = "ssd.kernel"(%t_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_15 = "ssd.kernel"(%mul_14, %t_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_7 = "ssd.kernel"(%mul_13, %mul_15) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %pow_5 = "ssd.kernel"(%add_6) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_4 = "ssd.kernel"(%pow_5) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_6 = "ssd.kernel"(%add_6) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_5 = "ssd.kernel"(%pow_6) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_4 = "ssd.kernel"(%rsub_5) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_5 = "ssd.kernel"(%add_7) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_4 = "ssd.kernel"(%sqrt_5, %sqrt_4) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
    %add_8 = "ssd.kernel"(%div_4) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %reciprocal_2 = "ssd.kernel"(%rsub_4) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_16 = "ssd.kernel"(%reciprocal_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_17 = "ssd.kernel"(%mul_16, %lerp_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<f32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_5 = "ssd.kernel"(%mul_17, %add_8) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sub_2 = "ssd.kernel"(%mul_12, %div_5) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_18 = "ssd.kernel"(%arg3_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_9 = "ssd.kernel"(%arg15_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_3 = "ssd.kernel"(%arg16_1, %view_1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_19 = "ssd.kernel"(%arg17_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_20 = "ssd.kernel"(%view_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_21 = "ssd.kernel"(%mul_20, %view_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_10 = "ssd.kernel"(%mul_19, %mul_21) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_7 = "ssd.kernel"(%add_9) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_6 = "ssd.kernel"(%pow_7) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_8 = "ssd.kernel"(%add_9) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_7 = "ssd.kernel"(%pow_8) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_6 = "ssd.kernel"(%rsub_7) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_7 = "ssd.kernel"(%add_10) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_6 = "ssd.kernel"(%sqrt_7, %sqrt_6) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_11 = "ssd.kernel"(%div_6) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_3 = "ssd.kernel"(%rsub_6) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_22 = "ssd.kernel"(%reciprocal_3) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_23 = "ssd.kernel"(%mul_22, %lerp_3) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_7 = "ssd.kernel"(%mul_23, %add_11) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_3 = "ssd.kernel"(%mul_18, %div_7) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_24 = "ssd.kernel"(%arg4_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 5120 : i64} : (tensor<10x64xf32>) -> tensor<10x64xf32>
    %add_12 = "ssd.kernel"(%arg18_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_4 = "ssd.kernel"(%arg19_1, %t_6) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 7680 : i64} : (tensor<10x64xf32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %mul_25 = "ssd.kernel"(%arg20_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 5120 : i64} : (tensor<10x64xf32>) -> tensor<10x64xf32>
    %mul_26 = "ssd.kernel"(%t_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 5120 : i64} : (tensor<10x64xf32>) -> tensor<10x64xf32>
    %mul_27 = "ssd.kernel"(%mul_26, %t_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 7680 : i64} : (tensor<10x64xf32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %add_13 = "ssd.kernel"(%mul_25, %mul_27) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 7680 : i64} : (tensor<10x64xf32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %pow_9 = "ssd.kernel"(%add_12) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_8 = "ssd.kernel"(%pow_9) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_10 = "ssd.kernel"(%add_12) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_9 = "ssd.kernel"(%pow_10) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_8 = "ssd.kernel"(%rsub_9) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_9 = "ssd.kernel"(%add_13) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 5120 : i64} : (tensor<10x64xf32>) -> tensor<10x64xf32>
    %div_8 = "ssd.kernel"(%sqrt_9, %sqrt_8) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 5124 : i64} : (tensor<10x64xf32>, tensor<f32>) -> tensor<10x64xf32>
    %add_14 = "ssd.kernel"(%div_8) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 5120 : i64} : (tensor<10x64xf32>) -> tensor<10x64xf32>
    %reciprocal_4 = "ssd.kernel"(%rsub_8) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_28 = "ssd.kernel"(%reciprocal_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_29 = "ssd.kernel"(%mul_28, %lerp_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 5124 : i64} : (tensor<f32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %div_9 = "ssd.kernel"(%mul_29, %add_14) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 7680 : i64} : (tensor<10x64xf32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %sub_4 = "ssd.kernel"(%mul_24, %div_9) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 7680 : i64} : (tensor<10x64xf32>, tensor<10x64xf32>) -> tensor<10x64xf32>
    %mul_30 = "ssd.kernel"(%arg5_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %add_15 = "ssd.kernel"(%arg21_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_5 = "ssd.kernel"(%arg22_1, %view) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %mul_31 = "ssd.kernel"(%arg23_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %mul_32 = "ssd.kernel"(%view) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %mul_33 = "ssd.kernel"(%mul_32, %view) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %add_16 = "ssd.kernel"(%mul_31, %mul_33) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %pow_11 = "ssd.kernel"(%add_15) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_10 = "ssd.kernel"(%pow_11) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_12 = "ssd.kernel"(%add_15) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_11 = "ssd.kernel"(%pow_12) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_10 = "ssd.kernel"(%rsub_11) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_11 = "ssd.kernel"(%add_16) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %div_10 = "ssd.kernel"(%sqrt_11, %sqrt_10) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 84 : i64} : (tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
    %add_17 = "ssd.kernel"(%div_10) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %reciprocal_5 = "ssd.kernel"(%rsub_10) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_34 = "ssd.kernel"(%reciprocal_5) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_35 = "ssd.kernel"(%mul_34, %lerp_5) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 84 : i64} : (tensor<f32>, tensor<10xf32>) -> tensor<10xf32>
    %div_11 = "ssd.kernel"(%mul_35, %add_17) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %sub_5 = "ssd.kernel"(%mul_30, %div_11) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    return %nll_loss_forward#0, %sub, %sub_1, %sub_2, %sub_3, %sub_4, %sub_5, %add, %lerp, %add_1, %add_3, %lerp_1, %add_4, %add_6, %lerp_2, %add_7, %add_9, %lerp_3, %add_10, %add_12, %lerp_4, %add_13, %add_15, %lerp_5, %add_16 : tensor<f32>, tensor<64x32xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<10x64xf32>, tensor<10xf32>, tensor<f32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<10x64xf32>, tensor<10x64xf32>, tensor<f32>, tensor<10xf32>, tensor<10xf32>
  }
}
