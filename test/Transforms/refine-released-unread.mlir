// RUN: ssd-opt %s --split-input-file -ssd-group-buffers | FileCheck %s
// RUN: ssd-opt %s --split-input-file -ssd-insert-prefetch="memory-budget=1MiB target=epyc9654-990pro" -ssd-group-buffers | FileCheck %s

// The split passes on an exported GPT-2 step at half its peak, under the
// policies whose plans release an unused input and never read it back
// (regression: the pass that read the plan back out of the IR reloaded such
// a tensor at slot 0, and ssd-group-buffers then merged its handle twice
// into one prefetch).
// RUN: for policy in reload-on-use stash-window fixed-depth; do \
// RUN:   for target in h100-pcie5-pm1743 h100-pcie5-4xpm1743 epyc9654-990pro; do \
// RUN:     ssd-opt %S/../../examples/exported/gpt2_adamw.mlir \
// RUN:       -ssd-plan-offload="memory-budget=1345722 target=$target policy=$policy" \
// RUN:       -ssd-insert-prefetch="memory-budget=1345722 target=$target policy=$policy" \
// RUN:       -ssd-group-buffers \
// RUN:     | ssd-opt -ssd-verify-plan="memory-budget=1345722" -o /dev/null || exit 1; \
// RUN:   done; \
// RUN: done

// Tests that two tensors released at one slot and never read again stay on
// SSD through the round trip: their offloads are grouped, one release frees
// both, nothing reads them back.
// CHECK-LABEL: func.func @unread
// CHECK: %[[H:.+]]:2, %[[T:.+]] = ssd.offload %[[X:.+]], %[[Y:.+]] : tensor<1024xf32>, tensor<1024xf32>
// CHECK-NEXT: ssd.kernel "f"
// CHECK-NEXT: ssd.release %[[X]], %[[Y]] after %[[T]] :
// CHECK-NOT: ssd.prefetch
// CHECK-NOT: ssd.wait
// CHECK: return
func.func @unread(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}, %y: tensor<1024xf32> {ssd.role = "input", ssd.name = "y"}) -> tensor<16xf32> {
  %hx, %tx = ssd.offload %x : tensor<1024xf32>
  %hy, %ty = ssd.offload %y : tensor<1024xf32>
  %a = ssd.kernel "f"(%x, %y) {flops = 1.0e9 : f64} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<16xf32>
  ssd.release %x after %tx : tensor<1024xf32>
  ssd.release %y after %ty : tensor<1024xf32>
  %b = ssd.kernel "g"(%a) {flops = 1.0e9 : f64} : (tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}
