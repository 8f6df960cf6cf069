// Tests the caller's side of handles (docs/conversion.md): a handle passed
// to a lowered function is consumed by it, so passing the same handle again
// stops the program with a message instead of reading freed data.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ssd-opt %s --ssd-lower-to-llvm \
// RUN:   | env SSDRT_SCRATCH_DIR=%t not --crash %run_step 2>&1 | FileCheck %s

// CHECK: ( 1, 2, 3, 4 )
// CHECK-NEXT: ssdrt: a handle argument: handle {{[0-9]+}} is not a live handle of this process
// CHECK-NOT: ( 1, 2, 3, 4 )

func.func @read(%h: !ssd.handle<tensor<4xf32>>) -> tensor<4xf32> {
  %r = ssd.prefetch %h : !ssd.handle<tensor<4xf32>>
  %v = ssd.wait %r, %h : !ssd.handle<tensor<4xf32>>
  return %v : tensor<4xf32>
}

func.func @print(%v: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %vec = vector.transfer_read %v[%c0], %pad : tensor<4xf32>, vector<4xf32>
  vector.print %vec : vector<4xf32>
  return
}

func.func @main() {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h, %t = ssd.offload %x : tensor<4xf32>
  ssd.release %x after %t : tensor<4xf32>
  %first = call @read(%h) : (!ssd.handle<tensor<4xf32>>) -> tensor<4xf32>
  call @print(%first) : (tensor<4xf32>) -> ()
  %again = call @read(%h) : (!ssd.handle<tensor<4xf32>>) -> tensor<4xf32>
  call @print(%again) : (tensor<4xf32>) -> ()
  return
}
