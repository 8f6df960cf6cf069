// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1200 report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1200" | ssd-opt -ssd-verify-plan="memory-budget=1200"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=1200" \
// RUN:   | ssd-run /dev/stdin --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 1 --check-data | FileCheck %s --check-prefix=REPLAY
// RUN: sed -e 's/, part_offsets = array<i64: 900>//' %s | not ssd-opt -ssd-offload-pipeline="memory-budget=1200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not ssd-opt %s -ssd-offload-pipeline="memory-budget=1103" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BELOW

// Tests that a budget only a partial reload can meet plans. %a (1000 bytes)
// is needed whole by "k", then only its last row %v (100 bytes at offset
// 900) by "n", with %z (1000 bytes). With %a back whole "n" needs 2004
// bytes; with only %v's row back, 1104 (%v, %z, %y). So 1200 bytes plan:
// %a leaves before "big" and only the row comes back (checked byte for byte
// by ssd-run --check-data; under O_DIRECT the runtime reads the covering
// 4 KiB block). Without part_offsets (WHOLE) the same budget is
// refused at "n", and 1103 bytes (BELOW) are below what "n" needs even so.
// CHECK-LABEL: func.func @row
// CHECK: ssd.release
// CHECK: ssd.kernel "big"
// CHECK: %[[PH:.+]] = ssd.handle_part %{{.+}} offset 900 : !ssd.handle<tensor<10x25xf32>> to !ssd.handle<tensor<1x25xf32>>
// CHECK: %[[V:.+]] = ssd.wait %{{.+}}, %[[PH]]
// CHECK-NEXT: ssd.kernel "n"(%[[V]], %{{.+}})
// REPORT-DAG: "bytes_offloaded": 1000
// REPORT-DAG: "bytes_prefetched": 100
// REPLAY-DAG: "bytes_read": 100
// REPLAY-DAG: "runtime_bytes_read": {{100|4096}}
// WHOLE: error: needs 2004 bytes resident
// BELOW: error: needs 1104 bytes resident
func.func @row(%x: tensor<1xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e6 : f64} : (tensor<1xf32>) -> tensor<10x25xf32>
  %v = ssd.kernel "aten.slice.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 900>} : (tensor<10x25xf32>) -> tensor<1x25xf32>
  %c = ssd.kernel "k"(%a) {flops = 1.0e6 : f64} : (tensor<10x25xf32>) -> tensor<1xf32>
  %z = ssd.kernel "big"(%x, %c) {flops = 1.0e9 : f64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<10x25xf32>
  %y = ssd.kernel "n"(%v, %z) {flops = 1.0e6 : f64} : (tensor<1x25xf32>, tensor<10x25xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
