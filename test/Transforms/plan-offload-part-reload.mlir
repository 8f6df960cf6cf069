// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=13KiB" | FileCheck %s
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=13KiB" | ssd-opt -ssd-verify-plan="memory-budget=13KiB"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=13KiB" | FileCheck %s --check-prefix=PIPELINE
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=13KiB" | ssd-opt -ssd-verify-plan="memory-budget=13KiB"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=13KiB report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: sed -e 's/, part_offsets = array<i64: 0, 4096>//' %s | ssd-opt -ssd-offload-pipeline="memory-budget=13KiB report=-" -o /dev/null | FileCheck %s --check-prefix=WHOLE
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=1TiB policy=exact" | FileCheck %s --check-prefix=FITS
// RUN: not ssd-opt %s -ssd-plan-offload="memory-budget=13KiB policy=exact" 2>&1 | FileCheck %s --check-prefix=EXACT

// Tests that a root leaves while only a part of it is needed, and only that
// part comes back. The step of plan-offload-view-parts.mlir, with the
// split saying where its parts lie (`part_offsets`): under 13 KiB %a leaves
// at "big" and only part #1, its second 4096 bytes, is used after it, so
// the reload reads that range alone (`ssd.handle_part`) into a tensor of
// the part's type, which "n" reads instead of a rebuilt split. Without
// part_offsets (WHOLE) all 8192 bytes come back.
// CHECK-LABEL: func.func @parts
// CHECK: %[[A:.+]] = ssd.kernel "f"
// CHECK-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// CHECK-NEXT: %[[P:.+]]:2 = ssd.kernel "aten.split.Tensor"(%[[A]])
// CHECK: ssd.kernel "k"(%[[P]]#0,
// CHECK-NEXT: ssd.release %[[A]] after %[[T]]
// CHECK-NEXT: ssd.kernel "big"
// CHECK-NEXT: %[[PH:.+]] = ssd.handle_part %[[H]] offset 4096 : !ssd.handle<tensor<2048xf32>> to !ssd.handle<tensor<1024xf32>>
// CHECK-NEXT: %[[R:.+]] = ssd.prefetch %[[PH]]
// CHECK-NEXT: %[[P1:.+]] = ssd.wait %[[R]], %[[PH]] : !ssd.handle<tensor<1024xf32>>
// CHECK-NOT: ssd.rebuilt_view
// CHECK-NEXT: ssd.kernel "n"(%[[P1]],
// PIPELINE: ssd.handle_part %{{.+}} offset 4096
// PIPELINE: ssd.kernel "n"(%{{[0-9]+}},
// REPORT-DAG: "bytes_offloaded": 8192
// REPORT-DAG: "bytes_prefetched": 4096
// WHOLE-DAG: "bytes_prefetched": 8192
// A step that fits moves nothing, so policy=exact leaves it unchanged like
// every other policy; only where something must leave does it refuse a step
// whose tensors may come back in part (EXACT).
// FITS-LABEL: func.func @parts
// FITS-NOT: ssd.offload
// FITS-NOT: ssd.prefetch
// FITS: ssd.kernel "n"(%{{[0-9]+}}#1,
// EXACT: the exact policy does not search partial reloads
func.func @parts(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 4096>} : (tensor<2048xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<1024xf32>
  %c = ssd.kernel "h"(%b) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  %d = ssd.kernel "k"(%p#0, %c) {flops = 1.0e12 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  %z = ssd.kernel "big"(%x, %d) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<1536xf32>
  %y = ssd.kernel "n"(%p#1, %d) {flops = 1.0e12 : f64} : (tensor<1024xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
