// RUN: ssd-opt %s --split-input-file -ssd-lower-to-runtime --verify-diagnostics

// Tests that state kept on SSD between steps is refused for now.
// expected-error @+1 {{state kept on SSD between steps (handle arguments or results) is not lowered to the runtime yet}}
func.func @state(%w: !ssd.handle<tensor<4xf32>>) -> tensor<4xf32> {
  %r = ssd.prefetch %w : !ssd.handle<tensor<4xf32>>
  %v = ssd.wait %r, %w : !ssd.handle<tensor<4xf32>>
  return %v : tensor<4xf32>
}

// -----

// Tests that checkpoint ops are refused for now.
func.func @checkpoint(%w: tensor<4xf32>) {
  // expected-error @+1 {{checkpoint ops are not lowered to the runtime yet}}
  %ck = ssd.checkpoint_begin rank 0 of 1
  ssd.checkpoint_commit %ck
  return
}
