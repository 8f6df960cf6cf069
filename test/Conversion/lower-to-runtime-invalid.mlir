// RUN: ssd-opt %s --split-input-file --allow-unregistered-dialect -ssd-lower-to-runtime --verify-diagnostics

// Tests that a release of a tensor that was never written is refused.
func.func @release_unwritten(%x: tensor<4xf32>) {
  %h, %t = ssd.offload %x : tensor<4xf32>
  %y = ssd.kernel "f"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{releases a tensor with no copy on SSD}}
  ssd.release %y : tensor<4xf32>
  return
}

// -----

// Tests that a shard of an element type the checkpoint format lacks is
// refused.
func.func @complex_shard(%x: tensor<4xcomplex<f32>>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-error @+1 {{cannot save a shard of element type 'complex<f32>': checkpoints hold F32, F16, BF16, F64, I8, U8, I16, I32, I64 and BOOL}}
  %s = ssd.save_shard %x to %ck key "x" offsets [0] global_shape [4] : tensor<4xcomplex<f32>>
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that a handle used by an op the lowering cannot follow is refused.
func.func @opaque_use(%h: !ssd.handle<tensor<4xf32>>) {
  // expected-error @+1 {{uses a handle, which the lowering to the runtime only passes to ssd.prefetch, ssd.wait, ssd.handle_part, func.call and func.return}}
  "test.consume"(%h) : (!ssd.handle<tensor<4xf32>>) -> ()
  return
}

// -----

// Tests that a handle from an op the lowering does not know is refused.
func.func @opaque_definition() {
  // expected-error @+1 {{defines a handle, which the lowering to the runtime only takes from ssd.offload, ssd.handle_part and func.call}}
  %h = "test.produce"() : () -> !ssd.handle<tensor<4xf32>>
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  %v = ssd.wait %r, %h : !ssd.handle<tensor<4xf32>>
  return
}
