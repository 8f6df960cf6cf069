// Tests the lowering ABI's group bracket (docs/runtime.md): the lowering
// always pairs ssdrt_lower_group_begin and _end around one multi-tensor
// offload or prefetch, so code that nests them or ends a group it did not
// begin is stopped with a message.
//
// RUN: ssd-opt %s --ssd-lower-to-llvm | not --crash %run_step -e nested 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: ssd-opt %s --ssd-lower-to-llvm | not --crash %run_step -e unopened 2>&1 | FileCheck %s --check-prefix=UNOPENED

// NESTED: ssdrt: a transfer group begins inside another
// UNOPENED: ssdrt: end of a transfer group that did not begin

func.func private @ssdrt_lower_group_begin()
func.func private @ssdrt_lower_group_end()

func.func @nested() {
  call @ssdrt_lower_group_begin() : () -> ()
  call @ssdrt_lower_group_begin() : () -> ()
  return
}

func.func @unopened() {
  call @ssdrt_lower_group_end() : () -> ()
  return
}
