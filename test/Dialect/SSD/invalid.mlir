// RUN: ssd-opt %s --split-input-file --verify-diagnostics

// Tests that a kernel needs a name.
func.func @kernel_empty_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.kernel' op expects a non-empty 'name'}}
  %y = ssd.kernel ""(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that flops cannot be negative.
func.func @kernel_negative_flops(%x: tensor<4xf32>) {
  // expected-error @+1 {{'flops' must be finite and non-negative, got -1}}
  %y = ssd.kernel "aten.relu"(%x) {flops = -1.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that flops cannot be NaN.
func.func @kernel_nan_flops(%x: tensor<4xf32>) {
  // expected-error @+1 {{'flops' must be finite and non-negative, got nan}}
  %y = ssd.kernel "aten.relu"(%x) {flops = 0x7FF8000000000000 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that cost_seconds cannot be infinite.
func.func @kernel_infinite_seconds(%x: tensor<4xf32>) {
  // expected-error @+1 {{'cost_seconds' must be finite and non-negative, got INF}}
  %y = ssd.kernel "aten.relu"(%x) {cost_seconds = 0x7FF0000000000000 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that bytes cannot be negative.
func.func @kernel_negative_bytes(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bytes' must be non-negative, got -16}}
  %y = ssd.kernel "aten.relu"(%x) {bytes = -16 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that view_of names an operand.
func.func @kernel_view_of_out_of_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.kernel' op 'view_of' must name an operand: expected 0 to 0, got 1}}
  %y = ssd.kernel "aten.view"(%x) {view_of = 1 : i64} : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that view_of cannot be negative.
func.func @kernel_view_of_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.kernel' op 'view_of' must name an operand: expected 0 to 0, got -1}}
  %y = ssd.kernel "aten.view"(%x) {view_of = -1 : i64} : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that a view has at least one result (a view with several, such as
// split's parts, is valid: test/Dialect/SSD/ops.mlir).
func.func @kernel_view_of_no_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.kernel' op with 'view_of' expects at least one result}}
  ssd.kernel "aten.split"(%x) {view_of = 0 : i64} : (tensor<4xf32>) -> ()
  return
}

// -----

// Tests that a view shares the storage of a ranked tensor.
func.func @kernel_view_of_scalar(%x: f32) {
  // expected-error @+1 {{'ssd.kernel' op 'view_of' operand #0 must be a ranked tensor, got 'f32'}}
  %y = ssd.kernel "aten.view"(%x) {view_of = 0 : i64} : (f32) -> tensor<1xf32>
  return
}

// -----

// Tests that a handle holds a statically shaped tensor.
// expected-error @+1 {{handle expects a statically shaped tensor, got 'tensor<?x4xf32>'}}
func.func private @handle_dynamic(%h: !ssd.handle<tensor<?x4xf32>>)

// -----

// Tests that a handle holds numbers.
// expected-error @+1 {{handle expects an integer, float or complex element type, got 'vector<4xf32>'}}
func.func private @handle_vector_elements(%h: !ssd.handle<tensor<2xvector<4xf32>>>)

// -----

// Tests that an offload moves at least one tensor.
func.func @offload_empty() {
  // expected-error @+1 {{'ssd.offload' op expects at least one tensor}}
  %t = "ssd.offload"() : () -> !ssd.token
  return
}

// -----

// Tests that an offload names each tensor once.
func.func @offload_twice(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.offload' op tensor #1 repeats tensor #0}}
  %h:2, %t = ssd.offload %x, %x : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Tests that offloaded tensors are statically shaped.
func.func @offload_dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{'ssd.offload' op operand #0 must be variadic of statically shaped ranked tensor}}
  %h, %t = "ssd.offload"(%x) : (tensor<?xf32>) -> (!ssd.handle<tensor<4xf32>>, !ssd.token)
  return
}

// -----

// Tests that the handles of an offload have the tensors' types.
func.func @offload_wrong_handle(%x: tensor<4xf32>) {
  // expected-error @+2 {{'ssd.offload' op inferred type(s) '!ssd.handle<tensor<4xf32>>', '!ssd.token' are incompatible with return type(s) of operation '!ssd.handle<tensor<8xf32>>', '!ssd.token'}}
  // expected-error @+1 {{'ssd.offload' op failed to infer returned types}}
  %h, %t = "ssd.offload"(%x) : (tensor<4xf32>) -> (!ssd.handle<tensor<8xf32>>, !ssd.token)
  return
}

// -----

// Tests that a release needs a tensor.
func.func @release_empty(%x: tensor<4xf32>) {
  %h, %t = ssd.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op expects at least one tensor}}
  "ssd.release"(%t) {operandSegmentSizes = array<i32: 0, 1>} : (!ssd.token) -> ()
  return
}

// -----

// Tests that a release names each tensor once.
func.func @release_twice(%x: tensor<4xf32>) {
  %h, %t = ssd.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op tensor #1 repeats tensor #0}}
  ssd.release %x, %x after %t : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Tests that a release awaits an offload, not a prefetch.
func.func @release_after_prefetch(%x: tensor<4xf32>, %h: !ssd.handle<tensor<4xf32>>) {
  // expected-note @+1 {{token produced by 'ssd.prefetch' here}}
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+1 {{'ssd.release' op expects the token of an 'ssd.offload'}}
  ssd.release %x after %r : tensor<4xf32>
  return
}

// -----

// Tests that a release cannot await a token of unknown origin.
func.func @release_block_argument(%x: tensor<4xf32>, %t: !ssd.token) {
  // expected-error @+1 {{'ssd.release' op expects the token of an 'ssd.offload', got a block argument}}
  ssd.release %x after %t : tensor<4xf32>
  return
}

// -----

// Tests that a release frees only tensors its offload wrote.
func.func @release_unwritten(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-note @+1 {{token produced here}}
  %h, %t = ssd.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op tensor #1 was not written by the 'ssd.offload' that produced the token}}
  ssd.release %x, %y after %t : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Tests that a release awaits each token once.
func.func @release_token_twice(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %h:2, %t = ssd.offload %x, %y : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op token #1 repeats token #0}}
  ssd.release %x, %y after %t, %t : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Tests that every token of a release is an offload's.
func.func @release_tokens_after_prefetch(%x: tensor<4xf32>, %h: !ssd.handle<tensor<4xf32>>) {
  %hx, %t = ssd.offload %x : tensor<4xf32>
  // expected-note @+1 {{token produced by 'ssd.prefetch' here}}
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+1 {{'ssd.release' op expects the token of an 'ssd.offload'}}
  ssd.release %x after %t, %r : tensor<4xf32>
  return
}

// -----

// Tests that a release of several writes frees only tensors they wrote.
func.func @release_unwritten_by_tokens(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) {
  %hx, %tx = ssd.offload %x : tensor<4xf32>
  %hy, %ty = ssd.offload %y : tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op tensor #2 was not written by the 'ssd.offload' of any of its tokens}}
  ssd.release %x, %y, %z after %tx, %ty : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Tests that a release awaits no write of a tensor it does not free.
func.func @release_stray_token(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %hx, %tx = ssd.offload %x : tensor<4xf32>
  // expected-note @+1 {{token produced here}}
  %hy, %ty = ssd.offload %y : tensor<4xf32>
  // expected-error @+1 {{'ssd.release' op token #1 stands for a write of none of the released tensors}}
  ssd.release %x after %tx, %ty : tensor<4xf32>
  return
}

// -----

// Tests that a prefetch reads at least one handle.
func.func @prefetch_empty() {
  // expected-error @+1 {{'ssd.prefetch' op expects at least one handle}}
  %r = "ssd.prefetch"() : () -> !ssd.token
  return
}

// -----

// Tests that a prefetch names each handle once.
func.func @prefetch_twice(%h: !ssd.handle<tensor<4xf32>>) {
  // expected-error @+1 {{'ssd.prefetch' op handle #1 repeats handle #0}}
  %r = ssd.prefetch %h, %h : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<4xf32>>
  return
}

// -----

// Tests that a wait returns at least one tensor.
func.func @wait_empty(%h: !ssd.handle<tensor<4xf32>>) {
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+1 {{'ssd.wait' op expects at least one handle}}
  "ssd.wait"(%r) : (!ssd.token) -> ()
  return
}

// -----

// Tests that a wait names each handle once.
func.func @wait_twice(%h: !ssd.handle<tensor<4xf32>>) {
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+1 {{'ssd.wait' op handle #1 repeats handle #0}}
  %a, %b = ssd.wait %r, %h, %h : !ssd.handle<tensor<4xf32>>, !ssd.handle<tensor<4xf32>>
  return
}

// -----

// Tests that a wait awaits a prefetch, not an offload.
func.func @wait_after_offload(%x: tensor<4xf32>) {
  // expected-note @+1 {{token produced by 'ssd.offload' here}}
  %h, %t = ssd.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ssd.wait' op expects the token of an 'ssd.prefetch'}}
  %y = ssd.wait %t, %h : !ssd.handle<tensor<4xf32>>
  return
}

// -----

// Tests that a wait returns only handles its prefetch read.
func.func @wait_unread(%h: !ssd.handle<tensor<4xf32>>, %g: !ssd.handle<tensor<4xf32>>) {
  // expected-note @+1 {{token produced here}}
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+1 {{'ssd.wait' op handle #0 was not read by the 'ssd.prefetch' that produced the token}}
  %y = ssd.wait %r, %g : !ssd.handle<tensor<4xf32>>
  return
}

// -----

// Tests that a wait returns the handles' tensor types.
func.func @wait_wrong_type(%h: !ssd.handle<tensor<4xf32>>) {
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  // expected-error @+2 {{'ssd.wait' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'ssd.wait' op failed to infer returned types}}
  %y = "ssd.wait"(%r, %h) : (!ssd.token, !ssd.handle<tensor<4xf32>>) -> tensor<4xf16>
  return
}

// -----

// Tests that a checkpoint has at least one rank.
func.func @checkpoint_no_ranks() {
  // expected-error @+1 {{'ssd.checkpoint_begin' op expects a world size of at least 1, got 0}}
  %ck = ssd.checkpoint_begin rank 0 of 0
  ssd.checkpoint_commit %ck
  return
}

// -----

// Tests that the rank lies within the world.
func.func @checkpoint_rank_out_of_range() {
  // expected-error @+1 {{'ssd.checkpoint_begin' op expects a rank in [0, 2), got 2}}
  %ck = ssd.checkpoint_begin rank 2 of 2
  ssd.checkpoint_commit %ck
  return
}

// -----

// Tests that a checkpoint is written at most every step.
func.func @checkpoint_every_zero() {
  // expected-error @+1 {{'ssd.checkpoint_begin' op expects 'every' of at least 1, got 0}}
  %ck = ssd.checkpoint_begin rank 0 of 1 every 0
  ssd.checkpoint_commit %ck
  return
}

// -----

// Tests that a checkpoint is committed.
func.func @checkpoint_uncommitted(%w: tensor<4xf32>) {
  // expected-error @+1 {{'ssd.checkpoint_begin' op is never committed}}
  %ck = ssd.checkpoint_begin rank 0 of 1
  %s = ssd.save_shard %w to %ck key "w" offsets [0] global_shape [4] : tensor<4xf32>
  return
}

// -----

// Tests that a checkpoint is committed once.
func.func @checkpoint_committed_twice() {
  // expected-error @+1 {{'ssd.checkpoint_begin' op is committed more than once}}
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-note @+1 {{first commit here}}
  ssd.checkpoint_commit %ck
  // expected-note @+1 {{second commit here}}
  ssd.checkpoint_commit %ck
  return
}

// -----

// Tests that a shard has a key.
func.func @shard_empty_key(%w: tensor<4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-error @+1 {{'ssd.save_shard' op expects a non-empty 'key'}}
  %s = ssd.save_shard %w to %ck key "" offsets [0] global_shape [4] : tensor<4xf32>
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that offsets and global shape have the tensor's rank.
func.func @shard_rank_mismatch(%w: tensor<4x4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-error @+1 {{'ssd.save_shard' op expects 'offsets' and 'global_shape' of the tensor's rank 2, got 1 and 2}}
  %s = ssd.save_shard %w to %ck key "w" offsets [0] global_shape [8, 4] : tensor<4x4xf32>
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that a shard lies within its global tensor.
func.func @shard_out_of_bounds(%w: tensor<4x4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-error @+1 {{'ssd.save_shard' op dimension 0: shard [6, 10) does not lie within [0, 8)}}
  %s = ssd.save_shard %w to %ck key "w" offsets [6, 0] global_shape [8, 4] : tensor<4x4xf32>
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that shard offsets are not negative.
func.func @shard_negative_offset(%w: tensor<4x4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-error @+1 {{'ssd.save_shard' op dimension 1: shard [-1, 3) does not lie within [0, 4)}}
  %s = ssd.save_shard %w to %ck key "w" offsets [0, -1] global_shape [8, 4] : tensor<4x4xf32>
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that a commit awaits save_shard tokens only.
func.func @commit_foreign_token(%x: tensor<4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-note @+1 {{token produced by 'ssd.offload' here}}
  %h, %t = ssd.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op expects the token of an 'ssd.save_shard'}}
  ssd.checkpoint_commit %ck after %t
  return
}

// -----

// Tests that a commit awaits only its own checkpoint's shards.
func.func @commit_other_checkpoint(%w: tensor<4xf32>) {
  %a = ssd.checkpoint_begin rank 0 of 1
  %b = ssd.checkpoint_begin rank 0 of 1
  // expected-note @+1 {{shard saved here}}
  %s = ssd.save_shard %w to %b key "w" offsets [0] global_shape [4] : tensor<4xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op shard #0 belongs to another checkpoint}}
  ssd.checkpoint_commit %a after %s
  ssd.checkpoint_commit %b
  return
}

// -----

// Tests that a commit awaits each shard once.
func.func @commit_twice(%w: tensor<4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  %s = ssd.save_shard %w to %ck key "w" offsets [0] global_shape [4] : tensor<4xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op awaits shard #1 twice}}
  ssd.checkpoint_commit %ck after %s, %s
  return
}

// -----

// Tests that a commit awaits every shard of its checkpoint.
func.func @commit_missing_shard(%w: tensor<4xf32>, %v: tensor<2xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  %s = ssd.save_shard %w to %ck key "w" offsets [0] global_shape [4] : tensor<4xf32>
  // expected-note @+1 {{shard saved here}}
  %r = ssd.save_shard %v to %ck key "v" offsets [0] global_shape [2] : tensor<2xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op does not await the shard of 'v'}}
  ssd.checkpoint_commit %ck after %s
  return
}

// -----

// Tests that shards of one key agree on the global shape.
func.func @commit_shape_disagreement(%w: tensor<4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-note @+1 {{one shard here}}
  %s0 = ssd.save_shard %w to %ck key "w" offsets [0] global_shape [8] : tensor<4xf32>
  // expected-note @+1 {{the other here}}
  %s1 = ssd.save_shard %w to %ck key "w" offsets [4] global_shape [12] : tensor<4xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op shards of 'w' disagree on the global shape}}
  ssd.checkpoint_commit %ck after %s0, %s1
  return
}

// -----

// Tests that shards of one key do not overlap.
func.func @commit_overlap(%w: tensor<4x4xf32>) {
  %ck = ssd.checkpoint_begin rank 0 of 1
  // expected-note @+1 {{one shard here}}
  %s0 = ssd.save_shard %w to %ck key "w" offsets [0, 0] global_shape [8, 8] : tensor<4x4xf32>
  // expected-note @+1 {{the other here}}
  %s1 = ssd.save_shard %w to %ck key "w" offsets [3, 3] global_shape [8, 8] : tensor<4x4xf32>
  // expected-error @+1 {{'ssd.checkpoint_commit' op shards of 'w' overlap}}
  ssd.checkpoint_commit %ck after %s0, %s1
  return
}

// -----

// Tests that roles are from the contract's list.
// expected-error @+1 {{'func.func' op argument #0: 'ssd.role' must be one of "param", "optimizer_state", "input", "buffer"; got "weights"}}
func.func private @bad_role(%w: tensor<4xf32> {ssd.role = "weights"})

// -----

// Tests that roles are strings.
// expected-error @+1 {{'func.func' op argument #0: 'ssd.role' must be one of "param", "optimizer_state", "input", "buffer"; got 3 : i64}}
func.func private @role_not_string(%w: tensor<4xf32> {ssd.role = 3})

// -----

// Tests that roles belong on arguments.
// expected-error @+1 {{'func.func' op 'ssd.role' is only allowed on arguments, found on result #0}}
func.func private @role_on_result() -> (tensor<4xf32> {ssd.role = "param"})

// -----

// Tests that `ssd.resident` belongs on results.
// expected-error @+1 {{'func.func' op 'ssd.resident' is only allowed on results, found on argument #0}}
func.func private @resident_on_argument(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x", ssd.resident})

// -----

// Tests that `ssd.resident` is a unit attribute.
// expected-error @+1 {{'func.func' op result #0: 'ssd.resident' takes no value; got true}}
func.func private @resident_with_value() -> (tensor<4xf32> {ssd.resident = true})

// -----

// Tests that names are non-empty strings.
// expected-error @+1 {{'func.func' op argument #1: 'ssd.name' must be a non-empty string; got ""}}
func.func private @empty_name(%a: tensor<4xf32>, %w: tensor<4xf32> {ssd.name = ""})

// -----

// Tests that unknown ssd attributes are rejected.
// expected-error @+1 {{'func.func' op result #0: unknown ssd attribute 'ssd.rol'}}
func.func private @misspelled() -> (tensor<4xf32> {ssd.rol = "param"})
