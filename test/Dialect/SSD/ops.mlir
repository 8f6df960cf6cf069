// RUN: ssd-opt %s --split-input-file | ssd-opt --split-input-file | FileCheck %s
// RUN: ssd-opt %s --split-input-file --mlir-print-op-generic | ssd-opt --split-input-file | FileCheck %s

// Tests the contract's generic form of ssd.kernel and its custom form.
// CHECK-LABEL: func.func @kernel_generic
// CHECK-SAME: (%[[X:.+]]: tensor<8x768xf32>, %[[W:.+]]: tensor<768x768xf32>)
// CHECK: %[[Y:.+]] = ssd.kernel "aten.mm"(%[[X]], %[[W]]) {flops = 1.200000e+09 : f64} : (tensor<8x768xf32>, tensor<768x768xf32>) -> tensor<8x768xf32>
// CHECK: return %[[Y]]
func.func @kernel_generic(%x: tensor<8x768xf32>, %w: tensor<768x768xf32>) -> tensor<8x768xf32> {
  %y = "ssd.kernel"(%x, %w) {name = "aten.mm", flops = 1.2e9 : f64} : (tensor<8x768xf32>, tensor<768x768xf32>) -> tensor<8x768xf32>
  return %y : tensor<8x768xf32>
}

// -----

// Tests every optional cost attribute, several results and no operands.
// CHECK-LABEL: func.func @kernel_custom
// CHECK: ssd.kernel "aten.native_layer_norm"(%{{.+}}) {bytes = 98304 : i64, cost_seconds = 2.500000e-06 : f64, flops = 4.000000e+04 : f64} : (tensor<8x768xf32>) -> (tensor<8x768xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK: ssd.kernel "aten.zeros"() : () -> tensor<4xbf16>
func.func @kernel_custom(%x: tensor<8x768xf32>) -> tensor<4xbf16> {
  %y:3 = ssd.kernel "aten.native_layer_norm"(%x) {flops = 4.0e4 : f64, bytes = 98304 : i64, cost_seconds = 2.5e-6 : f64} : (tensor<8x768xf32>) -> (tensor<8x768xf32>, tensor<8xf32>, tensor<8xf32>)
  %z = ssd.kernel "aten.zeros"() : () -> tensor<4xbf16>
  return %z : tensor<4xbf16>
}

// -----

// Tests a view with several results: split's parts, each a view of %x.
// CHECK-LABEL: func.func @kernel_view_parts
// CHECK: ssd.kernel "aten.split.Tensor"(%{{.+}}) {view_of = 0 : i64} : (tensor<8x2304xf32>) -> (tensor<8x768xf32>, tensor<8x768xf32>, tensor<8x768xf32>)
func.func @kernel_view_parts(%x: tensor<8x2304xf32>) -> tensor<8x768xf32> {
  %q:3 = ssd.kernel "aten.split.Tensor"(%x) {view_of = 0 : i64} : (tensor<8x2304xf32>) -> (tensor<8x768xf32>, tensor<8x768xf32>, tensor<8x768xf32>)
  return %q#1 : tensor<8x768xf32>
}

// -----

// Tests the residency ops on one tensor: offload, release, prefetch, wait.
// CHECK-LABEL: func.func @residency
// CHECK-SAME: (%[[ACT:.+]]: tensor<8x1024xf32>)
// CHECK: %[[H:.+]], %[[W:.+]] = ssd.offload %[[ACT]] : tensor<8x1024xf32>
// CHECK: ssd.release %[[ACT]] after %[[W]] : tensor<8x1024xf32>
// CHECK: %[[R:.+]] = ssd.prefetch %[[H]] : !ssd.handle<tensor<8x1024xf32>>
// CHECK: %[[BACK:.+]] = ssd.wait %[[R]], %[[H]] : !ssd.handle<tensor<8x1024xf32>>
// CHECK: return %[[BACK]] : tensor<8x1024xf32>
func.func @residency(%act: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %h, %w = ssd.offload %act : tensor<8x1024xf32>
  ssd.release %act after %w : tensor<8x1024xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
  %back = ssd.wait %r, %h : !ssd.handle<tensor<8x1024xf32>>
  return %back : tensor<8x1024xf32>
}

// -----

// Tests grouped transfers: several tensors in one offload and one prefetch,
// released and awaited in parts.
// CHECK-LABEL: func.func @grouped
// CHECK: %[[H:.+]]:2, %[[W:.+]] = ssd.offload %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<2x8xi8>
// CHECK: ssd.release %{{.+}} after %[[W]] : tensor<2x8xi8>
// CHECK: %[[R:.+]] = ssd.prefetch %[[H]]#0, %[[H]]#1 : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<2x8xi8>>
// CHECK: ssd.wait %[[R]], %[[H]]#1 : !ssd.handle<tensor<2x8xi8>>
func.func @grouped(%a: tensor<4xf32>, %b: tensor<2x8xi8>) -> tensor<2x8xi8> {
  %h:2, %w = ssd.offload %a, %b : tensor<4xf32>, tensor<2x8xi8>
  ssd.release %b after %w : tensor<2x8xi8>
  %r = ssd.prefetch %h#0, %h#1 : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<2x8xi8>>
  %b2 = ssd.wait %r, %h#1 : !ssd.handle<tensor<2x8xi8>>
  return %b2 : tensor<2x8xi8>
}

// -----

// Tests a release of tensors written by two offloads, awaiting both writes.
// CHECK-LABEL: func.func @release_two_writes
// CHECK: %[[HA:.+]], %[[WA:.+]] = ssd.offload %[[A:[^ ]+]] : tensor<4xf32>
// CHECK: %[[HB:.+]], %[[WB:.+]] = ssd.offload %[[B:[^ ]+]] : tensor<2x8xi8>
// CHECK: ssd.release %[[A]], %[[B]] after %[[WA]], %[[WB]] : tensor<4xf32>, tensor<2x8xi8>
func.func @release_two_writes(%a: tensor<4xf32>, %b: tensor<2x8xi8>) {
  %ha, %wa = ssd.offload %a : tensor<4xf32>
  %hb, %wb = ssd.offload %b : tensor<2x8xi8>
  ssd.release %a, %b after %wa, %wb : tensor<4xf32>, tensor<2x8xi8>
  return
}

// -----

// Tests a handle as a function argument and result: persistent state that
// enters and leaves the step on SSD, released without a write in between.
// CHECK-LABEL: func.func @state_on_ssd
// CHECK-SAME: (%[[P:.+]]: !ssd.handle<tensor<16x16xbf16>>) -> !ssd.handle<tensor<16x16xbf16>>
// CHECK: %[[W:.+]] = ssd.wait %{{.+}}, %[[P]]
// CHECK: ssd.release %[[W]] : tensor<16x16xbf16>
// CHECK: ssd.prefetch %[[P]]
func.func @state_on_ssd(%p: !ssd.handle<tensor<16x16xbf16>>) -> !ssd.handle<tensor<16x16xbf16>> {
  %r = ssd.prefetch %p : !ssd.handle<tensor<16x16xbf16>>
  %w = ssd.wait %r, %p : !ssd.handle<tensor<16x16xbf16>>
  %twice = ssd.kernel "aten.mul"(%w, %w) : (tensor<16x16xbf16>, tensor<16x16xbf16>) -> tensor<16x16xbf16>
  ssd.release %w : tensor<16x16xbf16>
  %r2 = ssd.prefetch %p : !ssd.handle<tensor<16x16xbf16>>
  %w2 = ssd.wait %r2, %p : !ssd.handle<tensor<16x16xbf16>>
  %new = ssd.kernel "aten.add"(%w, %w) : (tensor<16x16xbf16>, tensor<16x16xbf16>) -> tensor<16x16xbf16>
  %h, %t = ssd.offload %new : tensor<16x16xbf16>
  ssd.release %new after %t : tensor<16x16xbf16>
  return %h : !ssd.handle<tensor<16x16xbf16>>
}

// -----

// Tests the checkpoint ops: two shards of one tensor and one of another.
// CHECK-LABEL: func.func @checkpoint
// CHECK: %[[CK:.+]] = ssd.checkpoint_begin rank 1 of 4
// CHECK: %[[S0:.+]] = ssd.save_shard %{{.+}} to %[[CK]] key "layer0.weight" offsets [0, 0] global_shape [768, 768] : tensor<384x768xf32>
// CHECK: %[[S1:.+]] = ssd.save_shard %{{.+}} to %[[CK]] key "layer0.weight" offsets [384, 0] global_shape [768, 768] : tensor<384x768xf32>
// CHECK: %[[S2:.+]] = ssd.save_shard %{{.+}} to %[[CK]] key "layer0.bias" offsets [0] global_shape [768] : tensor<768xf32>
// CHECK: ssd.checkpoint_commit %[[CK]] after %[[S0]], %[[S1]], %[[S2]]
func.func @checkpoint(%a: tensor<384x768xf32>, %b: tensor<384x768xf32>, %c: tensor<768xf32>) {
  %ck = ssd.checkpoint_begin rank 1 of 4
  %s0 = ssd.save_shard %a to %ck key "layer0.weight" offsets [0, 0] global_shape [768, 768] : tensor<384x768xf32>
  %s1 = ssd.save_shard %b to %ck key "layer0.weight" offsets [384, 0] global_shape [768, 768] : tensor<384x768xf32>
  %s2 = ssd.save_shard %c to %ck key "layer0.bias" offsets [0] global_shape [768] : tensor<768xf32>
  ssd.checkpoint_commit %ck after %s0, %s1, %s2
  return
}

// -----

// Tests an empty checkpoint (a rank that owns no shard still commits).
// CHECK-LABEL: func.func @empty_checkpoint
// CHECK: %[[CK:.+]] = ssd.checkpoint_begin rank 0 of 1{{$}}
// CHECK-NEXT: ssd.checkpoint_commit %[[CK]]{{$}}
// CHECK: %[[CK2:.+]] = ssd.checkpoint_begin rank 3 of 8 every 100{{$}}
func.func @empty_checkpoint() {
  %ck = ssd.checkpoint_begin rank 0 of 1
  ssd.checkpoint_commit %ck
  %ck2 = ssd.checkpoint_begin rank 3 of 8 every 100
  ssd.checkpoint_commit %ck2
  return
}

// -----

// Tests the contract attributes on arguments and results.
// CHECK-LABEL: func.func @roles
// CHECK-SAME: {ssd.name = "w", ssd.role = "param"}
// CHECK-SAME: {ssd.name = "w.exp_avg", ssd.role = "optimizer_state"}
// CHECK-SAME: {ssd.name = "x", ssd.role = "input"}
// CHECK-SAME: {ssd.name = "step", ssd.role = "buffer"}
// CHECK-SAME: -> (tensor<4xf32> {ssd.name = "w"}
func.func @roles(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"},
                 %m: tensor<4xf32> {ssd.role = "optimizer_state", ssd.name = "w.exp_avg"},
                 %x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"},
                 %s: tensor<i64> {ssd.role = "buffer", ssd.name = "step"})
    -> (tensor<4xf32> {ssd.name = "w"}) {
  return %w : tensor<4xf32>
}
