// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=16000 function=parts" \
// RUN:   | ssd-run /dev/stdin --function parts --scratch-dir %t/scratch --compute=model --steps 3 --check-data | FileCheck %s --check-prefix=PARTS
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=15MB function=big" \
// RUN:   | ssd-run /dev/stdin --function big --scratch-dir %t/scratch --compute=model --steps 2 --check-data | FileCheck %s --check-prefix=BIG

// Tests that the bytes of partial reloads arrive where a view reads them,
// checked byte by byte (--check-data: each tensor filled with its own
// pattern, its memory overwritten at each release). In @parts, %a (10001
// bytes, not a whole number of blocks) has three parts, the last at its
// end, and a view of its middle part; after "g" only %q#1 (bytes 6097 to
// 9000, no block boundary at either end) is used, by "n" and by "m". Its
// first reload is whole (a partial reload is only ever a tensor's last
// gap), the second reads the part alone. Each step also puts %a back
// whole, untimed, and checks it.
// PARTS: "bytes_read": 12904
// PARTS: "bytes_written": 10001
// In @big, the part is 6,000,000 bytes from byte 3,000,001 of a 9 MB root:
// it spans two 4 MiB staging chunks and starts inside a block.
// BIG: "bytes_read": 6000000
// BIG: "bytes_written": 9000001

func.func @parts(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<10001xi8>
  %p:3 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 4097, 9000>} : (tensor<10001xi8>) -> (tensor<4097xi8>, tensor<4903xi8>, tensor<1001xi8>)
  %q:2 = ssd.kernel "aten.split.Tensor"(%p#1) {view_of = 0 : i64, part_offsets = array<i64: 1, 2000>} : (tensor<4903xi8>) -> (tensor<1000xi8>, tensor<2903xi8>)
  %b = ssd.kernel "g"(%a, %p#0, %p#2, %q#0) {flops = 1.0e12 : f64} : (tensor<10001xi8>, tensor<4097xi8>, tensor<1001xi8>, tensor<1000xi8>) -> tensor<16xf32>
  %z = ssd.kernel "big"(%x, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<12000xi8>
  %c = ssd.kernel "h"(%z, %b) {flops = 1.0e12 : f64} : (tensor<12000xi8>, tensor<16xf32>) -> tensor<16xf32>
  %d = ssd.kernel "n"(%q#1, %c) {flops = 1.0e12 : f64} : (tensor<2903xi8>, tensor<16xf32>) -> tensor<16xf32>
  %z2 = ssd.kernel "big2"(%x, %d) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<12000xi8>
  %e = ssd.kernel "k"(%z2, %d) {flops = 1.0e12 : f64} : (tensor<12000xi8>, tensor<16xf32>) -> tensor<16xf32>
  %y = ssd.kernel "m"(%q#1, %e) {flops = 1.0e12 : f64} : (tensor<2903xi8>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

func.func @big(%x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<9000001xi8>
  %p:2 = ssd.kernel "aten.split.Tensor"(%a) {view_of = 0 : i64, part_offsets = array<i64: 0, 3000001>} : (tensor<9000001xi8>) -> (tensor<3000001xi8>, tensor<6000000xi8>)
  %b = ssd.kernel "g"(%p#0) {flops = 1.0e12 : f64} : (tensor<3000001xi8>) -> tensor<16xf32>
  %z = ssd.kernel "big"(%x, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<8000000xi8>
  %c = ssd.kernel "h"(%z, %b) {flops = 1.0e12 : f64} : (tensor<8000000xi8>, tensor<16xf32>) -> tensor<16xf32>
  %y = ssd.kernel "n"(%p#1, %c) {flops = 1.0e12 : f64} : (tensor<6000000xi8>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
