// RUN: ssd-opt %s --split-input-file -ssd-offload-pipeline="memory-budget=20KiB movable=activation" --verify-diagnostics

// Tests that a budget that only the tensors of other roles could meet is
// refused at the first op where what may not move does not fit.
func.func @unmovable_param(%w: tensor<3072xf32> {ssd.role = "param", ssd.name = "w"},
                           %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 1 : i64} {
  // expected-error @+1 {{needs 20544 bytes resident (its operands and results, and 12288 bytes of live tensors whose roles may not move), over the memory budget of 20480 bytes}}
  %a = ssd.kernel "f"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "f_bwd"(%a) : (tensor<2048xf32>) -> tensor<16xf32>
  %c = ssd.kernel "w_bwd"(%b, %w) : (tensor<16xf32>, tensor<3072xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// Tests that the backward start decides what is an activation: with the
// backward pass starting at op 0, nothing is saved for it, so nothing may
// move.
func.func @no_activation(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                         %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 0 : i64} {
  %a = ssd.kernel "f"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  // expected-error @+1 {{needs 24640 bytes resident (its operands and results, and 16384 bytes of live tensors whose roles may not move), over the memory budget of 20480 bytes}}
  %b = ssd.kernel "g"(%x) : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) : (tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%l, %a, %w) : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}
