// RUN: ssd-opt %s --split-input-file -ssd-offload-pipeline="memory-budget=8KiB" --verify-diagnostics

// Tests that a budget below one op's operands and results is refused at that op.
func.func @too_small(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<2048xf32> {
  // expected-error @+1 {{needs 12288 bytes resident (its operands and results), over the memory budget of 8192 bytes}}
  %a = ssd.kernel "f"(%x) : (tensor<1024xf32>) -> tensor<2048xf32>
  return %a : tensor<2048xf32>
}

// -----

// Tests that the input contract is checked first.
// expected-error @+1 {{argument #0 has no 'ssd.role'}}
func.func @no_role(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
