// RUN: ssd-opt %s --split-input-file -ssd-shard-checkpoint | FileCheck %s --check-prefix=ONE
// RUN: ssd-opt %s --split-input-file -ssd-shard-checkpoint="world-size=2 rank=1 every=10" | FileCheck %s --check-prefix=TWO
// RUN: ssd-opt %s --split-input-file -ssd-shard-checkpoint="world-size=2 rank=1" -ssd-offload-pipeline="memory-budget=1GiB" | FileCheck %s --check-prefix=PLAN

// Tests that every persistent state is saved once: updated state right after
// its update, read-only state at entry, and the commit awaits all of them.
// Rank 1 of 2 holds the second half of the rows and leaves 0-d state to
// rank 0.
// ONE-LABEL: func.func @step
// ONE: %[[CK:.+]] = ssd.checkpoint_begin rank 0 of 1{{$}}
// ONE-NEXT: %[[SM:.+]] = ssd.save_shard %arg3 to %[[CK]] key "mask" offsets [0] global_shape [8] : tensor<8xi1>
// ONE: %[[U:.+]]:2 = ssd.kernel "adamw"
// ONE-NEXT: %[[SW:.+]] = ssd.save_shard %[[U]]#0 to %[[CK]] key "w" offsets [0, 0] global_shape [4, 8] : tensor<4x8xf32>
// ONE-NEXT: %[[SE:.+]] = ssd.save_shard %[[U]]#1 to %[[CK]] key "w.exp_avg" offsets [0, 0] global_shape [4, 8] : tensor<4x8xf32>
// ONE: %[[N:.+]] = ssd.kernel "aten.add"
// ONE-NEXT: %[[SN:.+]] = ssd.save_shard %[[N]] to %[[CK]] key "step" offsets [] global_shape [] : tensor<i64>
// ONE-NEXT: ssd.checkpoint_commit %[[CK]] after %[[SW]], %[[SE]], %[[SN]], %[[SM]]
// ONE-NEXT: return
// TWO-LABEL: func.func @step
// TWO: %[[CK:.+]] = ssd.checkpoint_begin rank 1 of 2 every 10
// TWO: ssd.save_shard %arg3 to %[[CK]] key "mask" offsets [8] global_shape [16]
// TWO: ssd.save_shard %{{.+}}#0 to %[[CK]] key "w" offsets [4, 0] global_shape [8, 8]
// TWO: ssd.save_shard %{{.+}}#1 to %[[CK]] key "w.exp_avg" offsets [4, 0] global_shape [8, 8]
// TWO-NOT: key "step"
// TWO: ssd.checkpoint_commit
// PLAN-LABEL: func.func @step
// PLAN: ssd.checkpoint_begin rank 1 of 2
// PLAN: ssd.checkpoint_commit
func.func @step(%w: tensor<4x8xf32> {ssd.role = "param", ssd.name = "w"},
                %m: tensor<4x8xf32> {ssd.role = "optimizer_state", ssd.name = "w.exp_avg"},
                %n: tensor<i64> {ssd.role = "buffer", ssd.name = "step"},
                %mask: tensor<8xi1> {ssd.role = "buffer", ssd.name = "mask"},
                %x: tensor<2x4xf32> {ssd.role = "input", ssd.name = "x"})
    -> (tensor<4x8xf32> {ssd.name = "w"}, tensor<4x8xf32> {ssd.name = "w.exp_avg"}, tensor<i64> {ssd.name = "step"}) {
  %g = ssd.kernel "aten.mm"(%x, %w) : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2, %m2 = ssd.kernel "adamw"(%w, %m, %g) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %n2 = ssd.kernel "aten.add"(%n) : (tensor<i64>) -> tensor<i64>
  return %w2, %m2, %n2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>
}

// -----

// Tests that a step without persistent state writes no checkpoint.
// ONE-LABEL: func.func @stateless
// ONE-NOT: ssd.checkpoint_begin
func.func @stateless(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
