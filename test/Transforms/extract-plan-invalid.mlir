// RUN: ssd-opt %s --split-input-file -ssd-group-buffers -verify-diagnostics

// A pass that refines a plan reads it back out of the IR; two prefetches
// of one handle, or one never awaited, is no plan.
func.func @twice(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1024xf32> {
  %h, %t = ssd.offload %x : tensor<1024xf32>
  ssd.release %x after %t : tensor<1024xf32>
  %p = ssd.prefetch %h : !ssd.handle<tensor<1024xf32>>
  // expected-error @below {{reads back a tensor twice}}
  %q = ssd.prefetch %h : !ssd.handle<tensor<1024xf32>>
  %v = ssd.wait %p, %h : !ssd.handle<tensor<1024xf32>>
  return %v : tensor<1024xf32>
}

// -----

// expected-error @below {{prefetches a tensor it never waits for}}
func.func @unawaited(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %h, %t = ssd.offload %x : tensor<1024xf32>
  %a = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  ssd.release %x after %t : tensor<1024xf32>
  %p = ssd.prefetch %h : !ssd.handle<tensor<1024xf32>>
  return %a : tensor<16xf32>
}

// -----

// A rebuilt view must repeat a view the step makes.
func.func @rebuilt_nothing(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<32x32xf32> {
  %v = ssd.kernel "aten.view"(%x) {view_of = 0 : i64} : (tensor<1024xf32>) -> tensor<32x32xf32>
  // expected-error @below {{rebuilds a view that the step does not make}}
  %w = ssd.kernel "aten.t"(%x) {view_of = 0 : i64, ssd.rebuilt_view} : (tensor<1024xf32>) -> tensor<32x32xf32>
  return %w : tensor<32x32xf32>
}
