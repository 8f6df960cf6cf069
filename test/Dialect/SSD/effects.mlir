// Standard cleanups must never change what a training step computes: they
// merge and drop only kernels that are truly pure, and keep every residency
// and checkpoint op, each of which touches memory or the SSD.
// RUN: ssd-opt %s --split-input-file -cse | FileCheck %s --check-prefixes=CHECK,CSE
// RUN: ssd-opt %s --split-input-file -canonicalize | FileCheck %s --check-prefixes=CHECK,CANON

// Two dropouts of one tensor draw different masks: neither pass merges them,
// and an unused one still advances the generator, so it stays.
// CHECK-LABEL: func.func @dropout
// CHECK: %[[A:.+]]:2 = ssd.kernel "aten.native_dropout.default"
// CHECK: %[[B:.+]]:2 = ssd.kernel "aten.native_dropout.default"
// CHECK: ssd.kernel "aten.native_dropout.default"
// CHECK: return %[[A]]#0, %[[B]]#0
func.func @dropout(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %a:2 = "ssd.kernel"(%x) {name = "aten.native_dropout.default"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xi1>)
  %b:2 = "ssd.kernel"(%x) {name = "aten.native_dropout.default"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xi1>)
  %unused:2 = "ssd.kernel"(%x) {name = "aten.native_dropout.default"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xi1>)
  return %a#0, %b#0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Known pure ATen operators and kernels marked `pure` fold: CSE merges
// identical ones, and canonicalization drops the unused one.
// CHECK-LABEL: func.func @pure
// CSE: %[[MM:.+]] = ssd.kernel "aten.mm.default"
// CSE-NOT: "aten.mm.default"
// CSE: %[[F:.+]] = ssd.kernel "my.fused"
// CSE-NOT: "my.fused"
// CSE: return %[[MM]], %[[MM]], %[[F]], %[[F]]
// CANON-COUNT-2: ssd.kernel "aten.mm.default"
// CANON-COUNT-2: ssd.kernel "my.fused"
// CANON-NOT: ssd.kernel
// CANON: return
func.func @pure(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %a = ssd.kernel "aten.mm.default"(%x, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %b = ssd.kernel "aten.mm.default"(%x, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %c = ssd.kernel "my.fused"(%x) {pure} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = ssd.kernel "my.fused"(%x) {pure} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %unused = ssd.kernel "aten.gelu.default"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %a, %b, %c, %d : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A name the dialect does not know, an in-place or `out=` overload of a pure
// operator, and a collective keep their effects: nothing merges or drops.
// CHECK-LABEL: func.func @effects_kept
// CHECK-COUNT-2: ssd.kernel "my.unknown"
// CHECK-COUNT-2: ssd.kernel "aten.add_.Tensor"
// CHECK-COUNT-2: ssd.kernel "aten.mm.out"
// CHECK-COUNT-2: ssd.kernel "_c10d_functional.all_reduce.default"
// CHECK: return
func.func @effects_kept(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %a = ssd.kernel "my.unknown"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = ssd.kernel "my.unknown"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = ssd.kernel "aten.add_.Tensor"(%x, %x) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = ssd.kernel "aten.add_.Tensor"(%x, %x) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = ssd.kernel "aten.mm.out"(%x, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %f = ssd.kernel "aten.mm.out"(%x, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %g = ssd.kernel "_c10d_functional.all_reduce.default"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %h = ssd.kernel "_c10d_functional.all_reduce.default"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %a, %b : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Residency ops whose results go unused, two identical prefetches of one
// handle, and a pure kernel between an offload and its release: every
// residency op stays, in order; only the duplicate pure kernel folds.
// CHECK-LABEL: func.func @residency
// CHECK: %[[H:.+]], %[[W:.+]] = ssd.offload %[[ACT:.+]] : tensor<8x1024xf32>
// CHECK: ssd.release %[[ACT]] after %[[W]]
// CHECK: %[[R0:.+]] = ssd.prefetch %[[H]]
// CHECK: ssd.wait %[[R0]], %[[H]]
// CHECK: %[[R1:.+]] = ssd.prefetch %[[H]]
// CHECK: ssd.wait %[[R1]], %[[H]]
// CHECK: %[[H2:.+]], %[[W2:.+]] = ssd.offload
// CHECK: return
func.func @residency(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %act = ssd.kernel "aten.relu.default"(%x) : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %h, %w = ssd.offload %act : tensor<8x1024xf32>
  %copy = ssd.kernel "aten.relu.default"(%x) : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  ssd.release %act after %w : tensor<8x1024xf32>
  %r0 = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
  %unused0 = ssd.wait %r0, %h : !ssd.handle<tensor<8x1024xf32>>
  %r1 = ssd.prefetch %h : !ssd.handle<tensor<8x1024xf32>>
  %unused1 = ssd.wait %r1, %h : !ssd.handle<tensor<8x1024xf32>>
  %h2, %w2 = ssd.offload %copy : tensor<8x1024xf32>
  return %copy : tensor<8x1024xf32>
}

// -----

// A checkpoint whose tokens CSE could see as equal is written shard by shard.
// CHECK-LABEL: func.func @checkpoint
// CHECK: %[[CK:.+]] = ssd.checkpoint_begin rank 0 of 1
// CHECK: %[[S0:.+]] = ssd.save_shard %[[T:.+]] to %[[CK]] key "w" offsets [0] global_shape [16]
// CHECK: %[[CK2:.+]] = ssd.checkpoint_begin rank 0 of 1
// CHECK: %[[S1:.+]] = ssd.save_shard %[[T]] to %[[CK2]] key "w" offsets [0] global_shape [16]
// CHECK: ssd.checkpoint_commit %[[CK]] after %[[S0]]
// CHECK: ssd.checkpoint_commit %[[CK2]] after %[[S1]]
func.func @checkpoint(%t: tensor<16xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  %s0 = ssd.save_shard %t to %ck key "w" offsets [0] global_shape [16] : tensor<16xf32>
  %ck2 = ssd.checkpoint_begin rank 0 of 1
  %s1 = ssd.save_shard %t to %ck2 key "w" offsets [0] global_shape [16] : tensor<16xf32>
  ssd.checkpoint_commit %ck after %s0
  ssd.checkpoint_commit %ck2 after %s1
  return
}
