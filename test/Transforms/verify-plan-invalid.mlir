// RUN: ssd-opt %s --split-input-file -ssd-verify-plan="memory-budget=16KiB" --verify-diagnostics

// Tests that a use after the release is found.
func.func @use_after_release(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %h, %t = ssd.offload %x : tensor<1024xf32>
  // expected-note @+1 {{released here}}
  ssd.release %x after %t : tensor<1024xf32>
  // expected-error @+1 {{uses a tensor after its release}}
  %y = ssd.kernel "f"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}

// -----

// Tests that an offload must be awaited.
func.func @offload_not_awaited(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{is never awaited by an 'ssd.release': its write may not be durable when the step ends}}
  %h, %t = ssd.offload %x : tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// -----

// Tests that a prefetch must be awaited.
func.func @prefetch_not_awaited(%h: !ssd.handle<tensor<4xf32>>, %g: !ssd.handle<tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{handle #1 is never awaited by an 'ssd.wait'}}
  %r = ssd.prefetch %h, %g : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<4xf32>>
  %x = ssd.wait %r, %h : !ssd.handle<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

// Tests that live bytes over the budget are found, with the largest holders.
// expected-note @+1 {{live here: 8192 bytes}}
func.func @over_budget(%x: tensor<2048xf32>) -> tensor<16xf32> {
  // expected-note @+1 {{live here: 8192 bytes}}
  %a = ssd.kernel "f"(%x) : (tensor<2048xf32>) -> tensor<2048xf32>
  // expected-error @+2 {{live bytes here are 24576, over the memory budget of 16384}}
  // expected-note @+1 {{live here: 8192 bytes}}
  %b = ssd.kernel "g"(%x) : (tensor<2048xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "h"(%a, %b) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// Tests that a use of a view after its root's release is found.
func.func @view_use_after_release(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %v = ssd.kernel "aten.view"(%x) {view_of = 0 : i64} : (tensor<1024xf32>) -> tensor<32x32xf32>
  %h, %t = ssd.offload %x : tensor<1024xf32>
  // expected-note @+1 {{released here}}
  ssd.release %x after %t : tensor<1024xf32>
  // expected-error @+1 {{uses a tensor after its release}}
  %y = ssd.kernel "f"(%v) : (tensor<32x32xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}

// -----

// Tests that a view holds no bytes but keeps its root live: %a is read
// last through %v by "g", so "b" sees x, a and b (and no bytes of %v).
// expected-note @+1 {{live here: 8192 bytes}}
func.func @view_keeps_root_live(%x: tensor<2048xf32>) -> tensor<16xf32> {
  // expected-note @+1 {{live here: 8192 bytes}}
  %a = ssd.kernel "f"(%x) : (tensor<2048xf32>) -> tensor<2048xf32>
  %v = ssd.kernel "aten.view"(%a) {view_of = 0 : i64} : (tensor<2048xf32>) -> tensor<32x64xf32>
  // expected-error @+2 {{live bytes here are 24576, over the memory budget of 16384}}
  // expected-note @+1 {{live here: 8192 bytes}}
  %b = ssd.kernel "b"(%x) : (tensor<2048xf32>) -> tensor<2048xf32>
  %y = ssd.kernel "g"(%v, %b, %x) : (tensor<32x64xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// Tests that a view made before its root's release and used after the
// reload without being rebuilt is found: it still reads the released
// memory.
func.func @stale_view_after_reload(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %v = ssd.kernel "aten.view"(%x) {view_of = 0 : i64} : (tensor<1024xf32>) -> tensor<32x32xf32>
  %h, %t = ssd.offload %x : tensor<1024xf32>
  // expected-note @+1 {{released here}}
  ssd.release %x after %t : tensor<1024xf32>
  %p = ssd.prefetch %h : !ssd.handle<tensor<1024xf32>>
  %x2 = ssd.wait %p, %h : !ssd.handle<tensor<1024xf32>>
  // expected-error @+1 {{uses a tensor after its release}}
  %y = ssd.kernel "f"(%v, %x2) : (tensor<32x32xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
