// Written by `python -m ssdopt export models:resnet_sgd`: the training
// step of its model as the input IR of ssd-opt (docs/graph-format.md).
module {
  func.func @step(
    %arg0_1: tensor<8x3x3x3xf32> {ssd.role = "param", ssd.name = "stem.weight"},
    %arg1_1: tensor<8xf32> {ssd.role = "param", ssd.name = "bn.weight"},
    %arg2_1: tensor<8xf32> {ssd.role = "param", ssd.name = "bn.bias"},
    %arg3_1: tensor<8x8x3x3xf32> {ssd.role = "param", ssd.name = "blocks.0.conv1.weight"},
    %arg4_1: tensor<8xf32> {ssd.role = "param", ssd.name = "blocks.0.bn1.weight"},
    %arg5_1: tensor<8xf32> {ssd.role = "param", ssd.name = "blocks.0.bn1.bias"},
    %arg6_1: tensor<8x8x3x3xf32> {ssd.role = "param", ssd.name = "blocks.0.conv2.weight"},
    %arg7_1: tensor<8xf32> {ssd.role = "param", ssd.name = "blocks.0.bn2.weight"},
    %arg8_1: tensor<8xf32> {ssd.role = "param", ssd.name = "blocks.0.bn2.bias"},
    %arg9_1: tensor<16x8x3x3xf32> {ssd.role = "param", ssd.name = "blocks.1.conv1.weight"},
    %arg10_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.bn1.weight"},
    %arg11_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.bn1.bias"},
    %arg12_1: tensor<16x16x3x3xf32> {ssd.role = "param", ssd.name = "blocks.1.conv2.weight"},
    %arg13_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.bn2.weight"},
    %arg14_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.bn2.bias"},
    %arg15_1: tensor<16x8x1x1xf32> {ssd.role = "param", ssd.name = "blocks.1.shortcut.0.weight"},
    %arg16_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.shortcut.1.weight"},
    %arg17_1: tensor<16xf32> {ssd.role = "param", ssd.name = "blocks.1.shortcut.1.bias"},
    %arg18_1: tensor<32x16x3x3xf32> {ssd.role = "param", ssd.name = "blocks.2.conv1.weight"},
    %arg19_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.bn1.weight"},
    %arg20_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.bn1.bias"},
    %arg21_1: tensor<32x32x3x3xf32> {ssd.role = "param", ssd.name = "blocks.2.conv2.weight"},
    %arg22_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.bn2.weight"},
    %arg23_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.bn2.bias"},
    %arg24_1: tensor<32x16x1x1xf32> {ssd.role = "param", ssd.name = "blocks.2.shortcut.0.weight"},
    %arg25_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.shortcut.1.weight"},
    %arg26_1: tensor<32xf32> {ssd.role = "param", ssd.name = "blocks.2.shortcut.1.bias"},
    %arg27_1: tensor<10x32xf32> {ssd.role = "param", ssd.name = "fc.weight"},
    %arg28_1: tensor<10xf32> {ssd.role = "param", ssd.name = "fc.bias"},
    %arg29_1: tensor<i64> {ssd.role = "buffer", ssd.name = "bn.num_batches_tracked"},
    %arg30_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "bn.running_mean"},
    %arg31_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "bn.running_var"},
    %arg32_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.0.bn1.num_batches_tracked"},
    %arg33_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "blocks.0.bn1.running_mean"},
    %arg34_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "blocks.0.bn1.running_var"},
    %arg35_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.0.bn2.num_batches_tracked"},
    %arg36_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "blocks.0.bn2.running_mean"},
    %arg37_1: tensor<8xf32> {ssd.role = "buffer", ssd.name = "blocks.0.bn2.running_var"},
    %arg38_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.1.bn1.num_batches_tracked"},
    %arg39_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.bn1.running_mean"},
    %arg40_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.bn1.running_var"},
    %arg41_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.1.bn2.num_batches_tracked"},
    %arg42_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.bn2.running_mean"},
    %arg43_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.bn2.running_var"},
    %arg44_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.1.shortcut.1.num_batches_tracked"},
    %arg45_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.shortcut.1.running_mean"},
    %arg46_1: tensor<16xf32> {ssd.role = "buffer", ssd.name = "blocks.1.shortcut.1.running_var"},
    %arg47_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.2.bn1.num_batches_tracked"},
    %arg48_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.bn1.running_mean"},
    %arg49_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.bn1.running_var"},
    %arg50_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.2.bn2.num_batches_tracked"},
    %arg51_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.bn2.running_mean"},
    %arg52_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.bn2.running_var"},
    %arg53_1: tensor<i64> {ssd.role = "buffer", ssd.name = "blocks.2.shortcut.1.num_batches_tracked"},
    %arg54_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.shortcut.1.running_mean"},
    %arg55_1: tensor<32xf32> {ssd.role = "buffer", ssd.name = "blocks.2.shortcut.1.running_var"},
    %arg56_1: tensor<8x3x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "stem.weight.momentum_buffer"},
    %arg57_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "bn.weight.momentum_buffer"},
    %arg58_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "bn.bias.momentum_buffer"},
    %arg59_1: tensor<8x8x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.conv1.weight.momentum_buffer"},
    %arg60_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.bn1.weight.momentum_buffer"},
    %arg61_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.bn1.bias.momentum_buffer"},
    %arg62_1: tensor<8x8x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.conv2.weight.momentum_buffer"},
    %arg63_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.bn2.weight.momentum_buffer"},
    %arg64_1: tensor<8xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.0.bn2.bias.momentum_buffer"},
    %arg65_1: tensor<16x8x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.conv1.weight.momentum_buffer"},
    %arg66_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.bn1.weight.momentum_buffer"},
    %arg67_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.bn1.bias.momentum_buffer"},
    %arg68_1: tensor<16x16x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.conv2.weight.momentum_buffer"},
    %arg69_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.bn2.weight.momentum_buffer"},
    %arg70_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.bn2.bias.momentum_buffer"},
    %arg71_1: tensor<16x8x1x1xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.shortcut.0.weight.momentum_buffer"},
    %arg72_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.shortcut.1.weight.momentum_buffer"},
    %arg73_1: tensor<16xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.1.shortcut.1.bias.momentum_buffer"},
    %arg74_1: tensor<32x16x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.conv1.weight.momentum_buffer"},
    %arg75_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.bn1.weight.momentum_buffer"},
    %arg76_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.bn1.bias.momentum_buffer"},
    %arg77_1: tensor<32x32x3x3xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.conv2.weight.momentum_buffer"},
    %arg78_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.bn2.weight.momentum_buffer"},
    %arg79_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.bn2.bias.momentum_buffer"},
    %arg80_1: tensor<32x16x1x1xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.shortcut.0.weight.momentum_buffer"},
    %arg81_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.shortcut.1.weight.momentum_buffer"},
    %arg82_1: tensor<32xf32> {ssd.role = "optimizer_state", ssd.name = "blocks.2.shortcut.1.bias.momentum_buffer"},
    %arg83_1: tensor<10x32xf32> {ssd.role = "optimizer_state", ssd.name = "fc.weight.momentum_buffer"},
    %arg84_1: tensor<10xf32> {ssd.role = "optimizer_state", ssd.name = "fc.bias.momentum_buffer"},
    %arg85_1: tensor<4x3x16x16xf32> {ssd.role = "input", ssd.name = "x"},
    %arg86_1: tensor<4xi64> {ssd.role = "input", ssd.name = "target"})
      -> (tensor<f32>,
          tensor<8x3x3x3xf32> {ssd.name = "stem.weight"},
          tensor<8xf32> {ssd.name = "bn.weight"},
          tensor<8xf32> {ssd.name = "bn.bias"},
          tensor<8x8x3x3xf32> {ssd.name = "blocks.0.conv1.weight"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.weight"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.bias"},
          tensor<8x8x3x3xf32> {ssd.name = "blocks.0.conv2.weight"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.weight"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.bias"},
          tensor<16x8x3x3xf32> {ssd.name = "blocks.1.conv1.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.bias"},
          tensor<16x16x3x3xf32> {ssd.name = "blocks.1.conv2.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.bias"},
          tensor<16x8x1x1xf32> {ssd.name = "blocks.1.shortcut.0.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.weight"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.bias"},
          tensor<32x16x3x3xf32> {ssd.name = "blocks.2.conv1.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.bias"},
          tensor<32x32x3x3xf32> {ssd.name = "blocks.2.conv2.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.bias"},
          tensor<32x16x1x1xf32> {ssd.name = "blocks.2.shortcut.0.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.weight"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.bias"},
          tensor<10x32xf32> {ssd.name = "fc.weight"},
          tensor<10xf32> {ssd.name = "fc.bias"},
          tensor<i64> {ssd.name = "bn.num_batches_tracked"},
          tensor<8xf32> {ssd.name = "bn.running_mean"},
          tensor<8xf32> {ssd.name = "bn.running_var"},
          tensor<i64> {ssd.name = "blocks.0.bn1.num_batches_tracked"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.running_mean"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.running_var"},
          tensor<i64> {ssd.name = "blocks.0.bn2.num_batches_tracked"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.running_mean"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.running_var"},
          tensor<i64> {ssd.name = "blocks.1.bn1.num_batches_tracked"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.running_mean"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.running_var"},
          tensor<i64> {ssd.name = "blocks.1.bn2.num_batches_tracked"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.running_mean"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.running_var"},
          tensor<i64> {ssd.name = "blocks.1.shortcut.1.num_batches_tracked"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.running_mean"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.running_var"},
          tensor<i64> {ssd.name = "blocks.2.bn1.num_batches_tracked"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.running_mean"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.running_var"},
          tensor<i64> {ssd.name = "blocks.2.bn2.num_batches_tracked"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.running_mean"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.running_var"},
          tensor<i64> {ssd.name = "blocks.2.shortcut.1.num_batches_tracked"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.running_mean"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.running_var"},
          tensor<8x3x3x3xf32> {ssd.name = "stem.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "bn.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "bn.bias.momentum_buffer"},
          tensor<8x8x3x3xf32> {ssd.name = "blocks.0.conv1.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "blocks.0.bn1.bias.momentum_buffer"},
          tensor<8x8x3x3xf32> {ssd.name = "blocks.0.conv2.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.weight.momentum_buffer"},
          tensor<8xf32> {ssd.name = "blocks.0.bn2.bias.momentum_buffer"},
          tensor<16x8x3x3xf32> {ssd.name = "blocks.1.conv1.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.bn1.bias.momentum_buffer"},
          tensor<16x16x3x3xf32> {ssd.name = "blocks.1.conv2.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.bn2.bias.momentum_buffer"},
          tensor<16x8x1x1xf32> {ssd.name = "blocks.1.shortcut.0.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.weight.momentum_buffer"},
          tensor<16xf32> {ssd.name = "blocks.1.shortcut.1.bias.momentum_buffer"},
          tensor<32x16x3x3xf32> {ssd.name = "blocks.2.conv1.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.bn1.bias.momentum_buffer"},
          tensor<32x32x3x3xf32> {ssd.name = "blocks.2.conv2.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.bn2.bias.momentum_buffer"},
          tensor<32x16x1x1xf32> {ssd.name = "blocks.2.shortcut.0.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.weight.momentum_buffer"},
          tensor<32xf32> {ssd.name = "blocks.2.shortcut.1.bias.momentum_buffer"},
          tensor<10x32xf32> {ssd.name = "fc.weight.momentum_buffer"},
          tensor<10xf32> {ssd.name = "fc.bias.momentum_buffer"}) attributes {ssd.backward_start = 51 : i64} {
    %convolution = "ssd.kernel"(%arg85_1, %arg0_1) {name = "aten.convolution.default", flops = 442368.0 : f64, bytes = 45920 : i64} : (tensor<4x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<4x8x16x16xf32>
    %add = "ssd.kernel"(%arg29_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional:5 = "ssd.kernel"(%convolution, %arg1_1, %arg2_1, %arg30_1, %arg31_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 65792 : i64} : (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    %relu = "ssd.kernel"(%_native_batch_norm_legit_functional#0) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 65536 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %alias_2 = "ssd.kernel"(%relu) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %convolution_1 = "ssd.kernel"(%relu, %arg3_1) {name = "aten.convolution.default", flops = 1179648.0 : f64, bytes = 67840 : i64} : (tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<4x8x16x16xf32>
    %add_1 = "ssd.kernel"(%arg32_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_1:5 = "ssd.kernel"(%convolution_1, %arg4_1, %arg5_1, %arg33_1, %arg34_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 65792 : i64} : (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    %relu_1 = "ssd.kernel"(%_native_batch_norm_legit_functional_1#0) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 65536 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %alias_5 = "ssd.kernel"(%relu_1) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %convolution_2 = "ssd.kernel"(%relu_1, %arg6_1) {name = "aten.convolution.default", flops = 1179648.0 : f64, bytes = 67840 : i64} : (tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<4x8x16x16xf32>
    %add_2 = "ssd.kernel"(%arg35_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_2:5 = "ssd.kernel"(%convolution_2, %arg7_1, %arg8_1, %arg36_1, %arg37_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 65792 : i64} : (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    %add_3 = "ssd.kernel"(%_native_batch_norm_legit_functional_2#0, %relu) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %relu_2 = "ssd.kernel"(%add_3) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 65536 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %alias_8 = "ssd.kernel"(%relu_2) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %convolution_3 = "ssd.kernel"(%relu_2, %arg9_1) {name = "aten.convolution.default", flops = 589824.0 : f64, bytes = 53760 : i64} : (tensor<4x8x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<4x16x8x8xf32>
    %add_4 = "ssd.kernel"(%arg38_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_3:5 = "ssd.kernel"(%convolution_3, %arg10_1, %arg11_1, %arg39_1, %arg40_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 33280 : i64} : (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    %relu_3 = "ssd.kernel"(%_native_batch_norm_legit_functional_3#0) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %alias_11 = "ssd.kernel"(%relu_3) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %convolution_4 = "ssd.kernel"(%relu_3, %arg12_1) {name = "aten.convolution.default", flops = 1179648.0 : f64, bytes = 41984 : i64} : (tensor<4x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<4x16x8x8xf32>
    %add_5 = "ssd.kernel"(%arg41_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_4:5 = "ssd.kernel"(%convolution_4, %arg13_1, %arg14_1, %arg42_1, %arg43_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 33280 : i64} : (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    %convolution_5 = "ssd.kernel"(%relu_2, %arg15_1) {name = "aten.convolution.default", flops = 65536.0 : f64, bytes = 49664 : i64} : (tensor<4x8x16x16xf32>, tensor<16x8x1x1xf32>) -> tensor<4x16x8x8xf32>
    %add_6 = "ssd.kernel"(%arg44_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_5:5 = "ssd.kernel"(%convolution_5, %arg16_1, %arg17_1, %arg45_1, %arg46_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 33280 : i64} : (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    %add_7 = "ssd.kernel"(%_native_batch_norm_legit_functional_4#0, %_native_batch_norm_legit_functional_5#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %relu_4 = "ssd.kernel"(%add_7) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %alias_14 = "ssd.kernel"(%relu_4) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %convolution_6 = "ssd.kernel"(%relu_4, %arg18_1) {name = "aten.convolution.default", flops = 589824.0 : f64, bytes = 43008 : i64} : (tensor<4x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<4x32x4x4xf32>
    %add_8 = "ssd.kernel"(%arg47_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_6:5 = "ssd.kernel"(%convolution_6, %arg19_1, %arg20_1, %arg48_1, %arg49_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 17408 : i64} : (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
    %relu_5 = "ssd.kernel"(%_native_batch_norm_legit_functional_6#0) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %alias_17 = "ssd.kernel"(%relu_5) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %convolution_7 = "ssd.kernel"(%relu_5, %arg21_1) {name = "aten.convolution.default", flops = 1179648.0 : f64, bytes = 53248 : i64} : (tensor<4x32x4x4xf32>, tensor<32x32x3x3xf32>) -> tensor<4x32x4x4xf32>
    %add_9 = "ssd.kernel"(%arg50_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_7:5 = "ssd.kernel"(%convolution_7, %arg22_1, %arg23_1, %arg51_1, %arg52_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 17408 : i64} : (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
    %convolution_8 = "ssd.kernel"(%relu_4, %arg24_1) {name = "aten.convolution.default", flops = 65536.0 : f64, bytes = 26624 : i64} : (tensor<4x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<4x32x4x4xf32>
    %add_10 = "ssd.kernel"(%arg53_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 16 : i64} : (tensor<i64>) -> tensor<i64>
    %_native_batch_norm_legit_functional_8:5 = "ssd.kernel"(%convolution_8, %arg25_1, %arg26_1, %arg54_1, %arg55_1) {name = "aten._native_batch_norm_legit_functional.default", flops = 0.0 : f64, bytes = 17408 : i64} : (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
    %add_11 = "ssd.kernel"(%_native_batch_norm_legit_functional_7#0, %_native_batch_norm_legit_functional_8#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %relu_6 = "ssd.kernel"(%add_11) {name = "aten.relu.default", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %alias_20 = "ssd.kernel"(%relu_6) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %mean = "ssd.kernel"(%relu_6) {name = "aten.mean.dim", flops = 0.0 : f64, bytes = 8704 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x1x1xf32>
    %view = "ssd.kernel"(%mean) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x1x1xf32>) -> tensor<4x32xf32>
    %t = "ssd.kernel"(%arg27_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %addmm = "ssd.kernel"(%arg28_1, %view, %t) {name = "aten.addmm.default", flops = 2560.0 : f64, bytes = 1992 : i64} : (tensor<10xf32>, tensor<4x32xf32>, tensor<32x10xf32>) -> tensor<4x10xf32>
    %_log_softmax = "ssd.kernel"(%addmm) {name = "aten._log_softmax.default", flops = 0.0 : f64, bytes = 320 : i64} : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %alias_23 = "ssd.kernel"(%_log_softmax) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %nll_loss_forward:2 = "ssd.kernel"(%_log_softmax, %arg86_1) {name = "aten.nll_loss_forward.default", flops = 0.0 : f64, bytes = 200 : i64} : (tensor<4x10xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
    %ones_like = "ssd.kernel"(%nll_loss_forward#0) {name = "aten.ones_like.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %nll_loss_backward = "ssd.kernel"(%ones_like, %_log_softmax, %arg86_1, %nll_loss_forward#1) {name = "aten.nll_loss_backward.default", flops = 0.0 : f64, bytes = 360 : i64} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x10xf32>
    %alias_24 = "ssd.kernel"(%alias_23) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %_log_softmax_backward_data = "ssd.kernel"(%nll_loss_backward, %alias_24) {name = "aten._log_softmax_backward_data.default", flops = 0.0 : f64, bytes = 480 : i64} : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %t_1 = "ssd.kernel"(%t) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32x10xf32>) -> tensor<10x32xf32>
    %mm = "ssd.kernel"(%_log_softmax_backward_data, %t_1) {name = "aten.mm.default", flops = 2560.0 : f64, bytes = 1952 : i64} : (tensor<4x10xf32>, tensor<10x32xf32>) -> tensor<4x32xf32>
    %t_2 = "ssd.kernel"(%_log_softmax_backward_data) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x10xf32>) -> tensor<10x4xf32>
    %mm_1 = "ssd.kernel"(%t_2, %view) {name = "aten.mm.default", flops = 2560.0 : f64, bytes = 1952 : i64} : (tensor<10x4xf32>, tensor<4x32xf32>) -> tensor<10x32xf32>
    %t_3 = "ssd.kernel"(%mm_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %sum_1 = "ssd.kernel"(%_log_softmax_backward_data) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 200 : i64} : (tensor<4x10xf32>) -> tensor<1x10xf32>
    %view_1 = "ssd.kernel"(%sum_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x10xf32>) -> tensor<10xf32>
    %t_4 = "ssd.kernel"(%t_3) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32x10xf32>) -> tensor<10x32xf32>
    %view_2 = "ssd.kernel"(%mm) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32xf32>) -> tensor<4x32x1x1xf32>
    %expand = "ssd.kernel"(%view_2) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x1x1xf32>) -> tensor<4x32x4x4xf32>
    %div = "ssd.kernel"(%expand) {name = "aten.div.Scalar", flops = 0.0 : f64, bytes = 16384 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %alias_25 = "ssd.kernel"(%alias_20) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %threshold_backward = "ssd.kernel"(%div, %alias_25) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %native_batch_norm_backward:3 = "ssd.kernel"(%threshold_backward, %convolution_8, %arg25_1, %_native_batch_norm_legit_functional_8#3, %_native_batch_norm_legit_functional_8#4, %_native_batch_norm_legit_functional_8#1, %_native_batch_norm_legit_functional_8#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 25472 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>)
    %convolution_backward:2 = "ssd.kernel"(%native_batch_norm_backward#0, %relu_4, %arg24_1) {name = "aten.convolution_backward.default", flops = 131072.0 : f64, bytes = 45056 : i64} : (tensor<4x32x4x4xf32>, tensor<4x16x8x8xf32>, tensor<32x16x1x1xf32>) -> (tensor<4x16x8x8xf32>, tensor<32x16x1x1xf32>)
    %native_batch_norm_backward_1:3 = "ssd.kernel"(%threshold_backward, %convolution_7, %arg22_1, %_native_batch_norm_legit_functional_7#3, %_native_batch_norm_legit_functional_7#4, %_native_batch_norm_legit_functional_7#1, %_native_batch_norm_legit_functional_7#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 25472 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>)
    %convolution_backward_1:2 = "ssd.kernel"(%native_batch_norm_backward_1#0, %relu_5, %arg21_1) {name = "aten.convolution_backward.default", flops = 2359296.0 : f64, bytes = 98304 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>, tensor<32x32x3x3xf32>) -> (tensor<4x32x4x4xf32>, tensor<32x32x3x3xf32>)
    %alias_26 = "ssd.kernel"(%alias_17) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %threshold_backward_1 = "ssd.kernel"(%convolution_backward_1#0, %alias_26) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>) -> tensor<4x32x4x4xf32>
    %native_batch_norm_backward_2:3 = "ssd.kernel"(%threshold_backward_1, %convolution_6, %arg19_1, %_native_batch_norm_legit_functional_6#3, %_native_batch_norm_legit_functional_6#4, %_native_batch_norm_legit_functional_6#1, %_native_batch_norm_legit_functional_6#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 25472 : i64} : (tensor<4x32x4x4xf32>, tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>)
    %convolution_backward_2:2 = "ssd.kernel"(%native_batch_norm_backward_2#0, %relu_4, %arg18_1) {name = "aten.convolution_backward.default", flops = 1179648.0 : f64, bytes = 77824 : i64} : (tensor<4x32x4x4xf32>, tensor<4x16x8x8xf32>, tensor<32x16x3x3xf32>) -> (tensor<4x16x8x8xf32>, tensor<32x16x3x3xf32>)
    %add_12 = "ssd.kernel"(%convolution_backward#0, %convolution_backward_2#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %alias_27 = "ssd.kernel"(%alias_14) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %threshold_backward_2 = "ssd.kernel"(%add_12, %alias_27) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %native_batch_norm_backward_3:3 = "ssd.kernel"(%threshold_backward_2, %convolution_5, %arg16_1, %_native_batch_norm_legit_functional_5#3, %_native_batch_norm_legit_functional_5#4, %_native_batch_norm_legit_functional_5#1, %_native_batch_norm_legit_functional_5#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 49600 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    %convolution_backward_3:2 = "ssd.kernel"(%native_batch_norm_backward_3#0, %relu_2, %arg15_1) {name = "aten.convolution_backward.default", flops = 131072.0 : f64, bytes = 82944 : i64} : (tensor<4x16x8x8xf32>, tensor<4x8x16x16xf32>, tensor<16x8x1x1xf32>) -> (tensor<4x8x16x16xf32>, tensor<16x8x1x1xf32>)
    %native_batch_norm_backward_4:3 = "ssd.kernel"(%threshold_backward_2, %convolution_4, %arg13_1, %_native_batch_norm_legit_functional_4#3, %_native_batch_norm_legit_functional_4#4, %_native_batch_norm_legit_functional_4#1, %_native_batch_norm_legit_functional_4#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 49600 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    %convolution_backward_4:2 = "ssd.kernel"(%native_batch_norm_backward_4#0, %relu_3, %arg12_1) {name = "aten.convolution_backward.default", flops = 2359296.0 : f64, bytes = 67584 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>, tensor<16x16x3x3xf32>) -> (tensor<4x16x8x8xf32>, tensor<16x16x3x3xf32>)
    %alias_28 = "ssd.kernel"(%alias_11) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %threshold_backward_3 = "ssd.kernel"(%convolution_backward_4#0, %alias_28) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %native_batch_norm_backward_5:3 = "ssd.kernel"(%threshold_backward_3, %convolution_3, %arg10_1, %_native_batch_norm_legit_functional_3#3, %_native_batch_norm_legit_functional_3#4, %_native_batch_norm_legit_functional_3#1, %_native_batch_norm_legit_functional_3#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 49600 : i64} : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    %convolution_backward_5:2 = "ssd.kernel"(%native_batch_norm_backward_5#0, %relu_2, %arg9_1) {name = "aten.convolution_backward.default", flops = 1179648.0 : f64, bytes = 91136 : i64} : (tensor<4x16x8x8xf32>, tensor<4x8x16x16xf32>, tensor<16x8x3x3xf32>) -> (tensor<4x8x16x16xf32>, tensor<16x8x3x3xf32>)
    %add_13 = "ssd.kernel"(%convolution_backward_3#0, %convolution_backward_5#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %alias_29 = "ssd.kernel"(%alias_8) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %threshold_backward_4 = "ssd.kernel"(%add_13, %alias_29) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %native_batch_norm_backward_6:3 = "ssd.kernel"(%threshold_backward_4, %convolution_2, %arg7_1, %_native_batch_norm_legit_functional_2#3, %_native_batch_norm_legit_functional_2#4, %_native_batch_norm_legit_functional_2#1, %_native_batch_norm_legit_functional_2#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 98528 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>)
    %convolution_backward_6:2 = "ssd.kernel"(%native_batch_norm_backward_6#0, %relu_1, %arg6_1) {name = "aten.convolution_backward.default", flops = 2359296.0 : f64, bytes = 102912 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>) -> (tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>)
    %alias_30 = "ssd.kernel"(%alias_5) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %threshold_backward_5 = "ssd.kernel"(%convolution_backward_6#0, %alias_30) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %native_batch_norm_backward_7:3 = "ssd.kernel"(%threshold_backward_5, %convolution_1, %arg4_1, %_native_batch_norm_legit_functional_1#3, %_native_batch_norm_legit_functional_1#4, %_native_batch_norm_legit_functional_1#1, %_native_batch_norm_legit_functional_1#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 98528 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>)
    %convolution_backward_7:2 = "ssd.kernel"(%native_batch_norm_backward_7#0, %relu, %arg3_1) {name = "aten.convolution_backward.default", flops = 2359296.0 : f64, bytes = 102912 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>) -> (tensor<4x8x16x16xf32>, tensor<8x8x3x3xf32>)
    %add_14 = "ssd.kernel"(%threshold_backward_4, %convolution_backward_7#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %alias_31 = "ssd.kernel"(%alias_2) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %threshold_backward_6 = "ssd.kernel"(%add_14, %alias_31) {name = "aten.threshold_backward.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>) -> tensor<4x8x16x16xf32>
    %native_batch_norm_backward_8:3 = "ssd.kernel"(%threshold_backward_6, %convolution, %arg1_1, %_native_batch_norm_legit_functional#3, %_native_batch_norm_legit_functional#4, %_native_batch_norm_legit_functional#1, %_native_batch_norm_legit_functional#2) {name = "aten.native_batch_norm_backward.default", flops = 0.0 : f64, bytes = 98528 : i64} : (tensor<4x8x16x16xf32>, tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>)
    %convolution_backward_8 = "ssd.kernel"(%native_batch_norm_backward_8#0, %arg85_1, %arg0_1) {name = "aten.convolution_backward.default", flops = 442368.0 : f64, bytes = 46784 : i64} : (tensor<4x8x16x16xf32>, tensor<4x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %mul = "ssd.kernel"(%arg0_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1728 : i64} : (tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %add_15 = "ssd.kernel"(%convolution_backward_8, %mul) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2592 : i64} : (tensor<8x3x3x3xf32>, tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %mul_1 = "ssd.kernel"(%arg56_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1728 : i64} : (tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %mul_2 = "ssd.kernel"(%add_15) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1728 : i64} : (tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %add_16 = "ssd.kernel"(%mul_1, %mul_2) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2592 : i64} : (tensor<8x3x3x3xf32>, tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %mul_3 = "ssd.kernel"(%add_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1728 : i64} : (tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %sub = "ssd.kernel"(%arg0_1, %mul_3) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 2592 : i64} : (tensor<8x3x3x3xf32>, tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
    %mul_4 = "ssd.kernel"(%arg1_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_17 = "ssd.kernel"(%native_batch_norm_backward_8#1, %mul_4) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_5 = "ssd.kernel"(%arg57_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_6 = "ssd.kernel"(%add_17) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_18 = "ssd.kernel"(%mul_5, %mul_6) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_7 = "ssd.kernel"(%add_18) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_1 = "ssd.kernel"(%arg1_1, %mul_7) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_8 = "ssd.kernel"(%arg2_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_19 = "ssd.kernel"(%native_batch_norm_backward_8#2, %mul_8) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_9 = "ssd.kernel"(%arg58_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_10 = "ssd.kernel"(%add_19) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_20 = "ssd.kernel"(%mul_9, %mul_10) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_11 = "ssd.kernel"(%add_20) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_2 = "ssd.kernel"(%arg2_1, %mul_11) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_12 = "ssd.kernel"(%arg3_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %add_21 = "ssd.kernel"(%convolution_backward_7#1, %mul_12) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_13 = "ssd.kernel"(%arg59_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_14 = "ssd.kernel"(%add_21) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %add_22 = "ssd.kernel"(%mul_13, %mul_14) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_15 = "ssd.kernel"(%add_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %sub_3 = "ssd.kernel"(%arg3_1, %mul_15) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_16 = "ssd.kernel"(%arg4_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_23 = "ssd.kernel"(%native_batch_norm_backward_7#1, %mul_16) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_17 = "ssd.kernel"(%arg60_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_18 = "ssd.kernel"(%add_23) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_24 = "ssd.kernel"(%mul_17, %mul_18) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_19 = "ssd.kernel"(%add_24) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_4 = "ssd.kernel"(%arg4_1, %mul_19) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_20 = "ssd.kernel"(%arg5_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_25 = "ssd.kernel"(%native_batch_norm_backward_7#2, %mul_20) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_21 = "ssd.kernel"(%arg61_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_22 = "ssd.kernel"(%add_25) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_26 = "ssd.kernel"(%mul_21, %mul_22) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_23 = "ssd.kernel"(%add_26) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_5 = "ssd.kernel"(%arg5_1, %mul_23) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_24 = "ssd.kernel"(%arg6_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %add_27 = "ssd.kernel"(%convolution_backward_6#1, %mul_24) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_25 = "ssd.kernel"(%arg62_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_26 = "ssd.kernel"(%add_27) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %add_28 = "ssd.kernel"(%mul_25, %mul_26) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_27 = "ssd.kernel"(%add_28) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4608 : i64} : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %sub_6 = "ssd.kernel"(%arg6_1, %mul_27) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 6912 : i64} : (tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
    %mul_28 = "ssd.kernel"(%arg7_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_29 = "ssd.kernel"(%native_batch_norm_backward_6#1, %mul_28) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_29 = "ssd.kernel"(%arg63_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_30 = "ssd.kernel"(%add_29) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_30 = "ssd.kernel"(%mul_29, %mul_30) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_31 = "ssd.kernel"(%add_30) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_7 = "ssd.kernel"(%arg7_1, %mul_31) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_32 = "ssd.kernel"(%arg8_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_31 = "ssd.kernel"(%native_batch_norm_backward_6#2, %mul_32) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_33 = "ssd.kernel"(%arg64_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %mul_34 = "ssd.kernel"(%add_31) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %add_32 = "ssd.kernel"(%mul_33, %mul_34) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_35 = "ssd.kernel"(%add_32) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 64 : i64} : (tensor<8xf32>) -> tensor<8xf32>
    %sub_8 = "ssd.kernel"(%arg8_1, %mul_35) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 96 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %mul_36 = "ssd.kernel"(%arg9_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 9216 : i64} : (tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %add_33 = "ssd.kernel"(%convolution_backward_5#1, %mul_36) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 13824 : i64} : (tensor<16x8x3x3xf32>, tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %mul_37 = "ssd.kernel"(%arg65_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 9216 : i64} : (tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %mul_38 = "ssd.kernel"(%add_33) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 9216 : i64} : (tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %add_34 = "ssd.kernel"(%mul_37, %mul_38) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 13824 : i64} : (tensor<16x8x3x3xf32>, tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %mul_39 = "ssd.kernel"(%add_34) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 9216 : i64} : (tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %sub_9 = "ssd.kernel"(%arg9_1, %mul_39) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 13824 : i64} : (tensor<16x8x3x3xf32>, tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %mul_40 = "ssd.kernel"(%arg10_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_35 = "ssd.kernel"(%native_batch_norm_backward_5#1, %mul_40) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_41 = "ssd.kernel"(%arg66_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_42 = "ssd.kernel"(%add_35) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_36 = "ssd.kernel"(%mul_41, %mul_42) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_43 = "ssd.kernel"(%add_36) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_10 = "ssd.kernel"(%arg10_1, %mul_43) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_44 = "ssd.kernel"(%arg11_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_37 = "ssd.kernel"(%native_batch_norm_backward_5#2, %mul_44) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_45 = "ssd.kernel"(%arg67_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_46 = "ssd.kernel"(%add_37) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_38 = "ssd.kernel"(%mul_45, %mul_46) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_47 = "ssd.kernel"(%add_38) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_11 = "ssd.kernel"(%arg11_1, %mul_47) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_48 = "ssd.kernel"(%arg12_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 18432 : i64} : (tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %add_39 = "ssd.kernel"(%convolution_backward_4#1, %mul_48) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 27648 : i64} : (tensor<16x16x3x3xf32>, tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %mul_49 = "ssd.kernel"(%arg68_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 18432 : i64} : (tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %mul_50 = "ssd.kernel"(%add_39) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 18432 : i64} : (tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %add_40 = "ssd.kernel"(%mul_49, %mul_50) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 27648 : i64} : (tensor<16x16x3x3xf32>, tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %mul_51 = "ssd.kernel"(%add_40) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 18432 : i64} : (tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %sub_12 = "ssd.kernel"(%arg12_1, %mul_51) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 27648 : i64} : (tensor<16x16x3x3xf32>, tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
    %mul_52 = "ssd.kernel"(%arg13_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_41 = "ssd.kernel"(%native_batch_norm_backward_4#1, %mul_52) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_53 = "ssd.kernel"(%arg69_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_54 = "ssd.kernel"(%add_41) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_42 = "ssd.kernel"(%mul_53, %mul_54) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_55 = "ssd.kernel"(%add_42) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_13 = "ssd.kernel"(%arg13_1, %mul_55) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_56 = "ssd.kernel"(%arg14_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_43 = "ssd.kernel"(%native_batch_norm_backward_4#2, %mul_56) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_57 = "ssd.kernel"(%arg70_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_58 = "ssd.kernel"(%add_43) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_44 = "ssd.kernel"(%mul_57, %mul_58) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_59 = "ssd.kernel"(%add_44) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_14 = "ssd.kernel"(%arg14_1, %mul_59) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_60 = "ssd.kernel"(%arg15_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1024 : i64} : (tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %add_45 = "ssd.kernel"(%convolution_backward_3#1, %mul_60) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<16x8x1x1xf32>, tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %mul_61 = "ssd.kernel"(%arg71_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1024 : i64} : (tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %mul_62 = "ssd.kernel"(%add_45) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1024 : i64} : (tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %add_46 = "ssd.kernel"(%mul_61, %mul_62) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<16x8x1x1xf32>, tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %mul_63 = "ssd.kernel"(%add_46) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1024 : i64} : (tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %sub_15 = "ssd.kernel"(%arg15_1, %mul_63) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<16x8x1x1xf32>, tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
    %mul_64 = "ssd.kernel"(%arg16_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_47 = "ssd.kernel"(%native_batch_norm_backward_3#1, %mul_64) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_65 = "ssd.kernel"(%arg72_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_66 = "ssd.kernel"(%add_47) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_48 = "ssd.kernel"(%mul_65, %mul_66) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_67 = "ssd.kernel"(%add_48) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_16 = "ssd.kernel"(%arg16_1, %mul_67) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_68 = "ssd.kernel"(%arg17_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_49 = "ssd.kernel"(%native_batch_norm_backward_3#2, %mul_68) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_69 = "ssd.kernel"(%arg73_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %mul_70 = "ssd.kernel"(%add_49) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %add_50 = "ssd.kernel"(%mul_69, %mul_70) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_71 = "ssd.kernel"(%add_50) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 128 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    %sub_17 = "ssd.kernel"(%arg17_1, %mul_71) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 192 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %mul_72 = "ssd.kernel"(%arg18_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %add_51 = "ssd.kernel"(%convolution_backward_2#1, %mul_72) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 55296 : i64} : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %mul_73 = "ssd.kernel"(%arg74_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %mul_74 = "ssd.kernel"(%add_51) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %add_52 = "ssd.kernel"(%mul_73, %mul_74) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 55296 : i64} : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %mul_75 = "ssd.kernel"(%add_52) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %sub_18 = "ssd.kernel"(%arg18_1, %mul_75) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 55296 : i64} : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %mul_76 = "ssd.kernel"(%arg19_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_53 = "ssd.kernel"(%native_batch_norm_backward_2#1, %mul_76) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_77 = "ssd.kernel"(%arg75_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_78 = "ssd.kernel"(%add_53) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_54 = "ssd.kernel"(%mul_77, %mul_78) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_79 = "ssd.kernel"(%add_54) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_19 = "ssd.kernel"(%arg19_1, %mul_79) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_80 = "ssd.kernel"(%arg20_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_55 = "ssd.kernel"(%native_batch_norm_backward_2#2, %mul_80) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_81 = "ssd.kernel"(%arg76_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_82 = "ssd.kernel"(%add_55) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_56 = "ssd.kernel"(%mul_81, %mul_82) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_83 = "ssd.kernel"(%add_56) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_20 = "ssd.kernel"(%arg20_1, %mul_83) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_84 = "ssd.kernel"(%arg21_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 73728 : i64} : (tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %add_57 = "ssd.kernel"(%convolution_backward_1#1, %mul_84) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 110592 : i64} : (tensor<32x32x3x3xf32>, tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %mul_85 = "ssd.kernel"(%arg77_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 73728 : i64} : (tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %mul_86 = "ssd.kernel"(%add_57) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 73728 : i64} : (tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %add_58 = "ssd.kernel"(%mul_85, %mul_86) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 110592 : i64} : (tensor<32x32x3x3xf32>, tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %mul_87 = "ssd.kernel"(%add_58) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 73728 : i64} : (tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %sub_21 = "ssd.kernel"(%arg21_1, %mul_87) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 110592 : i64} : (tensor<32x32x3x3xf32>, tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
    %mul_88 = "ssd.kernel"(%arg22_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_59 = "ssd.kernel"(%native_batch_norm_backward_1#1, %mul_88) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_89 = "ssd.kernel"(%arg78_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_90 = "ssd.kernel"(%add_59) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_60 = "ssd.kernel"(%mul_89, %mul_90) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_91 = "ssd.kernel"(%add_60) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_22 = "ssd.kernel"(%arg22_1, %mul_91) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_92 = "ssd.kernel"(%arg23_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_61 = "ssd.kernel"(%native_batch_norm_backward_1#2, %mul_92) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_93 = "ssd.kernel"(%arg79_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_94 = "ssd.kernel"(%add_61) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_62 = "ssd.kernel"(%mul_93, %mul_94) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_95 = "ssd.kernel"(%add_62) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_23 = "ssd.kernel"(%arg23_1, %mul_95) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_96 = "ssd.kernel"(%arg24_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4096 : i64} : (tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %add_63 = "ssd.kernel"(%convolution_backward#1, %mul_96) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6144 : i64} : (tensor<32x16x1x1xf32>, tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %mul_97 = "ssd.kernel"(%arg80_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4096 : i64} : (tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %mul_98 = "ssd.kernel"(%add_63) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4096 : i64} : (tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %add_64 = "ssd.kernel"(%mul_97, %mul_98) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 6144 : i64} : (tensor<32x16x1x1xf32>, tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %mul_99 = "ssd.kernel"(%add_64) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 4096 : i64} : (tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %sub_24 = "ssd.kernel"(%arg24_1, %mul_99) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 6144 : i64} : (tensor<32x16x1x1xf32>, tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
    %mul_100 = "ssd.kernel"(%arg25_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_65 = "ssd.kernel"(%native_batch_norm_backward#1, %mul_100) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_101 = "ssd.kernel"(%arg81_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_102 = "ssd.kernel"(%add_65) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_66 = "ssd.kernel"(%mul_101, %mul_102) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_103 = "ssd.kernel"(%add_66) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_25 = "ssd.kernel"(%arg25_1, %mul_103) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_104 = "ssd.kernel"(%arg26_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_67 = "ssd.kernel"(%native_batch_norm_backward#2, %mul_104) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_105 = "ssd.kernel"(%arg82_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %mul_106 = "ssd.kernel"(%add_67) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %add_68 = "ssd.kernel"(%mul_105, %mul_106) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_107 = "ssd.kernel"(%add_68) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 256 : i64} : (tensor<32xf32>) -> tensor<32xf32>
    %sub_26 = "ssd.kernel"(%arg26_1, %mul_107) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 384 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %mul_108 = "ssd.kernel"(%arg27_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2560 : i64} : (tensor<10x32xf32>) -> tensor<10x32xf32>
    %add_69 = "ssd.kernel"(%t_4, %mul_108) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 3840 : i64} : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %mul_109 = "ssd.kernel"(%arg83_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2560 : i64} : (tensor<10x32xf32>) -> tensor<10x32xf32>
    %mul_110 = "ssd.kernel"(%add_69) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2560 : i64} : (tensor<10x32xf32>) -> tensor<10x32xf32>
    %add_70 = "ssd.kernel"(%mul_109, %mul_110) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 3840 : i64} : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %mul_111 = "ssd.kernel"(%add_70) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2560 : i64} : (tensor<10x32xf32>) -> tensor<10x32xf32>
    %sub_27 = "ssd.kernel"(%arg27_1, %mul_111) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 3840 : i64} : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %mul_112 = "ssd.kernel"(%arg28_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %add_71 = "ssd.kernel"(%view_1, %mul_112) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %mul_113 = "ssd.kernel"(%arg84_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %mul_114 = "ssd.kernel"(%add_71) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %add_72 = "ssd.kernel"(%mul_113, %mul_114) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %mul_115 = "ssd.kernel"(%add_72) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 80 : i64} : (tensor<10xf32>) -> tensor<10xf32>
    %sub_28 = "ssd.kernel"(%arg28_1, %mul_115) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 120 : i64} : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    return %nll_loss_forward#0, %sub, %sub_1, %sub_2, %sub_3, %sub_4, %sub_5, %sub_6, %sub_7, %sub_8, %sub_9, %sub_10, %sub_11, %sub_12, %sub_13, %sub_14, %sub_15, %sub_16, %sub_17, %sub_18, %sub_19, %sub_20, %sub_21, %sub_22, %sub_23, %sub_24, %sub_25, %sub_26, %sub_27, %sub_28, %add, %_native_batch_norm_legit_functional#3, %_native_batch_norm_legit_functional#4, %add_1, %_native_batch_norm_legit_functional_1#3, %_native_batch_norm_legit_functional_1#4, %add_2, %_native_batch_norm_legit_functional_2#3, %_native_batch_norm_legit_functional_2#4, %add_4, %_native_batch_norm_legit_functional_3#3, %_native_batch_norm_legit_functional_3#4, %add_5, %_native_batch_norm_legit_functional_4#3, %_native_batch_norm_legit_functional_4#4, %add_6, %_native_batch_norm_legit_functional_5#3, %_native_batch_norm_legit_functional_5#4, %add_8, %_native_batch_norm_legit_functional_6#3, %_native_batch_norm_legit_functional_6#4, %add_9, %_native_batch_norm_legit_functional_7#3, %_native_batch_norm_legit_functional_7#4, %add_10, %_native_batch_norm_legit_functional_8#3, %_native_batch_norm_legit_functional_8#4, %add_16, %add_18, %add_20, %add_22, %add_24, %add_26, %add_28, %add_30, %add_32, %add_34, %add_36, %add_38, %add_40, %add_42, %add_44, %add_46, %add_48, %add_50, %add_52, %add_54, %add_56, %add_58, %add_60, %add_62, %add_64, %add_66, %add_68, %add_70, %add_72 : tensor<f32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<i64>, tensor<8xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<8xf32>, tensor<i64>, tensor<16xf32>, tensor<16xf32>, tensor<i64>, tensor<16xf32>, tensor<16xf32>, tensor<i64>, tensor<16xf32>, tensor<16xf32>, tensor<i64>, tensor<32xf32>, tensor<32xf32>, tensor<i64>, tensor<32xf32>, tensor<32xf32>, tensor<i64>, tensor<32xf32>, tensor<32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>
  }
}
