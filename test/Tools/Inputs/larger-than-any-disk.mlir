// A plan that moves a 1 PiB tensor: no scratch disk has room for it.
func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<281474976710656xf32>
  %h, %t = ssd.offload %a : tensor<281474976710656xf32>
  ssd.release %a after %t : tensor<281474976710656xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<16xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<281474976710656xf32>>
  %a2 = ssd.wait %r, %h : !ssd.handle<tensor<281474976710656xf32>>
  %d = ssd.kernel "h"(%a2, %b) {flops = 1.0e9 : f64} : (tensor<281474976710656xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
