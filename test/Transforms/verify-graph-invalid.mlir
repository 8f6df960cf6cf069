// RUN: ssd-opt %s --split-input-file -ssd-verify-graph --verify-diagnostics --allow-unregistered-dialect

// Tests that every argument needs a role.
// expected-error @+1 {{argument #1 has no 'ssd.role'; expected one of "param", "optimizer_state", "input", "buffer"}}
func.func @no_role(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"}, %x: tensor<4xf32>) {
  return
}

// -----

// Tests that every argument needs a name.
// expected-error @+1 {{argument #0 has no 'ssd.name'}}
func.func @no_name(%w: tensor<4xf32> {ssd.role = "param"}) {
  return
}

// -----

// Tests that names are unique among arguments.
// expected-error @+1 {{argument #1: 'ssd.name' "w" is already used by argument #0}}
func.func @duplicate_name(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"},
                          %v: tensor<4xf32> {ssd.role = "optimizer_state", ssd.name = "w"}) {
  return
}

// -----

// Tests that arguments have static shapes.
// expected-error @+1 {{argument #0 must be a statically shaped ranked tensor, got 'tensor<?x4xf32>'}}
func.func @dynamic_argument(%x: tensor<?x4xf32> {ssd.role = "input", ssd.name = "x"}) {
  return
}

// -----

// Tests that arguments are tensors, not scalars.
// expected-error @+1 {{argument #0 must be a statically shaped ranked tensor, got 'f32'}}
func.func @scalar_argument(%lr: f32 {ssd.role = "input", ssd.name = "lr"}) {
  return
}

// -----

// Tests that a named result updates a persistent argument.
// expected-error @+1 {{result #0: 'ssd.name' "x" names no param, optimizer_state or buffer argument}}
func.func @update_of_input(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> (tensor<4xf32> {ssd.name = "x"}) {
  return %x : tensor<4xf32>
}

// -----

// Tests that an update has its state's type.
// expected-error @+1 {{result #0 updates "w" (argument #0) of type 'tensor<4xf32>' but has type 'tensor<4xf16>'}}
func.func @update_type(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"}) -> (tensor<4xf16> {ssd.name = "w"}) {
  %y = "ssd.kernel"(%w) {name = "aten.to"} : (tensor<4xf32>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// Tests that a state is updated once.
// expected-error @+1 {{result #1: "w" is already updated by result #0}}
func.func @double_update(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"}) -> (tensor<4xf32> {ssd.name = "w"}, tensor<4xf32> {ssd.name = "w"}) {
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that results have static shapes.
// expected-error @+1 {{result #0 must be a statically shaped ranked tensor or a scalar, got 'tensor<*xf32>'}}
func.func @unranked_result(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<*xf32> {
  // expected-error @+1 {{result #0 must be a statically shaped ranked tensor or a scalar, got 'tensor<*xf32>'}}
  %y = tensor.cast %x : tensor<4xf32> to tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Tests that values inside the body have static shapes.
func.func @dynamic_value(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) {
  // expected-error @+1 {{result #0 must be a statically shaped ranked tensor or a scalar, got 'tensor<?xf32>'}}
  %y = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  return
}

// -----

// Tests that memrefs are rejected: the contract is before bufferization.
func.func @memref_value(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) {
  // expected-error @+1 {{result #0 is a memref ('memref<4xf32>'); the input contract is stated on tensors, before bufferization}}
  %m = bufferization.to_memref %x : memref<4xf32>
  return
}

// -----

// Tests that region arguments are checked too.
func.func @region_argument(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) {
  // expected-error @+1 {{region argument #0 must be a statically shaped ranked tensor or a scalar, got 'vector<4xf32>'}}
  "test.region"() ({
  ^bb0(%v: vector<4xf32>):
    "test.terminator"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Tests that a planned step is not taken as input.
func.func @already_planned(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) {
  // expected-error @+1 {{'ssd.offload' in the input: the step is already planned}}
  %h, %t = ssd.offload %x : tensor<4xf32>
  ssd.release %x after %t : tensor<4xf32>
  return
}

// -----

// Tests that the backward start is an integer.
// expected-error @+1 {{'ssd.backward_start' must be an integer op index, got "1"}}
func.func @backward_start_string(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32>
    attributes {ssd.backward_start = "1"} {
  %y = ssd.kernel "f"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that the backward start names an op of the body.
// expected-error @+1 {{'ssd.backward_start' is 2 but the body has 2 ops; expected an op index from 0 to 1}}
func.func @backward_start_past_end(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32>
    attributes {ssd.backward_start = 2 : i64} {
  %y = ssd.kernel "f"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = ssd.kernel "g"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Tests that the backward start is not negative.
// expected-error @+1 {{'ssd.backward_start' is -1 but the body has 1 ops; expected an op index from 0 to 0}}
func.func @backward_start_negative(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32>
    attributes {ssd.backward_start = -1 : i64} {
  %y = ssd.kernel "f"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
