// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-run %s --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 3 | FileCheck %s

// Tests that ssd-run moves a plan's transfer group as one runtime transfer,
// as the planner's simulation times it: the three tensors offloaded together
// are made durable by one fdatasync a step (three steps, three syncs), and
// the reads and writes of all three really happen.
// CHECK: "bytes_read": 24576
// CHECK: "bytes_written": 24576
// CHECK: "runtime_bytes_read": 73728
// CHECK: "runtime_bytes_written": 73728
// CHECK: "runtime_sync_ops": 3

func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a, %b, %c = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> (tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>)
  %h:3, %t = ssd.offload %a, %b, %c : tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  ssd.release %b after %t : tensor<2048xf32>
  ssd.release %c after %t : tensor<2048xf32>
  %d = ssd.kernel "g"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  %r = ssd.prefetch %h#0, %h#1, %h#2 : !ssd.handle<tensor<2048xf32>>, !ssd.handle<tensor<2048xf32>>, !ssd.handle<tensor<2048xf32>>
  %e = ssd.kernel "g2"(%d) {flops = 1.0e9 : f64} : (tensor<16xf32>) -> tensor<16xf32>
  %a2 = ssd.wait %r, %h#0 : !ssd.handle<tensor<2048xf32>>
  %b2 = ssd.wait %r, %h#1 : !ssd.handle<tensor<2048xf32>>
  %c2 = ssd.wait %r, %h#2 : !ssd.handle<tensor<2048xf32>>
  %y = ssd.kernel "h"(%a2, %b2, %c2, %e) {flops = 1.0e9 : f64} : (tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
