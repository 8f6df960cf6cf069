// RUN: ssd-opt %s | ssd-opt | FileCheck %s

// Tests that views with part_offsets and ssd.handle_part round-trip.
// CHECK-LABEL: func.func @parts
// CHECK: ssd.kernel "aten.split.Tensor"(%{{.*}}) {part_offsets = array<i64: 0, 1024>, view_of = 0 : i64}
// CHECK: ssd.kernel "aten.unbind.int"(%{{.*}}) {part_offsets = array<i64: 0, 512, 1024, 1536>, view_of = 0 : i64}
// CHECK: ssd.handle_part %{{.*}} offset 1024 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<2x128xf32>>
// CHECK: ssd.handle_part %{{.*}} offset 512 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<128xf32>>
func.func @parts(%a: tensor<4x128xf32>, %h: !ssd.handle<tensor<4x128xf32>>) -> (tensor<2x128xf32>, tensor<128xf32>) {
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 1024>} : (tensor<4x128xf32>) -> (tensor<2x128xf32>, tensor<2x128xf32>)
  %u:4 = ssd.kernel "aten.unbind.int"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 512, 1024, 1536>} : (tensor<4x128xf32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
  %ph = ssd.handle_part %h offset 1024 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<2x128xf32>>
  %rh = ssd.handle_part %h offset 512 : !ssd.handle<tensor<4x128xf32>> to !ssd.handle<tensor<128xf32>>
  return %p#1, %u#2 : tensor<2x128xf32>, tensor<128xf32>
}
