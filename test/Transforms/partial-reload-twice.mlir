// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1300 report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1208" | ssd-opt -ssd-verify-plan="memory-budget=1208"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1208" \
// RUN:   | ssd-run /dev/stdin --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 2 --check-data | FileCheck %s --check-prefix=REPLAY
// RUN: not ssd-opt %s -ssd-offload-pipeline="memory-budget=1207" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BELOW

// Tests that a tensor read back as its part may leave again and come back
// as that part once more. %a (1000 bytes) is needed whole by "k", then
// only its last row %v (100 bytes at offset 900) by "n" and, after "big2"
// (1208 bytes of its own), by "m". With the row kept from "n" to "m",
// "big2" needs 1308 bytes: 1208 to 1307 were refused as if the row could
// not move. Now the row leaves after "n" and is read back for "m" (200
// bytes read in all, checked byte for byte by ssd-run --check-data over
// two steps); 1207 bytes are below what "big2" needs itself.
// CHECK-LABEL: func.func @row
// CHECK: %[[H:.+]], %{{.+}} = ssd.offload
// CHECK: ssd.kernel "k"
// CHECK: ssd.release
// CHECK: %[[P1:.+]] = ssd.handle_part %[[H]] offset 900
// CHECK: %[[V1:.+]] = ssd.wait %{{.+}}, %[[P1]]
// CHECK-NEXT: ssd.kernel "n"(%[[V1]], %{{.+}})
// CHECK: ssd.release %[[V1]] : tensor<1x25xf32>
// CHECK: ssd.kernel "big2"
// CHECK: %[[P2:.+]] = ssd.handle_part %[[H]] offset 900
// CHECK: %[[V2:.+]] = ssd.wait %{{.+}}, %[[P2]]
// CHECK-NEXT: ssd.kernel "m"(%[[V2]], %{{.+}})
// REPORT-DAG: "bytes_offloaded": 1000
// REPORT-DAG: "bytes_prefetched": 200
// REPLAY-DAG: "bytes_read": 200
// REPLAY-DAG: "bytes_written": 1000
// BELOW: error: needs 1208 bytes resident (its operands and results), over the memory budget of 1207 bytes
func.func @row(%x: tensor<1xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e6 : f64} : (tensor<1xf32>) -> tensor<10x25xf32>
  %v = ssd.kernel "aten.slice.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 900>} : (tensor<10x25xf32>) -> tensor<1x25xf32>
  %c = ssd.kernel "k"(%a) {flops = 1.0e6 : f64} : (tensor<10x25xf32>) -> tensor<1xf32>
  %z = ssd.kernel "big"(%x, %c) {flops = 1.0e9 : f64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<10x25xf32>
  %y = ssd.kernel "n"(%v, %z) {flops = 1.0e6 : f64} : (tensor<1x25xf32>, tensor<10x25xf32>) -> tensor<1xf32>
  %q = ssd.kernel "big2"(%x, %y) {flops = 1.0e9 : f64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<12x25xf32>
  %r = ssd.kernel "use2"(%q) {flops = 1.0e6 : f64} : (tensor<12x25xf32>) -> tensor<1xf32>
  %s = ssd.kernel "m"(%v, %r) {flops = 1.0e6 : f64} : (tensor<1x25xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}
