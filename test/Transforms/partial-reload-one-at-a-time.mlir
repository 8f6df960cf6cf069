// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=2104 policy=reload-on-use report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=2104 policy=reload-on-use" | ssd-opt -ssd-verify-plan="memory-budget=2104"
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=2104 policy=reload-on-use" \
// RUN:   | ssd-run /dev/stdin --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 1 --check-data | FileCheck %s --check-prefix=REPLAY

// Tests that the sweep reads back only the parts it needs, one at a time.
// %a and %b (1000 bytes each) are needed whole by "k", then only their last
// rows %va and %vb (100 bytes each) by "n", with %z (1000 bytes). At 2104
// bytes "big" makes one of them leave; at "n" no victim is left and one
// partial reload is enough (2104 bytes: a row, the other tensor whole, %z,
// %y): the one that left comes back as its row, the other stays. The
// sweep made both partial once, the resident one written whole for it
// (2000 bytes offloaded).
// CHECK-LABEL: func.func @rows
// CHECK: ssd.offload
// CHECK-NOT: ssd.offload
// CHECK: ssd.handle_part %{{.+}} offset 900
// CHECK-NOT: ssd.handle_part
// CHECK: ssd.kernel "n"
// REPORT-DAG: "bytes_offloaded": 1000
// REPORT-DAG: "bytes_prefetched": 100
// REPLAY-DAG: "bytes_read": 100
// REPLAY-DAG: "bytes_written": 1000
func.func @rows(%x: tensor<1xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e6 : f64} : (tensor<1xf32>) -> tensor<10x25xf32>
  %va = ssd.kernel "aten.slice.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 900>} : (tensor<10x25xf32>) -> tensor<1x25xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e6 : f64} : (tensor<1xf32>) -> tensor<10x25xf32>
  %vb = ssd.kernel "aten.slice.Tensor"(%b) {view_of = 0 : i64, part_offsets = array<i64: 900>} : (tensor<10x25xf32>) -> tensor<1x25xf32>
  %c = ssd.kernel "k"(%a, %b) {flops = 1.0e6 : f64} : (tensor<10x25xf32>, tensor<10x25xf32>) -> tensor<1xf32>
  %z = ssd.kernel "big"(%x, %c) {flops = 1.0e9 : f64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<10x25xf32>
  %y = ssd.kernel "n"(%va, %vb, %z) {flops = 1.0e6 : f64} : (tensor<1x25xf32>, tensor<1x25xf32>, tensor<10x25xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
