// RUN: ssd-opt %s --split-input-file --verify-diagnostics

// Tests that part_offsets needs view_of.
func.func @part_offsets_without_view(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op 'part_offsets' needs 'view_of'}}
  %p = ssd.kernel "aten.slice.Tensor"(%a) {part_offsets = array<i64: 0>} : (tensor<4x128xf32>) -> tensor<2x128xf32>
  return
}

// -----

// Tests that part_offsets has one offset per result.
func.func @part_offsets_count(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op 'part_offsets' needs one offset per result (2), got 1}}
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0>} : (tensor<4x128xf32>) -> (tensor<2x128xf32>, tensor<2x128xf32>)
  return
}

// -----

// Tests that a part must lie inside the tensor it is a part of.
func.func @part_out_of_bounds(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op expects result #1 (1024 bytes) at offset 1536 to be a non-empty range of whole rows (512 bytes each) inside the 2048 bytes of 'tensor<4x128xf32>'}}
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 1536>} : (tensor<4x128xf32>) -> (tensor<2x128xf32>, tensor<2x128xf32>)
  return
}

// -----

// Tests that a part starts at a whole row.
func.func @part_mid_row(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op expects result #0 (1024 bytes) at offset 4 to be a non-empty range of whole rows (512 bytes each)}}
  %p = ssd.kernel "aten.slice.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 4>} : (tensor<4x128xf32>) -> tensor<2x128xf32>
  return
}

// -----

// Tests that a split along the last dimension is no contiguous part: each
// of its results is one range per row.
func.func @part_not_contiguous(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op expects result #0 to be one contiguous range of rows of 'tensor<4x128xf32>' (its shape with the first dimension changed or dropped), got 'tensor<4x64xf32>', which is not contiguous in it}}
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 256>} : (tensor<4x128xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
  return
}

// -----

// Tests that a part has the element type of its tensor.
func.func @part_element_type(%a: tensor<4x128xf32>) {
  // expected-error @+1 {{'ssd.kernel' op expects result #0 to have the element type of the tensor it is a part of, 'f32', got 'i32'}}
  %p = ssd.kernel "aten.slice.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0>} : (tensor<4x128xf32>) -> tensor<2x128xi32>
  return
}

// -----

// Tests that a handle's part lies inside the stored tensor.
func.func @handle_part_out_of_bounds(%h: !ssd.handle<tensor<4x128xf32>>) {
  // expected-error @+1 {{'ssd.handle_part' op expects the part (1024 bytes) at offset 2048 to be a non-empty range of whole rows (512 bytes each) inside the 2048 bytes of 'tensor<4x128xf32>'}}
  %p = ssd.handle_part %h offset 2048 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<2x128xf32>>
  return
}

// -----

// Tests that a handle's part is one contiguous range.
func.func @handle_part_not_contiguous(%h: !ssd.handle<tensor<4x128xf32>>) {
  // expected-error @+1 {{'ssd.handle_part' op expects the part to be one contiguous range of rows of 'tensor<4x128xf32>' (its shape with the first dimension changed or dropped), got 'tensor<2x64xf32>', which is not contiguous in it}}
  %p = ssd.handle_part %h offset 0 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<2x64xf32>>
  return
}

// -----

// Tests that a handle's part cannot start before the tensor.
func.func @handle_part_negative(%h: !ssd.handle<tensor<4x128xf32>>) {
  // expected-error @+1 {{'ssd.handle_part' op expects the part (512 bytes) at offset -512 to be a non-empty range}}
  %p = ssd.handle_part %h offset -512 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<128xf32>>
  return
}
