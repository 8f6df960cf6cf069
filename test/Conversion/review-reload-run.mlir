// Tests compiled steps that read a tensor back twice and in part, run under
// mlir-cpu-runner with the runtime: the second release reuses the copy the
// first wrote (no offload: it lowers to a release of the handle the tensor
// was read from), and a part at an offset that is not block aligned reads
// only its bytes into a buffer of its own type.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ssd-opt %s --ssd-lower-to-llvm \
// RUN:   | env SSDRT_SCRATCH_DIR=%t SSDRT_STATS=1 %run_step | FileCheck %s

// CHECK: ( 1, 2, 3, 4, 5, 6, 7, 8 )
// CHECK-NEXT: ( 1, 2, 3, 4, 5, 6, 7, 8 )
// CHECK-NEXT: ( 4, 5, 6 )
// CHECK-NEXT: ssdrt-stats: bytes_written 4096 bytes_read 12288 offloads 1 prefetches 3

func.func @print8(%v: tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %vec = vector.transfer_read %v[%c0], %pad : tensor<8xf32>, vector<8xf32>
  vector.print %vec : vector<8xf32>
  return
}

func.func @print3(%v: tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %vec = vector.transfer_read %v[%c0], %pad : tensor<3xf32>, vector<3xf32>
  vector.print %vec : vector<3xf32>
  return
}

func.func @main() {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %h, %t = ssd.offload %x : tensor<8xf32>
  ssd.release %x after %t : tensor<8xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<8xf32>>
  %x1 = ssd.wait %r, %h : !ssd.handle<tensor<8xf32>>
  call @print8(%x1) : (tensor<8xf32>) -> ()
  ssd.release %x1 : tensor<8xf32>
  %r2 = ssd.prefetch %h : !ssd.handle<tensor<8xf32>>
  %x2 = ssd.wait %r2, %h : !ssd.handle<tensor<8xf32>>
  call @print8(%x2) : (tensor<8xf32>) -> ()
  ssd.release %x2 : tensor<8xf32>
  %p = ssd.handle_part %h offset 12 : !ssd.handle<tensor<8xf32>> to !ssd.handle<tensor<3xf32>>
  %r3 = ssd.prefetch %p : !ssd.handle<tensor<3xf32>>
  %x3 = ssd.wait %r3, %p : !ssd.handle<tensor<3xf32>>
  call @print3(%x3) : (tensor<3xf32>) -> ()
  return
}
